// Propagation needs the manual regions outlined.
// RUN: xla-opt %s --xla-propagate-sharding -verify-diagnostics

xla.mesh @mesh = <["data"=4]>

func.func @not_outlined(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{'xla.full_to_shard' op marks a manual region that is not outlined yet; run --xla-outline-manual-computations first (the SPMD pipeline does)}}
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  %g = xla.shard_to_full %l <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}
