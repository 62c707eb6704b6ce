// RUN: xla-opt %s --xla-optimize-collectives=disable=all-reduce-combiner -split-input-file | FileCheck %s
// RUN: xla-opt %s --xla-optimize-collectives=disable=gather-gather,slice-slice,reduce-reduce,all-reduce-combiner -split-input-file | FileCheck %s --check-prefix=OFF

xla.mesh @mesh = <["x"=2, "y"=4, "z"=2]>

// Gather over the minor axis y, then over the major axis x: one gather over
// ["x", "y"] (the later gather's axes are major).
// CHECK-LABEL: func.func @gather_gather
// CHECK-NEXT: %[[G:.*]] = xla.all_gather %arg0, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<1x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT: return %[[G]]
// OFF-LABEL: func.func @gather_gather
// OFF-COUNT-2: xla.all_gather
func.func @gather_gather(%x: tensor<1x16xf32>) -> tensor<8x16xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<1x16xf32>) -> tensor<4x16xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @mesh["x"] : (tensor<4x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}

// Gathering the major axis first gives the other order: ["y", "x"]. Three
// gathers fold into one; links merge.
// CHECK-LABEL: func.func @gather_order
// CHECK-NEXT: %[[G:.*]] = xla.all_gather %arg0, dim = 1 mesh_axes = @mesh["z", "y", "x"] link = ici : (tensor<3x1xf32>) -> tensor<3x16xf32>
// CHECK-NEXT: return %[[G]]
func.func @gather_order(%x: tensor<3x1xf32>) -> tensor<3x16xf32> {
  %0 = xla.all_gather %x, dim = 1 mesh_axes = @mesh["x"] link = ici : (tensor<3x1xf32>) -> tensor<3x2xf32>
  %1 = xla.all_gather %0, dim = 1 mesh_axes = @mesh["y"] link = ici : (tensor<3x2xf32>) -> tensor<3x8xf32>
  %2 = xla.all_gather %1, dim = 1 mesh_axes = @mesh["z"] link = ici : (tensor<3x8xf32>) -> tensor<3x16xf32>
  return %2 : tensor<3x16xf32>
}

// Slices: the first slice's axes are major.
// CHECK-LABEL: func.func @slice_slice
// CHECK-NEXT: %[[S:.*]] = xla.all_slice %arg0, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<8x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: return %[[S]]
// OFF-LABEL: func.func @slice_slice
// OFF-COUNT-2: xla.all_slice
func.func @slice_slice(%x: tensor<8x4xf32>) -> tensor<1x4xf32> {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @mesh["x"] : (tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @mesh["y"] : (tensor<4x4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// Chained sums over disjoint axes: one sum over the union; scales multiply.
// CHECK-LABEL: func.func @reduce_reduce
// CHECK-NEXT: %[[R:.*]] = xla.all_reduce sum %arg0 mesh_axes = @mesh["y", "x"] scale = 1.250000e-01 : tensor<4xf32>
// CHECK-NEXT: return %[[R]]
// OFF-LABEL: func.func @reduce_reduce
// OFF-COUNT-2: xla.all_reduce
func.func @reduce_reduce(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["y"] scale = 0.25 : tensor<4xf32>
  %1 = xla.all_reduce sum %0 mesh_axes = @mesh["x"] scale = 0.5 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// max with the outer scale only.
// CHECK-LABEL: func.func @reduce_reduce_max
// CHECK-NEXT: xla.all_reduce max %arg0 mesh_axes = @mesh["y", "x"] scale = 5.000000e-01 : tensor<4xf32>
func.func @reduce_reduce_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.all_reduce max %x mesh_axes = @mesh["y"] : tensor<4xf32>
  %1 = xla.all_reduce max %0 mesh_axes = @mesh["x"] scale = 0.5 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>
xla.mesh @other = <["x"=2, "y"=4], devices=[0, 2, 4, 6, 1, 3, 5, 7]>

// Must not fire: different dims.
// CHECK-LABEL: func.func @gather_dims
// CHECK-COUNT-2: xla.all_gather
func.func @gather_dims(%x: tensor<1x1xf32>) -> tensor<4x2xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<1x1xf32>) -> tensor<4x1xf32>
  %1 = xla.all_gather %0, dim = 1 mesh_axes = @mesh["x"] : (tensor<4x1xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// Must not fire: the inner gather has another use.
// CHECK-LABEL: func.func @gather_shared
// CHECK-COUNT-2: xla.all_gather
func.func @gather_shared(%x: tensor<1xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<1xf32>) -> tensor<4xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @mesh["x"] : (tensor<4xf32>) -> tensor<8xf32>
  return %1, %0 : tensor<8xf32>, tensor<4xf32>
}

// Must not fire: two meshes (same axis names, other device order).
// CHECK-LABEL: func.func @gather_meshes
// CHECK-COUNT-2: xla.all_gather
func.func @gather_meshes(%x: tensor<1xf32>) -> tensor<8xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<1xf32>) -> tensor<4xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @other["x"] : (tensor<4xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// Must not fire: explicit groups.
// CHECK-LABEL: func.func @slice_groups
// CHECK-COUNT-2: xla.all_slice
func.func @slice_groups(%x: tensor<8xf32>) -> tensor<1xf32> {
  %0 = xla.all_slice %x, dim = 0 groups = [[0, 1], [2, 3], [4, 5], [6, 7]] : (tensor<8xf32>) -> tensor<4xf32>
  %1 = xla.all_slice %0, dim = 0 groups = [[0, 2, 4, 6], [1, 3, 5, 7]] : (tensor<4xf32>) -> tensor<1xf32>
  return %1 : tensor<1xf32>
}

// Must not fire: overlapping axes (this sums y twice), different kinds, an
// inner mul with a scale.
// CHECK-LABEL: func.func @reduce_no
// CHECK-COUNT-6: xla.all_reduce
func.func @reduce_no(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<4xf32>
  %1 = xla.all_reduce sum %0 mesh_axes = @mesh["x", "y"] : tensor<4xf32>
  %2 = xla.all_reduce sum %y mesh_axes = @mesh["y"] : tensor<4xf32>
  %3 = xla.all_reduce max %2 mesh_axes = @mesh["x"] : tensor<4xf32>
  %4 = xla.all_reduce mul %x mesh_axes = @mesh["y"] scale = 2.0 : tensor<4xf32>
  %5 = xla.all_reduce mul %4 mesh_axes = @mesh["x"] : tensor<4xf32>
  return %1, %3, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
