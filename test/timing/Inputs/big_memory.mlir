// 16 arguments of 1 GiB summed: 16 GiB of arguments live at once, more
// than a v5e chip's 16 GB of HBM (and 2 GiB of temporaries on top).
func.func @sum(%a0: tensor<256x1024x1024xf32>, %a1: tensor<256x1024x1024xf32>, %a2: tensor<256x1024x1024xf32>, %a3: tensor<256x1024x1024xf32>, %a4: tensor<256x1024x1024xf32>, %a5: tensor<256x1024x1024xf32>, %a6: tensor<256x1024x1024xf32>, %a7: tensor<256x1024x1024xf32>, %a8: tensor<256x1024x1024xf32>, %a9: tensor<256x1024x1024xf32>, %a10: tensor<256x1024x1024xf32>, %a11: tensor<256x1024x1024xf32>, %a12: tensor<256x1024x1024xf32>, %a13: tensor<256x1024x1024xf32>, %a14: tensor<256x1024x1024xf32>, %a15: tensor<256x1024x1024xf32>) -> tensor<256x1024x1024xf32> {
  %s1 = xla.add %a0, %a1 : tensor<256x1024x1024xf32>
  %s2 = xla.add %s1, %a2 : tensor<256x1024x1024xf32>
  %s3 = xla.add %s2, %a3 : tensor<256x1024x1024xf32>
  %s4 = xla.add %s3, %a4 : tensor<256x1024x1024xf32>
  %s5 = xla.add %s4, %a5 : tensor<256x1024x1024xf32>
  %s6 = xla.add %s5, %a6 : tensor<256x1024x1024xf32>
  %s7 = xla.add %s6, %a7 : tensor<256x1024x1024xf32>
  %s8 = xla.add %s7, %a8 : tensor<256x1024x1024xf32>
  %s9 = xla.add %s8, %a9 : tensor<256x1024x1024xf32>
  %s10 = xla.add %s9, %a10 : tensor<256x1024x1024xf32>
  %s11 = xla.add %s10, %a11 : tensor<256x1024x1024xf32>
  %s12 = xla.add %s11, %a12 : tensor<256x1024x1024xf32>
  %s13 = xla.add %s12, %a13 : tensor<256x1024x1024xf32>
  %s14 = xla.add %s13, %a14 : tensor<256x1024x1024xf32>
  %s15 = xla.add %s14, %a15 : tensor<256x1024x1024xf32>
  return %s15 : tensor<256x1024x1024xf32>
}
