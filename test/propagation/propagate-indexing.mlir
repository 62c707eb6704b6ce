// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s
// RUN: xla-opt %s --xla-annotate-sharding-rules | FileCheck %s --check-prefix=RULE

// Propagation through hlo_gather, scatter and sort (docs/propagation.md).
xla.mesh @mesh = <["x"=4, "y"=2]>

// The rows of an argsort reach both results and the iota; the sorted
// dimension is never split, even when the keys are.
// RULE-LABEL: func.func @argsort
// RULE: xla.sort{{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j], [i, j]) {i=8, j=6} need_replication={j}>
// CHECK-LABEL: func.func @argsort
// CHECK: xla.iota {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
// CHECK: xla.sort{{.*}}xla.sharding = [#xla.sharding<@mesh, [{"x"}, {}]>, #xla.sharding<@mesh, [{"x"}, {}]>]
// CHECK: return
// Values inside the comparator get no sharding.
// CHECK-NOT: xla.compare {{.*}}xla.sharding
func.func @argsort(%x: tensor<8x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<8x6xf32>, tensor<8x6xi32>) {
  %iota = xla.iota dim = 1 : tensor<8x6xi32>
  %k, %i = xla.sort(%x, %iota) dim = 1 : tensor<8x6xf32>, tensor<8x6xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %lt = xla.compare lt, %a, %b : tensor<f32>
    xla.yield %lt : tensor<i1>
  }
  return %k, %i : tensor<8x6xf32>, tensor<8x6xi32>
}

// Scatter-add with the updates split along the batch: the result is a
// pending sum; the window's split passes to the table and the result.
// RULE-LABEL: func.func @scatter_add
// RULE: xla.scatter{{.*}}xla.sharding_rule = #xla.op_sharding_rule<([j, k], [i, 1], [i, k])->([j, k]) {i=16, j=10, k=4} reduction={i}>
// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME: %arg0: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}
// CHECK: xla.scatter{{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"y"}], partial={"x"}>
// CHECK: -> tensor<10x4xf32>
func.func @scatter_add(%t: tensor<10x4xf32>, %i: tensor<16x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %u: tensor<16x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<10x4xf32> {
  %r = xla.scatter %t[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<16x1xi32>, tensor<16x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<10x4xf32>
}

// An overwrite is no reduction: the updates' batch needs replication, and
// the table's rows (indexed, window 1) pass to the result only.
// RULE-LABEL: func.func @index_put
// RULE: xla.scatter{{.*}}xla.sharding_rule = #xla.op_sharding_rule<([j, k], [i], [i, k])->([j, k]) {i=5, j=12, k=4} need_replication={i}>
// CHECK-LABEL: func.func @index_put
// CHECK-SAME: %arg2: tensor<5x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}
// CHECK: xla.scatter{{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}
func.func @index_put(%t: tensor<12x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<5xi32>, %u: tensor<5x4xf32>) -> tensor<12x4xf32> {
  %r = xla.scatter %t[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<12x4xf32>, tensor<5xi32>, tensor<5x4xf32>) -> tensor<12x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return %r : tensor<12x4xf32>
}

// A batched gather from a vocabulary-split operand: the batch passes from
// the indices to the operand and the result; the split rows leave a pending
// sum.
// RULE-LABEL: func.func @take_along_dim
// RULE: xla.hlo_gather{{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, k, l], [i, j, 1])->([i, j, l]) {i=4, j=5, k=16, l=3} reduction={k}>
// CHECK-LABEL: func.func @take_along_dim
// CHECK-SAME: %arg0: tensor<4x16x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", ?}, {"y"}, {}]>}
// CHECK: xla.hlo_gather{{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {}], partial={"y"}>
func.func @take_along_dim(%x: tensor<4x16x3xf32> {xla.sharding = #xla.sharding<@mesh, [{?}, {"y"}, {}]>}, %i: tensor<4x5x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {}]>}) -> tensor<4x5x3xf32> {
  %r = xla.hlo_gather %x[%i], batching_dims = [0] x [0], offset_dims = [2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 2, slice_sizes = [1, 1, 3] : (tensor<4x16x3xf32>, tensor<4x5x1xi32>) -> tensor<4x5x3xf32>
  return %r : tensor<4x5x3xf32>
}
