// Sub-axes: the verifier's rules (a part must fit its axis, must not
// overlap the axis or another part in the same sharding).

// RUN: xla-opt %s -split-input-file -verify-diagnostics

xla.mesh @mesh = <["x"=8, "y"=2]>
func.func @not_dividing(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{sub-axis "x":(2)3 does not fit axis "x" of size 8 (pre-size times size must divide it)}}
  %0 = xla.mark_sharding %a <@mesh, [{"x":(2)3}, {}]> : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----
xla.mesh @mesh = <["x"=8, "y"=2]>
func.func @unknown_parent(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{unknown mesh axis "z" (mesh @mesh has axes "x", "y")}}
  %0 = xla.mark_sharding %a <@mesh, [{"z":(1)2}, {}]> : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----
xla.mesh @mesh = <["x"=8, "y"=2]>
func.func @size_one(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{sub-axis "x":(1)1 needs a pre-size of at least 1 and a size of at least 2}}
  %0 = xla.mark_sharding %a <@mesh, [{"x":(1)1}, {}]> : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----
xla.mesh @mesh = <["x"=8, "y"=2]>
func.func @axis_and_part(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{mesh axes "x" and "x":(1)2 overlap (they share devices)}}
  %0 = xla.mark_sharding %a <@mesh, [{"x"}, {"x":(1)2}]> : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----
xla.mesh @mesh = <["x"=8, "y"=2]>
func.func @overlapping_parts(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{mesh axes "x":(1)4 and "x":(2)2 overlap (they share devices)}}
  %0 = xla.mark_sharding %a <@mesh, [{"x":(1)4}, {"x":(2)2}]> : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----
xla.mesh @mesh = <["x"=8, "y"=2]>
func.func @partial_overlap(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{mesh axis "x":(4)2 is both partial and used by a dimension}}
  %0 = xla.mark_sharding %a <@mesh, [{"x":(2)4}, {}], partial={"x":(4)2}> : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
