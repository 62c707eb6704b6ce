// Per-device programs the simulator refuses, with a located error.

// RUN: not xla-run %s --function=nested 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not xla-run %s --function=table_size 2>&1 | FileCheck %s --check-prefix=TABLE

// A dispatch runs only as the whole body of an entry.
// NESTED: run-errors.mlir:[[# @LINE + 3]]:8: error: 'xla.dispatch' op selects a body per device; the simulator runs it as the whole body of an entry function that returns the dispatch of its arguments
// NESTED: xla-run: error: cannot run @nested on the simulator (see the diagnostics above)
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.dispatch [@body](%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = xla.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @body(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 1>} {
  %0 = xla.all_reduce sum %x groups = [[0, 1]] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Without a mesh the replica groups say the run has 2 devices.
// TABLE: run-errors.mlir:[[# @LINE + 2]]:8: error: 'xla.device_table' op holds 4 values but the program runs on 2 devices
func.func @table_size(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = xla.device_table [0, 1, 2, 3] : tensor<i32>
  %1 = xla.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %2 = xla.add %x, %1 : tensor<4xi32>
  %3 = xla.all_reduce sum %2 groups = [[0, 1]] : tensor<4xi32>
  return %3 : tensor<4xi32>
}
