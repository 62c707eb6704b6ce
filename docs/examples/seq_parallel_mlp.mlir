// Sequence-parallel MLP block (Megatron-LM's sequence parallelism): the
// tokens are split over "model" outside the tensor-parallel matmuls, so the
// pointwise work (norm scale, residual) and its activations are split too.
//
// The column-parallel W1 needs every token: an all-gather of the input over
// "model" (Megatron's "g"); the row-parallel W2 leaves a partial sum that
// goes back to token-split as a reduce-scatter ("g-bar") instead of
// Megatron's all-reduce: the same bytes, a quarter of the activations.
//
// torch_xla equivalent of the annotations:
//   mesh = Mesh(np.arange(4), (4,), ("model",))
//   xs.mark_sharding(x,  mesh, ("model", None))
//   xs.mark_sharding(w1, mesh, (None, "model"))
//   xs.mark_sharding(w2, mesh, ("model", None))
//   xs.mark_sharding(out, mesh, ("model", None))
xla.mesh @mesh = <["model"=4]>

// out = x + W2 tanh(W1 (gamma * x))   tokens 512 (batch x sequence), width
// 256, MLP width 1024, f32.
func.func @sp_mlp(
    %x: tensor<512x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>},
    %gamma: tensor<256xf32>,
    %w1: tensor<256x1024xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %w2: tensor<1024x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<512x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}) {
  %g = xla.broadcast_in_dim %gamma, dims = [1] : (tensor<256xf32>) -> tensor<512x256xf32>
  %n = xla.mul %x, %g : tensor<512x256xf32>
  %h = xla.matmul %n, %w1 : (tensor<512x256xf32>, tensor<256x1024xf32>) -> tensor<512x1024xf32>
  %a = xla.tanh %h : tensor<512x1024xf32>
  %o = xla.matmul %a, %w2 : (tensor<512x1024xf32>, tensor<1024x256xf32>) -> tensor<512x256xf32>
  %out = xla.add %x, %o : tensor<512x256xf32>
  return %out : tensor<512x256xf32>
}
