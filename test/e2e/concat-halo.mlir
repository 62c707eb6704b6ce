// Concatenate along a split dimension by halo exchange, by moving whole
// blocks (two halves over 4 devices, in auto mode) or by gathering the
// operands that do not fit, in every halo mode, on divisible and
// uneven shards with 2 and 3 operands, against the single-device program
// (test/partition/concat-halo.mlir checks the collectives).
//
// RUN: %python %S/run_checks.py xla-run %s --halo=auto | FileCheck %s
// RUN: %python %S/run_checks.py xla-run %s --halo=always | FileCheck %s
// RUN: %python %S/run_checks.py xla-run %s --halo=never | FileCheck %s
// CHECK: checked 8 functions, 0 failed

xla.mesh @mesh = <["x"=2, "y"=2]>

func.func @append(%a: tensor<60x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %b: tensor<4x32xf32>)
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<60x32xf32>, tensor<4x32xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

func.func @uneven(%a: tensor<30x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %b: tensor<3x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<33x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<30x16xf32>, tensor<3x16xf32>) -> tensor<33x16xf32>
  return %c : tensor<33x16xf32>
}

func.func @three(%cls: tensor<1x32xf32>, %x: tensor<60x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %tail: tensor<3x32xf32>)
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %c = xla.concatenate %cls, %x, %tail, dim = 0 : (tensor<1x32xf32>, tensor<60x32xf32>, tensor<3x32xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

func.func @three_uneven_cols(%a: tensor<4x21xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}, %b: tensor<4x2xf32>, %c: tensor<4x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4x28xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = xla.concatenate %a, %b, %c, dim = 1 : (tensor<4x21xf32>, tensor<4x2xf32>, tensor<4x5xf32>) -> tensor<4x28xf32>
  return %r : tensor<4x28xf32>
}

func.func @halves(%a: tensor<32x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>}, %b: tensor<32x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<64x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<32x8xf32>, tensor<32x8xf32>) -> tensor<64x8xf32>
  return %c : tensor<64x8xf32>
}

func.func @i32_rows(%a: tensor<13x3xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %b: tensor<2x3xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<15x3xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %c = xla.concatenate %b, %a, dim = 0 : (tensor<2x3xi32>, tensor<13x3xi32>) -> tensor<15x3xi32>
  return %c : tensor<15x3xi32>
}

// Two halves over 4 devices: whole blocks moved two devices away (auto).
func.func @halves_four(%a: tensor<32x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %b: tensor<32x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<64x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// Uneven: the second operand's last block is padding, and one slot of the
// last result block receives nothing.
func.func @halves_four_uneven(%a: tensor<8x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %b: tensor<6x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<14x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<8x128xf32>, tensor<6x128xf32>) -> tensor<14x128xf32>
  return %c : tensor<14x128xf32>
}
