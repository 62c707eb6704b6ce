// RUN: xla-opt %s --xla-optimize-collectives=disable=all-reduce-combiner -split-input-file | FileCheck %s

xla.mesh @mesh = <["x"=2, "y"=4]>

// Gather then slice over the same participants and dim: the input.
// CHECK-LABEL: func.func @gather_slice
// CHECK-NEXT: return %arg0, %arg0
func.func @gather_slice(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<2x3xf32>) -> tensor<16x3xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<16x3xf32>) -> tensor<2x3xf32>
  %2 = xla.all_gather %x, dim = 1 groups = [[0, 4], [1, 5], [2, 6], [3, 7]] : (tensor<2x3xf32>) -> tensor<2x6xf32>
  %3 = xla.all_slice %2, dim = 1 groups = [[0, 4], [1, 5], [2, 6], [3, 7]] : (tensor<2x6xf32>) -> tensor<2x3xf32>
  return %1, %3 : tensor<2x3xf32>, tensor<2x3xf32>
}

// Slicing a prefix of the gathered axes leaves a gather over the rest.
// CHECK-LABEL: func.func @gather_slice_prefix
// CHECK-NEXT: %[[G:.*]] = xla.all_gather %arg0, dim = 0 mesh_axes = @mesh["y"] : (tensor<2xf32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[G]]
func.func @gather_slice_prefix(%x: tensor<2xf32>) -> tensor<8xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<2xf32>) -> tensor<16xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @mesh["x"] : (tensor<16xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// Must not fire: slicing the minor gathered axis does not undo anything.
// CHECK-LABEL: func.func @gather_slice_suffix
// CHECK-NEXT: xla.all_gather %arg0, dim = 0 mesh_axes = @mesh["x", "y"]
// CHECK-NEXT: xla.all_slice {{.*}} mesh_axes = @mesh["y"]
func.func @gather_slice_suffix(%x: tensor<2xf32>) -> tensor<4xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<2xf32>) -> tensor<16xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @mesh["y"] : (tensor<16xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Gather on one dim, slice on another: an all_to_all.
// CHECK-LABEL: func.func @gather_slice_all_to_all
// CHECK-NEXT: %[[A:.*]] = xla.all_to_all %arg0, split_dim = 1, concat_dim = 0, split_count = 4 mesh_axes = @mesh["y"] : (tensor<2x8xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: return %[[A]]
func.func @gather_slice_all_to_all(%x: tensor<2x8xf32>) -> tensor<8x2xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<2x8xf32>) -> tensor<8x8xf32>
  %1 = xla.all_slice %0, dim = 1 mesh_axes = @mesh["y"] : (tensor<8x8xf32>) -> tensor<8x2xf32>
  return %1 : tensor<8x2xf32>
}

// Must not fire: the gathered value is used whole too; other axes.
// CHECK-LABEL: func.func @gather_slice_no
// CHECK: xla.all_gather %arg0, dim = 0 mesh_axes = @mesh["y"]
// CHECK: xla.all_slice {{.*}}, dim = 1 mesh_axes = @mesh["y"]
// CHECK: xla.all_gather %arg0, dim = 0 mesh_axes = @mesh["x"]
// CHECK: xla.all_slice {{.*}}, dim = 0 mesh_axes = @mesh["y"]
func.func @gather_slice_no(%x: tensor<2x8xf32>) -> (tensor<8x2xf32>, tensor<8x8xf32>, tensor<1x8xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<2x8xf32>) -> tensor<8x8xf32>
  %1 = xla.all_slice %0, dim = 1 mesh_axes = @mesh["y"] : (tensor<8x8xf32>) -> tensor<8x2xf32>
  %2 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["x"] : (tensor<2x8xf32>) -> tensor<4x8xf32>
  %3 = xla.all_slice %2, dim = 0 mesh_axes = @mesh["y"] : (tensor<4x8xf32>) -> tensor<1x8xf32>
  return %1, %0, %3 : tensor<8x2xf32>, tensor<8x8xf32>, tensor<1x8xf32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// Slice then gather of a value replicated over the axes: the value. The
// argument is replicated over y by its sharding; the all_reduce output over
// its axes; a constant everywhere.
// CHECK-LABEL: func.func @slice_gather
// CHECK-NOT: xla.all_slice
// CHECK-NOT: xla.all_gather
// CHECK: return %arg0, %{{.*}}, %{{.*}} :
func.func @slice_gather(%x: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}, %y: tensor<8xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<8xf32>) -> tensor<2xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @mesh["y"] : (tensor<2xf32>) -> tensor<8xf32>
  %r = xla.all_reduce sum %y mesh_axes = @mesh["x", "y"] : tensor<8xf32>
  %e = xla.exp %r : tensor<8xf32>
  %2 = xla.all_slice %e, dim = 0 mesh_axes = @mesh["x"] : (tensor<8xf32>) -> tensor<4xf32>
  %3 = xla.all_gather %2, dim = 0 mesh_axes = @mesh["x"] : (tensor<4xf32>) -> tensor<8xf32>
  %c = xla.constant dense<1.0> : tensor<8xf32>
  %4 = xla.all_slice %c, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<8xf32>) -> tensor<1xf32>
  %5 = xla.all_gather %4, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<1xf32>) -> tensor<8xf32>
  return %1, %3, %5 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// Gathering back a suffix of the sliced axes leaves a slice over the rest.
// CHECK-LABEL: func.func @slice_gather_suffix
// CHECK-NEXT: %[[S:.*]] = xla.all_slice %arg0, dim = 0 mesh_axes = @mesh["x"] : (tensor<8xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[S]]
func.func @slice_gather_suffix(%x: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>}) -> tensor<4xf32> {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<8xf32>) -> tensor<1xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @mesh["y"] : (tensor<1xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Must not fire: the value differs along the axis (sharded argument, a
// value without a known sharding, partition_id, axis_index of that axis,
// a partial sum).
// CHECK-LABEL: func.func @slice_gather_no
// CHECK-COUNT-5: xla.all_gather
func.func @slice_gather_no(%x: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>}, %y: tensor<8xf32>,
                           %z: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{}], partial={"y"}>})
    -> (tensor<8xf32>, tensor<8xf32>, tensor<4xi32>, tensor<4xi32>, tensor<8xf32>) {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<8xf32>) -> tensor<2xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @mesh["y"] : (tensor<2xf32>) -> tensor<8xf32>
  %2 = xla.all_slice %y, dim = 0 mesh_axes = @mesh["y"] : (tensor<8xf32>) -> tensor<2xf32>
  %3 = xla.all_gather %2, dim = 0 mesh_axes = @mesh["y"] : (tensor<2xf32>) -> tensor<8xf32>
  %p = xla.partition_id : tensor<i32>
  %pb = xla.broadcast_in_dim %p, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %4 = xla.all_slice %pb, dim = 0 mesh_axes = @mesh["x"] : (tensor<4xi32>) -> tensor<2xi32>
  %5 = xla.all_gather %4, dim = 0 mesh_axes = @mesh["x"] : (tensor<2xi32>) -> tensor<4xi32>
  %i = xla.axis_index @mesh["x"] : tensor<i32>
  %ib = xla.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %6 = xla.all_slice %ib, dim = 0 mesh_axes = @mesh["x"] : (tensor<4xi32>) -> tensor<2xi32>
  %7 = xla.all_gather %6, dim = 0 mesh_axes = @mesh["x"] : (tensor<2xi32>) -> tensor<4xi32>
  %8 = xla.all_slice %z, dim = 0 mesh_axes = @mesh["y"] : (tensor<8xf32>) -> tensor<2xf32>
  %9 = xla.all_gather %8, dim = 0 mesh_axes = @mesh["y"] : (tensor<2xf32>) -> tensor<8xf32>
  return %1, %3, %5, %7, %9 : tensor<8xf32>, tensor<8xf32>, tensor<4xi32>, tensor<4xi32>, tensor<8xf32>
}

// axis_index of another axis is replicated over this one.
// CHECK-LABEL: func.func @slice_gather_axis_index
// CHECK-NOT: xla.all_gather
func.func @slice_gather_axis_index() -> tensor<4xi32> {
  %i = xla.axis_index @mesh["x"] : tensor<i32>
  %ib = xla.broadcast_in_dim %i, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %0 = xla.all_slice %ib, dim = 0 mesh_axes = @mesh["y"] : (tensor<4xi32>) -> tensor<1xi32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @mesh["y"] : (tensor<1xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>
xla.mesh @unit = <["x"=2, "one"=1, "y"=4]>

// Permutes of every position (device) to itself.
// CHECK-LABEL: func.func @identity_permute
// CHECK-NEXT: return %arg0, %arg0
func.func @identity_permute(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.collective_permute %x, pairs = [[0, 0], [1, 1]] mesh_axes = @mesh["x"] : tensor<4xf32>
  %1 = xla.collective_permute %x, pairs = [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]] : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// Must not fire: not every device is its own source (the others get zeros),
// or not the identity.
// CHECK-LABEL: func.func @permute_no
// CHECK-COUNT-2: xla.collective_permute
func.func @permute_no(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.collective_permute %x, pairs = [[0, 0], [1, 1], [2, 2]] mesh_axes = @mesh["y"] : tensor<4xf32>
  %1 = xla.collective_permute %x, pairs = [[0, 1], [1, 0]] mesh_axes = @mesh["x"] : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// Groups of one device.
// CHECK-LABEL: func.func @trivial_group
// CHECK-NEXT: return %arg0, %arg0, %arg0, %arg0
func.func @trivial_group(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @unit["one"] : tensor<4xf32>
  %1 = xla.all_gather %x, dim = 0 mesh_axes = @unit["one"] : (tensor<4xf32>) -> tensor<4xf32>
  %2 = xla.reduce_scatter max %x, dim = 0 groups = [[0], [1], [2], [3], [4], [5], [6], [7]] : (tensor<4xf32>) -> tensor<4xf32>
  %3 = xla.collective_permute %x, pairs = [[0, 0]] mesh_axes = @unit["one"] : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Must not fire: a scale, or a permute with no pair (zeros).
// CHECK-LABEL: func.func @trivial_no
// CHECK: xla.all_reduce
// CHECK: xla.collective_permute
func.func @trivial_no(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @unit["one"] scale = 2.0 : tensor<4xf32>
  %1 = xla.collective_permute %x, pairs = [] mesh_axes = @unit["one"] : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// Unused collectives go; identical ones are computed once.
// CHECK-LABEL: func.func @dead_and_duplicate
// CHECK-NEXT: %[[R:.*]] = xla.all_reduce sum %arg0 mesh_axes = @mesh["y"] : tensor<4xf32>
// CHECK-NEXT: %[[P:.*]] = xla.collective_permute %arg0, pairs = {{\[\[}}0, 1], [1, 0]] mesh_axes = @mesh["x"] : tensor<4xf32>
// CHECK-NEXT: %[[S:.*]] = xla.add %[[R]], %[[R]]
// CHECK-NEXT: %[[T:.*]] = xla.add %[[P]], %[[P]]
// CHECK-NEXT: return %[[S]], %[[T]]
func.func @dead_and_duplicate(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %dead = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<4xf32>) -> tensor<16xf32>
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<4xf32>
  %p = xla.collective_permute %x, pairs = [[0, 1], [1, 0]] mesh_axes = @mesh["x"] : tensor<4xf32>
  %1 = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<4xf32>
  %q = xla.collective_permute %x, pairs = [[0, 1], [1, 0]] mesh_axes = @mesh["x"] : tensor<4xf32>
  %s = xla.add %0, %1 : tensor<4xf32>
  %t = xla.add %p, %q : tensor<4xf32>
  return %s, %t : tensor<4xf32>, tensor<4xf32>
}

// Must not fire: different attributes (scale, link).
// CHECK-LABEL: func.func @not_duplicates
// CHECK-COUNT-3: xla.all_reduce
func.func @not_duplicates(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<4xf32>
  %1 = xla.all_reduce sum %x mesh_axes = @mesh["y"] scale = 0.5 : tensor<4xf32>
  %2 = xla.all_reduce sum %x mesh_axes = @mesh["y"] link = ici : tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
