// RUN: xla-opt %s --xla-partition | FileCheck %s

// Data parallel: batch split on "data", weights replicated. The forward
// pass is communication-free; the weight gradient contracts over the batch
// and is all-reduced once.
xla.mesh @mesh = <["data"=4]>

// CHECK-LABEL: func.func @step
// CHECK-NOT: xla.all_
// CHECK: %[[G:.*]] = xla.dot_general %{{.*}}, %{{.*}}, batch = [] x [], contract = [0] x [0] : (tensor<2x16xf32>, tensor<2x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %[[R:.*]] = xla.all_reduce sum %[[G]] mesh_axes = @mesh["data"] : tensor<16x8xf32>
// CHECK-NOT: xla.all_
// CHECK: return
func.func @step(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>},
                %dy: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
        tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %y = xla.matmul %x, %w {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %gw = xla.dot_general %x, %dy, batch = [] x [], contract = [0] x [0] {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial={"data"}>} : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %y, %gw : tensor<8x8xf32>, tensor<16x8xf32>
}
