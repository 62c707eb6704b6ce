// Fully sharded data parallelism (FSDP) on two TPU slices joined by the
// data-centre network: a small language model's forward pass and loss.
//
// The mesh is a HybridMesh of 2 slices x 4 chips. Inside a slice, axis
// "fsdp" (ICI) shards both the batch and every parameter along its first
// dimension; across slices, axis "dcn" (DCN) only shards the batch, so
// the parameters are replicated per slice. Before a layer uses a weight,
// the partitioner all-gathers it over "fsdp" on the fast ICI links; only
// the gradient all-reduce of a training step would cross the DCN.
//
//   xla-opt docs/examples/fsdp_hybrid.mlir --xla-dump-meshes -o /dev/null
//     mesh @mesh: 8 devices, shape [2, 4], hybrid
//       axis "dcn" size 2 (ici 1 x dcn 2) link dcn
//       axis "fsdp" size 4 (ici 4 x dcn 1) link ici
//       ...
//       logical array: [[0, 1, 2, 3], [4, 5, 6, 7]]     (row = slice)
//
// torch_xla equivalent of the annotations:
//   mesh = HybridMesh(ici_mesh_shape=(1, 4), dcn_mesh_shape=(2, 1),
//                     axis_names=("dcn", "fsdp"))
//   xs.mark_sharding(tokens, mesh, (("dcn", "fsdp"), None))
//   for p in (embedding, w1, w2): xs.mark_sharding(p, mesh, ("fsdp", None))

xla.mesh @mesh = hybrid<ici=["dcn"=1, "fsdp"=4], dcn=["dcn"=2, "fsdp"=1]>

// Vocabulary 1024, width 256, MLP width 1024; batch 16 x sequence 64.
// The batch is split over both axes ("dcn" major): 2 sequences per device.
func.func @lm_loss(
    %tokens: tensor<16x64xi32> {xla.sharding = #xla.sharding<@mesh, [{"dcn", "fsdp"}, {}]>},
    %labels: tensor<16x64xi32> {xla.sharding = #xla.sharding<@mesh, [{"dcn", "fsdp"}, {}]>},
    %embedding: tensor<1024x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
    %w1: tensor<256x1024xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
    %w2: tensor<1024x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>})
    -> tensor<f32> {
  // ---- embedding lookup: rows of the (fsdp-sharded) table ----
  %e = xla.gather %embedding, %tokens : (tensor<1024x256xf32>, tensor<16x64xi32>) -> tensor<16x64x256xf32>
  // Activations stay sharded like the batch.
  %es = xla.mark_sharding %e <@mesh, [{"dcn", "fsdp"}, {}, {}]> : tensor<16x64x256xf32>

  // ---- MLP with a residual connection ----
  %h0 = xla.matmul %es, %w1 : (tensor<16x64x256xf32>, tensor<256x1024xf32>) -> tensor<16x64x1024xf32>
  %h = xla.gelu %h0 : tensor<16x64x1024xf32>
  %y0 = xla.matmul %h, %w2 : (tensor<16x64x1024xf32>, tensor<1024x256xf32>) -> tensor<16x64x256xf32>
  %y = xla.add %es, %y0 : tensor<16x64x256xf32>

  // ---- logits against the tied embedding table, then softmax ----
  %logits = xla.einsum "bsh,vh->bsv" %y, %embedding : (tensor<16x64x256xf32>, tensor<1024x256xf32>) -> tensor<16x64x1024xf32>
  %p = xla.softmax %logits, dim = 2 : tensor<16x64x1024xf32>
  %logp = xla.log %p : tensor<16x64x1024xf32>

  // ---- cross entropy: -mean(log p[label]) with a one-hot mask ----
  %vocab = xla.iota dim = 2 : tensor<16x64x1024xi32>
  %lab = xla.broadcast_in_dim %labels, dims = [0, 1] : (tensor<16x64xi32>) -> tensor<16x64x1024xi32>
  %hit = xla.compare eq, %vocab, %lab : tensor<16x64x1024xi32>
  %onehot = xla.convert %hit : tensor<16x64x1024xi1> -> tensor<16x64x1024xf32>
  %picked = xla.mul %logp, %onehot : tensor<16x64x1024xf32>
  %ll = xla.reduce sum %picked, dims = [2] : (tensor<16x64x1024xf32>) -> tensor<16x64xf32>
  %mean = xla.reduce mean %ll, dims = [0, 1] : (tensor<16x64xf32>) -> tensor<f32>
  %loss = xla.neg %mean : tensor<f32>
  return %loss : tensor<f32>
}
