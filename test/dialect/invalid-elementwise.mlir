// Type rules of the elementwise ops, compare, select and convert.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @binary_type_mismatch(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+1 {{'xla.add' op requires the same type for all operands and results}}
  %0 = "xla.add"(%x, %y) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @binary_shape_mismatch(%x: tensor<4xf32>, %y: tensor<8xf32>) {
  // expected-error @+1 {{'xla.mul' op requires the same type for all operands and results}}
  %0 = "xla.mul"(%x, %y) : (tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @pow_on_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'xla.pow' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float or 64-bit float values}}
  %0 = xla.pow %x, %x : tensor<4xi32>
  return
}

// -----

func.func @add_on_predicates(%x: tensor<4xi1>) {
  // expected-error @+1 {{'xla.add' op operand #0 must be statically shaped tensor of}}
  %0 = xla.add %x, %x : tensor<4xi1>
  return
}

// -----

func.func @and_on_floats(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.and' op operand #0 must be statically shaped tensor of 1-bit signless integer or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.and %x, %x : tensor<4xf32>
  return
}

// -----

func.func @dynamic_shape(%x: tensor<?xf32>) {
  // expected-error @+1 {{'xla.sub' op operand #0 must be statically shaped tensor of}}
  %0 = xla.sub %x, %x : tensor<?xf32>
  return
}

// -----

func.func @unsupported_element_type(%x: tensor<4xi16>) {
  // expected-error @+1 {{'xla.max' op operand #0 must be statically shaped tensor of}}
  %0 = xla.max %x, %x : tensor<4xi16>
  return
}

// -----

func.func @exp_on_integers(%x: tensor<4xi32>) {
  // expected-error @+1 {{'xla.exp' op operand #0 must be statically shaped tensor of 32-bit float or bfloat16 type or 16-bit float or 64-bit float values}}
  %0 = xla.exp %x : tensor<4xi32>
  return
}

// -----

func.func @not_on_floats(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.not' op operand #0 must be statically shaped tensor of 1-bit signless integer or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.not %x : tensor<4xf32>
  return
}

// -----

func.func @unary_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.tanh' op requires the same type for all operands and results}}
  %0 = "xla.tanh"(%x) : (tensor<4xf32>) -> tensor<4xbf16>
  return
}

// -----

func.func @compare_operand_types(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{'xla.compare' op requires all operands to have the same type}}
  %0 = "xla.compare"(%x, %y) <{direction = 0 : i32}> : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.compare' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = "xla.compare"(%x, %x) <{direction = 0 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi8>
  return
}

// -----

func.func @compare_direction(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'direction' [eq, ne, lt, le, gt, ge]}}
  %0 = xla.compare neq, %x, %x : tensor<4xf32>
  return
}

// -----

func.func @select_pred_shape(%p: tensor<8xi1>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.select' op failed to verify that predicate has the operands' shape and i1 elements}}
  %0 = "xla.select"(%p, %x, %x) : (tensor<8xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @select_branch_types(%p: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+1 {{'xla.select' op failed to verify that all of {on_true, on_false, result} have same type}}
  %0 = "xla.select"(%p, %x, %y) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @select_pred_type(%p: tensor<4xi32>, %x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.select' op operand #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = "xla.select"(%p, %x, %x) : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @convert_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.convert' op all non-scalar operands/results must have the same shape and base type}}
  %0 = xla.convert %x : tensor<4xf32> -> tensor<8xf16>
  return
}
