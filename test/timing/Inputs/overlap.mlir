// Hand-written SPMD programs on 4 devices whose timelines are easy to
// reason about: an all-reduce whose operand is ready at once, next to an
// independent matmul (async collectives overlap it, sync ones do not), and
// @slow, which delays its all-reduce behind a matmul (run on one device with
// --device-function=0=slow, the others wait for it).
xla.mesh @mesh = <["x"=4]>

func.func @main(%a: tensor<1024x1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %r = xla.all_reduce sum %a mesh_axes = @mesh["x"] : tensor<1024x1024xbf16>
  %m = xla.matmul %w, %w : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
  %s = xla.add %m, %r : tensor<1024x1024xbf16>
  return %s : tensor<1024x1024xbf16>
}

func.func @slow(%a: tensor<1024x1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %a2 = xla.matmul %a, %w : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
  %r = xla.all_reduce sum %a2 mesh_axes = @mesh["x"] : tensor<1024x1024xbf16>
  %m = xla.matmul %w, %w : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
  %s = xla.add %m, %r : tensor<1024x1024xbf16>
  return %s : tensor<1024x1024xbf16>
}

// Reduces with max where the others sum: a collective mismatch.
func.func @mismatch(%a: tensor<1024x1024xbf16>, %w: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %r = xla.all_reduce max %a mesh_axes = @mesh["x"] : tensor<1024x1024xbf16>
  return %r : tensor<1024x1024xbf16>
}
