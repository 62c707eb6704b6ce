// Ops without an HLO opcode are expanded on export; the exported module
// computes what the original does.
// RUN: xla-translate --export-hlo %s | FileCheck %s
// RUN: rm -rf %t && mkdir %t
// RUN: xla-run %s --seed=3 --output=@%t/y.npy --output=@%t/z.npy > /dev/null
// RUN: xla-translate --export-hlo %s -o %t/exported.hlo
// RUN: xla-run %t/exported.hlo --seed=3 --expected_output=@%t/y.npy --expected_output=@%t/z.npy | FileCheck %s --check-prefix=SAME
// RUN: xla-run %t/exported.hlo --check | FileCheck %s --check-prefix=SAME

// CHECK: HloModule expand, num_partitions=4
// CHECK: %maximum_f32 (x: f32[], y: f32[]) -> f32[] {
// CHECK: %add_f32 (
// CHECK: ENTRY %main (Arg: f32[8,4], Arg.0: f32[4,16]) -> (f32[8,16], f32[8]) {
// CHECK: %Arg = f32[8,4] parameter(0), sharding={devices=[4,1]0,1,2,3}
// CHECK: f32[8,16] dot(%Arg, %Arg.0), lhs_contracting_dims={1}, rhs_contracting_dims={0}
// CHECK: %[[RELU:.*]] = f32[8,16] maximum(
// CHECK: constant(0.044715)
// CHECK: f32[8,16] tanh(
// CHECK: f32[8] reduce({{.*}}), dimensions={1}, to_apply=%maximum_f32
// CHECK: f32[8,16] exponential(
// CHECK: f32[8] reduce({{.*}}), dimensions={1}, to_apply=%add_f32
// CHECK: %[[SOFTMAX:.*]] = f32[8,16] divide(
// CHECK: f32[8,16] dot({{.*}}), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}
// CHECK: f32[16,8] transpose(
// CHECK: f32[8] divide(
// CHECK: f32[8] logistic(
// CHECK: ROOT %tuple = (f32[8,16], f32[8]) tuple(%[[SOFTMAX]], %{{.*}}), sharding={{[{][{]}}devices=[4,1]0,1,2,3}, {replicated}}

// SAME: [SUCCESS]

module @expand {
  xla.mesh @mesh = <["data"=4]>
  func.func @main(%x: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                  %w: tensor<4x16xf32>)
      -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}, tensor<8xf32>) {
    %h = xla.matmul %x, %w : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
    %r = xla.relu %h : tensor<8x16xf32>
    %g = xla.gelu %r : tensor<8x16xf32>
    %s = xla.softmax %g, dim = 1 : tensor<8x16xf32>
    %t = xla.einsum "bf,bf->fb" %s, %g : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x8xf32>
    %m = xla.reduce mean %t, dims = [0] : (tensor<16x8xf32>) -> tensor<8xf32>
    %sig = xla.sigmoid %m : tensor<8xf32>
    return %s, %sig : tensor<8x16xf32>, tensor<8xf32>
  }
}
