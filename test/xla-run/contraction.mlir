// dot_general, matmul and einsum on every numeric type; expected values
// worked out by hand.
// RUN: xla-run %s --function=dots --input=2x3xf32=1,2,3,4,5,6 --input=3x2xf32=1,0,0,1,1,1 --input=2x2x3xf32=1,2,3,4,5,6,7,8,9,10,11,12 --input=2x3x1xf32=1,1,1,1,0,-1 --input=3x2xf32=1,2,3,4,5,6 | FileCheck %s --check-prefix=DOT
// RUN: xla-run %s --function=matmuls --input=2x2x3xf32=1,2,3,4,5,6,7,8,9,10,11,12 --input=3x2xf32=1,0,0,1,1,1 --input=2x1x2xf32=1,2,3,4 --input=2x2x1xf32=1,1,2,0 | FileCheck %s --check-prefix=MATMUL
// RUN: xla-run %s --function=einsums --input=2x3xf32=1,2,3,4,5,6 --input=3x2xf32=1,0,0,1,1,1 --input=2x2xf32=1,2,3,4 --input=2x2xf32=5,6,7,8 --input=2xf32=1,2 --input=3xf32=3,4,5 | FileCheck %s --check-prefix=EINSUM
// RUN: xla-run %s --function=integers --input=1x2xi8=100,100 --input=2x1xi8=2,1 --input=2x2xi32=1,2,3,4 --input=2x2xi64=4294967296,1,1,1 | FileCheck %s --check-prefix=INT
// RUN: xla-run %s --function=floats --input=1x2xbf16=1,1 --input=2x1xbf16=1.0078125,0.00390625 --input=1x2xf16=1,1 --input=2x1xf16=1.0009765625,0.00048828125 --input=2x2xf64=0.5,0.25,1.5,2 | FileCheck %s --check-prefix=FLOAT

// DOT: result[0]: 2x2xf32=[4 5][10 11]
// DOT: result[1]: 2x2x1xf32={{\[\[}}6][15]]{{\[\[}}-2][-2]]
// lhs contracted over its dim 0: a^T b.
// DOT: result[2]: 2x2xf32=[6 8][8 10]
func.func @dots(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2x3xf32>, %d: tensor<2x3x1xf32>, %e: tensor<3x2xf32>) -> (tensor<2x2xf32>, tensor<2x2x1xf32>, tensor<2x2xf32>) {
  %0 = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %1 = xla.dot_general %c, %d, batch = [0] x [0], contract = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x1xf32>) -> tensor<2x2x1xf32>
  %2 = xla.dot_general %e, %b, batch = [] x [], contract = [0] x [0] : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2x1xf32>, tensor<2x2xf32>
}

// A matrix rhs applies to every leading index; equal ranks batch.
// MATMUL: result[0]: 2x2x2xf32={{\[\[}}4 5][10 11]]{{\[\[}}16 17][22 23]]
// MATMUL: result[1]: 2x1x1xf32={{\[\[}}3]]{{\[\[}}6]]
func.func @matmuls(%a: tensor<2x2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x1x2xf32>, %d: tensor<2x2x1xf32>) -> (tensor<2x2x2xf32>, tensor<2x1x1xf32>) {
  %0 = xla.matmul %a, %b : (tensor<2x2x3xf32>, tensor<3x2xf32>) -> tensor<2x2x2xf32>
  %1 = xla.matmul %c, %d : (tensor<2x1x2xf32>, tensor<2x2x1xf32>) -> tensor<2x1x1xf32>
  return %0, %1 : tensor<2x2x2xf32>, tensor<2x1x1xf32>
}

// EINSUM: result[0]: 2x2xf32=[4 10][5 11]
// Label i appears only in the lhs: summed first (column sums 5 7 9).
// EINSUM: result[1]: 2xf32=14 16
// EINSUM: result[2]: 2xf32=17 53
// EINSUM: result[3]: 2x3xf32=[3 4 5][6 8 10]
func.func @einsums(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2xf32>, %d: tensor<2x2xf32>, %u: tensor<2xf32>, %v: tensor<3xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>) {
  %0 = xla.einsum "ij,jk->ki" %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %1 = xla.einsum "ij,jk->k" %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2xf32>
  %2 = xla.einsum "bi,bi->b" %c, %d : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2xf32>
  %3 = xla.einsum "i,j->ij" %u, %v : (tensor<2xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x3xf32>
}

// i8: 100*2 + 100*1 = 300 wraps to 44. i64: 2^32 * 2^32 + 1 wraps to 1.
// (The outermost dimension prints without brackets: 1x1 is [44].)
// INT: result[0]: 1x1xi8=[44]
// INT: result[1]: 2x2xi32=[7 10][15 22]
// INT: result[2]: 2x2xi64=[1 4294967297][4294967297 2]
func.func @integers(%a: tensor<1x2xi8>, %b: tensor<2x1xi8>, %c: tensor<2x2xi32>, %d: tensor<2x2xi64>) -> (tensor<1x1xi8>, tensor<2x2xi32>, tensor<2x2xi64>) {
  %0 = xla.matmul %a, %b : (tensor<1x2xi8>, tensor<2x1xi8>) -> tensor<1x1xi8>
  %1 = xla.matmul %c, %c : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %2 = xla.matmul %d, %d : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi64>
  return %0, %1, %2 : tensor<1x1xi8>, tensor<2x2xi32>, tensor<2x2xi64>
}

// 16-bit floats accumulate in f32 and round once to nearest even:
// bf16 1.0078125 + 2^-8 = 1.01171875, a tie between 1.0078125 (odd) and
// 1.015625 (even): 1.015625, printed 1.016 (truncation would give 1.0078125).
// f16 1.0009765625 + 2^-11 ties likewise up to 1.001953125, printed 1.002.
// FLOAT: result[0]: 1x1xbf16=[1.016]
// FLOAT: result[1]: 1x1xf16=[1.002]
// FLOAT: result[2]: 2x2xf64=[0.625 0.625][3.75 4.375]
func.func @floats(%a: tensor<1x2xbf16>, %b: tensor<2x1xbf16>, %c: tensor<1x2xf16>, %d: tensor<2x1xf16>, %e: tensor<2x2xf64>) -> (tensor<1x1xbf16>, tensor<1x1xf16>, tensor<2x2xf64>) {
  %0 = xla.matmul %a, %b : (tensor<1x2xbf16>, tensor<2x1xbf16>) -> tensor<1x1xbf16>
  %1 = xla.matmul %c, %d : (tensor<1x2xf16>, tensor<2x1xf16>) -> tensor<1x1xf16>
  %2 = xla.matmul %e, %e : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0, %1, %2 : tensor<1x1xbf16>, tensor<1x1xf16>, tensor<2x2xf64>
}
