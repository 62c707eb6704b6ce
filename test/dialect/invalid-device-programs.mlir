// Verifier rules of the per-device form: xla.device_table, xla.dispatch and
// the xla.devices attribute of bodies.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

xla.mesh @mesh = <["x"=4]>
func.func @table_size() -> tensor<i32> {
  // expected-error @+1 {{'xla.device_table' op holds 3 values but the module's meshes span 4 devices}}
  %0 = xla.device_table [0, 1, 2] : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @table_empty() -> tensor<i32> {
  // expected-error @+1 {{'xla.device_table' op must hold one value per device, got none}}
  %0 = xla.device_table [] : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @table_overflow() -> tensor<i8> {
  // expected-error @+1 {{'xla.device_table' op value 128 of device 1 does not fit 'i8'}}
  %0 = xla.device_table [0, 128] : tensor<i8>
  return %0 : tensor<i8>
}

// -----

func.func @table_bool() -> tensor<i1> {
  // expected-error @+1 {{'xla.device_table' op value -1 of device 0 does not fit 'i1'}}
  %0 = xla.device_table [-1, 0] : tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @table_not_scalar() -> tensor<2xi32> {
  // expected-error @+1 {{'xla.device_table' op result #0 must be 0D tensor of 1-bit signless integer or 8-bit signless integer or 32-bit signless integer or 64-bit signless integer values}}
  %0 = xla.device_table [0, 1] : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @table_float() -> tensor<f32> {
  // expected-error @+1 {{'xla.device_table' op result #0 must be 0D tensor of}}
  %0 = xla.device_table [0, 1] : tensor<f32>
  return %0 : tensor<f32>
}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @dispatch_no_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op attribute 'bodies' failed to satisfy constraint}}
  %0 = xla.dispatch [](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @dispatch_unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op names unknown function @nowhere}}
  %0 = xla.dispatch [@nowhere](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @dispatch_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op body @b has type '(tensor<2xf32>) -> tensor<2xf32>' but the dispatch is '(tensor<4xf32>) -> tensor<4xf32>'}}
  %0 = xla.dispatch [@b](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @b(%x: tensor<2xf32>) -> tensor<2xf32> attributes {xla.devices = array<i64: 0, 1>} {
  return %x : tensor<2xf32>
}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @dispatch_no_devices(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op body @b does not list its devices ('xla.devices')}}
  %0 = xla.dispatch [@b](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @dispatch_declaration(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op body @b is a declaration}}
  %0 = xla.dispatch [@b](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @b(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 1>}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @dispatch_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op lists body @b twice}}
  %0 = xla.dispatch [@b, @b](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @b(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 1>} {
  return %x : tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=4]>
func.func @dispatch_overlap(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op device 1 is listed by bodies @a and @b}}
  %0 = xla.dispatch [@a, @b](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @a(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 1>} {
  return %x : tensor<4xf32>
}
func.func private @b(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 1, 2, 3>} {
  return %x : tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=4]>
func.func @dispatch_missing(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op device 2 is listed by no body}}
  %0 = xla.dispatch [@a](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @a(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 1, 3>} {
  return %x : tensor<4xf32>
}

// -----

xla.mesh @mesh = <["x"=2]>
func.func @dispatch_out_of_range(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op body @a lists device 2 but the module's meshes span 2 devices}}
  %0 = xla.dispatch [@a](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @a(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 1, 2>} {
  return %x : tensor<4xf32>
}

// -----

// Without a mesh the bodies must list the devices 0..N-1.
func.func @dispatch_gap(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op device 1 is listed by no body}}
  %0 = xla.dispatch [@a](%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @a(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 2>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.devices' must list device ids in increasing order, without repeats; 3 comes before 1}}
func.func private @unsorted(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 3, 1>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.devices' must list device ids in increasing order, without repeats; 1 comes before 1}}
func.func private @repeated(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 1, 1>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.devices' lists device -1, which is negative}}
func.func private @negative(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: -1, 0>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.devices' must list at least one device}}
func.func private @empty(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64>} {
  return %x : tensor<4xf32>
}

// -----

// expected-error @+1 {{'func.func' op 'xla.devices' is an array<i64: ...> of device ids on a function}}
func.func private @wrong_kind(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = [0, 1]} {
  return %x : tensor<4xf32>
}

// -----

func.func @not_on_function() {
  // expected-error @+1 {{'xla.partition_id' op 'xla.devices' is an array<i64: ...> of device ids on a function}}
  %0 = xla.partition_id {xla.devices = array<i64: 0>} : tensor<i32>
  return
}
