// Round trip of convolution: NHWC input, HWIO kernel; strides, padding,
// input (lhs) and kernel (rhs) dilation, feature groups.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.*]]: tensor<8x32x32x3xf32>, %[[K:.*]]: tensor<3x3x3x16xf32>)
// "Same" padding, stride 1.
// CHECK: xla.convolution %[[X]], %[[K]], strides = [1, 1], padding = {{\[}}[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
// "Valid" padding, stride 2: floor((32 - 3) / 2) + 1 = 15.
// CHECK: xla.convolution %[[X]], %[[K]], strides = [2, 2], padding = {{\[}}[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x15x15x16xf32>
// Atrous (kernel dilation 2: the kernel spans 5) and asymmetric padding.
// CHECK: xla.convolution %[[X]], %[[K]], strides = [1, 1], padding = {{\[}}[0, 2], [2, 0]], lhs_dilation = [1, 1], rhs_dilation = [2, 2] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
// Input dilation (a transposed convolution): the input spans (32 - 1) * 2 + 1 = 63.
// CHECK: xla.convolution %[[X]], %[[K]], strides = [1, 1], padding = {{\[}}[2, 2], [2, 2]], lhs_dilation = [2, 2], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x65x65x16xf32>
func.func @conv2d(%x: tensor<8x32x32x3xf32>, %k: tensor<3x3x3x16xf32>) {
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x32x32x16xf32>
  %1 = xla.convolution %x, %k, strides = [2, 2], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x15x15x16xf32>
  %2 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 2], [2, 0]], lhs_dilation = [1, 1], rhs_dilation = [2, 2] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x30x30x16xf32>
  %3 = xla.convolution %x, %k, strides = [1, 1], padding = [[2, 2], [2, 2]], lhs_dilation = [2, 2], rhs_dilation = [1, 1] : (tensor<8x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<8x65x65x16xf32>
  return
}

// CHECK-LABEL: func.func @feature_groups
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x16x8xbf16>, %[[D:.*]]: tensor<3x3x1x8xbf16>, %[[G:.*]]: tensor<3x3x4x6xbf16>, %[[F:.*]]: tensor<1x1x8x4xbf16>)
// Depthwise: one group per input channel.
// CHECK: xla.convolution %[[X]], %[[D]], strides = [1, 1], padding = {{\[}}[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 8 : (tensor<2x16x16x8xbf16>, tensor<3x3x1x8xbf16>) -> tensor<2x16x16x8xbf16>
// Two groups of four channels each.
// CHECK: xla.convolution %[[X]], %[[G]], strides = [1, 1], padding = {{\[}}[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 2 : (tensor<2x16x16x8xbf16>, tensor<3x3x4x6xbf16>) -> tensor<2x14x14x6xbf16>
// feature_groups = 1 is the default and is not printed.
// CHECK: xla.convolution %[[X]], %[[F]], strides = [1, 1], padding = {{\[}}[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<2x16x16x8xbf16>, tensor<1x1x8x4xbf16>) -> tensor<2x16x16x4xbf16>
func.func @feature_groups(%x: tensor<2x16x16x8xbf16>, %d: tensor<3x3x1x8xbf16>, %g: tensor<3x3x4x6xbf16>, %f: tensor<1x1x8x4xbf16>) {
  %0 = xla.convolution %x, %d, strides = [1, 1], padding = [[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 8 : (tensor<2x16x16x8xbf16>, tensor<3x3x1x8xbf16>) -> tensor<2x16x16x8xbf16>
  %1 = xla.convolution %x, %g, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 2 : (tensor<2x16x16x8xbf16>, tensor<3x3x4x6xbf16>) -> tensor<2x14x14x6xbf16>
  %2 = xla.convolution %x, %f, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 1 : (tensor<2x16x16x8xbf16>, tensor<1x1x8x4xbf16>) -> tensor<2x16x16x4xbf16>
  return
}

// 1-d and 3-d convolutions.
// CHECK-LABEL: func.func @conv1d_3d
// CHECK: xla.convolution %{{.*}}, %{{.*}}, strides = [1], padding = {{\[}}[0, 0]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<4x10x2xf32>, tensor<3x2x5xf32>) -> tensor<4x8x5xf32>
// CHECK: xla.convolution %{{.*}}, %{{.*}}, strides = [1, 2, 1], padding = {{\[}}[0, 0], [0, 0], [0, 0]], lhs_dilation = [1, 1, 1], rhs_dilation = [1, 1, 1] : (tensor<1x4x8x8x1xf32>, tensor<2x2x2x1x1xf32>) -> tensor<1x3x4x7x1xf32>
func.func @conv1d_3d(%x: tensor<4x10x2xf32>, %k: tensor<3x2x5xf32>, %v: tensor<1x4x8x8x1xf32>, %w: tensor<2x2x2x1x1xf32>) {
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<4x10x2xf32>, tensor<3x2x5xf32>) -> tensor<4x8x5xf32>
  %1 = xla.convolution %v, %w, strides = [1, 2, 1], padding = [[0, 0], [0, 0], [0, 0]], lhs_dilation = [1, 1, 1], rhs_dilation = [1, 1, 1] : (tensor<1x4x8x8x1xf32>, tensor<2x2x2x1x1xf32>) -> tensor<1x3x4x7x1xf32>
  return
}
