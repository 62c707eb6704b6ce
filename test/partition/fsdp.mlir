// RUN: xla-opt %s --xla-partition | FileCheck %s

// FSDP (ZeRO-3): weights stored split on "fsdp", gathered before use;
// the weight gradient is reduce-scattered back to the weight's layout.
xla.mesh @mesh = <["fsdp"=4]>

// CHECK-LABEL: func.func @layer
// CHECK-SAME: %[[X:.*]]: tensor<2x16xf32>
// CHECK-SAME: %[[W:.*]]: tensor<4x8xf32>
// CHECK: %[[WG:.*]] = xla.all_gather %[[W]], dim = 0 mesh_axes = @mesh["fsdp"] : (tensor<4x8xf32>) -> tensor<16x8xf32>
// CHECK: xla.matmul %[[X]], %[[WG]]
// CHECK: %[[G:.*]] = xla.dot_general
// CHECK-NEXT: %[[GS:.*]] = xla.reduce_scatter sum %[[G]], dim = 0 mesh_axes = @mesh["fsdp"] : (tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK: return %{{.*}}, %[[GS]]
func.func @layer(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
                 %w: tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
                 %dy: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
        tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>}) {
  %y = xla.matmul %x, %w {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %gw = xla.dot_general %x, %dy, batch = [] x [], contract = [0] x [0] {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial={"fsdp"}>} : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %y, %gw : tensor<8x8xf32>, tensor<16x8xf32>
}
