// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s --check-prefix=SPMD

// The ops of XlaMathOps.td: elementwise ones pass every dimension through
// (forward and backward), reverse passes its reversed dimensions through as
// permutation factors.
xla.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func @unary_chain
// CHECK: xla.floor {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.ceil {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.round_nearest_afz {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.round_nearest_even {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.sign {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.erf {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.cos {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.sin {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.tan {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.log1p {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.expm1 {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.cbrt {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.atan2 {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.rem {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.clamp {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.is_finite {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.bitcast_convert {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// Every op is local: no collective in the SPMD program.
// SPMD-LABEL: func.func @unary_chain
// SPMD-SAME: tensor<2x4xf32>
// SPMD-NOT: xla.all_
// SPMD-NOT: xla.collective_permute
// SPMD: return {{.*}} : tensor<2x4xi1>, tensor<2x4xi32>
func.func @unary_chain(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>},
                       %b: tensor<8x8xf32>) -> (tensor<8x8xi1>, tensor<8x8xi32>) {
  %0 = xla.floor %a : tensor<8x8xf32>
  %1 = xla.ceil %0 : tensor<8x8xf32>
  %2 = xla.round_nearest_afz %1 : tensor<8x8xf32>
  %3 = xla.round_nearest_even %2 : tensor<8x8xf32>
  %4 = xla.sign %3 : tensor<8x8xf32>
  %5 = xla.erf %4 : tensor<8x8xf32>
  %6 = xla.cos %5 : tensor<8x8xf32>
  %7 = xla.sin %6 : tensor<8x8xf32>
  %8 = xla.tan %7 : tensor<8x8xf32>
  %9 = xla.log1p %8 : tensor<8x8xf32>
  %10 = xla.expm1 %9 : tensor<8x8xf32>
  %11 = xla.cbrt %10 : tensor<8x8xf32>
  %12 = xla.atan2 %11, %b : tensor<8x8xf32>
  %13 = xla.rem %12, %b : tensor<8x8xf32>
  %14 = xla.clamp %b, %13, %b : tensor<8x8xf32>
  %15 = xla.is_finite %14 : tensor<8x8xf32>
  %16 = xla.bitcast_convert %14 : tensor<8x8xf32> -> tensor<8x8xi32>
  return %15, %16 : tensor<8x8xi1>, tensor<8x8xi32>
}

// Backward: a sharded result reaches the shift operands and the clamp
// bounds.
// CHECK-LABEL: func.func @backward
// CHECK-SAME: %arg0: tensor<8x6xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}
// CHECK-SAME: %arg1: tensor<8x6xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}
// CHECK-SAME: %arg2: tensor<8x6xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}
// CHECK: xla.shift_left {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>
// CHECK: xla.shift_right_arithmetic {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>
// CHECK: xla.shift_right_logical {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>
func.func @backward(%a: tensor<8x6xi32>, %n: tensor<8x6xi32>, %lo: tensor<8x6xi32>)
    -> (tensor<8x6xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = xla.shift_left %a, %n : tensor<8x6xi32>
  %1 = xla.shift_right_arithmetic %0, %n : tensor<8x6xi32>
  %2 = xla.shift_right_logical %1, %n : tensor<8x6xi32>
  %3 = xla.clamp %lo, %2, %lo : tensor<8x6xi32>
  return %3 : tensor<8x6xi32>
}

// reverse keeps the sharding of every dimension, reversed or not; the
// partitioned program exchanges mirror blocks along "x".
// CHECK-LABEL: func.func @reverse
// CHECK: xla.reverse {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// SPMD-LABEL: func.func @reverse
// SPMD: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 3], [1, 2], [2, 1], [3, 0]] mesh_axes = @mesh["x"]
// SPMD-NOT: xla.all_gather
// SPMD: return
func.func @reverse(%a: tensor<16x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> tensor<16x128xf32> {
  %0 = xla.reverse %a, dims = [0, 1] : tensor<16x128xf32>
  %1 = xla.exp %0 : tensor<16x128xf32>
  return %1 : tensor<16x128xf32>
}
