// An all-gather and an all-reduce next to an independent matmul, on 4
// devices: which of them hide under the matmul depends on the kinds
// --sync-collectives keeps on the compute stream.
xla.mesh @mesh = <["x"=4]>

func.func @main(%a: tensor<256x1024xbf16>, %b: tensor<1024x1024xbf16>, %w: tensor<1024x1024xbf16>) -> (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) {
  %g = xla.all_gather %a, dim = 0 mesh_axes = @mesh["x"] : (tensor<256x1024xbf16>) -> tensor<1024x1024xbf16>
  %r = xla.all_reduce sum %b mesh_axes = @mesh["x"] : tensor<1024x1024xbf16>
  %m = xla.matmul %w, %w : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
  %s = xla.add %m, %g : tensor<1024x1024xbf16>
  %t = xla.add %m, %r : tensor<1024x1024xbf16>
  return %s, %t : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>
}
