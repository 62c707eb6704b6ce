// Verifier messages of XlaMathOps.td.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @floor_on_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'xla.floor' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float or 64-bit float values}}
  %0 = xla.floor %x : tensor<4xi32>
  return
}

// -----

func.func @erf_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.erf' op requires the same type for all operands and results}}
  %0 = "xla.erf"(%x) : (tensor<4xf32>) -> tensor<4xf64>
  return
}

// -----

func.func @sign_on_predicates(%x: tensor<4xi1>) {
  // expected-error @+1 {{'xla.sign' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float or 64-bit float or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.sign %x : tensor<4xi1>
  return
}

// -----

func.func @atan2_on_integers(%x: tensor<4xi64>) {
  // expected-error @+1 {{'xla.atan2' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float or 64-bit float values}}
  %0 = xla.atan2 %x, %x : tensor<4xi64>
  return
}

// -----

func.func @rem_on_predicates(%x: tensor<4xi1>) {
  // expected-error @+1 {{'xla.rem' op operand #0 must be statically shaped tensor of}}
  %0 = xla.rem %x, %x : tensor<4xi1>
  return
}

// -----

func.func @rem_operand_types(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+1 {{'xla.rem' op requires the same type for all operands and results}}
  %0 = "xla.rem"(%x, %y) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @shift_on_floats(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.shift_left' op operand #0 must be statically shaped tensor of 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.shift_left %x, %x : tensor<4xf32>
  return
}

// -----

func.func @shift_on_predicates(%x: tensor<4xi1>) {
  // expected-error @+1 {{'xla.shift_right_logical' op operand #0 must be statically shaped tensor of 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.shift_right_logical %x, %x : tensor<4xi1>
  return
}

// -----

func.func @shift_amount_type(%x: tensor<4xi32>, %n: tensor<4xi8>) {
  // expected-error @+1 {{'xla.shift_right_arithmetic' op requires the same type for all operands and results}}
  %0 = "xla.shift_right_arithmetic"(%x, %n) : (tensor<4xi32>, tensor<4xi8>) -> tensor<4xi32>
  return
}

// -----

func.func @is_finite_on_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{custom op 'xla.is_finite' 'input' must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = xla.is_finite %x : tensor<4xi32>
  return
}

// -----

func.func @is_finite_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.is_finite' op failed to verify that result has the input's shape and i1 elements}}
  %0 = "xla.is_finite"(%x) : (tensor<4xf32>) -> tensor<8xi1>
  return
}

// -----

func.func @clamp_bound_types(%lo: tensor<f32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.clamp' op requires the same type for all operands and results}}
  %0 = "xla.clamp"(%lo, %x, %lo) : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @clamp_on_predicates(%x: tensor<4xi1>) {
  // expected-error @+1 {{'xla.clamp' op operand #0 must be statically shaped tensor of}}
  %0 = xla.clamp %x, %x, %x : tensor<4xi1>
  return
}

// -----

func.func @bitcast_widths(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.bitcast_convert' op reinterprets 'f32' (32 bits) as 'i64' (64 bits); the element types must have the same bit width}}
  %0 = xla.bitcast_convert %x : tensor<4xf32> -> tensor<4xi64>
  return
}

// -----

func.func @bitcast_half(%x: tensor<4xbf16>) {
  // expected-error @+1 {{'xla.bitcast_convert' op reinterprets 'bf16' (16 bits) as 'i32' (32 bits); the element types must have the same bit width (16-bit floats bitcast only to each other: the dialect has no 16-bit integer type)}}
  %0 = xla.bitcast_convert %x : tensor<4xbf16> -> tensor<4xi32>
  return
}

// -----

func.func @bitcast_predicate(%x: tensor<4xi1>) {
  // expected-error @+1 {{'xla.bitcast_convert' op reinterprets 'i1' (1 bits) as 'i8' (8 bits); the element types must have the same bit width}}
  %0 = xla.bitcast_convert %x : tensor<4xi1> -> tensor<4xi8>
  return
}

// -----

func.func @bitcast_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.bitcast_convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = xla.bitcast_convert %x : tensor<4xf32> -> tensor<2xi32>
  return
}

// -----

func.func @reverse_out_of_range(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.reverse' op dimension 2 is out of range for rank 2}}
  %0 = xla.reverse %x, dims = [0, 2] : tensor<4x8xf32>
  return
}

// -----

func.func @reverse_negative(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.reverse' op dimension -1 is out of range for rank 2}}
  %0 = xla.reverse %x, dims = [-1] : tensor<4x8xf32>
  return
}

// -----

func.func @reverse_twice(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.reverse' op reverses dimension 1 twice}}
  %0 = xla.reverse %x, dims = [1, 0, 1] : tensor<4x8xf32>
  return
}

// -----

func.func @reverse_result_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.reverse' op requires the same type for all operands and results}}
  %0 = "xla.reverse"(%x) <{dims = array<i64: 0>}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return
}
