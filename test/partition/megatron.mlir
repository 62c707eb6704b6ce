// RUN: xla-opt %s --xla-partition | FileCheck %s

// Megatron MLP on "model": w1 column-split, w2 row-split. The hidden
// activations stay split and the only communication is one all-reduce of
// the output's pending sum, placed where the result is needed.
xla.mesh @mesh = <["data"=2, "model"=4]>

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: %[[X:.*]]: tensor<4x16xf32> {xla.global_type = tensor<8x16xf32>
// CHECK-SAME: %[[W1:.*]]: tensor<16x8xf32> {xla.global_type = tensor<16x32xf32>
// CHECK-SAME: %[[W2:.*]]: tensor<8x16xf32> {xla.global_type = tensor<32x16xf32>
// CHECK-SAME: -> (tensor<4x16xf32> {xla.global_type = tensor<8x16xf32>
// CHECK-SAME: attributes {xla.partitioned}
// CHECK-NEXT: %[[H:.*]] = xla.matmul %[[X]], %[[W1]] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[A:.*]] = xla.relu %[[H]] : tensor<4x8xf32>
// CHECK-NEXT: %[[Y:.*]] = xla.matmul %[[A]], %[[W2]] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[R:.*]] = xla.all_reduce sum %[[Y]] mesh_axes = @mesh["model"] : tensor<4x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @mlp(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
               %w1: tensor<16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
               %w2: tensor<32x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %h = xla.matmul %x, %w1 {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>} : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %a = xla.relu %h {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>} : tensor<8x32xf32>
  %y = xla.matmul %a, %w2 {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// When the consumer wants the output split, the pending sum is resolved by
// a reduce-scatter instead of an all-reduce.
// CHECK-LABEL: func.func @row_parallel_scatter
// CHECK: %[[Y:.*]] = xla.matmul
// CHECK-NEXT: %[[S:.*]] = xla.reduce_scatter sum %[[Y]], dim = 1 mesh_axes = @mesh["model"] : (tensor<4x16xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[S]]
func.func @row_parallel_scatter(%a: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>},
                                %w2: tensor<32x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>}) {
  %y = xla.matmul %a, %w2 {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>} : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
