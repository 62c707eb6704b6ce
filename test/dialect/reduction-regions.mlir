// Round trip of the reductions with a computation: reduce_region,
// reduce_window and select_and_scatter.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// CHECK-LABEL: func.func @argmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[I:.*]]: tensor<4x8xi32>)
// CHECK: %[[NINF:.*]] = xla.constant dense<0xFF800000> : tensor<f32>
// CHECK: %[[ZERO:.*]] = xla.constant dense<0> : tensor<i32>
// CHECK: %{{.*}}:2 = xla.reduce_region(%[[X]], %[[I]]) init(%[[NINF]], %[[ZERO]]) dims = [1] {
// CHECK-NEXT: ^bb0(%[[AV:.*]]: tensor<f32>, %[[AI:.*]]: tensor<i32>, %[[BV:.*]]: tensor<f32>, %[[BI:.*]]: tensor<i32>):
// CHECK-NEXT: %[[GT:.*]] = xla.compare gt, %[[AV]], %[[BV]] : tensor<f32>
// CHECK: xla.yield %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
// CHECK-NEXT: } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
func.func @argmax(%x: tensor<4x8xf32>, %iota: tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %eq = xla.compare eq, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %lo = xla.min %ai, %bi : tensor<i32>
    %t = xla.select %eq, %lo, %bi : tensor<i32>
    %mi = xla.select %gt, %ai, %t : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %v, %i : tensor<4xf32>, tensor<4xi32>
}

// A single-input sum over every dimension, with a sharding annotation.
// CHECK-LABEL: func.func @sum_all
// CHECK: xla.reduce_region(%{{.*}}) init(%{{.*}}) dims = [0, 1] {
// CHECK: } {xla.sharding = #xla.sharding<@mesh, []>} : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<bf16>
xla.mesh @mesh = <["x"=2]>
func.func @sum_all(%x: tensor<4x8xbf16>) -> tensor<bf16> {
  %zero = xla.constant dense<0.0> : tensor<bf16>
  %s = xla.reduce_region(%x) init(%zero) dims = [0, 1] {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %0 = xla.add %a, %b : tensor<bf16>
    xla.yield %0 : tensor<bf16>
  } {xla.sharding = #xla.sharding<@mesh, []>} : (tensor<4x8xbf16>, tensor<bf16>) -> tensor<bf16>
  return %s : tensor<bf16>
}

// CHECK-LABEL: func.func @cumsum
// CHECK: xla.reduce_window(%{{.*}}) init(%{{.*}}) window_dimensions = [1, 8], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = {{\[}}[0, 0], [7, 0]] {
// CHECK: } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
func.func @cumsum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %c = xla.reduce_window(%x) init(%zero) window_dimensions = [1, 8], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [7, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// Strides, dilations and padding all change the result shape: dim 0 is
// (8 - 1) * 2 + 1 = 15 dilated, 17 padded, (17 - 3) / 2 + 1 = 8 windows;
// dim 1 has a 2-wide window dilated to 3: (6 - 3) / 1 + 1 = 4.
// CHECK-LABEL: func.func @max_pool_dilated
// CHECK: xla.reduce_window(%{{.*}}, %{{.*}}) init(%{{.*}}, %{{.*}}) window_dimensions = [3, 2], window_strides = [2, 1], base_dilations = [2, 1], window_dilations = [1, 2], padding = {{\[}}[1, 1], [0, 0]]
// CHECK: -> (tensor<8x4xf32>, tensor<8x4xi32>)
func.func @max_pool_dilated(%x: tensor<8x6xf32>, %y: tensor<8x6xi32>) -> (tensor<8x4xf32>, tensor<8x4xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %lo = xla.constant dense<-2147483648> : tensor<i32>
  %m, %n = xla.reduce_window(%x, %y) init(%ninf, %lo) window_dimensions = [3, 2], window_strides = [2, 1], base_dilations = [2, 1], window_dilations = [1, 2], padding = [[1, 1], [0, 0]] {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %0 = xla.max %a, %b : tensor<f32>
    %1 = xla.max %ai, %bi : tensor<i32>
    xla.yield %0, %1 : tensor<f32>, tensor<i32>
  } : (tensor<8x6xf32>, tensor<8x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<8x4xf32>, tensor<8x4xi32>)
  return %m, %n : tensor<8x4xf32>, tensor<8x4xi32>
}

// CHECK-LABEL: func.func @max_pool_grad
// CHECK: xla.select_and_scatter %{{.*}}, %{{.*}}, %{{.*}}, window_dimensions = [2, 2], window_strides = [2, 2], padding = {{\[}}[0, 0], [0, 0]] select {
// CHECK: xla.compare ge
// CHECK: } scatter {
// CHECK: xla.add
// CHECK: } : (tensor<8x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x8xf32>
func.func @max_pool_grad(%x: tensor<8x8xf32>, %dy: tensor<4x4xf32>) -> tensor<8x8xf32> {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [2, 2], window_strides = [2, 2], padding = [[0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<8x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x8xf32>
  return %g : tensor<8x8xf32>
}
