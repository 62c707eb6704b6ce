// Reductions (every kind) and softmax; expected values worked out by hand.
// RUN: xla-run %s --function=float_kinds --input=2x3xf32=1,2,3,4,5,6 | FileCheck %s --check-prefix=FLOAT
// RUN: xla-run %s --function=layouts --input=2x3x2xf64=0,1,2,3,4,5,6,7,8,9,10,11 | FileCheck %s --check-prefix=LAYOUT
// RUN: xla-run %s --function=int_kinds --input=4xi8=100,100,-3,5 --input=2x2xi32=12,10,6,3 --input=2x2xi1=1,1,0,1 | FileCheck %s --check-prefix=INT
// RUN: xla-run %s --function=empty | FileCheck %s --check-prefix=EMPTY
// RUN: xla-run %s --function=bf16_sum --input=5xbf16=1,0.001953125,0.001953125,0.001953125,0.001953125 | FileCheck %s --check-prefix=BF16
// RUN: xla-run %s --function=softmaxes --input=3xf32=1,2,3 --input=2x2xf16=0,0,1,2 \
// RUN:   --expected_output=3xf32=0.09003057317038046,0.24472847105479764,0.6652409557748219 \
// RUN:   --expected_output=2x2xf16=0.2689414213699951,0.11920292202211755,0.7310585786300049,0.8807970779778823 \
// RUN:   --expected_f32_threshold=1e-7 --expected_f16_threshold=5e-4 | FileCheck %s --check-prefix=SOFTMAX

// FLOAT: result[0]: 2xf32=6 15
// FLOAT: result[1]: 3xf32=5 7 9
// FLOAT: result[2]: f32=21
// FLOAT: result[3]: 2xf32=6 120
// FLOAT: result[4]: 3xf32=4 5 6
// FLOAT: result[5]: 2xf32=1 4
// FLOAT: result[6]: 2xf32=2 5
func.func @float_kinds(%a: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<3xf32>, tensor<f32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0 = xla.reduce sum %a, dims = [1] : (tensor<2x3xf32>) -> tensor<2xf32>
  %1 = xla.reduce sum %a, dims = [0] : (tensor<2x3xf32>) -> tensor<3xf32>
  %2 = xla.reduce sum %a, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<f32>
  %3 = xla.reduce prod %a, dims = [1] : (tensor<2x3xf32>) -> tensor<2xf32>
  %4 = xla.reduce max %a, dims = [0] : (tensor<2x3xf32>) -> tensor<3xf32>
  %5 = xla.reduce min %a, dims = [1] : (tensor<2x3xf32>) -> tensor<2xf32>
  %6 = xla.reduce mean %a, dims = [1] : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2xf32>, tensor<3xf32>, tensor<f32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xf32>
}

// in[a, b, c] = 6a + 2b + c. Reducing dims 0 and 2 (not adjacent):
// b = 0: 0+1+6+7, b = 1: 2+3+8+9, b = 2: 4+5+10+11.
// LAYOUT: result[0]: 3xf64=14 22 30
// Reducing dim 1 (middle): [a, c] sums 0+2+4 (+6a, +c).
// LAYOUT: result[1]: 2x2xf64=[6 9][24 27]
// LAYOUT: result[2]: 2x3xf64=[1 5 9][13 17 21]
func.func @layouts(%a: tensor<2x3x2xf64>) -> (tensor<3xf64>, tensor<2x2xf64>, tensor<2x3xf64>) {
  %0 = xla.reduce sum %a, dims = [0, 2] : (tensor<2x3x2xf64>) -> tensor<3xf64>
  %1 = xla.reduce sum %a, dims = [1] : (tensor<2x3x2xf64>) -> tensor<2x2xf64>
  %2 = xla.reduce sum %a, dims = [2] : (tensor<2x3x2xf64>) -> tensor<2x3xf64>
  return %0, %1, %2 : tensor<3xf64>, tensor<2x2xf64>, tensor<2x3xf64>
}

// i8 sums wrap: 100 + 100 - 3 + 5 = 202 -> -54; 100*100*-3*5 = -150000 -> 16.
// INT: result[0]: i8=-54
// INT: result[1]: i8=16
// INT: result[2]: i8=-3
// 12 & 10 = 8, 6 & 3 = 2; 12 | 6 = 14, 10 | 3 = 11.
// INT: result[3]: 2xi32=8 2
// INT: result[4]: 2xi32=14 11
// i1 [[1 1][0 1]]: and over dim 1 = [1 0], or over dim 0 = [1 1],
// min over dim 0 = [0 1], max over dim 1 = [1 1].
// INT: result[5]: 2xi1=1 0
// INT: result[6]: 2xi1=1 1
// INT: result[7]: 2xi1=0 1
// INT: result[8]: 2xi1=1 1
func.func @int_kinds(%a: tensor<4xi8>, %b: tensor<2x2xi32>, %c: tensor<2x2xi1>) -> (tensor<i8>, tensor<i8>, tensor<i8>, tensor<2xi32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %0 = xla.reduce sum %a, dims = [0] : (tensor<4xi8>) -> tensor<i8>
  %1 = xla.reduce prod %a, dims = [0] : (tensor<4xi8>) -> tensor<i8>
  %2 = xla.reduce min %a, dims = [0] : (tensor<4xi8>) -> tensor<i8>
  %3 = xla.reduce and %b, dims = [1] : (tensor<2x2xi32>) -> tensor<2xi32>
  %4 = xla.reduce or %b, dims = [0] : (tensor<2x2xi32>) -> tensor<2xi32>
  %5 = xla.reduce and %c, dims = [1] : (tensor<2x2xi1>) -> tensor<2xi1>
  %6 = xla.reduce or %c, dims = [0] : (tensor<2x2xi1>) -> tensor<2xi1>
  %7 = xla.reduce min %c, dims = [0] : (tensor<2x2xi1>) -> tensor<2xi1>
  %8 = xla.reduce max %c, dims = [1] : (tensor<2x2xi1>) -> tensor<2xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<i8>, tensor<i8>, tensor<i8>, tensor<2xi32>, tensor<2xi32>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// Empty reductions give the identity (mean: 0/0).
// EMPTY: result[0]: 3xf32=0 0 0
// EMPTY: result[1]: 3xf32=-inf -inf -inf
// EMPTY: result[2]: 3xi32=1 1 1
// EMPTY: result[3]: 3xf32=nan nan nan
// EMPTY: result[4]: 3xi1=1 1 1
func.func @empty() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xi1>) {
  %z = xla.constant dense<0.0> : tensor<0x3xf32>
  %i = xla.constant dense<0> : tensor<0x3xi32>
  %p = xla.constant dense<false> : tensor<0x3xi1>
  %0 = xla.reduce sum %z, dims = [0] : (tensor<0x3xf32>) -> tensor<3xf32>
  %1 = xla.reduce max %z, dims = [0] : (tensor<0x3xf32>) -> tensor<3xf32>
  %2 = xla.reduce prod %i, dims = [0] : (tensor<0x3xi32>) -> tensor<3xi32>
  %3 = xla.reduce mean %z, dims = [0] : (tensor<0x3xf32>) -> tensor<3xf32>
  %4 = xla.reduce and %p, dims = [0] : (tensor<0x3xi1>) -> tensor<3xi1>
  return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xi1>
}

// bf16 accumulates in f32: 1 + 4 * 2^-9 = 1 + 2^-7 is a bf16 value (printed 1.01, the shortest
// decimal that reads back to it);
// accumulating in bf16 would round 1 + 2^-9 back to 1 at every step.
// BF16: result[0]: bf16=1.01
func.func @bf16_sum(%a: tensor<5xbf16>) -> tensor<bf16> {
  %0 = xla.reduce sum %a, dims = [0] : (tensor<5xbf16>) -> tensor<bf16>
  return %0 : tensor<bf16>
}

// softmax([1, 2, 3]) = e^(x-3) / sum; columns of [[0 0][1 2]] along dim 0.
// SOFTMAX: [SUCCESS]
func.func @softmaxes(%a: tensor<3xf32>, %b: tensor<2x2xf16>) -> (tensor<3xf32>, tensor<2x2xf16>) {
  %0 = xla.softmax %a, dim = 0 : tensor<3xf32>
  %1 = xla.softmax %b, dim = 0 : tensor<2x2xf16>
  return %0, %1 : tensor<3xf32>, tensor<2x2xf16>
}
