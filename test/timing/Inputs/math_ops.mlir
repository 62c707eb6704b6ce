// One device: the costs of XlaMathOps.td (math-ops.test).
func.func @main(%a: tensor<1024x1024xf32>, %lo: tensor<1024x1024xf32>,
                %hi: tensor<1024x1024xf32>) -> tensor<1024x1024xi32> {
  %e = xla.erf %a : tensor<1024x1024xf32>
  %c = xla.clamp %lo, %e, %hi : tensor<1024x1024xf32>
  %r = xla.reverse %c, dims = [0] : tensor<1024x1024xf32>
  %b = xla.bitcast_convert %r : tensor<1024x1024xf32> -> tensor<1024x1024xi32>
  return %b : tensor<1024x1024xi32>
}
