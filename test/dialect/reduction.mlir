// Round trip of reduce (every kind) and softmax.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// CHECK-LABEL: func.func @reduce_float
// CHECK-SAME: (%[[X:.*]]: tensor<8x16x32xf32>)
// CHECK: xla.reduce sum %[[X]], dims = [1] : (tensor<8x16x32xf32>) -> tensor<8x32xf32>
// CHECK: xla.reduce prod %[[X]], dims = [0, 2] : (tensor<8x16x32xf32>) -> tensor<16xf32>
// CHECK: xla.reduce max %[[X]], dims = [2] : (tensor<8x16x32xf32>) -> tensor<8x16xf32>
// CHECK: xla.reduce min %[[X]], dims = [2, 0] : (tensor<8x16x32xf32>) -> tensor<16xf32>
// CHECK: xla.reduce mean %[[X]], dims = [0, 1, 2] : (tensor<8x16x32xf32>) -> tensor<f32>
// Reducing over no dimension is the identity.
// CHECK: xla.reduce sum %[[X]], dims = [] : (tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
func.func @reduce_float(%x: tensor<8x16x32xf32>) {
  %0 = xla.reduce sum %x, dims = [1] : (tensor<8x16x32xf32>) -> tensor<8x32xf32>
  %1 = xla.reduce prod %x, dims = [0, 2] : (tensor<8x16x32xf32>) -> tensor<16xf32>
  %2 = xla.reduce max %x, dims = [2] : (tensor<8x16x32xf32>) -> tensor<8x16xf32>
  %3 = xla.reduce min %x, dims = [2, 0] : (tensor<8x16x32xf32>) -> tensor<16xf32>
  %4 = xla.reduce mean %x, dims = [0, 1, 2] : (tensor<8x16x32xf32>) -> tensor<f32>
  %5 = xla.reduce sum %x, dims = [] : (tensor<8x16x32xf32>) -> tensor<8x16x32xf32>
  return
}

// CHECK-LABEL: func.func @reduce_int
// CHECK-SAME: (%[[I:.*]]: tensor<4x6xi32>, %[[P:.*]]: tensor<4x6xi1>)
// CHECK: xla.reduce sum %[[I]], dims = [0] : (tensor<4x6xi32>) -> tensor<6xi32>
// CHECK: xla.reduce and %[[I]], dims = [1] : (tensor<4x6xi32>) -> tensor<4xi32>
// CHECK: xla.reduce or %[[I]], dims = [1] : (tensor<4x6xi32>) -> tensor<4xi32>
// i1 takes and, or, max and min.
// CHECK: xla.reduce and %[[P]], dims = [0, 1] : (tensor<4x6xi1>) -> tensor<i1>
// CHECK: xla.reduce or %[[P]], dims = [1] : (tensor<4x6xi1>) -> tensor<4xi1>
// CHECK: xla.reduce max %[[P]], dims = [1] : (tensor<4x6xi1>) -> tensor<4xi1>
// CHECK: xla.reduce min %[[P]], dims = [0] : (tensor<4x6xi1>) -> tensor<6xi1>
func.func @reduce_int(%i: tensor<4x6xi32>, %p: tensor<4x6xi1>) {
  %0 = xla.reduce sum %i, dims = [0] : (tensor<4x6xi32>) -> tensor<6xi32>
  %1 = xla.reduce and %i, dims = [1] : (tensor<4x6xi32>) -> tensor<4xi32>
  %2 = xla.reduce or %i, dims = [1] : (tensor<4x6xi32>) -> tensor<4xi32>
  %3 = xla.reduce and %p, dims = [0, 1] : (tensor<4x6xi1>) -> tensor<i1>
  %4 = xla.reduce or %p, dims = [1] : (tensor<4x6xi1>) -> tensor<4xi1>
  %5 = xla.reduce max %p, dims = [1] : (tensor<4x6xi1>) -> tensor<4xi1>
  %6 = xla.reduce min %p, dims = [0] : (tensor<4x6xi1>) -> tensor<6xi1>
  return
}

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8x8xf32>, %[[H:.*]]: tensor<16xf16>)
// CHECK: xla.softmax %[[X]], dim = 3 : tensor<2x4x8x8xf32>
// CHECK: xla.softmax %[[X]], dim = 0 : tensor<2x4x8x8xf32>
// CHECK: xla.softmax %[[H]], dim = 0 : tensor<16xf16>
func.func @softmax(%x: tensor<2x4x8x8xf32>, %h: tensor<16xf16>) {
  %0 = xla.softmax %x, dim = 3 : tensor<2x4x8x8xf32>
  %1 = xla.softmax %x, dim = 0 : tensor<2x4x8x8xf32>
  %2 = xla.softmax %h, dim = 0 : tensor<16xf16>
  return
}
