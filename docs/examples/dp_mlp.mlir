// Data-parallel training step of a two-layer MLP (torch_xla SPMD: the batch
// on mesh axis "data", every parameter replicated).
//
// The program is written for one device. The annotations say only how the
// inputs and outputs are laid out; propagation spreads "data" over the
// activations, and because every device then holds a slice of the batch,
// the weight gradients come out `partial` over "data" and the partitioner
// inserts the all-reduces that data parallelism needs.
//
//   xla-opt docs/examples/dp_mlp.mlir                    # parse, verify, print
//   xla-opt docs/examples/dp_mlp.mlir --xla-dump-meshes  # the 8 devices
//
// torch_xla equivalent of the annotations:
//   mesh = Mesh(np.arange(8), (8,), ("data",))
//   xs.mark_sharding(x, mesh, ("data", None))
//   xs.mark_sharding(target, mesh, ("data", None))

// Eight devices in one row.
xla.mesh @mesh = <["data"=8]>

// One SGD step: forward, mean-squared-error loss, backward, update.
// The parameters are donated and alias the updated parameters, so the
// update happens in place (as a torch_xla training loop does).
func.func @train_step(
    // Activations: batch 64 split 8 ways (8 rows per device).
    %x: tensor<64x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
    %target: tensor<64x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
    // Parameters: replicated on every device.
    %w1: tensor<256x1024xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>, xla.donate, xla.aliases = 1},
    %b1: tensor<1024xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>, xla.donate, xla.aliases = 2},
    %w2: tensor<1024x256xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>, xla.donate, xla.aliases = 3},
    %b2: tensor<256xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>, xla.donate, xla.aliases = 4})
    -> (tensor<f32>,
        tensor<256x1024xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>},
        tensor<1024xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>},
        tensor<1024x256xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>},
        tensor<256xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>}) {
  // ---- forward: y = relu(x @ w1 + b1) @ w2 + b2 ----
  %h0 = xla.matmul %x, %w1 : (tensor<64x256xf32>, tensor<256x1024xf32>) -> tensor<64x1024xf32>
  %b1b = xla.broadcast_in_dim %b1, dims = [1] : (tensor<1024xf32>) -> tensor<64x1024xf32>
  %h1 = xla.add %h0, %b1b : tensor<64x1024xf32>
  %h = xla.relu %h1 : tensor<64x1024xf32>
  // Keep the hidden activations batch-sharded (torch_xla mark_sharding).
  %hs = xla.mark_sharding %h <@mesh, [{"data"}, {}]> : tensor<64x1024xf32>
  %y0 = xla.matmul %hs, %w2 : (tensor<64x1024xf32>, tensor<1024x256xf32>) -> tensor<64x256xf32>
  %b2b = xla.broadcast_in_dim %b2, dims = [1] : (tensor<256xf32>) -> tensor<64x256xf32>
  %y = xla.add %y0, %b2b : tensor<64x256xf32>

  // ---- loss = mean((y - target)^2) ----
  %d = xla.sub %y, %target : tensor<64x256xf32>
  %d2 = xla.mul %d, %d : tensor<64x256xf32>
  %loss = xla.reduce mean %d2, dims = [0, 1] : (tensor<64x256xf32>) -> tensor<f32>

  // ---- backward ----
  // dL/dy = 2 (y - target) / (64 * 256)
  %c = xla.constant dense<1.22070313e-04> : tensor<64x256xf32>
  %dy = xla.mul %d, %c : tensor<64x256xf32>
  // dL/dw2 = h^T @ dy: contracting the batch, so each device holds a
  // partial sum over its rows until the gradients are all-reduced.
  %dw2 = xla.dot_general %hs, %dy, batch = [] x [], contract = [0] x [0] : (tensor<64x1024xf32>, tensor<64x256xf32>) -> tensor<1024x256xf32>
  %db2 = xla.reduce sum %dy, dims = [0] : (tensor<64x256xf32>) -> tensor<256xf32>
  // dL/dh = dy @ w2^T, then through the relu.
  %dh = xla.dot_general %dy, %w2, batch = [] x [], contract = [1] x [1] : (tensor<64x256xf32>, tensor<1024x256xf32>) -> tensor<64x1024xf32>
  %zero = xla.constant dense<0.0> : tensor<64x1024xf32>
  %active = xla.compare gt, %h1, %zero : tensor<64x1024xf32>
  %dh1 = xla.select %active, %dh, %zero : tensor<64x1024xf32>
  %dw1 = xla.dot_general %x, %dh1, batch = [] x [], contract = [0] x [0] : (tensor<64x256xf32>, tensor<64x1024xf32>) -> tensor<256x1024xf32>
  %db1 = xla.reduce sum %dh1, dims = [0] : (tensor<64x1024xf32>) -> tensor<1024xf32>

  // ---- SGD update, learning rate 0.1 ----
  %lr_w1 = xla.constant dense<0.1> : tensor<256x1024xf32>
  %lr_b1 = xla.constant dense<0.1> : tensor<1024xf32>
  %lr_w2 = xla.constant dense<0.1> : tensor<1024x256xf32>
  %lr_b2 = xla.constant dense<0.1> : tensor<256xf32>
  %s_w1 = xla.mul %dw1, %lr_w1 : tensor<256x1024xf32>
  %s_b1 = xla.mul %db1, %lr_b1 : tensor<1024xf32>
  %s_w2 = xla.mul %dw2, %lr_w2 : tensor<1024x256xf32>
  %s_b2 = xla.mul %db2, %lr_b2 : tensor<256xf32>
  %w1_new = xla.sub %w1, %s_w1 : tensor<256x1024xf32>
  %b1_new = xla.sub %b1, %s_b1 : tensor<1024xf32>
  %w2_new = xla.sub %w2, %s_w2 : tensor<1024x256xf32>
  %b2_new = xla.sub %b2, %s_b2 : tensor<256xf32>
  return %loss, %w1_new, %b1_new, %w2_new, %b2_new
      : tensor<f32>, tensor<256x1024xf32>, tensor<1024xf32>, tensor<1024x256xf32>, tensor<256xf32>
}
