// One device: a compute-bound matmul and a memory-bound add (roofline.test).
func.func @main(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %m = xla.matmul %a, %b : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
  %s = xla.add %m, %a : tensor<1024x1024xbf16>
  return %s : tensor<1024x1024xbf16>
}
