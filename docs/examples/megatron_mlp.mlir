// Megatron-style tensor-parallel MLP block of a transformer on a 2-axis
// mesh: the batch on "data", the MLP's hidden dimension on "model".
//
// Megatron-LM splits the first linear layer by columns and the second by
// rows, so the GELU in between needs no communication: each device computes
// its slice of the hidden activations, the second matmul gives a partial
// sum over "model", and one all-reduce over "model" finishes the block.
// Here that plan is stated with four annotations (w1, b1, w2 and one
// mark_sharding); propagation and partitioning derive the rest.
//
// torch_xla equivalent of the annotations:
//   mesh = Mesh(np.arange(8), (2, 4), ("data", "model"))
//   xs.mark_sharding(x,  mesh, ("data", None, None))
//   xs.mark_sharding(w1, mesh, (None, "model"))     # column parallel
//   xs.mark_sharding(b1, mesh, ("model",))
//   xs.mark_sharding(w2, mesh, ("model", None))     # row parallel

// 2 data-parallel replicas x 4 tensor-parallel shards = 8 devices.
xla.mesh @mesh = <["data"=2, "model"=4]>

// out = x + W2 gelu(W1 layernorm(x) + b1) + b2   (pre-norm residual block)
// x: [batch 8, sequence 128, model width 512]; MLP width 2048.
func.func @mlp_block(
    %x: tensor<8x128x512xbf16> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>},
    %gamma: tensor<512xbf16>,
    %beta: tensor<512xbf16>,
    %w1: tensor<512x2048xbf16> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %b1: tensor<2048xbf16> {xla.sharding = #xla.sharding<@mesh, [{"model"}]>},
    %w2: tensor<2048x512xbf16> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>},
    %b2: tensor<512xbf16>)
    -> (tensor<8x128x512xbf16> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>}) {
  // ---- layer norm over the model width (computed in f32) ----
  %xf = xla.convert %x : tensor<8x128x512xbf16> -> tensor<8x128x512xf32>
  %mean = xla.reduce mean %xf, dims = [2] : (tensor<8x128x512xf32>) -> tensor<8x128xf32>
  %meanb = xla.broadcast_in_dim %mean, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x512xf32>
  %xc = xla.sub %xf, %meanb : tensor<8x128x512xf32>
  %sq = xla.mul %xc, %xc : tensor<8x128x512xf32>
  %var = xla.reduce mean %sq, dims = [2] : (tensor<8x128x512xf32>) -> tensor<8x128xf32>
  %eps = xla.constant dense<1.0e-05> : tensor<8x128xf32>
  %vare = xla.add %var, %eps : tensor<8x128xf32>
  %inv = xla.rsqrt %vare : tensor<8x128xf32>
  %invb = xla.broadcast_in_dim %inv, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x512xf32>
  %xn = xla.mul %xc, %invb : tensor<8x128x512xf32>
  %xnb = xla.convert %xn : tensor<8x128x512xf32> -> tensor<8x128x512xbf16>
  %g = xla.broadcast_in_dim %gamma, dims = [2] : (tensor<512xbf16>) -> tensor<8x128x512xbf16>
  %bt = xla.broadcast_in_dim %beta, dims = [2] : (tensor<512xbf16>) -> tensor<8x128x512xbf16>
  %ln0 = xla.mul %xnb, %g : tensor<8x128x512xbf16>
  %ln = xla.add %ln0, %bt : tensor<8x128x512xbf16>

  // ---- column-parallel linear: each "model" shard owns 512 of the 2048
  // hidden units, so the result is sharded on its last dimension ----
  %h0 = xla.matmul %ln, %w1 : (tensor<8x128x512xbf16>, tensor<512x2048xbf16>) -> tensor<8x128x2048xbf16>
  %b1b = xla.broadcast_in_dim %b1, dims = [2] : (tensor<2048xbf16>) -> tensor<8x128x2048xbf16>
  %h1 = xla.add %h0, %b1b : tensor<8x128x2048xbf16>
  %h = xla.gelu %h1 : tensor<8x128x2048xbf16>
  // Pin the hidden activations to the Megatron layout (no gather here).
  %hs = xla.mark_sharding %h <@mesh, [{"data"}, {}, {"model"}]> : tensor<8x128x2048xbf16>

  // ---- row-parallel linear: contracts the "model"-sharded dimension, so
  // each device holds a partial sum; one all-reduce over "model" ----
  %y0 = xla.einsum "bsf,fd->bsd" %hs, %w2 : (tensor<8x128x2048xbf16>, tensor<2048x512xbf16>) -> tensor<8x128x512xbf16>
  %b2b = xla.broadcast_in_dim %b2, dims = [2] : (tensor<512xbf16>) -> tensor<8x128x512xbf16>
  %y = xla.add %y0, %b2b : tensor<8x128x512xbf16>

  // ---- residual ----
  %out = xla.add %x, %y : tensor<8x128x512xbf16>
  return %out : tensor<8x128x512xbf16>
}
