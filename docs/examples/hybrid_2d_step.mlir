// 2D (data x model) training step of a Megatron MLP on a HybridMesh of two
// TPU slices: "model" (tensor parallel) stays inside each slice on ICI;
// "data" spans 2 chips per slice and 2 slices, so it is a mixed ICI+DCN axis
// (torch_xla HybridMesh(ici_mesh_shape=(2, 2), dcn_mesh_shape=(2, 1))).
//
// The weight gradients contract the batch and are pending sums over "data".
// The optimizer combines them into one all-reduce and decomposes it
// hierarchically: reduce-scatter inside each slice over ICI, all-reduce of
// the 1/2 shard across the slices over DCN, all-gather over ICI. The step
// crosses DCN exactly once.
//
//   xla-opt docs/examples/hybrid_2d_step.mlir --xla-spmd-pipeline --xla-report-collectives -o /dev/null
//   xla-run docs/examples/hybrid_2d_step.mlir --check

xla.mesh @mesh = hybrid<ici=["data"=2, "model"=2], dcn=["data"=2, "model"=1]>

func.func @train_step(
    %x: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
    %target: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
    %w1: tensor<128x512xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>, xla.aliases = 1},
    %w2: tensor<512x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>, xla.aliases = 2})
    -> (tensor<f32>,
        tensor<128x512xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
        tensor<512x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}) {
  // ---- forward (one all-reduce over "model") ----
  %h0 = xla.matmul %x, %w1 : (tensor<32x128xf32>, tensor<128x512xf32>) -> tensor<32x512xf32>
  %h = xla.tanh %h0 : tensor<32x512xf32>
  %y = xla.matmul %h, %w2 : (tensor<32x512xf32>, tensor<512x128xf32>) -> tensor<32x128xf32>
  // ---- loss = mean((y - target)^2) ----
  %d = xla.sub %y, %target : tensor<32x128xf32>
  %d2 = xla.mul %d, %d : tensor<32x128xf32>
  %loss = xla.reduce mean %d2, dims = [0, 1] : (tensor<32x128xf32>) -> tensor<f32>
  // ---- backward ----
  %c = xla.constant dense<4.8828125e-04> : tensor<32x128xf32>
  %dy = xla.mul %d, %c : tensor<32x128xf32>
  %dw2 = xla.dot_general %h, %dy, batch = [] x [], contract = [0] x [0] : (tensor<32x512xf32>, tensor<32x128xf32>) -> tensor<512x128xf32>
  %dh = xla.dot_general %dy, %w2, batch = [] x [], contract = [1] x [1] : (tensor<32x128xf32>, tensor<512x128xf32>) -> tensor<32x512xf32>
  // Through tanh: d tanh(u) / du = 1 - tanh(u)^2 (a smooth activation, so a
  // partitioned run that rounds a pre-activation differently cannot flip a
  // mask the way relu's derivative at 0 can).
  %one = xla.constant dense<1.0> : tensor<32x512xf32>
  %hh = xla.mul %h, %h : tensor<32x512xf32>
  %dtanh = xla.sub %one, %hh : tensor<32x512xf32>
  %dh0 = xla.mul %dh, %dtanh : tensor<32x512xf32>
  %dw1 = xla.dot_general %x, %dh0, batch = [] x [], contract = [0] x [0] : (tensor<32x128xf32>, tensor<32x512xf32>) -> tensor<128x512xf32>
  // ---- SGD update ----
  %lr1 = xla.constant dense<0.1> : tensor<128x512xf32>
  %lr2 = xla.constant dense<0.1> : tensor<512x128xf32>
  %s1 = xla.mul %dw1, %lr1 : tensor<128x512xf32>
  %s2 = xla.mul %dw2, %lr2 : tensor<512x128xf32>
  %w1n = xla.sub %w1, %s1 : tensor<128x512xf32>
  %w2n = xla.sub %w2, %s2 : tensor<512x128xf32>
  return %loss, %w1n, %w2n : tensor<f32>, tensor<128x512xf32>, tensor<512x128xf32>
}
