// Attention on 2 heads of 128 positions, through HBM (@plain) and as one
// hand-written kernel (@kernel, an xla.trace ... kernel): the same ops.
// q, k, v and the output are 32 KiB each (T), the scores 128 KiB (S).

func.func @plain(%q: tensor<1x128x2x32xf32>, %k: tensor<1x128x2x32xf32>, %v: tensor<1x128x2x32xf32>) -> tensor<1x128x2x32xf32> {
  %s = xla.einsum "bqhd,bkhd->bhqk" %q, %k : (tensor<1x128x2x32xf32>, tensor<1x128x2x32xf32>) -> tensor<1x2x128x128xf32>
  %p = xla.softmax %s, dim = 3 : tensor<1x2x128x128xf32>
  %o = xla.einsum "bhqk,bkhd->bqhd" %p, %v : (tensor<1x2x128x128xf32>, tensor<1x128x2x32xf32>) -> tensor<1x128x2x32xf32>
  %r = xla.add %o, %q : tensor<1x128x2x32xf32>
  return %r : tensor<1x128x2x32xf32>
}

func.func @kernel(%q: tensor<1x128x2x32xf32>, %k: tensor<1x128x2x32xf32>, %v: tensor<1x128x2x32xf32>) -> tensor<1x128x2x32xf32> {
  %r = xla.trace "flash_attention" kernel {
    %s = xla.einsum "bqhd,bkhd->bhqk" %q, %k : (tensor<1x128x2x32xf32>, tensor<1x128x2x32xf32>) -> tensor<1x2x128x128xf32>
    %p = xla.softmax %s, dim = 3 : tensor<1x2x128x128xf32>
    %o = xla.einsum "bhqk,bkhd->bqhd" %p, %v : (tensor<1x2x128x128xf32>, tensor<1x128x2x32xf32>) -> tensor<1x128x2x32xf32>
    %a = xla.add %o, %q : tensor<1x128x2x32xf32>
    xla.yield %a : tensor<1x128x2x32xf32>
  } : tensor<1x128x2x32xf32>
  return %r : tensor<1x128x2x32xf32>
}
