// Sub-axes of one axis must nest: their boundaries must divide each other.

// RUN: xla-opt %s --xla-partition -verify-diagnostics

// expected-error @+1 {{sub-axes of mesh axis "x" are incompatible: a part ending at 3 does not follow one ending at 2 (each sub-axis boundary must divide the next)}}
xla.mesh @mesh = <["x"=6]>
func.func @main(%a: tensor<12xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}]>}, %b: tensor<12xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)3}]>}) -> tensor<12xf32> {
  return %a : tensor<12xf32>
}
