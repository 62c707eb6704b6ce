// Shape and indexing ops; expected values worked out by hand.
// RUN: xla-run %s --function=broadcast --input=3xf32=1,2,3 --input=2x1xi32=5,6 | FileCheck %s --check-prefix=BCAST
// RUN: xla-run %s --function=reshape_transpose --input=2x3xf32=1,2,3,4,5,6 --input=2x2x2xi8=0,1,2,3,4,5,6,7 | FileCheck %s --check-prefix=TRANS
// RUN: xla-run %s --function=slices --input=10xi64=0,1,2,3,4,5,6,7,8,9 --input=3x4xf16=0,1,2,3,4,5,6,7,8,9,10,11 | FileCheck %s --check-prefix=SLICE
// RUN: xla-run %s --function=dynamic --input=10xi32=0,1,2,3,4,5,6,7,8,9 --input=2xi32=90,91 | FileCheck %s --check-prefix=DYN
// RUN: xla-run %s --function=concat --input=2xbf16=1,2 --input=1xbf16=3 --input=2x1xf64=1,2 --input=2x2xf64=3,4,5,6 | FileCheck %s --check-prefix=CONCAT
// RUN: xla-run %s --function=pads --input=3xf32=1,2,3 --input=4xi32=1,2,3,4 | FileCheck %s --check-prefix=PAD
// RUN: xla-run %s --function=gathers --input=3x2xf32=1,2,3,4,5,6 --input=4xi32=2,0,5,-1 --input=2x2xi64=1,1,0,9 | FileCheck %s --check-prefix=GATHER
// RUN: xla-run %s --function=iotas | FileCheck %s --check-prefix=IOTA
// RUN: xla-run %s --function=mark --input=2xf32=1,2 | FileCheck %s --check-prefix=MARK

xla.mesh @mesh = <["x"=2]>

// BCAST: result[0]: 2x3xf32=[1 2 3][1 2 3]
// BCAST: result[1]: 2x3xi32=[5 5 5][6 6 6]
func.func @broadcast(%a: tensor<3xf32>, %b: tensor<2x1xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0 = xla.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = xla.broadcast_in_dim %b, dims = [0, 1] : (tensor<2x1xi32>) -> tensor<2x3xi32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// TRANS: result[0]: 3x2xf32=[1 2][3 4][5 6]
// TRANS: result[1]: 3x2xf32=[1 4][2 5][3 6]
// result[i, j, k] = in[j, k, i] with in[a, b, c] = 4a + 2b + c.
// TRANS: result[2]: 2x2x2xi8={{\[\[}}0 2][4 6]]{{\[\[}}1 3][5 7]]
func.func @reshape_transpose(%a: tensor<2x3xf32>, %b: tensor<2x2x2xi8>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x2x2xi8>) {
  %0 = xla.reshape %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = xla.transpose %a, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = xla.transpose %b, permutation = [2, 0, 1] : (tensor<2x2x2xi8>) -> tensor<2x2x2xi8>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<2x2x2xi8>
}

// SLICE: result[0]: 3xi64=1 4 7
// SLICE: result[1]: 2x2xf16=[4 6][8 10]
func.func @slices(%a: tensor<10xi64>, %b: tensor<3x4xf16>) -> (tensor<3xi64>, tensor<2x2xf16>) {
  %0 = xla.slice %a, start = [1], limit = [8], strides = [3] : (tensor<10xi64>) -> tensor<3xi64>
  %1 = xla.slice %b, start = [1, 0], limit = [3, 4], strides = [1, 2] : (tensor<3x4xf16>) -> tensor<2x2xf16>
  return %0, %1 : tensor<3xi64>, tensor<2x2xf16>
}

// Offsets are clamped into [0, dim - size].
// DYN: result[0]: 4xi32=6 7 8 9
// DYN: result[1]: 4xi32=0 1 2 3
// DYN: result[2]: 4xi32=3 4 5 6
// DYN: result[3]: 10xi32=0 1 2 3 4 5 6 7 90 91
// DYN: result[4]: 10xi32=0 90 91 3 4 5 6 7 8 9
func.func @dynamic(%a: tensor<10xi32>, %u: tensor<2xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<10xi32>, tensor<10xi32>) {
  %seven = xla.constant dense<7> : tensor<i32>
  %minus = xla.constant dense<-2> : tensor<i64>
  %three = xla.constant dense<3> : tensor<i64>
  %one = xla.constant dense<1> : tensor<i32>
  %nine = xla.constant dense<9> : tensor<i32>
  %0 = xla.dynamic_slice %a[%seven], sizes = [4] : (tensor<10xi32>, tensor<i32>) -> tensor<4xi32>
  %1 = xla.dynamic_slice %a[%minus], sizes = [4] : (tensor<10xi32>, tensor<i64>) -> tensor<4xi32>
  %2 = xla.dynamic_slice %a[%three], sizes = [4] : (tensor<10xi32>, tensor<i64>) -> tensor<4xi32>
  %3 = xla.dynamic_update_slice %a, %u[%nine] : (tensor<10xi32>, tensor<2xi32>, tensor<i32>) -> tensor<10xi32>
  %4 = xla.dynamic_update_slice %a, %u[%one] : (tensor<10xi32>, tensor<2xi32>, tensor<i32>) -> tensor<10xi32>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<10xi32>, tensor<10xi32>
}

// The generic form: the custom one of xla.concatenate does not parse yet
// (variadic operands followed by `, dim`).
// CONCAT: result[0]: 5xbf16=1 2 3 1 2
// CONCAT: result[1]: 2x3xf64=[1 3 4][2 5 6]
func.func @concat(%a: tensor<2xbf16>, %b: tensor<1xbf16>, %c: tensor<2x1xf64>, %d: tensor<2x2xf64>) -> (tensor<5xbf16>, tensor<2x3xf64>) {
  %0 = "xla.concatenate"(%a, %b, %a) <{dim = 0 : i64}> : (tensor<2xbf16>, tensor<1xbf16>, tensor<2xbf16>) -> tensor<5xbf16>
  %1 = "xla.concatenate"(%c, %d) <{dim = 1 : i64}> : (tensor<2x1xf64>, tensor<2x2xf64>) -> tensor<2x3xf64>
  return %0, %1 : tensor<5xbf16>, tensor<2x3xf64>
}

// Interior padding, then edges; negative edges cut.
// PAD: result[0]: 8xf32=0.5 1 0.5 2 0.5 3 0.5 0.5
// PAD: result[1]: 2xi32=2 3
// [1 v 2 v 3 v 4] without its first two elements, then one v: v = -7.
// PAD: result[2]: 6xi32=2 -7 3 -7 4 -7
// PAD: result[3]: 0xi32=
func.func @pads(%a: tensor<3xf32>, %b: tensor<4xi32>) -> (tensor<8xf32>, tensor<2xi32>, tensor<6xi32>, tensor<0xi32>) {
  %0 = xla.pad %a, low = [1], high = [2], interior = [1], value = 5.000000e-01 : (tensor<3xf32>) -> tensor<8xf32>
  %1 = xla.pad %b, low = [-1], high = [-1], interior = [0], value = 0.000000e+00 : (tensor<4xi32>) -> tensor<2xi32>
  %2 = xla.pad %b, low = [-2], high = [1], interior = [1], value = -7.000000e+00 : (tensor<4xi32>) -> tensor<6xi32>
  %3 = xla.pad %b, low = [-4], high = [0], interior = [0], value = 0.000000e+00 : (tensor<4xi32>) -> tensor<0xi32>
  return %0, %1, %2, %3 : tensor<8xf32>, tensor<2xi32>, tensor<6xi32>, tensor<0xi32>
}

// Indices 5 and -1 clamp to 2 and 0; 9 clamps to 2.
// GATHER: result[0]: 4x2xf32=[5 6][1 2][5 6][1 2]
// GATHER: result[1]: 2x2x2xf32={{\[\[}}3 4][3 4]]{{\[\[}}1 2][5 6]]
func.func @gathers(%t: tensor<3x2xf32>, %i: tensor<4xi32>, %j: tensor<2x2xi64>) -> (tensor<4x2xf32>, tensor<2x2x2xf32>) {
  %0 = xla.gather %t, %i : (tensor<3x2xf32>, tensor<4xi32>) -> tensor<4x2xf32>
  %1 = xla.gather %t, %j : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<2x2x2xf32>
}

// IOTA: result[0]: 2x3xi32=[0 1 2][0 1 2]
// IOTA: result[1]: 2x3xf32=[0 0 0][1 1 1]
// IOTA: result[2]: 4xbf16=0 1 2 3
// IOTA: result[3]: 3xi8=0 1 2
func.func @iotas() -> (tensor<2x3xi32>, tensor<2x3xf32>, tensor<4xbf16>, tensor<3xi8>) {
  %0 = xla.iota dim = 1 : tensor<2x3xi32>
  %1 = xla.iota dim = 0 : tensor<2x3xf32>
  %2 = xla.iota dim = 0 : tensor<4xbf16>
  %3 = xla.iota dim = 0 : tensor<3xi8>
  return %0, %1, %2, %3 : tensor<2x3xi32>, tensor<2x3xf32>, tensor<4xbf16>, tensor<3xi8>
}

// mark_sharding is the identity on values.
// MARK: result[0]: 2xf32=1 2
func.func @mark(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.mark_sharding %a <@mesh, [{"x"}]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
