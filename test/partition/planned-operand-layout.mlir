// RUN: xla-opt %s --xla-explain-sharding -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: xla-opt %s --xla-explain-sharding --xla-partition=report-bytes=true -o /dev/null | FileCheck %s --check-prefix=EMIT
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN: xla-run %s --function=gather_reshaped_indices --check | FileCheck %s --check-prefix=EXEC

// The partitioner plans each op from the layouts propagation chose for its
// operands, as explain does, not from the layout an earlier local op left
// them in. Here the indices come from a reshape 15 -> 3x5 that cannot split
// its compound dimension of 3 over "x" (its local op computes them whole),
// but propagation chose them split [{"x"}] like the gather's result. From
// that layout the gather keeps its batch on "x" and gathers the table:
// 144 B per device (3 of 4 row blocks of 48 B). Planned from the whole
// indices it all-reduced the 3x5x4 pending result over "x","y" (360 B).

xla.mesh @mesh = <["x"=2, "y"=2]>

// PLAN-LABEL: sharding of @gather_reshaped_indices:
// PLAN: %1 = xla.reshape {{.*}}: #xla.sharding<@mesh, [{"x"}, {}, {}]>
// PLAN: planned bytes of @gather_reshaped_indices:
// PLAN-NEXT: xla.hlo_gather at planned-operand-layout.mlir:[[#@LINE+18]]:8: 144 B per device
// EMIT-LABEL: emitted bytes of @gather_reshaped_indices:
// EMIT-NEXT: xla.hlo_gather at planned-operand-layout.mlir:[[#@LINE+16]]:8: 144 B per device
// CHECK-LABEL: func.func @gather_reshaped_indices
// CHECK-SAME: -> (tensor<2x5x4xf32>
// CHECK: %[[I:.*]] = xla.reshape %{{.*}} : (tensor<15x1xi32>) -> tensor<3x5x1xi32>
// CHECK: xla.all_gather %{{.*}} mesh_axes = @mesh["y"] : (tensor<3x4xf32>) -> tensor<6x4xf32>
// CHECK: xla.all_gather %{{.*}} mesh_axes = @mesh["x"] : (tensor<6x4xf32>) -> tensor<12x4xf32>
// CHECK: %[[T:.*]] = xla.slice {{.*}} -> tensor<10x4xf32>
// CHECK: %[[P:.*]] = xla.pad %[[I]], {{.*}} -> tensor<4x5x1xi32>
// CHECK: %[[IS:.*]] = xla.all_slice %[[P]], dim = 0 mesh_axes = @mesh["x"] : (tensor<4x5x1xi32>) -> tensor<2x5x1xi32>
// CHECK: xla.hlo_gather %[[T]][%[[IS]]], {{.*}} : (tensor<10x4xf32>, tensor<2x5x1xi32>) -> tensor<2x5x4xf32>
// CHECK-NOT: xla.all_reduce
// CHECK: return
func.func @gather_reshaped_indices(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<3x5x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %i = xla.constant dense<[[0], [9], [3], [-2], [11], [4], [4], [7], [1], [2], [8], [0], [5], [6], [12]]> : tensor<15x1xi32>
  %is = xla.reshape %i : (tensor<15x1xi32>) -> tensor<3x5x1xi32>
  %r = xla.hlo_gather %t[%is], offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x5x1xi32>) -> tensor<3x5x4xf32>
  return %r : tensor<3x5x4xf32>
}

// EXEC: [SUCCESS]
