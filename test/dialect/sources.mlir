// Round trip of the source ops: constant, iota, rng (global and local
// forms), partition_id and axis_index.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

xla.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func.func @constants
// CHECK: xla.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK: xla.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK: xla.constant dense<true> : tensor<i1>
// CHECK: xla.constant dense<{{\[}}[1.000000e+00, 2.000000e+00]]> : tensor<1x2xbf16>
// CHECK: xla.constant dense<7> : tensor<4xi64>
// CHECK: xla.constant dense<-1> : tensor<2xi8>
// CHECK: xla.constant dense<5.000000e-01> : tensor<f16>
// CHECK: xla.constant dense<2.500000e+00> : tensor<2xf64>
func.func @constants() {
  %0 = xla.constant dense<1.0> : tensor<2x3xf32>
  %1 = xla.constant dense<[1, 2, 3]> : tensor<3xi32>
  %2 = xla.constant dense<true> : tensor<i1>
  %3 = xla.constant dense<[[1.0, 2.0]]> : tensor<1x2xbf16>
  %4 = xla.constant dense<7> : tensor<4xi64>
  %5 = xla.constant dense<-1> : tensor<2xi8>
  %6 = xla.constant dense<0.5> : tensor<f16>
  %7 = xla.constant dense<2.5> : tensor<2xf64>
  return
}

// CHECK-LABEL: func.func @iota
// CHECK: xla.iota dim = 0 : tensor<8xi32>
// CHECK: xla.iota dim = 1 : tensor<4x16xf32>
// CHECK: xla.iota dim = 2 : tensor<2x3x4xi64>
func.func @iota() {
  %0 = xla.iota dim = 0 : tensor<8xi32>
  %1 = xla.iota dim = 1 : tensor<4x16xf32>
  %2 = xla.iota dim = 2 : tensor<2x3x4xi64>
  return
}

// CHECK-LABEL: func.func @rng
// CHECK-SAME: (%[[OFF:.*]]: tensor<2xi64>, %[[OFF32:.*]]: tensor<2xi32>)
// CHECK: xla.rng uniform seed = 0, a = 0.000000e+00, b = 1.000000e+00 : tensor<8x4xf32>
// CHECK: xla.rng normal seed = 3, a = 0.000000e+00, b = 2.000000e-02 : tensor<8x4xbf16>
// CHECK: xla.rng uniform seed = 42, a = -1.000000e+00, b = 1.000000e+00 : tensor<16xf64>
// A partitioned program draws its local block of the global tensor.
// CHECK: xla.rng normal seed = 3, a = 0.000000e+00, b = 1.000000e+00 in [8, 4] at %[[OFF]] : tensor<2xi64> : tensor<2x4xf32>
// CHECK: xla.rng uniform seed = 7, a = 0.000000e+00, b = 1.000000e+00 in [8, 8] at %[[OFF32]] : tensor<2xi32> : tensor<8x8xf16>
func.func @rng(%off: tensor<2xi64>, %off32: tensor<2xi32>) {
  %0 = xla.rng uniform seed = 0, a = 0.0, b = 1.0 : tensor<8x4xf32>
  %1 = xla.rng normal seed = 3, a = 0.0, b = 0.02 : tensor<8x4xbf16>
  %2 = xla.rng uniform seed = 42, a = -1.0, b = 1.0 : tensor<16xf64>
  %3 = xla.rng normal seed = 3, a = 0.0, b = 1.0 in [8, 4] at %off : tensor<2xi64> : tensor<2x4xf32>
  %4 = xla.rng uniform seed = 7, a = 0.0, b = 1.0 in [8, 8] at %off32 : tensor<2xi32> : tensor<8x8xf16>
  return
}

// CHECK-LABEL: func.func @device_coordinates
// CHECK: %[[PID:.*]] = xla.partition_id : tensor<i32>
// CHECK: %[[DATA:.*]] = xla.axis_index @mesh["data"] : tensor<i32>
// CHECK: %[[MODEL:.*]] = xla.axis_index @mesh["model"] : tensor<i32>
// CHECK: return %[[PID]], %[[DATA]], %[[MODEL]]
func.func @device_coordinates() -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %0 = xla.partition_id : tensor<i32>
  %1 = xla.axis_index @mesh["data"] : tensor<i32>
  %2 = xla.axis_index @mesh["model"] : tensor<i32>
  return %0, %1, %2 : tensor<i32>, tensor<i32>, tensor<i32>
}
