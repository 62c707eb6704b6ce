// Every verifier and parser rule of #xla.sharding and xla.mark_sharding:
// unknown meshes and axes, axes used twice, rank mismatches, partial axes,
// priorities and integer axis indices. Function-attribute rules are in
// invalid-func-attrs.mlir.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @unknown_axis(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.mark_sharding' op unknown mesh axis "fsdp" (mesh @mesh has axes "data", "model")}}
  %0 = xla.mark_sharding %x <@mesh, [{"fsdp"}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @unknown_partial_axis(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{unknown mesh axis "tensor"}}
  %0 = xla.mark_sharding %x <@mesh, [{"data"}, {}], partial={"tensor"}> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @unknown_mesh(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.mark_sharding' op names unknown mesh @nomesh}}
  %0 = xla.mark_sharding %x <@nomesh, [{}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axis_twice_in_one_dim(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{mesh axis "data" is used twice in the sharding}}
  %0 = xla.mark_sharding %x <@mesh, [{"data", "data"}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axis_in_two_dims(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{mesh axis "model" is used twice in the sharding}}
  %0 = xla.mark_sharding %x <@mesh, [{"model"}, {"data", "model"}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axis_twice_by_index(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // An index and a name can denote the same axis.
  // expected-error @+1 {{mesh axis "data" is used twice in the sharding}}
  %0 = xla.mark_sharding %x <@mesh, [{0}, {"data"}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @spec_too_short(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.mark_sharding' op sharding has 1 dimension entries but the tensor 'tensor<8x32xf32>' has rank 2}}
  %0 = xla.mark_sharding %x <@mesh, [{"data"}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @spec_too_long(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{sharding has 1 dimension entries but the tensor 'tensor<f32>' has rank 0}}
  %0 = xla.mark_sharding %x <@mesh, [{}]> : tensor<f32>
  return %0 : tensor<f32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @partial_and_dim(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{mesh axis "data" is both partial and used by a dimension}}
  %0 = xla.mark_sharding %x <@mesh, [{"data"}, {}], partial={"data"}> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @partial_twice(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{partial axis "model" is listed twice}}
  %0 = xla.mark_sharding %x <@mesh, [{}, {}], partial<max>={"model", "model"}> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @unknown_partial_kind(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{unknown reduction 'avg' (expected sum, mul, and, or, min, max)}}
  %0 = xla.mark_sharding %x <@mesh, [{}, {}], partial<avg>={"model"}> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @priority_on_closed_replicated(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{dimension 1 is closed and replicated; it cannot carry a priority}}
  %0 = xla.mark_sharding %x <@mesh, [{"data"}p0, {}p1]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @bad_priority(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{expected a priority like 'p0' after a dimension sharding}}
  %0 = xla.mark_sharding %x <@mesh, [{"data"}q0, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @priority_without_number(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{expected a priority like 'p0' after a dimension sharding}}
  %0 = xla.mark_sharding %x <@mesh, [{"data"}p, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @open_marker_not_last(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{expected '}'}}
  %0 = xla.mark_sharding %x <@mesh, [{?, "data"}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @axis_index_out_of_range(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{axis index 2 is out of range for mesh @mesh of rank 2}}
  %0 = xla.mark_sharding %x <@mesh, [{2}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @negative_axis_index(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{axis index -1 is out of range for mesh @mesh of rank 2}}
  %0 = xla.mark_sharding %x <@mesh, [{-1}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @partial_axis_index_out_of_range(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{axis index 5 is out of range for mesh @mesh of rank 2}}
  %0 = xla.mark_sharding %x <@mesh, [{}, {}], partial={5}> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

// An integer axis index is resolved while parsing, so its mesh must come first.
func.func @axis_index_before_mesh(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{axis index 0 needs mesh @later to be declared earlier in the file}}
  %0 = xla.mark_sharding %x <@later, [{0}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
xla.mesh @later = <["data"=4, "model"=2]>

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @not_an_axis(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{expected a mesh axis name or index}}
  %0 = xla.mark_sharding %x <@mesh, [{data}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @mesh_not_a_symbol(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %0 = xla.mark_sharding %x <"mesh", [{}, {}]> : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @type_mismatch(%x: tensor<8x32xf32>) -> tensor<8x32xf16> {
  // expected-error @+1 {{'xla.mark_sharding' op requires the same type for all operands and results}}
  %0 = "xla.mark_sharding"(%x) <{sharding = #xla.sharding<@mesh, [{}, {}]>}> : (tensor<8x32xf32>) -> tensor<8x32xf16>
  return %0 : tensor<8x32xf16>
}

// -----

// Sharding attributes on op results.

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @op_result_unknown_axis(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.neg' op sharding of result 0: unknown mesh axis "x"}}
  %0 = xla.neg %x {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @op_result_rank(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.neg' op sharding of result 0: sharding has 3 dimension entries but the tensor 'tensor<8x32xf32>' has rank 2}}
  %0 = xla.neg %x {xla.sharding = [#xla.sharding<@mesh, [{}, {}, {}]>]} : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @op_result_count(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.neg' op 'xla.sharding' must hold one sharding per result (1)}}
  %0 = xla.neg %x {xla.sharding = [#xla.sharding<@mesh, [{}, {}]>, #xla.sharding<@mesh, [{}, {}]>]} : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @two_results(%x: tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  return %x, %x : tensor<8x32xf32>, tensor<8x32xf32>
}
func.func @op_with_two_results(%x: tensor<8x32xf32>) {
  // expected-error @+1 {{'func.call' op 'xla.sharding' must hold one sharding per result (2)}}
  %0:2 = func.call @two_results(%x) {xla.sharding = #xla.sharding<@mesh, [{}, {}]>} : (tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>)
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @op_result_not_a_sharding(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.neg' op 'xla.sharding' of result 0 must be an #xla.sharding, got "data"}}
  %0 = xla.neg %x {xla.sharding = "data"} : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
func.func @op_result_unknown_mesh(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.neg' op sharding of result 0 names unknown mesh @other}}
  %0 = xla.neg %x {xla.sharding = #xla.sharding<@other, [{}, {}]>} : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

func.func @unknown_op_attribute(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  // expected-error @+1 {{'xla.neg' op unknown xla dialect attribute 'xla.shardings'}}
  %0 = xla.neg %x {xla.shardings = 1} : tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
