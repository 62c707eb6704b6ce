// RUN: xla-opt %s --xla-explain-sharding --xla-partition=report-bytes=true -o /dev/null | FileCheck %s
// RUN: xla-run %s --function=dead_result --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=concat_then_reshape --check | FileCheck %s --check-prefix=EXEC
// EXEC: [SUCCESS]

// A result nothing uses is never resharded to what propagation chose for
// it: the partitioner reshards a local result when a user asks for it
// (Partitioner::getAs). Explain prices the einsum's operand gather only
// (128 B), not the all-reduce of its unused partial product (256 B more).
// A concatenate prices each operand both as it is and gathered along the
// concatenated dimension; only the layout its exchange uses is a reshard a
// later op can reuse (@concat_then_reshape: the reshape still gathers %b,
// 96 B, where the plan counted it done by the concatenate).
// Found by utils/random-programs.py.

// CHECK: planned bytes of @dead_result:
// CHECK-NEXT: xla.einsum at {{.*}}: 128 B per device
// CHECK-NEXT: func.return at {{.*}}: 192 B per device
// CHECK: planned bytes of @concat_then_reshape:
// CHECK-NEXT: xla.concatenate at {{.*}}: 64 B per device
// CHECK-NEXT: xla.reshape at {{.*}}: 96 B per device
// CHECK: emitted bytes of @dead_result:
// CHECK-NEXT: xla.einsum at {{.*}}: 128 B per device
// CHECK-NEXT: func.return at {{.*}}: 192 B per device
// CHECK: emitted bytes of @concat_then_reshape:
// CHECK-NEXT: xla.concatenate at {{.*}}: 64 B per device
// CHECK-NEXT: xla.reshape at {{.*}}: 96 B per device

xla.mesh @m2x2 = <["x"=2, "y"=2]>
func.func @dead_result(
    %a: tensor<16x8xf32> {xla.sharding = #xla.sharding<@m2x2, [{}, {"y", "x"}]>},
    %b: tensor<8x8xf32> {xla.sharding = #xla.sharding<@m2x2, [{}, {"x"}]>})
    -> (tensor<16x8xf32> {xla.sharding = #xla.sharding<@m2x2, [{"x"}, {}]>}) {
  %0 = xla.einsum "ij,jk->ki" %a, %b : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<8x16xf32>
  %1 = xla.exp %a : tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}

func.func @concat_then_reshape(
    %a: tensor<8xf32> {xla.sharding = #xla.sharding<@m2x2, [{}]>},
    %b: tensor<4x8xf32> {xla.sharding = #xla.sharding<@m2x2, [{}, {"y", "x"}]>})
    -> (tensor<32xf32> {xla.sharding = #xla.sharding<@m2x2, [{}]>}) {
  %0 = xla.broadcast_in_dim %a, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
  %1 = xla.concatenate %0, %b, dim = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %2 = xla.reshape %b : (tensor<4x8xf32>) -> tensor<32xf32>
  return %2 : tensor<32xf32>
}
