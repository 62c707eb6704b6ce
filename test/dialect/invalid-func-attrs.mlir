// Verifier rules of the dialect's function-argument and -result attributes:
// xla.sharding, xla.donate and xla.aliases.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

xla.mesh @mesh = <["data"=4, "model"=2]>
// expected-error @+1 {{'func.func' op sharding of argument 1: unknown mesh axis "tensor" (mesh @mesh has axes "data", "model")}}
func.func @arg_unknown_axis(%x: tensor<8xf32>, %y: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"tensor"}]>}) {
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
// expected-error @+1 {{'func.func' op sharding of argument 0: sharding has 2 dimension entries but the tensor 'tensor<8xf32>' has rank 1}}
func.func @arg_rank(%x: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
// expected-error @+1 {{'func.func' op sharding of argument 0: a sharding annotates a ranked tensor, not 'i32'}}
func.func @arg_not_a_tensor(%x: i32 {xla.sharding = #xla.sharding<@mesh, []>}) {
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
// expected-error @+1 {{'func.func' op sharding of argument 0 names unknown mesh @nomesh}}
func.func @arg_unknown_mesh(%x: tensor<8xf32> {xla.sharding = #xla.sharding<@nomesh, [{}]>}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'xla.sharding' of argument 0 must be an #xla.sharding, got [0, 1]}}
func.func @arg_not_a_sharding(%x: tensor<8xf32> {xla.sharding = [0, 1]}) {
  return
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
// expected-error @+1 {{'func.func' op sharding of result 1: unknown mesh axis "x"}}
func.func @result_unknown_axis(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) {
  return %x, %x : tensor<8xf32>, tensor<8xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
// expected-error @+1 {{'func.func' op sharding of result 0: sharding has 0 dimension entries but the tensor 'tensor<8xf32>' has rank 1}}
func.func @result_rank(%x: tensor<8xf32>) -> (tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, []>}) {
  return %x : tensor<8xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>
// Caught while parsing the attribute, before the function is verified.
// expected-error @+1 {{mesh axis "data" is both partial and used by a dimension}}
func.func @result_partial(%x: tensor<8xf32>) -> (tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}], partial={"data"}>}) {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op unknown xla result attribute 'xla.donate'}}
func.func @donate_on_result(%x: tensor<8xf32>) -> (tensor<8xf32> {xla.donate}) {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op unknown xla argument attribute 'xla.alias'}}
func.func @unknown_arg_attr(%x: tensor<8xf32> {xla.alias = 0}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.donate' is a unit attribute}}
func.func @donate_not_unit(%x: tensor<8xf32> {xla.donate = true}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'xla.aliases' of argument 0 must be the index of a result (0..0)}}
func.func @aliases_out_of_range(%x: tensor<8xf32> {xla.aliases = 1}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.aliases' of argument 0 must be the index of a result (0..1)}}
func.func @aliases_negative(%x: tensor<8xf32> {xla.aliases = -1}) -> (tensor<8xf32>, tensor<8xf32>) {
  return %x, %x : tensor<8xf32>, tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.aliases' of argument 0 names a result, but the function has none}}
func.func @aliases_without_results(%x: tensor<8xf32> {xla.aliases = 0}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'xla.aliases' of argument 0 must be the index of a result}}
func.func @aliases_not_an_integer(%x: tensor<8xf32> {xla.aliases = "out"}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op argument 1 of type 'tensor<4xf32>' cannot alias result 0 of type 'tensor<8xf32>'}}
func.func @aliases_type_mismatch(%x: tensor<8xf32>, %y: tensor<4xf32> {xla.aliases = 0}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// expected-error @+1 {{'func.func' op arguments 0 and 2 both alias result 0}}
func.func @aliases_twice(%x: tensor<8xf32> {xla.aliases = 0}, %y: tensor<8xf32>, %z: tensor<8xf32> {xla.aliases = 0}) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
