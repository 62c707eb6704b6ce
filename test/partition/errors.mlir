// RUN: xla-opt %s --xla-partition -split-input-file -verify-diagnostics

xla.mesh @mesh = <["x"=2]>
func.func @already_spmd(%a: tensor<4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.all_reduce' op is already device-level SPMD code; --xla-partition expects a single-device program}}
  %r = xla.all_reduce sum %a mesh_axes = @mesh["x"] : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

xla.mesh @a = <["x"=2]>
xla.mesh @b = <["y"=2]>
// expected-note @+1 {{first use of @a}}
func.func @two_meshes(%a: tensor<4xf32> {xla.sharding = #xla.sharding<@a, [{"x"}]>}) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.mark_sharding' op uses mesh @b but the function already uses @a; a function is partitioned over one mesh}}
  %m = xla.mark_sharding %a <@b, [{"y"}]> : tensor<4xf32>
  return %m : tensor<4xf32>
}
