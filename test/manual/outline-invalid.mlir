// Bad manual regions are located errors.
// RUN: xla-opt %s --xla-outline-manual-computations -split-input-file -verify-diagnostics

xla.mesh @mesh = <["data"=4]>

func.func @global_in_manual(%x: tensor<8x16xf32>, %z: tensor<2x16xf32>) -> tensor<8x16xf32> {
  // expected-note @+1 {{the global value is defined here}}
  %y = xla.neg %z : tensor<2x16xf32>
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  // expected-error @+1 {{'xla.add' op mixes a global value into per-device code; pass it through xla.full_to_shard first}}
  %s = xla.add %l, %y : tensor<2x16xf32>
  %g = xla.shard_to_full %s <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}

// -----

xla.mesh @mesh = <["data"=4]>

func.func @escapes(%x: tensor<8x16xf32>) -> tensor<2x16xf32> {
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  %t = xla.tanh %l : tensor<2x16xf32>
  // expected-error @+1 {{'func.return' op uses a per-device value of xla.tanh}}
  return %t : tensor<2x16xf32>
}

// -----

xla.mesh @mesh = <["data"=4]>

func.func @no_entry(%l: tensor<2x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'xla.shard_to_full' op takes a value that no xla.full_to_shard produced}}
  %g = xla.shard_to_full %l <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}

