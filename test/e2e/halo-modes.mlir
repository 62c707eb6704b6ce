// Halo exchange forced on, off, or by cost: every mode computes the same
// numbers as the single-device program (test/partition/halo-modes.mlir
// checks which collectives each mode emits).
//
// RUN: %python %S/run_checks.py xla-run %s --halo=auto | FileCheck %s
// RUN: %python %S/run_checks.py xla-run %s --halo=always | FileCheck %s
// RUN: %python %S/run_checks.py xla-run %s --halo=never | FileCheck %s
// CHECK: checked 6 functions, 0 failed

xla.mesh @mesh = <["x"=4]>

func.func @shift_down(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [1, 0], high = [-1, 0], interior = [0, 0], value = 0.0 : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %p : tensor<64x32xf32>
}

func.func @slice_offset(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<60x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %s = xla.slice %a, start = [1, 0], limit = [61, 32], strides = [1, 1] : (tensor<64x32xf32>) -> tensor<60x32xf32>
  return %s : tensor<60x32xf32>
}

func.func @strided_slice_uneven(%a: tensor<30x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<13x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %s = xla.slice %a, start = [2, 0], limit = [28, 8], strides = [2, 1] : (tensor<30x8xf32>) -> tensor<13x8xf32>
  return %s : tensor<13x8xf32>
}

func.func @edge_pad(%a: tensor<10x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<13x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [2, 0], high = [1, 0], interior = [0, 0], value = 7.0 : (tensor<10x3xf32>) -> tensor<13x3xf32>
  return %p : tensor<13x3xf32>
}

func.func @too_wide(%a: tensor<8x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [1, 0], high = [1, 0], interior = [0, 0], value = 0.0 : (tensor<8x2xf32>) -> tensor<10x2xf32>
  return %p : tensor<10x2xf32>
}

func.func @conv_rows(%in: tensor<2x16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>},
                     %k: tensor<3x8x4xf32>)
    -> (tensor<2x16x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %c = xla.convolution %in, %k, strides = [1], padding = [[1, 1]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<2x16x8xf32>, tensor<3x8x4xf32>) -> tensor<2x16x4xf32>
  return %c : tensor<2x16x4xf32>
}
