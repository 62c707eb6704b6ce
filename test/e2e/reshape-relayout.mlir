// Reshapes to a new sharded layout (one all-to-all over several axes, a
// flat halo exchange between contiguous blocks) against the single-device
// program; test/partition/reshape-relayout.mlir checks the collectives.
//
// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s
// RUN: %python %S/run_checks.py xla-run %s --halo=never | FileCheck %s
// CHECK: checked 6 functions, 0 failed

xla.mesh @grid = <["x"=2, "y"=2]>

func.func @rows_to_cols(%a: tensor<4x32xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<16x8xf32> {xla.sharding = #xla.sharding<@grid, [{}, {"x", "y"}]>}) {
  %r = xla.reshape %a : (tensor<4x32xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

func.func @cols_to_flat_two_axes(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@grid, [{}, {"x", "y"}]>})
    -> (tensor<128xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}]>}) {
  %r = xla.reshape %a : (tensor<8x16xf32>) -> tensor<128xf32>
  return %r : tensor<128xf32>
}

func.func @transpose_split_two_axes(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@grid, [{"y", "x"}, {}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@grid, [{}, {"y", "x"}]>}) {
  return %a : tensor<8x8xf32>
}

func.func @rows_regrouped(%a: tensor<10x6xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<6x10xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>}) {
  %r = xla.reshape %a : (tensor<10x6xf32>) -> tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}

func.func @rows_regrouped_wide(%a: tensor<10x64xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<20x32xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>}) {
  %r = xla.reshape %a : (tensor<10x64xf32>) -> tensor<20x32xf32>
  return %r : tensor<20x32xf32>
}

func.func @rows_regrouped_i32_3d(%a: tensor<1x7x6xi32> {xla.sharding = #xla.sharding<@grid, [{}, {"y"}, {}]>})
    -> (tensor<1x3x14xi32> {xla.sharding = #xla.sharding<@grid, [{}, {"y"}, {}]>}) {
  %r = xla.reshape %a : (tensor<1x7x6xi32>) -> tensor<1x3x14xi32>
  return %r : tensor<1x3x14xi32>
}
