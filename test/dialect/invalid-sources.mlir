// Verifier rules of the source ops: constant, iota, rng, partition_id and
// axis_index.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @constant_element_type() {
  // expected-error @+1 {{'xla.constant' op result #0 must be statically shaped tensor of}}
  %0 = xla.constant dense<1> : tensor<2xi16>
  return
}

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'xla.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "xla.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}

// -----

func.func @iota_scalar() {
  // expected-error @+1 {{'xla.iota' op result must have rank >= 1}}
  %0 = xla.iota dim = 0 : tensor<i32>
  return
}

// -----

func.func @iota_dim_out_of_range() {
  // expected-error @+1 {{'xla.iota' op dim 2 is out of range for rank 2}}
  %0 = xla.iota dim = 2 : tensor<4x8xf32>
  return
}

// -----

func.func @iota_negative_dim() {
  // expected-error @+1 {{'xla.iota' op attribute 'dim' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %0 = xla.iota dim = -1 : tensor<4x8xf32>
  return
}

// -----

func.func @iota_pred() {
  // expected-error @+1 {{'xla.iota' op result #0 must be statically shaped tensor of}}
  %0 = xla.iota dim = 0 : tensor<4xi1>
  return
}

// -----

func.func @rng_uniform_empty_range() {
  // expected-error @+1 {{'xla.rng' op uniform range [1.000000e+00, 1.000000e+00) is empty}}
  %0 = xla.rng uniform seed = 0, a = 1.0, b = 1.0 : tensor<4xf32>
  return
}

// -----

func.func @rng_uniform_reversed_range() {
  // expected-error @+1 {{'xla.rng' op uniform range [2.000000e+00, -2.000000e+00) is empty}}
  %0 = xla.rng uniform seed = 0, a = 2.0, b = -2.0 : tensor<4xf32>
  return
}

// -----

func.func @rng_normal_negative_stddev() {
  // expected-error @+1 {{'xla.rng' op normal stddev must not be negative}}
  %0 = xla.rng normal seed = 0, a = 0.0, b = -1.0 : tensor<4xf32>
  return
}

// -----

func.func @rng_integer_result() {
  // expected-error @+1 {{'xla.rng' op result #0 must be statically shaped tensor of}}
  %0 = xla.rng uniform seed = 0, a = 0.0, b = 1.0 : tensor<4xi32>
  return
}

// -----

func.func @rng_global_shape_without_offsets() {
  // expected-error @+1 {{'xla.rng' op global shape and offsets go together}}
  %0 = xla.rng uniform seed = 0, a = 0.0, b = 1.0 in [8, 4] : tensor<2x4xf32>
  return
}

// -----

func.func @rng_offsets_without_global_shape(%off: tensor<2xi64>) {
  // expected-error @+1 {{'xla.rng' op global shape and offsets go together}}
  %0 = xla.rng uniform seed = 0, a = 0.0, b = 1.0 at %off : tensor<2xi64> : tensor<2x4xf32>
  return
}

// -----

func.func @rng_global_rank(%off: tensor<2xi64>) {
  // expected-error @+1 {{'xla.rng' op global shape has rank 3 but the result has rank 2}}
  %0 = xla.rng normal seed = 0, a = 0.0, b = 1.0 in [8, 4, 2] at %off : tensor<2xi64> : tensor<2x4xf32>
  return
}

// -----

func.func @rng_block_too_large(%off: tensor<2xi64>) {
  // expected-error @+1 {{'xla.rng' op local block is larger than the global shape}}
  %0 = xla.rng normal seed = 0, a = 0.0, b = 1.0 in [8, 4] at %off : tensor<2xi64> : tensor<2x8xf32>
  return
}

// -----

func.func @rng_offsets_count(%off: tensor<3xi64>) {
  // expected-error @+1 {{'xla.rng' op offsets must be a 1-d tensor of 2 integers}}
  %0 = xla.rng normal seed = 0, a = 0.0, b = 1.0 in [8, 4] at %off : tensor<3xi64> : tensor<2x4xf32>
  return
}

// -----

func.func @rng_offsets_rank(%off: tensor<1x2xi32>) {
  // expected-error @+1 {{'xla.rng' op offsets must be a 1-d tensor of 2 integers}}
  %0 = xla.rng normal seed = 0, a = 0.0, b = 1.0 in [8, 4] at %off : tensor<1x2xi32> : tensor<2x4xf32>
  return
}

// -----

func.func @rng_offsets_float(%off: tensor<2xf32>) {
  // expected-error @+1 {{'xla.rng' op operand #0 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.rng normal seed = 0, a = 0.0, b = 1.0 in [8, 4] at %off : tensor<2xf32> : tensor<2x4xf32>
  return
}

// -----

func.func @rng_unknown_distribution() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'distribution' [uniform, normal]}}
  %0 = xla.rng gumbel seed = 0, a = 0.0, b = 1.0 : tensor<4xf32>
  return
}

// -----

func.func @partition_id_type() {
  // expected-error @+1 {{'xla.partition_id' op result #0 must be 0D tensor of 32-bit signless integer values}}
  %0 = xla.partition_id : tensor<1xi32>
  return
}

// -----

func.func @axis_index_unknown_mesh() {
  // expected-error @+1 {{'xla.axis_index' op names unknown mesh @mesh}}
  %0 = xla.axis_index @mesh["data"] : tensor<i32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axis_index_unknown_axis() {
  // expected-error @+1 {{'xla.axis_index' op mesh @mesh has no axis "tensor"}}
  %0 = xla.axis_index @mesh["tensor"] : tensor<i32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axis_index_type() {
  // expected-error @+1 {{'xla.axis_index' op result #0 must be 0D tensor of 32-bit signless integer values}}
  %0 = xla.axis_index @mesh["data"] : tensor<i64>
  return
}
