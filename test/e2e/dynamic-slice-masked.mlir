// dynamic_slice of part of a split dimension by masked local slices and
// one reduction, at offsets inside a block, across blocks, into the
// padding of uneven blocks, and out of range (clamped), against the
// single-device program (test/partition/dynamic-slice.mlir checks the
// collectives).
//
// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s
// CHECK: checked 6 functions, 0 failed

xla.mesh @grid = <["x"=2, "y"=2]>

func.func @inside_block(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@grid, [{}, {}]>}) {
  %i = xla.constant dense<17> : tensor<i32>
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [8, 32] : (tensor<64x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return %s : tensor<8x32xf32>
}

func.func @across_blocks(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@grid, [{}, {"y"}]>}) {
  %i = xla.constant dense<13> : tensor<i32>
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [8, 32] : (tensor<64x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return %s : tensor<8x32xf32>
}

func.func @uneven_end(%a: tensor<30x16xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<5x16xf32> {xla.sharding = #xla.sharding<@grid, [{}, {}]>}) {
  %i = xla.constant dense<25> : tensor<i64>
  %z = xla.constant dense<0> : tensor<i64>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [5, 16] : (tensor<30x16xf32>, tensor<i64>, tensor<i64>) -> tensor<5x16xf32>
  return %s : tensor<5x16xf32>
}

func.func @clamped_high(%a: tensor<30x16xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<5x16xf32> {xla.sharding = #xla.sharding<@grid, [{}, {}]>}) {
  %i = xla.constant dense<99> : tensor<i32>
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [5, 16] : (tensor<30x16xf32>, tensor<i32>, tensor<i32>) -> tensor<5x16xf32>
  return %s : tensor<5x16xf32>
}

func.func @clamped_low_two_dims(%a: tensor<30x64xf32> {xla.sharding = #xla.sharding<@grid, [{"x"}, {"y"}]>})
    -> (tensor<3x5xf32> {xla.sharding = #xla.sharding<@grid, [{}, {}]>}) {
  %i = xla.constant dense<-4> : tensor<i32>
  %j = xla.constant dense<30> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %j], sizes = [3, 5] : (tensor<30x64xf32>, tensor<i32>, tensor<i32>) -> tensor<3x5xf32>
  return %s : tensor<3x5xf32>
}

func.func @int_rows(%a: tensor<30x4xi32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>}, %i: tensor<i32>)
    -> (tensor<3x4xi32> {xla.sharding = #xla.sharding<@grid, [{}, {}]>}) {
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [3, 4] : (tensor<30x4xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xi32>
  return %s : tensor<3x4xi32>
}
