// An all-reduce over the x rings of a v5p 4x4x4 slice (wraparound on every
// axis): 16 groups of 4, device = x + 4 (y + 4 z).
xla.mesh @mesh = <["yz"=16, "x"=4]>

func.func @main(%a: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %r = xla.all_reduce sum %a mesh_axes = @mesh["x"] : tensor<1024x1024xbf16>
  return %r : tensor<1024x1024xbf16>
}
