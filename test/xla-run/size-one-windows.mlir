// Slices, pads and convolutions that cut a sharded dimension down to one
// element: the rule replicates the operand's dimension and the partitioned
// program computes the single-device result.
//
// RUN: xla-run %s --function=slice_one --check --seed=3 | FileCheck %s
// RUN: xla-run %s --function=pad_one --check --seed=4 | FileCheck %s
// RUN: xla-run %s --function=conv_one --check --seed=5 | FileCheck %s
// CHECK: [SUCCESS]

xla.mesh @mesh = <["a"=2, "b"=2]>

func.func @slice_one(%x: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x1xf32> {
  %0 = xla.slice %x, start = [0, 2], limit = [8, 3], strides = [1, 1] : (tensor<8x4xf32>) -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}

func.func @pad_one(%x: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {"b"}]>}) -> tensor<8x1xf32> {
  %0 = xla.pad %x, low = [0, -3], high = [0, 0], interior = [0, 0], value = 0.0 : (tensor<8x4xf32>) -> tensor<8x1xf32>
  return %0 : tensor<8x1xf32>
}

func.func @conv_one(%x: tensor<4x3x3x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {"b"}, {}, {}]>},
                    %k: tensor<3x3x2x4xf32>) -> tensor<4x1x1x4xf32> {
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<4x3x3x2xf32>, tensor<3x3x2x4xf32>) -> tensor<4x1x1x4xf32>
  return %0 : tensor<4x1x1x4xf32>
}
