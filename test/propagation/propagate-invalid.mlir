// RUN: xla-opt %s -split-input-file -verify-diagnostics --xla-propagate-sharding

// Malformed annotations are rejected, with their location, before
// propagation runs; nothing crashes and nothing is printed.

xla.mesh @mesh = <["x"=4]>

// expected-error @+1 {{sharding of argument 0: unknown mesh axis "y"}}
func.func @unknown_axis(%a: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>}) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// -----

xla.mesh @mesh = <["x"=4]>

func.func @rank_mismatch(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sharding has 2 dimension entries but the tensor 'tensor<8xf32>' has rank 1}}
  %0 = xla.exp %a {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

xla.mesh @mesh = <["x"=4]>

// expected-error @+1 {{sharding of result 0 names unknown mesh @other}}
func.func @unknown_mesh(%a: tensor<8xf32>) -> (tensor<8xf32> {xla.sharding = #xla.sharding<@other, [{}]>}) {
  return %a : tensor<8xf32>
}

// -----

xla.mesh @mesh = <["x"=4]>

func.func @bad_rule(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{sharding rule makes dimension 0 of operand 0 of size 4 but it has size 8}}
  %0 = xla.exp %a {xla.sharding_rule = #xla.op_sharding_rule<([i])->([i]) {i=4}>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
