// Verifier rules of the shape ops: broadcast_in_dim, reshape, transpose,
// slice, dynamic_slice, dynamic_update_slice, concatenate, pad and gather.
// Ops that infer their result type report the specific problem, then
// "failed to infer returned types".

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @broadcast_element_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.broadcast_in_dim' op operand and result element types differ}}
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<4xf32>) -> tensor<4x2xf16>
  return
}

// -----

func.func @broadcast_dims_count(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'xla.broadcast_in_dim' op needs one dimension per operand dimension (2), got 1}}
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @broadcast_dim_out_of_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'xla.broadcast_in_dim' op dimension 2 is out of range for result rank 2}}
  %0 = xla.broadcast_in_dim %x, dims = [2] : (tensor<4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_dims_not_increasing(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{'xla.broadcast_in_dim' op dims must be strictly increasing}}
  %0 = xla.broadcast_in_dim %x, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_size(%x: tensor<3xf32>) {
  // expected-error @+1 {{'xla.broadcast_in_dim' op operand dimension 0 has size 3 but result dimension 1 has size 4 (must be equal or 1)}}
  %0 = xla.broadcast_in_dim %x, dims = [1] : (tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'xla.reshape' op operand and result element types differ}}
  %0 = xla.reshape %x : (tensor<4x2xf32>) -> tensor<8xi32>
  return
}

// -----

func.func @reshape_element_count(%x: tensor<4x2xf32>) {
  // expected-error @+1 {{'xla.reshape' op cannot reshape 'tensor<4x2xf32>' (8 elements) into 'tensor<9xf32>' (9 elements)}}
  %0 = xla.reshape %x : (tensor<4x2xf32>) -> tensor<9xf32>
  return
}

// -----

func.func @transpose_rank(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{permutation has 2 entries but the operand has rank 3}}
  // expected-error @+1 {{'xla.transpose' op failed to infer returned types}}
  %0 = xla.transpose %x, permutation = [1, 0] : (tensor<2x3x4xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_repeated(%x: tensor<2x3x4xf32>) {
  // expected-error @+2 {{permutation is not a permutation of 0..2}}
  // expected-error @+1 {{'xla.transpose' op failed to infer returned types}}
  %0 = xla.transpose %x, permutation = [0, 1, 1] : (tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  return
}

// -----

func.func @transpose_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation is not a permutation of 0..1}}
  // expected-error @+1 {{'xla.transpose' op failed to infer returned types}}
  %0 = xla.transpose %x, permutation = [0, 2] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'xla.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'xla.transpose' op failed to infer returned types}}
  %0 = xla.transpose %x, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_rank(%x: tensor<8x32xf32>) {
  // expected-error @+2 {{start, limit and strides need 2 entries each (the operand's rank)}}
  // expected-error @+1 {{'xla.slice' op failed to infer returned types}}
  %0 = xla.slice %x, start = [0], limit = [4, 4], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @slice_stride(%x: tensor<8x32xf32>) {
  // expected-error @+2 {{stride of dimension 1 must be positive}}
  // expected-error @+1 {{'xla.slice' op failed to infer returned types}}
  %0 = xla.slice %x, start = [0, 0], limit = [4, 4], strides = [1, 0] : (tensor<8x32xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @slice_past_the_end(%x: tensor<8x32xf32>) {
  // expected-error @+2 {{slice [4, 9) of dimension 0 is out of range for size 8}}
  // expected-error @+1 {{'xla.slice' op failed to infer returned types}}
  %0 = xla.slice %x, start = [4, 0], limit = [9, 4], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @slice_reversed(%x: tensor<8x32xf32>) {
  // expected-error @+2 {{slice [4, 2) of dimension 1 is out of range for size 32}}
  // expected-error @+1 {{'xla.slice' op failed to infer returned types}}
  %0 = xla.slice %x, start = [0, 4], limit = [8, 2], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<8x0xf32>
  return
}

// -----

func.func @slice_negative_start(%x: tensor<8x32xf32>) {
  // expected-error @+2 {{slice [-1, 4) of dimension 0 is out of range for size 8}}
  // expected-error @+1 {{'xla.slice' op failed to infer returned types}}
  %0 = xla.slice %x, start = [-1, 0], limit = [4, 4], strides = [1, 1] : (tensor<8x32xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @slice_result(%x: tensor<8x32xf32>) {
  // expected-error @+2 {{'xla.slice' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<4x4xf32>'}}
  // expected-error @+1 {{'xla.slice' op failed to infer returned types}}
  %0 = xla.slice %x, start = [0, 0], limit = [4, 4], strides = [2, 1] : (tensor<8x32xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @dynamic_slice_element_type(%x: tensor<8x32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_slice' op operand and result element types differ}}
  %0 = xla.dynamic_slice %x[%i, %i], sizes = [2, 32] : (tensor<8x32xf32>, tensor<i32>, tensor<i32>) -> tensor<2x32xf16>
  return
}

// -----

func.func @dynamic_slice_offset_count(%x: tensor<8x32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_slice' op needs one offset and one size per dimension (2)}}
  %0 = xla.dynamic_slice %x[%i], sizes = [2, 32] : (tensor<8x32xf32>, tensor<i32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @dynamic_slice_size_count(%x: tensor<8x32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_slice' op needs one offset and one size per dimension (2)}}
  %0 = xla.dynamic_slice %x[%i, %i], sizes = [2] : (tensor<8x32xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
  return
}

// -----

func.func @dynamic_slice_too_large(%x: tensor<8x32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_slice' op size 9 of dimension 0 exceeds the operand's 8}}
  %0 = xla.dynamic_slice %x[%i, %i], sizes = [9, 32] : (tensor<8x32xf32>, tensor<i32>, tensor<i32>) -> tensor<9x32xf32>
  return
}

// -----

func.func @dynamic_slice_result(%x: tensor<8x32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_slice' op result shape must equal the slice sizes}}
  %0 = xla.dynamic_slice %x[%i, %i], sizes = [2, 32] : (tensor<8x32xf32>, tensor<i32>, tensor<i32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @dynamic_slice_offset_type(%x: tensor<8x32xf32>, %i: tensor<1xi32>) {
  // expected-error @+1 {{'xla.dynamic_slice' op operand #1 must be variadic of 0D tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.dynamic_slice %x[%i, %i], sizes = [2, 32] : (tensor<8x32xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @dynamic_update_slice_element_type(%x: tensor<8x32xf32>, %u: tensor<2x32xf16>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_update_slice' op operand and update element types differ}}
  %0 = xla.dynamic_update_slice %x, %u[%i, %i] : (tensor<8x32xf32>, tensor<2x32xf16>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @dynamic_update_slice_rank(%x: tensor<8x32xf32>, %u: tensor<32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_update_slice' op update must have the operand's rank}}
  %0 = xla.dynamic_update_slice %x, %u[%i, %i] : (tensor<8x32xf32>, tensor<32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @dynamic_update_slice_offsets(%x: tensor<8x32xf32>, %u: tensor<2x32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_update_slice' op needs one offset per dimension (2)}}
  %0 = xla.dynamic_update_slice %x, %u[%i] : (tensor<8x32xf32>, tensor<2x32xf32>, tensor<i32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @dynamic_update_slice_too_large(%x: tensor<8x32xf32>, %u: tensor<2x33xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_update_slice' op update dimension 1 is larger than the operand's}}
  %0 = xla.dynamic_update_slice %x, %u[%i, %i] : (tensor<8x32xf32>, tensor<2x33xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return
}

// -----

func.func @dynamic_update_slice_result(%x: tensor<8x32xf32>, %u: tensor<2x32xf32>, %i: tensor<i32>) {
  // expected-error @+1 {{'xla.dynamic_update_slice' op failed to verify that all of {input, result} have same type}}
  %0 = xla.dynamic_update_slice %x, %u[%i, %i] : (tensor<8x32xf32>, tensor<2x32xf32>, tensor<i32>, tensor<i32>) -> tensor<2x32xf32>
  return
}

// -----

func.func @concatenate_nothing() {
  // expected-error @+2 {{needs at least one operand}}
  // expected-error @+1 {{'xla.concatenate' op failed to infer returned types}}
  %0 = "xla.concatenate"() <{dim = 0 : i64}> : () -> tensor<0xf32>
  return
}

// -----

func.func @concatenate_dim_out_of_range(%a: tensor<2x4xf32>) {
  // expected-error @+2 {{dim 2 is out of range for rank 2}}
  // expected-error @+1 {{'xla.concatenate' op failed to infer returned types}}
  %0 = xla.concatenate %a, %a, dim = 2 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @concatenate_negative_dim(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{'xla.concatenate' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = xla.concatenate %a, %a, dim = -1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @concatenate_element_type(%a: tensor<2x4xf32>, %b: tensor<2x4xf16>) {
  // expected-error @+2 {{operand 1 differs from operand 0 in element type or rank}}
  // expected-error @+1 {{'xla.concatenate' op failed to infer returned types}}
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf16>) -> tensor<4x4xf32>
  return
}

// -----

func.func @concatenate_rank(%a: tensor<2x4xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{operand 2 differs from operand 0 in element type or rank}}
  // expected-error @+1 {{'xla.concatenate' op failed to infer returned types}}
  %0 = xla.concatenate %a, %a, %b, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>, tensor<8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @concatenate_other_dim(%a: tensor<2x4xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+2 {{operand 1 has size 5 in dimension 1 but operand 0 has 4}}
  // expected-error @+1 {{'xla.concatenate' op failed to infer returned types}}
  %0 = xla.concatenate %a, %b, dim = 0 : (tensor<2x4xf32>, tensor<3x5xf32>) -> tensor<5x4xf32>
  return
}

// -----

func.func @concatenate_result(%a: tensor<2x4xf32>) {
  // expected-error @+2 {{'xla.concatenate' op inferred type(s) 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<2x8xf32>'}}
  // expected-error @+1 {{'xla.concatenate' op failed to infer returned types}}
  %0 = xla.concatenate %a, %a, dim = 0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @concatenate_missing_dim(%a: tensor<2x4xf32>) {
  // expected-error @+1 {{expected ','}}
  %0 = xla.concatenate %a, %a : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @pad_rank(%x: tensor<4x5xf32>) {
  // expected-error @+2 {{low, high and interior need 2 entries each (the operand's rank)}}
  // expected-error @+1 {{'xla.pad' op failed to infer returned types}}
  %0 = xla.pad %x, low = [1, 0], high = [2], interior = [0, 0], value = 0.0 : (tensor<4x5xf32>) -> tensor<7x5xf32>
  return
}

// -----

func.func @pad_negative_interior(%x: tensor<4x5xf32>) {
  // expected-error @+2 {{interior padding of dimension 0 is negative}}
  // expected-error @+1 {{'xla.pad' op failed to infer returned types}}
  %0 = xla.pad %x, low = [0, 0], high = [0, 0], interior = [-1, 0], value = 0.0 : (tensor<4x5xf32>) -> tensor<1x5xf32>
  return
}

// -----

func.func @pad_negative_size(%x: tensor<4x5xf32>) {
  // expected-error @+2 {{padding makes dimension 1 negative}}
  // expected-error @+1 {{'xla.pad' op failed to infer returned types}}
  %0 = xla.pad %x, low = [0, -3], high = [0, -3], interior = [0, 0], value = 0.0 : (tensor<4x5xf32>) -> tensor<4x0xf32>
  return
}

// -----

func.func @pad_result(%x: tensor<4x5xf32>) {
  // expected-error @+2 {{'xla.pad' op inferred type(s) 'tensor<7x5xf32>' are incompatible with return type(s) of operation 'tensor<7x6xf32>'}}
  // expected-error @+1 {{'xla.pad' op failed to infer returned types}}
  %0 = xla.pad %x, low = [1, 0], high = [2, 0], interior = [0, 0], value = 0.0 : (tensor<4x5xf32>) -> tensor<7x6xf32>
  return
}

// -----

func.func @gather_scalar_table(%t: tensor<f32>, %i: tensor<4xi32>) {
  // expected-error @+2 {{table must have rank >= 1}}
  // expected-error @+1 {{'xla.gather' op failed to infer returned types}}
  %0 = xla.gather %t, %i : (tensor<f32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @gather_float_indices(%t: tensor<10x4xf32>, %i: tensor<4xf32>) {
  // expected-error @+1 {{'xla.gather' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.gather %t, %i : (tensor<10x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @gather_result(%t: tensor<10x4xf32>, %i: tensor<3xi32>) {
  // expected-error @+2 {{'xla.gather' op inferred type(s) 'tensor<3x4xf32>' are incompatible with return type(s) of operation 'tensor<3x10x4xf32>'}}
  // expected-error @+1 {{'xla.gather' op failed to infer returned types}}
  %0 = xla.gather %t, %i : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x10x4xf32>
  return
}
