// Sub-axes end to end: every function is propagated (creating sub-axes at
// reshapes that split an axis), partitioned over the refined mesh and run on
// the simulated devices against the single-device program.
//
// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s
// CHECK: checked 5 functions, 0 failed

xla.mesh @mesh = <["x"=4, "y"=2]>

// [32, 6] rows over "x" into [2, 16, 6]: no communication.
func.func @split_rows(%a: tensor<32x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> tensor<2x16x6xf32> {
  %r = xla.reshape %a : (tensor<32x6xf32>) -> tensor<2x16x6xf32>
  %e = xla.exp %r : tensor<2x16x6xf32>
  return %e : tensor<2x16x6xf32>
}

// A reduction over the minor part: a pending sum over "x":(2)2 only.
func.func @sum_minor_part(%a: tensor<32x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<2x8xf32> {
  %r = xla.reshape %a : (tensor<32x8xf32>) -> tensor<2x16x8xf32>
  %s = xla.reduce sum %r, dims = [1] : (tensor<2x16x8xf32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// Sub-axes written by the user, joined back into the whole axis.
func.func @join_parts(%a: tensor<2x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)2, "y"}]>}) -> tensor<32xf32> {
  %r = xla.reshape %a : (tensor<2x16xf32>) -> tensor<32xf32>
  %n = xla.neg %r : tensor<32xf32>
  return %n : tensor<32xf32>
}

// A matmul whose rows carry the major part and contraction the minor one.
func.func @matmul_parts(%a: tensor<4x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}, %b: tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(2)2}, {"y"}]>}) -> tensor<4x8xf32> {
  %m = xla.matmul %a, %b : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// Results resharded to a sub-axis the program did not use.
func.func @reshard_to_part(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(2)2}, {"x":(1)2}]>}) {
  %t = xla.tanh %a : tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}
