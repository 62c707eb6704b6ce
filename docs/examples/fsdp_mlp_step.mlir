// FSDP (ZeRO-3) training step of a two-layer MLP, torch_xla style: the
// batch and every weight are split along one mesh axis, "fsdp". Each device
// stores 1/8 of every parameter; the partitioner all-gathers a weight just
// before it is used and reduce-scatters its gradient back to the weight's
// layout, so the optimizer update runs on the local 1/8 only.
//
//   xla-opt docs/examples/fsdp_mlp_step.mlir --xla-spmd-pipeline --xla-report-collectives -o /dev/null
//   xla-run docs/examples/fsdp_mlp_step.mlir --check
//
// torch_xla equivalent:
//   mesh = Mesh(np.arange(8), (8,), ("fsdp",))
//   xs.mark_sharding(x, mesh, ("fsdp", None)); xs.mark_sharding(w1, mesh, ("fsdp", None)) ...

xla.mesh @mesh = <["fsdp"=8]>

func.func @train_step(
    %x: tensor<1024x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
    %target: tensor<1024x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
    %w1: tensor<128x512xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>, xla.aliases = 1},
    %w2: tensor<512x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>, xla.aliases = 2})
    -> (tensor<f32>,
        tensor<128x512xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
        tensor<512x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>}) {
  // ---- forward: y = tanh(x @ w1) @ w2 ----
  %h0 = xla.matmul %x, %w1 : (tensor<1024x128xf32>, tensor<128x512xf32>) -> tensor<1024x512xf32>
  %h = xla.tanh %h0 : tensor<1024x512xf32>
  %y = xla.matmul %h, %w2 : (tensor<1024x512xf32>, tensor<512x128xf32>) -> tensor<1024x128xf32>
  // ---- loss = mean((y - target)^2) ----
  %d = xla.sub %y, %target : tensor<1024x128xf32>
  %d2 = xla.mul %d, %d : tensor<1024x128xf32>
  %loss = xla.reduce mean %d2, dims = [0, 1] : (tensor<1024x128xf32>) -> tensor<f32>
  // ---- backward ----
  %c = xla.constant dense<1.52587891e-05> : tensor<1024x128xf32>
  %dy = xla.mul %d, %c : tensor<1024x128xf32>
  %dw2 = xla.dot_general %h, %dy, batch = [] x [], contract = [0] x [0] : (tensor<1024x512xf32>, tensor<1024x128xf32>) -> tensor<512x128xf32>
  %dh = xla.dot_general %dy, %w2, batch = [] x [], contract = [1] x [1] : (tensor<1024x128xf32>, tensor<512x128xf32>) -> tensor<1024x512xf32>
  // Through tanh: d tanh(u) / du = 1 - tanh(u)^2 (a smooth activation, so a
  // partitioned run that rounds a pre-activation differently cannot flip a
  // mask the way relu's derivative at 0 can).
  %one = xla.constant dense<1.0> : tensor<1024x512xf32>
  %hh = xla.mul %h, %h : tensor<1024x512xf32>
  %dtanh = xla.sub %one, %hh : tensor<1024x512xf32>
  %dh0 = xla.mul %dh, %dtanh : tensor<1024x512xf32>
  %dw1 = xla.dot_general %x, %dh0, batch = [] x [], contract = [0] x [0] : (tensor<1024x128xf32>, tensor<1024x512xf32>) -> tensor<128x512xf32>
  // ---- SGD update on the local shards ----
  %lr1 = xla.constant dense<0.1> : tensor<128x512xf32>
  %lr2 = xla.constant dense<0.1> : tensor<512x128xf32>
  %s1 = xla.mul %dw1, %lr1 : tensor<128x512xf32>
  %s2 = xla.mul %dw2, %lr2 : tensor<512x128xf32>
  %w1n = xla.sub %w1, %s1 : tensor<128x512xf32>
  %w2n = xla.sub %w2, %s2 : tensor<512x128xf32>
  return %loss, %w1n, %w2n : tensor<f32>, tensor<128x512xf32>, tensor<512x128xf32>
}
