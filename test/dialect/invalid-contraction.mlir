// Verifier rules of dot_general, matmul and einsum. Each infers its result
// type, so a specific error is followed by "failed to infer returned types".

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @dot_batch_count(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>) {
  // expected-error @+2 {{dot_general has 1 lhs batch dimensions but 0 rhs batch dimensions}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [0] x [], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
  return
}

// -----

func.func @dot_contract_count(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{dot_general has 1 lhs contracting dimensions but 2 rhs contracting dimensions}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [0, 1] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @dot_dim_out_of_range(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{dot_general rhs dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [2] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @dot_negative_dim(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{dot_general lhs dimension -1 is out of range for rank 2}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [] x [], contract = [-1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @dot_dim_twice(%a: tensor<4x4x16xf32>, %b: tensor<4x16x32xf32>) {
  // expected-error @+2 {{dot_general lhs dimension 0 is used twice}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [0] x [0], contract = [0] x [1] : (tensor<4x4x16xf32>, tensor<4x16x32xf32>) -> tensor<4x4x32xf32>
  return
}

// -----

func.func @dot_contract_sizes(%a: tensor<8x16xf32>, %b: tensor<12x32xf32>) {
  // expected-error @+2 {{dot_general contracting dimensions lhs 1 (size 16) and rhs 0 (size 12) differ in size}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<8x16xf32>, tensor<12x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @dot_batch_sizes(%a: tensor<4x8x16xf32>, %b: tensor<2x16x32xf32>) {
  // expected-error @+2 {{dot_general batch dimensions lhs 0 (size 4) and rhs 0 (size 2) differ in size}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<2x16x32xf32>) -> tensor<4x8x32xf32>
  return
}

// -----

func.func @dot_result(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{'xla.dot_general' op inferred type(s) 'tensor<8x32xf32>' are incompatible with return type(s) of operation 'tensor<32x8xf32>'}}
  // expected-error @+1 {{'xla.dot_general' op failed to infer returned types}}
  %0 = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<32x8xf32>
  return
}

// -----

func.func @dot_element_types(%a: tensor<8x16xf32>, %b: tensor<16x32xbf16>) {
  // expected-error @+1 {{'xla.dot_general' op requires the same element type for all operands}}
  %0 = xla.dot_general %a, %b, batch = [] x [], contract = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xbf16>) -> tensor<8x32xf32>
  return
}

// -----

func.func @matmul_vector(%a: tensor<16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{matmul operands need rank >= 2 (got 1 and 2)}}
  // expected-error @+1 {{'xla.matmul' op failed to infer returned types}}
  %0 = xla.matmul %a, %b : (tensor<16xf32>, tensor<16x32xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @matmul_rhs_rank(%a: tensor<2x8x16xf32>, %b: tensor<3x2x16x32xf32>) {
  // expected-error @+2 {{matmul rhs must be a matrix or have the lhs's rank 3 (got rank 4)}}
  // expected-error @+1 {{'xla.matmul' op failed to infer returned types}}
  %0 = xla.matmul %a, %b : (tensor<2x8x16xf32>, tensor<3x2x16x32xf32>) -> tensor<3x2x8x32xf32>
  return
}

// -----

func.func @matmul_contracting(%a: tensor<8x16xf32>, %b: tensor<32x16xf32>) {
  // expected-error @+2 {{matmul contracting sizes differ: lhs has 16, rhs has 32}}
  // expected-error @+1 {{'xla.matmul' op failed to infer returned types}}
  %0 = xla.matmul %a, %b : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<4x8x16xf32>, %b: tensor<2x16x32xf32>) {
  // expected-error @+2 {{matmul batch dimension 0 differs: lhs 4, rhs 2}}
  // expected-error @+1 {{'xla.matmul' op failed to infer returned types}}
  %0 = xla.matmul %a, %b : (tensor<4x8x16xf32>, tensor<2x16x32xf32>) -> tensor<4x8x32xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{'xla.matmul' op inferred type(s) 'tensor<8x32xf32>' are incompatible with return type(s) of operation 'tensor<8x16xf32>'}}
  // expected-error @+1 {{'xla.matmul' op failed to infer returned types}}
  %0 = xla.matmul %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
  return
}

// -----

func.func @matmul_pred(%a: tensor<8x8xi1>) {
  // expected-error @+1 {{'xla.matmul' op operand #0 must be statically shaped tensor of}}
  %0 = xla.matmul %a, %a : (tensor<8x8xi1>, tensor<8x8xi1>) -> tensor<8x8xi1>
  return
}

// -----

func.func @einsum_no_output(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum equation 'ab,bc' needs an explicit output ('ab,bc->ac')}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab,bc" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @einsum_one_operand(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum equation 'ab->ba' needs two operands}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab->ba" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @einsum_three_operands(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum rhs 'bc,cd' has 5 letters but the rhs has rank 2}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab,bc,cd->ad" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @einsum_rank(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum lhs 'abc' has 3 letters but the lhs has rank 2}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "abc,cd->abd" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x16x32xf32>
  return
}

// -----

func.func @einsum_ellipsis(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum letters must be a-z or A-Z, got '.'}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum ".b,bc->.c" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @einsum_diagonal(%a: tensor<16x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum letter 'a' repeats in the lhs (diagonals are not supported)}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "aa,ac->c" %a, %b : (tensor<16x16xf32>, tensor<16x32xf32>) -> tensor<32xf32>
  return
}

// -----

func.func @einsum_sizes(%a: tensor<8x16xf32>, %b: tensor<12x32xf32>) {
  // expected-error @+2 {{einsum letter 'b' has size 12 in the rhs but 16 elsewhere}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab,bc->ac" %a, %b : (tensor<8x16xf32>, tensor<12x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @einsum_output_letter(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum output letter 'z' appears in no operand}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab,bc->az" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @einsum_output_repeat(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) {
  // expected-error @+2 {{einsum letter 'a' repeats in the output}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab,bc->aa" %a, %b : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return
}

// -----

func.func @einsum_output_symbol(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{einsum letters must be a-z or A-Z, got '1'}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab,bc->a1" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @einsum_result(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) {
  // expected-error @+2 {{'xla.einsum' op inferred type(s) 'tensor<32x8xf32>' are incompatible with return type(s) of operation 'tensor<8x32xf32>'}}
  // expected-error @+1 {{'xla.einsum' op failed to infer returned types}}
  %0 = xla.einsum "ab,bc->ca" %a, %b : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return
}
