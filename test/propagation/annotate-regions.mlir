// RUN: xla-opt %s --xla-annotate-sharding-rules | FileCheck %s

// Sharding rules of the reductions with a computation. The ops of their
// bodies (scalar computations) get no rule.

// A general body (argmax): the reduced dimension needs replication (the
// partitioner may still reduce per shard and combine the partial results).
// CHECK-LABEL: func.func @argmax
// CHECK: xla.reduce_region
// CHECK-NOT: xla.sharding_rule
// CHECK: } {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j], [], [])->([i], [i]) {i=4, j=8} need_replication={j}>}
func.func @argmax(%x: tensor<4x8xf32>, %iota: tensor<4x8xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %mi = xla.select %gt, %ai, %bi : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %v, %i : tensor<4xf32>, tensor<4xi32>
}

// Recognised reductions (add, max with their identities) are reduction
// factors of their kind, as xla.reduce; a non-identity init is not.
// CHECK-LABEL: func.func @recognised
// CHECK: } {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [])->([i]) {i=4, j=8} reduction={j}>}
// CHECK: } {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [])->([j]) {i=4, j=8} reduction<max>={i}>}
// CHECK: } {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [])->([i]) {i=4, j=8} need_replication={j}>}
func.func @recognised(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %one = xla.constant dense<1.0> : tensor<f32>
  %s = xla.reduce_region(%x) init(%zero) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = xla.add %a, %b : tensor<f32>
    xla.yield %0 : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %m = xla.reduce_region(%x) init(%ninf) dims = [0] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = xla.max %b, %a : tensor<f32>
    xla.yield %0 : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = xla.reduce_region(%x) init(%one) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %0 = xla.add %a, %b : tensor<f32>
    xla.yield %0 : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %s, %m, %t : tensor<4xf32>, tensor<8xf32>, tensor<4xf32>
}

// Windowed dimensions are permutation factors; untouched ones pass through.
// CHECK-LABEL: func.func @windows
// CHECK: } {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [])->([i, j]) {i=4, j=8} permutation={j}>}
// CHECK: } {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j], [])->([i, j]) {i=4, j=8} permutation={j}>}
func.func @windows(%x: tensor<4x8xf32>, %dy: tensor<4x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %c = xla.reduce_window(%x) init(%zero) window_dimensions = [1, 8], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [7, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [1, 2], window_strides = [1, 2], padding = [[0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %c, %g : tensor<4x8xf32>, tensor<4x8xf32>
}
