// Verifier rules of reduce (kinds against element types, dimensions) and
// softmax.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @mean_of_integers(%x: tensor<4x8xi32>) {
  // expected-error @+2 {{mean needs a float tensor, got 'tensor<4x8xi32>'}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce mean %x, dims = [1] : (tensor<4x8xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @and_of_floats(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{and needs an integer tensor, got 'tensor<4x8xf32>'}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce and %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @or_of_floats(%x: tensor<4x8xbf16>) {
  // expected-error @+2 {{or needs an integer tensor, got 'tensor<4x8xbf16>'}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce or %x, dims = [0] : (tensor<4x8xbf16>) -> tensor<8xbf16>
  return
}

// -----

func.func @sum_of_predicates(%x: tensor<4x8xi1>) {
  // expected-error @+2 {{sum is not defined on i1; use and, or, max or min}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce sum %x, dims = [1] : (tensor<4x8xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @prod_of_predicates(%x: tensor<4x8xi1>) {
  // expected-error @+2 {{prod is not defined on i1; use and, or, max or min}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce prod %x, dims = [1] : (tensor<4x8xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @dim_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce sum %x, dims = [2] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @negative_dim(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension -1 is out of range for rank 2}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce sum %x, dims = [-1] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @dim_twice(%x: tensor<4x8xf32>) {
  // expected-error @+2 {{dimension 1 is reduced twice}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce max %x, dims = [1, 1] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @reduce_result(%x: tensor<4x8xf32>) {
  // Reduced dimensions are removed, not kept as size 1.
  // expected-error @+2 {{'xla.reduce' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>'}}
  // expected-error @+1 {{'xla.reduce' op failed to infer returned types}}
  %0 = xla.reduce sum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_kind(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, prod, max, min, mean, and, or]}}
  %0 = xla.reduce avg %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @softmax_dim(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.softmax' op dim 2 is out of range for rank 2}}
  %0 = xla.softmax %x, dim = 2 : tensor<4x8xf32>
  return
}

// -----

func.func @softmax_integers(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{'xla.softmax' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float or 64-bit float values}}
  %0 = xla.softmax %x, dim = 1 : tensor<4x8xi32>
  return
}

// -----

func.func @softmax_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.softmax' op requires the same type for all operands and results}}
  %0 = "xla.softmax"(%x) <{dim = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf16>
  return
}
