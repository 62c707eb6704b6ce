// RUN: xla-opt %s --xla-partition | FileCheck %s

// hlo_gather, scatter and sort on split operands (docs/partitioning.md).
xla.mesh @mesh = <["x"=2, "y"=2]>

// The vocabulary-parallel lookup in HLO's form: the starts are clamped into
// [0, 9], shifted by the block's offset, kept where they fall in the block
// of 5 rows (an `and` over the index vector), the rest zeros; the partial
// sum is reduced over the rows' axis.
// CHECK-LABEL: func.func @gather_vocab
// CHECK-SAME: %[[T:arg[0-9]+]]: tensor<5x4xf32>
// CHECK-SAME: %[[I:arg[0-9]+]]: tensor<3x1xi64>
// CHECK: %[[OFF:.*]] = xla.convert %{{.*}} : tensor<i32> -> tensor<i64>
// CHECK: %[[ZERO:.*]] = xla.constant dense<0> : tensor<3x1xi64>
// CHECK: %[[HIGH:.*]] = xla.constant dense<9> : tensor<i64>
// CHECK: %[[LO:.*]] = xla.max %[[I]], %[[ZERO]] : tensor<3x1xi64>
// CHECK: %[[CL:.*]] = xla.min %[[LO]], %{{.*}} : tensor<3x1xi64>
// CHECK: %[[SH:.*]] = xla.sub %[[CL]], %{{.*}} : tensor<3x1xi64>
// CHECK: %[[ROWS:.*]] = xla.constant dense<5> : tensor<i64>
// CHECK: %[[IN:.*]] = xla.and %{{.*}}, %{{.*}} : tensor<3x1xi1>
// CHECK: %[[ALL:.*]] = xla.reduce and %[[IN]], dims = [1] : (tensor<3x1xi1>) -> tensor<3xi1>
// CHECK: %[[MASK:.*]] = xla.broadcast_in_dim %[[ALL]], dims = [0] : (tensor<3xi1>) -> tensor<3x4xi1>
// CHECK: %[[G:.*]] = xla.hlo_gather %[[T]][%[[SH]]], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<5x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
// CHECK: %[[SEL:.*]] = xla.select %[[MASK]], %[[G]], %{{.*}} : tensor<3x4xf32>
// CHECK: xla.all_reduce sum %[[SEL]] mesh_axes = @mesh["x"] : tensor<3x4xf32>
func.func @gather_vocab(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                        %i: tensor<5x1xi64> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<5x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>}) {
  %g = xla.hlo_gather %t[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}], partial={"x"}>} : (tensor<10x4xf32>, tensor<5x1xi64>) -> tensor<5x4xf32>
  return %g : tensor<5x4xf32>
}

// A slice covering a split dimension whole covers the local block; no
// communication.
// CHECK-LABEL: func.func @gather_columns
// CHECK: xla.hlo_gather %{{.*}}, offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 2] : (tensor<10x2xf32>, tensor<5x1xi32>) -> tensor<5x2xf32>
// CHECK-NOT: xla.all_
// CHECK: return
func.func @gather_columns(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>},
                          %i: tensor<5x1xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>})
    -> (tensor<5x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}) {
  %g = xla.hlo_gather %t[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>} : (tensor<10x4xf32>, tensor<5x1xi32>) -> tensor<5x4xf32>
  return %g : tensor<5x4xf32>
}

// Scatter-add with the updates split over "x": the table enters as a
// pending sum (kept on the first device of each "x" group, zeros on the
// other), every device scatters its updates, and the sum is reduced once.
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME: %[[T:arg[0-9]+]]: tensor<10x2xf32>
// CHECK-SAME: %[[I:arg[0-9]+]]: tensor<4x1xi32>
// CHECK-SAME: %[[U:arg[0-9]+]]: tensor<4x2xf32>
// CHECK: %[[X:.*]] = xla.axis_index @mesh["x"] : tensor<i32>
// CHECK: %[[FIRST:.*]] = xla.compare eq, %[[X]], %{{.*}} : tensor<i32>
// CHECK: %[[KEEP:.*]] = xla.broadcast_in_dim %[[FIRST]], dims = [] : (tensor<i1>) -> tensor<10x2xi1>
// CHECK: %[[PART:.*]] = xla.select %[[KEEP]], %[[T]], %{{.*}} : tensor<10x2xf32>
// CHECK: %[[S:.*]] = xla.scatter %[[PART]][%[[I]]] updates(%[[U]]), {{.*}} : (tensor<10x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>) -> tensor<10x2xf32> {
// CHECK: xla.add
// CHECK: xla.all_reduce sum %[[S]] mesh_axes = @mesh["x"] : tensor<10x2xf32>
func.func @scatter_add(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>},
                       %i: tensor<8x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                       %u: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}) {
  %r = xla.scatter %t[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}], partial={"x"}>} : (tensor<10x4xf32>, tensor<8x1xi32>, tensor<8x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<10x4xf32>
}

// A max combiner needs no mask: the table is kept on every device.
// CHECK-LABEL: func.func @scatter_max
// CHECK-SAME: %[[T:arg[0-9]+]]: tensor<6x4xf32>
// CHECK-NOT: xla.select
// CHECK: %[[S:.*]] = xla.scatter %[[T]]
// CHECK: xla.max
// CHECK: xla.all_reduce max %[[S]] mesh_axes = @mesh["y"] : tensor<6x4xf32>
func.func @scatter_max(%t: tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>},
                       %i: tensor<10x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>},
                       %u: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %r = xla.scatter %t[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial<max>={"y"}>} : (tensor<6x4xf32>, tensor<10x1xi32>, tensor<10x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  }
  return %r : tensor<6x4xf32>
}

// index_put_ on a table split by rows: each device shifts the starts by its
// block's offset; updates for other blocks fall out of bounds.
// CHECK-LABEL: func.func @index_put
// CHECK-SAME: %[[T:arg[0-9]+]]: tensor<5x4xf32>
// CHECK-SAME: %[[I:arg[0-9]+]]: tensor<5xi32>
// CHECK: %[[X:.*]] = xla.axis_index @mesh["x"] : tensor<i32>
// CHECK: %[[OFF:.*]] = xla.mul %[[X]], %{{.*}} : tensor<i32>
// CHECK: %[[OFFS:.*]] = xla.broadcast_in_dim %[[OFF]], dims = [] : (tensor<i32>) -> tensor<5xi32>
// CHECK: %[[SH:.*]] = xla.sub %[[I]], %[[OFFS]] : tensor<5xi32>
// CHECK: xla.scatter %[[T]][%[[SH]]] updates(%{{.*}}), {{.*}} : (tensor<5x4xf32>, tensor<5xi32>, tensor<5x4xf32>) -> tensor<5x4xf32>
// CHECK-NOT: xla.all_
// CHECK: return
func.func @index_put(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                     %i: tensor<5xi32> {xla.sharding = #xla.sharding<@mesh, [{}]>},
                     %u: tensor<5x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>})
    -> (tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %r = xla.scatter %t[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<10x4xf32>, tensor<5xi32>, tensor<5x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return %r : tensor<10x4xf32>
}

// An overwrite is not a reduction: split updates are gathered first.
// CHECK-LABEL: func.func @scatter_overwrite_split_updates
// CHECK: %[[I:.*]] = xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x"] : (tensor<3xi32>) -> tensor<6xi32>
// CHECK: %[[U:.*]] = xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x"] : (tensor<3x4xf32>) -> tensor<6x4xf32>
// CHECK: xla.scatter %{{.*}}[%[[I]]] updates(%[[U]])
func.func @scatter_overwrite_split_updates(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>},
                     %i: tensor<6xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>},
                     %u: tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %r = xla.scatter %t[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 {xla.sharding = #xla.sharding<@mesh, [{}, {}]>} : (tensor<10x4xf32>, tensor<6xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return %r : tensor<10x4xf32>
}

// argsort with its batch split: the sorted dimension is gathered, the rows
// stay split, the comparator is copied.
// CHECK-LABEL: func.func @argsort
// CHECK: %[[K:.*]] = xla.all_gather %{{.*}}, dim = 1 mesh_axes = @mesh["y"] : (tensor<4x3xf32>) -> tensor<4x6xf32>
// CHECK: %[[P:.*]] = xla.all_slice %{{.*}}, dim = 0 mesh_axes = @mesh["x"] : (tensor<8x6xi32>) -> tensor<4x6xi32>
// CHECK: %{{.*}}:2 = xla.sort(%[[K]], %[[P]]) dim = 1 stable : tensor<4x6xf32>, tensor<4x6xi32> {
// CHECK: xla.compare gt
func.func @argsort(%x: tensor<8x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, tensor<8x6xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %iota = xla.iota dim = 1 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : tensor<8x6xi32>
  %k, %i = xla.sort(%x, %iota) dim = 1 stable {xla.sharding = [#xla.sharding<@mesh, [{"x"}, {}]>, #xla.sharding<@mesh, [{"x"}, {}]>]} : tensor<8x6xf32>, tensor<8x6xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %gt = xla.compare gt, %a, %b : tensor<f32>
    xla.yield %gt : tensor<i1>
  }
  return %k, %i : tensor<8x6xf32>, tensor<8x6xi32>
}
