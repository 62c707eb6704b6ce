// Round trip of the elementwise ops: binary arithmetic and logic, unary
// math, compare, select and convert.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// Arithmetic on floats (pow is float only).
// CHECK-LABEL: func.func @binary_float
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>, %[[Y:.*]]: tensor<8x32xf32>)
// CHECK: %{{.*}} = xla.add %[[X]], %[[Y]] : tensor<8x32xf32>
// CHECK: %{{.*}} = xla.sub %[[X]], %[[Y]] : tensor<8x32xf32>
// CHECK: %{{.*}} = xla.mul %[[X]], %[[Y]] : tensor<8x32xf32>
// CHECK: %{{.*}} = xla.div %[[X]], %[[Y]] : tensor<8x32xf32>
// CHECK: %{{.*}} = xla.max %[[X]], %[[Y]] : tensor<8x32xf32>
// CHECK: %{{.*}} = xla.min %[[X]], %[[Y]] : tensor<8x32xf32>
// CHECK: %{{.*}} = xla.pow %[[X]], %[[Y]] : tensor<8x32xf32>
func.func @binary_float(%x: tensor<8x32xf32>, %y: tensor<8x32xf32>) {
  %0 = xla.add %x, %y : tensor<8x32xf32>
  %1 = xla.sub %x, %y : tensor<8x32xf32>
  %2 = xla.mul %x, %y : tensor<8x32xf32>
  %3 = xla.div %x, %y : tensor<8x32xf32>
  %4 = xla.max %x, %y : tensor<8x32xf32>
  %5 = xla.min %x, %y : tensor<8x32xf32>
  %6 = xla.pow %x, %y : tensor<8x32xf32>
  return
}

// Arithmetic and bitwise logic on integers.
// CHECK-LABEL: func.func @binary_int
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>, %[[Y:.*]]: tensor<4xi32>)
// CHECK: %{{.*}} = xla.add %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.sub %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.mul %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.div %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.max %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.min %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.and %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.or %[[X]], %[[Y]] : tensor<4xi32>
// CHECK: %{{.*}} = xla.xor %[[X]], %[[Y]] : tensor<4xi32>
func.func @binary_int(%x: tensor<4xi32>, %y: tensor<4xi32>) {
  %0 = xla.add %x, %y : tensor<4xi32>
  %1 = xla.sub %x, %y : tensor<4xi32>
  %2 = xla.mul %x, %y : tensor<4xi32>
  %3 = xla.div %x, %y : tensor<4xi32>
  %4 = xla.max %x, %y : tensor<4xi32>
  %5 = xla.min %x, %y : tensor<4xi32>
  %6 = xla.and %x, %y : tensor<4xi32>
  %7 = xla.or %x, %y : tensor<4xi32>
  %8 = xla.xor %x, %y : tensor<4xi32>
  return
}

// Logic on predicates.
// CHECK-LABEL: func.func @binary_pred
// CHECK-SAME: (%[[P:.*]]: tensor<4xi1>, %[[Q:.*]]: tensor<4xi1>)
// CHECK: %{{.*}} = xla.and %[[P]], %[[Q]] : tensor<4xi1>
// CHECK: %{{.*}} = xla.or %[[P]], %[[Q]] : tensor<4xi1>
// CHECK: %{{.*}} = xla.xor %[[P]], %[[Q]] : tensor<4xi1>
// CHECK: %{{.*}} = xla.not %[[P]] : tensor<4xi1>
func.func @binary_pred(%p: tensor<4xi1>, %q: tensor<4xi1>) {
  %0 = xla.and %p, %q : tensor<4xi1>
  %1 = xla.or %p, %q : tensor<4xi1>
  %2 = xla.xor %p, %q : tensor<4xi1>
  %3 = xla.not %p : tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @unary_float
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xbf16>)
// CHECK: %{{.*}} = xla.neg %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.abs %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.exp %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.log %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.tanh %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.sqrt %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.rsqrt %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.sigmoid %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.relu %[[X]] : tensor<2x3xbf16>
// CHECK: %{{.*}} = xla.gelu %[[X]] : tensor<2x3xbf16>
func.func @unary_float(%x: tensor<2x3xbf16>) {
  %0 = xla.neg %x : tensor<2x3xbf16>
  %1 = xla.abs %x : tensor<2x3xbf16>
  %2 = xla.exp %x : tensor<2x3xbf16>
  %3 = xla.log %x : tensor<2x3xbf16>
  %4 = xla.tanh %x : tensor<2x3xbf16>
  %5 = xla.sqrt %x : tensor<2x3xbf16>
  %6 = xla.rsqrt %x : tensor<2x3xbf16>
  %7 = xla.sigmoid %x : tensor<2x3xbf16>
  %8 = xla.relu %x : tensor<2x3xbf16>
  %9 = xla.gelu %x : tensor<2x3xbf16>
  return
}

// CHECK-LABEL: func.func @unary_int
// CHECK-SAME: (%[[X:.*]]: tensor<5xi8>)
// CHECK: %{{.*}} = xla.neg %[[X]] : tensor<5xi8>
// CHECK: %{{.*}} = xla.abs %[[X]] : tensor<5xi8>
// CHECK: %{{.*}} = xla.relu %[[X]] : tensor<5xi8>
// CHECK: %{{.*}} = xla.not %[[X]] : tensor<5xi8>
func.func @unary_int(%x: tensor<5xi8>) {
  %0 = xla.neg %x : tensor<5xi8>
  %1 = xla.abs %x : tensor<5xi8>
  %2 = xla.relu %x : tensor<5xi8>
  %3 = xla.not %x : tensor<5xi8>
  return
}

// Rank-0 tensors are fine.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: (%[[X:.*]]: tensor<f64>, %[[Y:.*]]: tensor<f64>)
// CHECK: %[[S:.*]] = xla.add %[[X]], %[[Y]] : tensor<f64>
// CHECK: %{{.*}} = xla.exp %[[S]] : tensor<f64>
func.func @scalars(%x: tensor<f64>, %y: tensor<f64>) {
  %0 = xla.add %x, %y : tensor<f64>
  %1 = xla.exp %0 : tensor<f64>
  return
}

// compare gives i1 of the operands' shape (inferred).
// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>, %[[Y:.*]]: tensor<8xf32>, %[[I:.*]]: tensor<2x2xi64>)
// CHECK: %{{.*}} = xla.compare eq, %[[X]], %[[Y]] : tensor<8xf32>
// CHECK: %{{.*}} = xla.compare ne, %[[X]], %[[Y]] : tensor<8xf32>
// CHECK: %{{.*}} = xla.compare lt, %[[X]], %[[Y]] : tensor<8xf32>
// CHECK: %{{.*}} = xla.compare le, %[[X]], %[[Y]] : tensor<8xf32>
// CHECK: %{{.*}} = xla.compare gt, %[[X]], %[[Y]] : tensor<8xf32>
// CHECK: %{{.*}} = xla.compare ge, %[[X]], %[[Y]] : tensor<8xf32>
// CHECK: %{{.*}} = xla.compare eq, %[[I]], %[[I]] : tensor<2x2xi64>
func.func @compare(%x: tensor<8xf32>, %y: tensor<8xf32>, %i: tensor<2x2xi64>) {
  %0 = xla.compare eq, %x, %y : tensor<8xf32>
  %1 = xla.compare ne, %x, %y : tensor<8xf32>
  %2 = xla.compare lt, %x, %y : tensor<8xf32>
  %3 = xla.compare le, %x, %y : tensor<8xf32>
  %4 = xla.compare gt, %x, %y : tensor<8xf32>
  %5 = xla.compare ge, %x, %y : tensor<8xf32>
  %6 = xla.compare eq, %i, %i : tensor<2x2xi64>
  return
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[P:.*]]: tensor<8x4xi1>, %[[X:.*]]: tensor<8x4xf32>, %[[Y:.*]]: tensor<8x4xf32>)
// CHECK: %[[S:.*]] = xla.select %[[P]], %[[X]], %[[Y]] : tensor<8x4xf32>
// CHECK: %[[C:.*]] = xla.compare gt, %[[X]], %[[Y]] : tensor<8x4xf32>
// CHECK: %{{.*}} = xla.select %[[C]], %[[X]], %[[S]] : tensor<8x4xf32>
func.func @select(%p: tensor<8x4xi1>, %x: tensor<8x4xf32>, %y: tensor<8x4xf32>) {
  %0 = xla.select %p, %x, %y : tensor<8x4xf32>
  %1 = xla.compare gt, %x, %y : tensor<8x4xf32>
  %2 = xla.select %1, %x, %0 : tensor<8x4xf32>
  return
}

// convert between every kind of element type (identity included: it prints, it is only folded away by canonicalization).
// CHECK-LABEL: func.func @convert
// CHECK-SAME: (%[[F:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xbf16>, %[[I:.*]]: tensor<4xi32>, %[[P:.*]]: tensor<4xi1>, %[[L:.*]]: tensor<4xi64>, %[[D:.*]]: tensor<4xf64>)
// CHECK: %{{.*}} = xla.convert %[[F]] : tensor<4xf32> -> tensor<4xbf16>
// CHECK: %{{.*}} = xla.convert %[[B]] : tensor<4xbf16> -> tensor<4xf32>
// CHECK: %{{.*}} = xla.convert %[[F]] : tensor<4xf32> -> tensor<4xi32>
// CHECK: %{{.*}} = xla.convert %[[I]] : tensor<4xi32> -> tensor<4xf16>
// CHECK: %{{.*}} = xla.convert %[[P]] : tensor<4xi1> -> tensor<4xf32>
// CHECK: %{{.*}} = xla.convert %[[L]] : tensor<4xi64> -> tensor<4xi1>
// CHECK: %{{.*}} = xla.convert %[[D]] : tensor<4xf64> -> tensor<4xi8>
// CHECK: %{{.*}} = xla.convert %[[F]] : tensor<4xf32> -> tensor<4xf32>
func.func @convert(%f: tensor<4xf32>, %b: tensor<4xbf16>, %i: tensor<4xi32>, %p: tensor<4xi1>, %l: tensor<4xi64>, %d: tensor<4xf64>) {
  %0 = xla.convert %f : tensor<4xf32> -> tensor<4xbf16>
  %1 = xla.convert %b : tensor<4xbf16> -> tensor<4xf32>
  %2 = xla.convert %f : tensor<4xf32> -> tensor<4xi32>
  %3 = xla.convert %i : tensor<4xi32> -> tensor<4xf16>
  %4 = xla.convert %p : tensor<4xi1> -> tensor<4xf32>
  %5 = xla.convert %l : tensor<4xi64> -> tensor<4xi1>
  %6 = xla.convert %d : tensor<4xf64> -> tensor<4xi8>
  %7 = xla.convert %f : tensor<4xf32> -> tensor<4xf32>
  return
}
