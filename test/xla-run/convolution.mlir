// Convolution: strides, padding, lhs/rhs dilation, feature groups, channels,
// batch; expected values worked out by hand.
// RUN: xla-run %s --function=conv1d --input=1x5x1xf32=1,2,3,4,5 --input=3x1x1xf32=1,0,-1 | FileCheck %s --check-prefix=C1
// RUN: xla-run %s --function=conv1d_f16 --input=1x5x1xf16=1,2,3,4,5 --input=3x1x1xf16=1,0,-1 | FileCheck %s --check-prefix=F16
// RUN: xla-run %s --function=channels --input=1x3x2xf64=1,10,2,20,3,30 --input=2x2x3xf64=1,1,0,1,0,0,1,0,0,1,0,-1 | FileCheck %s --check-prefix=CHAN
// RUN: xla-run %s --function=conv2d --input=1x2x2x2xf32=1,10,2,20,3,30,4,40 --input=2x2x1x2xf32=1,0.5,1,0.5,1,0.5,1,0.5 --input=1x1x2x1xf32=1,1 | FileCheck %s --check-prefix=C2
// RUN: xla-run %s --function=batch_int --input=2x3x1xi32=1,2,3,4,5,6 --input=2x1x1xi32=1,1 | FileCheck %s --check-prefix=INT

// x = [1 2 3 4 5], k = [1 0 -1]: out[i] = x[i] - x[i+2] over the padded,
// dilated input.
// C1: result[0]: 1x3x1xf32={{\[\[}}-2][-2][-2]]
// Padded [0 1 2 3 4 5 0]:
// C1: result[1]: 1x5x1xf32={{\[\[}}-2][-2][-2][-2][4]]
// Stride 2 over the same: positions 0, 2, 4.
// C1: result[2]: 1x3x1xf32={{\[\[}}-2][-2][4]]
// rhs dilation 2: the kernel spans 5, x[0] - x[4].
// C1: result[3]: 1x1x1xf32={{\[\[}}-4]]
// lhs dilation 2: [1 0 2 0 3 0 4 0 5].
// C1: result[4]: 1x7x1xf32={{\[\[}}-1][0][-1][0][-1][0][-1]]
func.func @conv1d(%x: tensor<1x5x1xf32>, %k: tensor<3x1x1xf32>) -> (tensor<1x3x1xf32>, tensor<1x5x1xf32>, tensor<1x3x1xf32>, tensor<1x1x1xf32>, tensor<1x7x1xf32>) {
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<1x5x1xf32>, tensor<3x1x1xf32>) -> tensor<1x3x1xf32>
  %1 = xla.convolution %x, %k, strides = [1], padding = [[1, 1]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<1x5x1xf32>, tensor<3x1x1xf32>) -> tensor<1x5x1xf32>
  %2 = xla.convolution %x, %k, strides = [2], padding = [[1, 1]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<1x5x1xf32>, tensor<3x1x1xf32>) -> tensor<1x3x1xf32>
  %3 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [2] : (tensor<1x5x1xf32>, tensor<3x1x1xf32>) -> tensor<1x1x1xf32>
  %4 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [2], rhs_dilation = [1] : (tensor<1x5x1xf32>, tensor<3x1x1xf32>) -> tensor<1x7x1xf32>
  return %0, %1, %2, %3, %4 : tensor<1x3x1xf32>, tensor<1x5x1xf32>, tensor<1x3x1xf32>, tensor<1x1x1xf32>, tensor<1x7x1xf32>
}

// F16: result[0]: 1x3x1xf16={{\[\[}}-2][-2][4]]
func.func @conv1d_f16(%x: tensor<1x5x1xf16>, %k: tensor<3x1x1xf16>) -> tensor<1x3x1xf16> {
  %0 = xla.convolution %x, %k, strides = [2], padding = [[1, 1]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<1x5x1xf16>, tensor<3x1x1xf16>) -> tensor<1x3x1xf16>
  return %0 : tensor<1x3x1xf16>
}

// Input (w, c) = [1 10][2 20][3 30]; kernel [k, c, o]: o0 sums everything,
// o1 takes c0 at k0, o2 takes -c1 at k1.
// CHAN: result[0]: 1x2x3xf64={{\[\[}}33 1 -20][55 2 -30]]
func.func @channels(%x: tensor<1x3x2xf64>, %k: tensor<2x2x3xf64>) -> tensor<1x2x3xf64> {
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<1x3x2xf64>, tensor<2x2x3xf64>) -> tensor<1x2x3xf64>
  return %0 : tensor<1x2x3xf64>
}

// Channels c0 = [[1 2][3 4]], c1 = [[10 20][30 40]]. Depthwise (2 groups):
// o0 = sum(c0) = 10, o1 = 0.5 * sum(c1) = 50. A 1x1 kernel summing channels:
// [[11 22][33 44]].
// C2: result[0]: 1x1x1x2xf32={{\[\[\[}}10 50]]]
// C2: result[1]: 1x2x2x1xf32={{\[\[\[}}11][22]]{{\[\[}}33][44]]]
func.func @conv2d(%x: tensor<1x2x2x2xf32>, %k: tensor<2x2x1x2xf32>, %p: tensor<1x1x2x1xf32>) -> (tensor<1x1x1x2xf32>, tensor<1x2x2x1xf32>) {
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 2 : (tensor<1x2x2x2xf32>, tensor<2x2x1x2xf32>) -> tensor<1x1x1x2xf32>
  %1 = xla.convolution %x, %p, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<1x2x2x2xf32>, tensor<1x1x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %0, %1 : tensor<1x1x1x2xf32>, tensor<1x2x2x1xf32>
}

// Two images [1 2 3] and [4 5 6], kernel [1 1].
// INT: result[0]: 2x2x1xi32={{\[\[}}3][5]]{{\[\[}}9][11]]
func.func @batch_int(%x: tensor<2x3x1xi32>, %k: tensor<2x1x1xi32>) -> tensor<2x2x1xi32> {
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<2x3x1xi32>, tensor<2x1x1xi32>) -> tensor<2x2x1xi32>
  return %0 : tensor<2x2x1xi32>
}
