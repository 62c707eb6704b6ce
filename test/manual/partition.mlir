// Manual computations in propagation and partitioning: their operands take
// in_shardings, their results out_shardings, and the body is copied as it is.
// RUN: xla-opt %s --xla-outline-manual-computations --xla-propagate-sharding | FileCheck %s --check-prefix=PROP
// RUN: xla-opt %s --xla-outline-manual-computations --xla-explain-sharding -o /dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: xla-opt %s --xla-outline-manual-computations --xla-propagate-sharding --xla-partition | FileCheck %s --check-prefix=PART

xla.mesh @mesh = <["data"=2, "model"=2]>

// Row log-sum-exp with a hand-written reduction over "model".
// PROP-LABEL: func.func @lse
// PROP: xla.exp %arg0 {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>}
// PROP: xla.manual_computation
// PROP: xla.log %{{.*}} {xla.sharding = #xla.sharding<@mesh, [{"data"}]>}
//
// EXPLAIN: %0 = xla.exp
// EXPLAIN: dim 0 {"data"}: from in_shardings[0] of xla.manual_computation
// EXPLAIN: %1 = xla.manual_computation
// EXPLAIN-NEXT: annotated (out_shardings[0] of xla.manual_computation
//
// PART-LABEL: func.func @lse
// PART-SAME: (%arg0: tensor<8x8xf32>
// The exp runs on the block the region needs (its operand takes the
// region's in_shardings): the slice comes first.
// PART: %[[L:.*]] = xla.all_slice %arg0, dim = 0 mesh_axes = @mesh["data"] : (tensor<8x8xf32>) -> tensor<4x8xf32>
// PART: %[[E:.*]] = xla.exp %[[L]] : tensor<4x8xf32>
// PART-NOT: xla.manual_computation
// PART: %[[S:.*]] = xla.reduce sum %[[E]], dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
// PART: %[[A:.*]] = xla.all_reduce sum %[[S]] mesh_axes = @mesh["model"] : tensor<4xf32>
// PART: %[[G:.*]] = xla.log %[[A]] : tensor<4xf32>
// PART: return %[[G]] : tensor<4xf32>
func.func @lse(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>}) -> tensor<8xf32> {
  %e = xla.exp %x : tensor<8x16xf32>
  %l = xla.full_to_shard %e <@mesh, [{"data"}, {"model"}]> : tensor<8x16xf32> -> tensor<4x8xf32>
  %s = xla.reduce sum %l, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  %all = xla.all_reduce sum %s mesh_axes = @mesh["model"] : tensor<4xf32>
  %g = xla.shard_to_full %all <@mesh, [{"data"}]> : tensor<4xf32> -> tensor<8xf32>
  %r = xla.log %g : tensor<8xf32>
  return %r : tensor<8xf32>
}
