// Round trip of the shape and data-movement ops: broadcast_in_dim, reshape,
// transpose, slice, dynamic_slice, dynamic_update_slice, concatenate, pad
// and gather.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// CHECK-LABEL: func.func @broadcast_in_dim
// CHECK-SAME: (%[[B:.*]]: tensor<32xf32>, %[[S:.*]]: tensor<f32>, %[[U:.*]]: tensor<1x32xf32>)
// CHECK: xla.broadcast_in_dim %[[B]], dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
// CHECK: xla.broadcast_in_dim %[[S]], dims = [] : (tensor<f32>) -> tensor<8x32xf32>
// Size-1 dimensions stretch.
// CHECK: xla.broadcast_in_dim %[[U]], dims = [0, 2] : (tensor<1x32xf32>) -> tensor<8x4x32xf32>
func.func @broadcast_in_dim(%b: tensor<32xf32>, %s: tensor<f32>, %u: tensor<1x32xf32>) {
  %0 = xla.broadcast_in_dim %b, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
  %1 = xla.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
  %2 = xla.broadcast_in_dim %u, dims = [0, 2] : (tensor<1x32xf32>) -> tensor<8x4x32xf32>
  return
}

// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>, %[[Y:.*]]: tensor<1x1xi32>)
// CHECK: %[[R:.*]] = xla.reshape %[[X]] : (tensor<8x32xf32>) -> tensor<2x4x32xf32>
// CHECK: xla.reshape %[[R]] : (tensor<2x4x32xf32>) -> tensor<256xf32>
// CHECK: xla.reshape %[[Y]] : (tensor<1x1xi32>) -> tensor<i32>
func.func @reshape(%x: tensor<8x32xf32>, %y: tensor<1x1xi32>) {
  %0 = xla.reshape %x : (tensor<8x32xf32>) -> tensor<2x4x32xf32>
  %1 = xla.reshape %0 : (tensor<2x4x32xf32>) -> tensor<256xf32>
  %2 = xla.reshape %y : (tensor<1x1xi32>) -> tensor<i32>
  return
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: xla.transpose %[[X]], permutation = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: xla.transpose %[[X]], permutation = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) {
  %0 = xla.transpose %x, permutation = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %1 = xla.transpose %x, permutation = [0, 1, 2] : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>)
// CHECK: xla.slice %[[X]], start = [0, 8], limit = [4, 16], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<4x8xf32>
// Strided: ceil((limit - start) / stride) elements.
// CHECK: xla.slice %[[X]], start = [1, 0], limit = [8, 32], strides = [2, 5] : (tensor<8x32xf32>) -> tensor<4x7xf32>
// Empty slices are allowed.
// CHECK: xla.slice %[[X]], start = [3, 0], limit = [3, 32], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<0x32xf32>
func.func @slice(%x: tensor<8x32xf32>) {
  %0 = xla.slice %x, start = [0, 8], limit = [4, 16], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<4x8xf32>
  %1 = xla.slice %x, start = [1, 0], limit = [8, 32], strides = [2, 5] : (tensor<8x32xf32>) -> tensor<4x7xf32>
  %2 = xla.slice %x, start = [3, 0], limit = [3, 32], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<0x32xf32>
  return
}

// CHECK-LABEL: func.func @dynamic_slice
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>, %[[I:.*]]: tensor<i32>, %[[J:.*]]: tensor<i64>)
// Offsets may mix i32 and i64 scalars.
// CHECK: xla.dynamic_slice %[[X]][%[[I]], %[[J]]], sizes = [2, 32] : (tensor<8x32xf32>, tensor<i32>, tensor<i64>) -> tensor<2x32xf32>
// CHECK: xla.dynamic_slice %[[X]][%[[I]], %[[I]]], sizes = [8, 0] : (tensor<8x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x0xf32>
func.func @dynamic_slice(%x: tensor<8x32xf32>, %i: tensor<i32>, %j: tensor<i64>) {
  %0 = xla.dynamic_slice %x[%i, %j], sizes = [2, 32] : (tensor<8x32xf32>, tensor<i32>, tensor<i64>) -> tensor<2x32xf32>
  %1 = xla.dynamic_slice %x[%i, %i], sizes = [8, 0] : (tensor<8x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x0xf32>
  return
}

// CHECK-LABEL: func.func @dynamic_update_slice
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>, %[[U:.*]]: tensor<2x32xf32>, %[[I:.*]]: tensor<i32>)
// CHECK: xla.dynamic_update_slice %[[X]], %[[U]][%[[I]], %[[I]]] : (tensor<8x32xf32>, tensor<2x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
func.func @dynamic_update_slice(%x: tensor<8x32xf32>, %u: tensor<2x32xf32>, %i: tensor<i32>) -> tensor<8x32xf32> {
  %0 = xla.dynamic_update_slice %x, %u[%i, %i] : (tensor<8x32xf32>, tensor<2x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// CHECK-LABEL: func.func @concatenate
// CHECK-SAME: (%[[A:.*]]: tensor<2x4xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[C:.*]]: tensor<2x1xf32>)
// CHECK: xla.concatenate %[[A]], %[[B]], %[[A]], dim = 0 : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<7x4xf32>
// CHECK: xla.concatenate %[[A]], %[[C]], dim = 1 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
// CHECK: xla.concatenate %[[A]], dim = 1 : (tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @concatenate(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>, %c: tensor<2x1xf32>) {
  %0 = xla.concatenate %a, %b, %a, dim = 0 : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<7x4xf32>
  %1 = xla.concatenate %a, %c, dim = 1 : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  %2 = xla.concatenate %a, dim = 1 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>)
// CHECK: xla.pad %[[X]], low = [1, 0], high = [2, 3], interior = [0, 0], value = 0.000000e+00 : (tensor<4x5xf32>) -> tensor<7x8xf32>
// Interior padding and negative (cropping) edges.
// CHECK: xla.pad %[[X]], low = [-1, 0], high = [0, -2], interior = [1, 2], value = -1.500000e+00 : (tensor<4x5xf32>) -> tensor<6x11xf32>
func.func @pad(%x: tensor<4x5xf32>) {
  %0 = xla.pad %x, low = [1, 0], high = [2, 3], interior = [0, 0], value = 0.0 : (tensor<4x5xf32>) -> tensor<7x8xf32>
  %1 = xla.pad %x, low = [-1, 0], high = [0, -2], interior = [1, 2], value = -1.5 : (tensor<4x5xf32>) -> tensor<6x11xf32>
  return
}

// An embedding lookup: indices' shape followed by the table's row shape.
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[T:.*]]: tensor<1000x64xbf16>, %[[I:.*]]: tensor<8x16xi32>, %[[J:.*]]: tensor<i64>)
// CHECK: xla.gather %[[T]], %[[I]] : (tensor<1000x64xbf16>, tensor<8x16xi32>) -> tensor<8x16x64xbf16>
// CHECK: xla.gather %[[T]], %[[J]] : (tensor<1000x64xbf16>, tensor<i64>) -> tensor<64xbf16>
func.func @gather(%t: tensor<1000x64xbf16>, %i: tensor<8x16xi32>, %j: tensor<i64>) {
  %0 = xla.gather %t, %i : (tensor<1000x64xbf16>, tensor<8x16xi32>) -> tensor<8x16x64xbf16>
  %1 = xla.gather %t, %j : (tensor<1000x64xbf16>, tensor<i64>) -> tensor<64xbf16>
  return
}
