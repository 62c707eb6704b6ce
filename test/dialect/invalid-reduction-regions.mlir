// Verifier rules of reduce_region, reduce_window and select_and_scatter.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @no_inputs() {
  // expected-error @+1 {{'xla.reduce_region' op needs at least one input}}
  xla.reduce_region() init() dims = [] {
  ^bb0:
    xla.yield
  } : () -> ()
  return
}

// -----

func.func @missing_init(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op has 2 inputs but 1 inits; it needs one per input}}
  %r:2 = xla.reduce_region(%x, %y) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a, %b : tensor<f32>, tensor<f32>
  } : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @result_count(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op has 1 inputs but 2 results}}
  %r:2 = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
  return
}

// -----

func.func @input_shapes(%x: tensor<4x8xf32>, %y: tensor<4x6xi32>, %z: tensor<f32>, %w: tensor<i32>) {
  // expected-error @+1 {{'xla.reduce_region' op input 1 has type 'tensor<4x6xi32>'; every input must have the shape of input 0, 'tensor<4x8xf32>'}}
  %r:2 = xla.reduce_region(%x, %y) init(%z, %w) dims = [1] {
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    xla.yield %a, %ai : tensor<f32>, tensor<i32>
  } : (tensor<4x8xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return
}

// -----

func.func @init_type(%x: tensor<4x8xf32>, %z: tensor<bf16>) {
  // expected-error @+1 {{'xla.reduce_region' op init 0 has type 'tensor<bf16>' but input 0 has element type 'f32'}}
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<bf16>) -> tensor<4xf32>
  return
}

// -----

func.func @result_type(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op result 0 must be 'tensor<4xf32>', not 'tensor<8xf32>'}}
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @dim_range(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op dim 2 is out of range for rank 2}}
  %r = xla.reduce_region(%x) init(%z) dims = [2] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @dim_twice(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op dim 1 is listed twice}}
  %r = xla.reduce_region(%x) init(%z) dims = [1, 1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @body_arity(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op body takes 2 arguments, not 3}}
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @body_argument(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op body argument 1 must be 'tensor<f32>', not 'tensor<f16>'}}
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f16>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @body_yield_count(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error @+1 {{'xla.yield' op of the body of xla.reduce_region must yield 1 values, not 2}}
    xla.yield %a, %b : tensor<f32>, tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @body_yield_type(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = xla.compare lt, %a, %b : tensor<f32>
    // expected-error @+1 {{'xla.yield' op of the body of xla.reduce_region: value 0 must be 'tensor<f32>', not 'tensor<i1>'}}
    xla.yield %c : tensor<i1>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// The ScalarBodies trait: the body computes on rank-0 tensors.
func.func @body_not_scalar(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_region' op region 0 is a scalar computation: argument 1 must be a rank-0 tensor, not 'tensor<2xf32>'}}
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<2xf32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// Bodies are isolated from above, as HLO computations are.
func.func @body_captures(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = xla.reduce_region(%x) init(%z) dims = [1] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error @+1 {{'xla.add' op using value defined outside the region}}
    %s = xla.add %a, %z : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @window_rank(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op window_dimensions has 1 entries but the operand has rank 2}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [2], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @window_stride(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op window_strides[1] is 0; it must be at least 1}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [2, 1], window_strides = [1, 0], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @window_size(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op window_dimensions[0] is 0; it must be at least 1}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [0, 1], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @base_dilation(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op base_dilations[0] is -1; it must be at least 1}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [2, 1], window_strides = [1, 1], base_dilations = [-1, 1], window_dilations = [1, 1], padding = [[0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @window_dilation(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op window_dilations has 3 entries but the operand has rank 2}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [2, 1], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1, 1], padding = [[0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @window_padding(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op padding has 1 [lo, hi] pairs but the operand has rank 2}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [2, 1], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @window_result(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op result 0 must be 'tensor<2x8xf32>', not 'tensor<3x8xf32>'}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [2, 1], window_strides = [2, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @window_body(%x: tensor<4x8xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.reduce_window' op body argument 0 must be 'tensor<f32>', not 'tensor<i32>'}}
  %r = xla.reduce_window(%x) init(%z) window_dimensions = [2, 1], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [0, 0]] {
  ^bb0(%a: tensor<i32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @scatter_source(%x: tensor<8xf32>, %s: tensor<3xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.select_and_scatter' op source must be 'tensor<4xf32>' (one element per window), not 'tensor<3xf32>'}}
  %r = xla.select_and_scatter %x, %s, %z, window_dimensions = [2], window_strides = [2], padding = [[0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<8xf32>, tensor<3xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_init(%x: tensor<8xf32>, %s: tensor<4xf32>, %z: tensor<f16>) {
  // expected-error @+1 {{'xla.select_and_scatter' op init has type 'tensor<f16>' but the operand's element type is 'f32'}}
  %r = xla.select_and_scatter %x, %s, %z, window_dimensions = [2], window_strides = [2], padding = [[0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<8xf32>, tensor<4xf32>, tensor<f16>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_window(%x: tensor<8xf32>, %s: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.select_and_scatter' op window_strides has 2 entries but the operand has rank 1}}
  %r = xla.select_and_scatter %x, %s, %z, window_dimensions = [2], window_strides = [2, 1], padding = [[0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_padding(%x: tensor<8xf32>, %s: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.select_and_scatter' op padding has 0 [lo, hi] pairs but the operand has rank 1}}
  %r = xla.select_and_scatter %x, %s, %z, window_dimensions = [2], window_strides = [2], padding = [] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @select_yields_value(%x: tensor<8xf32>, %s: tensor<4xf32>, %z: tensor<f32>) {
  %r = xla.select_and_scatter %x, %s, %z, window_dimensions = [2], window_strides = [2], padding = [[0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error @+1 {{'xla.yield' op of the select of xla.select_and_scatter: value 0 must be 'tensor<i1>', not 'tensor<f32>'}}
    xla.yield %a : tensor<f32>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  return
}

// -----

func.func @scatter_arity(%x: tensor<8xf32>, %s: tensor<4xf32>, %z: tensor<f32>) {
  // expected-error @+1 {{'xla.select_and_scatter' op scatter takes 2 arguments, not 1}}
  %r = xla.select_and_scatter %x, %s, %z, window_dimensions = [2], window_strides = [2], padding = [[0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %c : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>):
    xla.yield %a : tensor<f32>
  } : (tensor<8xf32>, tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  return
}
