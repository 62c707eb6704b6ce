// Inputs --xla-lower-to-device rejects, with a located error.

// RUN: xla-opt %s -split-input-file --allow-unregistered-dialect --xla-lower-to-device -verify-diagnostics

// Without a mesh or replica groups the device count is unknown.
// expected-error @+1 {{'func.func' op cannot be lowered to per-device programs: the module declares no xla.mesh and no collective of the function lists replica groups, so the number of devices is unknown}}
func.func @no_devices() -> tensor<i32> {
  %0 = xla.partition_id : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// Without a mesh, the first collective with groups sets the device count.
func.func @groups_disagree(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, 3]] : tensor<4xf32>
  // expected-error @+1 {{'xla.all_reduce' op cannot be lowered: its participants must partition the 4 devices of the module, but device 4 is out of range}}
  %1 = xla.all_reduce sum %x groups = [[0, 1, 2, 3], [4, 5, 6, 7]] : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Slices are physical: hybrid meshes of one module must agree on them.
xla.mesh @a = hybrid<ici=["x"=4], dcn=["x"=2]>
// expected-error @+1 {{'xla.mesh' op has slices of 2 devices but mesh @a has slices of 4; the hybrid meshes of a module must agree on its slices}}
xla.mesh @b = hybrid<ici=["x"=2], dcn=["x"=4]>
func.func @slices(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.all_reduce sum %x mesh_axes = @a["x"] : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A dispatch is only valid as the whole body of a lowered entry.
xla.mesh @mesh = <["x"=2]>
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.dispatch' op cannot be lowered again: only an entry function that returns one dispatch of its arguments is lowered}}
  %0 = xla.dispatch [@body](%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = xla.neg %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func private @body(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.devices = array<i64: 0, 1>} {
  return %x : tensor<4xf32>
}

// -----

// Bodies are straight-line programs.
xla.mesh @mesh = <["x"=2]>
// expected-error @+1 {{'func.func' op cannot be lowered to per-device programs: it has several blocks}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.partitioned} {
  "test.br"()[^bb1] : () -> ()
^bb1:
  return %x : tensor<4xf32>
}
