// Verifier rules of the manual-partitioning ops.
// RUN: xla-opt %s -split-input-file -verify-diagnostics

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @wrong_local_type(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.full_to_shard' op result must be the local block 'tensor<2x16xf32>' of 'tensor<8x16xf32>', not 'tensor<4x16xf32>'}}
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<4x16xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @wrong_operand_type(%l: tensor<4x16xf32>) {
  // expected-error @+1 {{'xla.shard_to_full' op operand must be the local block 'tensor<2x16xf32>' of 'tensor<8x16xf32>', not 'tensor<4x16xf32>'}}
  %g = xla.shard_to_full %l <@mesh, [{"data"}, {}]> : tensor<4x16xf32> -> tensor<8x16xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @partial(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.full_to_shard' op sharding has pending (partial) axes; a manual boundary takes whole values}}
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}], partial={"model"}> : tensor<8x16xf32> -> tensor<2x16xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @unknown_mesh(%x: tensor<8x16xf32>) {
  // expected-error @+1 {{'xla.full_to_shard' op sharding names unknown mesh @nope}}
  %l = xla.full_to_shard %x <@nope, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @sharding_count(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'xla.manual_computation' op has 1 operand(s) but 0 in_shardings}}
  %r = xla.manual_computation (%l = %x : tensor<2x16xf32>) in_shardings = [] out_shardings = [<@mesh, [{"data"}, {}]>] {
    xla.yield %l : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @argument_type(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'xla.manual_computation' op body argument 0 must be the local block 'tensor<2x16xf32>' of operand 0 under in_shardings[0], not 'tensor<8x16xf32>'}}
  %r = xla.manual_computation (%l = %x : tensor<8x16xf32>) in_shardings = [<@mesh, [{"data"}, {}]>] out_shardings = [<@mesh, [{}, {}]>] {
    xla.yield %l : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @yield_type(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'xla.manual_computation' op body must yield the local block 'tensor<8x8xf32>' of result 0 under out_shardings[0], not 'tensor<2x16xf32>'}}
  %r = xla.manual_computation (%l = %x : tensor<2x16xf32>) in_shardings = [<@mesh, [{"data"}, {}]>] out_shardings = [<@mesh, [{}, {"model"}]>] {
    xla.yield %l : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
xla.mesh @other = <["x"=8]>

func.func @two_meshes(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'xla.manual_computation' op out_shardings[0] is over mesh @other but in_shardings[0] is over @mesh; one manual computation spans one mesh}}
  %r = xla.manual_computation (%l = %x : tensor<2x16xf32>) in_shardings = [<@mesh, [{"data"}, {}]>] out_shardings = [<@other, [{"x"}, {}]>] {
    xla.yield %l : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

func.func @captures(%x: tensor<8x16xf32>, %y: tensor<2x16xf32>) -> tensor<8x16xf32> {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = xla.manual_computation (%l = %x : tensor<2x16xf32>) in_shardings = [<@mesh, [{"data"}, {}]>] out_shardings = [<@mesh, [{"data"}, {}]>] {
    // expected-error @+1 {{using value defined outside the region}}
    %s = xla.add %l, %y : tensor<2x16xf32>
    xla.yield %s : tensor<2x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
