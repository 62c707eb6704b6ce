// A transformer block (self-attention + MLP, pre-norm with RMS norm,
// residual connections) with Megatron-style tensor parallelism on "model"
// and the batch on "data" (torch_xla 2D SPMD without FSDP).
//
// Only the weights are annotated: the query/key/value projections and the
// first MLP weight are split by output (heads, hidden units) on "model";
// the attention output projection and the second MLP weight by input.
// Every head and every hidden unit then lives on one device, and the
// forward pass needs exactly one all-reduce per attention block and one per
// MLP, both over "model".
//
//   xla-opt docs/examples/megatron_transformer.mlir --xla-spmd-pipeline --xla-report-collectives -o /dev/null
//   xla-run docs/examples/megatron_transformer.mlir --check

xla.mesh @mesh = <["data"=2, "model"=4]>

func.func @block(
    %x: tensor<4x16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>},
    %wq: tensor<64x8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}, {}]>},
    %wk: tensor<64x8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}, {}]>},
    %wv: tensor<64x8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}, {}]>},
    %wo: tensor<8x16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}, {}]>},
    %w1: tensor<64x256xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %w2: tensor<256x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<4x16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>}) {
  // ---- attention ----
  // RMS norm over the model dimension.
  %norm1_sq = xla.mul %x, %x : tensor<4x16x64xf32>
  %norm1_ms = xla.reduce mean %norm1_sq, dims = [2] : (tensor<4x16x64xf32>) -> tensor<4x16xf32>
  %norm1_eps = xla.constant dense<1.0e-06> : tensor<4x16xf32>
  %norm1_var = xla.add %norm1_ms, %norm1_eps : tensor<4x16xf32>
  %norm1_r = xla.rsqrt %norm1_var : tensor<4x16xf32>
  %norm1_rb = xla.broadcast_in_dim %norm1_r, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x64xf32>
  %n1 = xla.mul %x, %norm1_rb : tensor<4x16x64xf32>
  %q = xla.einsum "bsd,dhk->bshk" %n1, %wq : (tensor<4x16x64xf32>, tensor<64x8x16xf32>) -> tensor<4x16x8x16xf32>
  %k = xla.einsum "bsd,dhk->bshk" %n1, %wk : (tensor<4x16x64xf32>, tensor<64x8x16xf32>) -> tensor<4x16x8x16xf32>
  %v = xla.einsum "bsd,dhk->bshk" %n1, %wv : (tensor<4x16x64xf32>, tensor<64x8x16xf32>) -> tensor<4x16x8x16xf32>
  %scores = xla.einsum "bshk,bthk->bhst" %q, %k : (tensor<4x16x8x16xf32>, tensor<4x16x8x16xf32>) -> tensor<4x8x16x16xf32>
  %scale = xla.constant dense<0.25> : tensor<4x8x16x16xf32>
  %scaled = xla.mul %scores, %scale : tensor<4x8x16x16xf32>
  %probs = xla.softmax %scaled, dim = 3 : tensor<4x8x16x16xf32>
  %ctx = xla.einsum "bhst,bthk->bshk" %probs, %v : (tensor<4x8x16x16xf32>, tensor<4x16x8x16xf32>) -> tensor<4x16x8x16xf32>
  %attn = xla.einsum "bshk,hkd->bsd" %ctx, %wo : (tensor<4x16x8x16xf32>, tensor<8x16x64xf32>) -> tensor<4x16x64xf32>
  %x1 = xla.add %x, %attn : tensor<4x16x64xf32>
  // ---- MLP ----
  %norm2_sq = xla.mul %x1, %x1 : tensor<4x16x64xf32>
  %norm2_ms = xla.reduce mean %norm2_sq, dims = [2] : (tensor<4x16x64xf32>) -> tensor<4x16xf32>
  %norm2_eps = xla.constant dense<1.0e-06> : tensor<4x16xf32>
  %norm2_var = xla.add %norm2_ms, %norm2_eps : tensor<4x16xf32>
  %norm2_r = xla.rsqrt %norm2_var : tensor<4x16xf32>
  %norm2_rb = xla.broadcast_in_dim %norm2_r, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x64xf32>
  %n2 = xla.mul %x1, %norm2_rb : tensor<4x16x64xf32>
  %h = xla.matmul %n2, %w1 : (tensor<4x16x64xf32>, tensor<64x256xf32>) -> tensor<4x16x256xf32>
  %g = xla.gelu %h : tensor<4x16x256xf32>
  %m = xla.matmul %g, %w2 : (tensor<4x16x256xf32>, tensor<256x64xf32>) -> tensor<4x16x64xf32>
  %x2 = xla.add %x1, %m : tensor<4x16x64xf32>
  return %x2 : tensor<4x16x64xf32>
}
