// Round trip of XlaMathOps.td: rounding, sign, transcendental functions,
// is_finite, remainder, shifts, clamp, bitcast_convert and reverse.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// CHECK-LABEL: func.func @unary_float
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[H:.*]]: tensor<4xf16>)
// CHECK: %{{.*}} = xla.floor %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.ceil %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.round_nearest_afz %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.round_nearest_even %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.sign %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.erf %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.cos %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.sin %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.tan %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.log1p %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.expm1 %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.cbrt %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.is_finite %[[X]] : tensor<2x3xf32>
// CHECK: %{{.*}} = xla.erf %[[H]] : tensor<4xf16>
// CHECK: %{{.*}} = xla.is_finite %[[H]] : tensor<4xf16>
func.func @unary_float(%x: tensor<2x3xf32>, %h: tensor<4xf16>) -> tensor<2x3xi1> {
  %0 = xla.floor %x : tensor<2x3xf32>
  %1 = xla.ceil %x : tensor<2x3xf32>
  %2 = xla.round_nearest_afz %x : tensor<2x3xf32>
  %3 = xla.round_nearest_even %x : tensor<2x3xf32>
  %4 = xla.sign %x : tensor<2x3xf32>
  %5 = xla.erf %x : tensor<2x3xf32>
  %6 = xla.cos %x : tensor<2x3xf32>
  %7 = xla.sin %x : tensor<2x3xf32>
  %8 = xla.tan %x : tensor<2x3xf32>
  %9 = xla.log1p %x : tensor<2x3xf32>
  %10 = xla.expm1 %x : tensor<2x3xf32>
  %11 = xla.cbrt %x : tensor<2x3xf32>
  %12 = xla.is_finite %x : tensor<2x3xf32>
  %13 = xla.erf %h : tensor<4xf16>
  %14 = xla.is_finite %h : tensor<4xf16>
  return %12 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[X:.*]]: tensor<8xbf16>, %[[I:.*]]: tensor<8xi32>, %[[B:.*]]: tensor<8xi8>)
// CHECK: %{{.*}} = xla.atan2 %[[X]], %[[X]] : tensor<8xbf16>
// CHECK: %{{.*}} = xla.rem %[[X]], %[[X]] : tensor<8xbf16>
// CHECK: %{{.*}} = xla.rem %[[I]], %[[I]] : tensor<8xi32>
// CHECK: %{{.*}} = xla.sign %[[I]] : tensor<8xi32>
// CHECK: %{{.*}} = xla.shift_left %[[I]], %[[I]] : tensor<8xi32>
// CHECK: %{{.*}} = xla.shift_right_arithmetic %[[B]], %[[B]] : tensor<8xi8>
// CHECK: %{{.*}} = xla.shift_right_logical %[[I]], %[[I]] : tensor<8xi32>
func.func @binary(%x: tensor<8xbf16>, %i: tensor<8xi32>, %b: tensor<8xi8>) {
  %0 = xla.atan2 %x, %x : tensor<8xbf16>
  %1 = xla.rem %x, %x : tensor<8xbf16>
  %2 = xla.rem %i, %i : tensor<8xi32>
  %3 = xla.sign %i : tensor<8xi32>
  %4 = xla.shift_left %i, %i : tensor<8xi32>
  %5 = xla.shift_right_arithmetic %b, %b : tensor<8xi8>
  %6 = xla.shift_right_logical %i, %i : tensor<8xi32>
  return
}

// clamp takes HLO's operand order: lower bound, operand, upper bound.
// CHECK-LABEL: func.func @clamp
// CHECK-SAME: (%[[LO:.*]]: tensor<4xf64>, %[[X:.*]]: tensor<4xf64>, %[[HI:.*]]: tensor<4xf64>, %[[N:.*]]: tensor<i64>)
// CHECK: %{{.*}} = xla.clamp %[[LO]], %[[X]], %[[HI]] : tensor<4xf64>
// CHECK: %{{.*}} = xla.clamp %[[N]], %[[N]], %[[N]] : tensor<i64>
func.func @clamp(%lo: tensor<4xf64>, %x: tensor<4xf64>, %hi: tensor<4xf64>, %n: tensor<i64>) {
  %0 = xla.clamp %lo, %x, %hi : tensor<4xf64>
  %1 = xla.clamp %n, %n, %n : tensor<i64>
  return
}

// CHECK-LABEL: func.func @bitcast_convert
// CHECK: %{{.*}} = xla.bitcast_convert %{{.*}} : tensor<2x4xf32> -> tensor<2x4xi32>
// CHECK: %{{.*}} = xla.bitcast_convert %{{.*}} : tensor<3xi64> -> tensor<3xf64>
// CHECK: %{{.*}} = xla.bitcast_convert %{{.*}} : tensor<3xf16> -> tensor<3xbf16>
// CHECK: %{{.*}} = xla.bitcast_convert %{{.*}} : tensor<3xi8> -> tensor<3xi8>
func.func @bitcast_convert(%f: tensor<2x4xf32>, %l: tensor<3xi64>, %h: tensor<3xf16>, %b: tensor<3xi8>) {
  %0 = xla.bitcast_convert %f : tensor<2x4xf32> -> tensor<2x4xi32>
  %1 = xla.bitcast_convert %l : tensor<3xi64> -> tensor<3xf64>
  %2 = xla.bitcast_convert %h : tensor<3xf16> -> tensor<3xbf16>
  %3 = xla.bitcast_convert %b : tensor<3xi8> -> tensor<3xi8>
  return
}

// CHECK-LABEL: func.func @reverse
// CHECK: %{{.*}} = xla.reverse %{{.*}}, dims = [2, 0] : tensor<4x8x16xf32>
// CHECK: %{{.*}} = xla.reverse %{{.*}}, dims = [] : tensor<5xi1>
func.func @reverse(%x: tensor<4x8x16xf32>, %p: tensor<5xi1>) {
  %0 = xla.reverse %x, dims = [2, 0] : tensor<4x8x16xf32>
  %1 = xla.reverse %p, dims = [] : tensor<5xi1>
  return
}
