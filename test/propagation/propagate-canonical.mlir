// RUN: xla-opt %s -split-input-file --xla-propagate-sharding | FileCheck %s
// RUN: xla-opt %s -split-input-file --xla-propagate-sharding --xla-propagate-sharding | FileCheck %s

// The canonical strategies. The second RUN line checks that propagating an
// already propagated module changes nothing.

// Data parallel: the batch is sharded on "data"; every activation follows,
// the (unannotated) weights stay replicated, and the mean loss is a partial
// sum over "data".
xla.mesh @mesh = <["data"=8]>

// CHECK-LABEL: func.func @data_parallel
// CHECK-SAME: %arg0: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: %arg1: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}
// CHECK-SAME: %arg2: tensor<128xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>}
// CHECK-SAME: %arg3: tensor<128x10xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}
// CHECK-SAME: -> (tensor<f32> {xla.sharding = #xla.sharding<@mesh, []>})
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK: xla.broadcast_in_dim {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK: xla.relu {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK: xla.softmax {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK: xla.reduce mean {{.*}}xla.sharding = #xla.sharding<@mesh, [], partial={"data"}>
func.func @data_parallel(%x: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                         %w1: tensor<32x128xf32>, %b1: tensor<128xf32>,
                         %w2: tensor<128x10xf32>) -> tensor<f32> {
  %h = xla.matmul %x, %w1 : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %bb = xla.broadcast_in_dim %b1, dims = [1] : (tensor<128xf32>) -> tensor<64x128xf32>
  %hb = xla.add %h, %bb : tensor<64x128xf32>
  %a = xla.relu %hb : tensor<64x128xf32>
  %logits = xla.matmul %a, %w2 : (tensor<64x128xf32>, tensor<128x10xf32>) -> tensor<64x10xf32>
  %p = xla.softmax %logits, dim = 1 : tensor<64x10xf32>
  %loss = xla.reduce mean %p, dims = [0, 1] : (tensor<64x10xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// FSDP (torch_xla FSDPv2): weights sharded on "fsdp" along dimension 0,
// activations batch-sharded on "fsdp". The contracting dimension of the
// first weight stays unsharded for the matmul (the weight is gathered):
// sharding it would make the activations partial.
xla.mesh @mesh = <["fsdp"=8]>

// CHECK-LABEL: func.func @fsdp
// CHECK-SAME: -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>})
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>
// CHECK: xla.relu {{.*}}xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>
func.func @fsdp(%x: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
                %w1: tensor<32x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>},
                %w2: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>}) -> tensor<64x32xf32> {
  %h = xla.matmul %x, %w1 : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  %g = xla.relu %h : tensor<64x64xf32>
  %o = xla.matmul %g, %w2 : (tensor<64x64xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %o : tensor<64x32xf32>
}

// -----

// Megatron MLP: w1 column-sharded, w2 row-sharded on "model". The hidden
// activation is sharded on "model", the output is a partial sum over
// "model"; the function result (the caller's value) is not partial.
xla.mesh @mesh = <["model"=4]>

// CHECK-LABEL: func.func @megatron
// CHECK-SAME: %arg0: tensor<16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}
// CHECK-SAME: -> (tensor<16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>})
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>
// CHECK: xla.gelu {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {}], partial={"model"}>
func.func @megatron(%x: tensor<16x32xf32>,
                    %w1: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                    %w2: tensor<128x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}) -> tensor<16x32xf32> {
  %h = xla.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
  %g = xla.gelu %h : tensor<16x128xf32>
  %o = xla.matmul %g, %w2 : (tensor<16x128xf32>, tensor<128x32xf32>) -> tensor<16x32xf32>
  return %o : tensor<16x32xf32>
}

// A consumer that wants the output sharded on "model" (sequence parallel)
// wins over the partial result: the partitioner reduce-scatters.
// CHECK-LABEL: func.func @megatron_sequence_parallel
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>
// CHECK: xla.gelu {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}
// CHECK: xla.mark_sharding {{.*}}xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>
func.func @megatron_sequence_parallel(%x: tensor<16x32xf32>,
                    %w1: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                    %w2: tensor<128x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}) -> tensor<16x32xf32> {
  %h = xla.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
  %g = xla.gelu %h : tensor<16x128xf32>
  %o = xla.matmul %g, %w2 : (tensor<16x128xf32>, tensor<128x32xf32>) -> tensor<16x32xf32>
  %s = xla.mark_sharding %o <@mesh, [{"model"}, {}]> : tensor<16x32xf32>
  return %s : tensor<16x32xf32>
}

// -----

// 2D: data parallel across two slices (DCN) and Megatron tensor parallel
// inside each slice (ICI), on a HybridMesh.
xla.mesh @hybrid = hybrid<ici=["data"=1, "model"=4], dcn=["data"=2, "model"=1]>

// CHECK-LABEL: func.func @two_d
// CHECK-SAME: -> (tensor<16x32xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}]>})
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data"}, {"model"}]>
// CHECK: xla.gelu {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data"}, {"model"}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}], partial={"model"}>
func.func @two_d(%x: tensor<16x32xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}]>},
                 %w1: tensor<32x128xf32> {xla.sharding = #xla.sharding<@hybrid, [{}, {"model"}]>},
                 %w2: tensor<128x32xf32> {xla.sharding = #xla.sharding<@hybrid, [{"model"}, {}]>}) -> tensor<16x32xf32> {
  %h = xla.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
  %g = xla.gelu %h : tensor<16x128xf32>
  %o = xla.matmul %g, %w2 : (tensor<16x128xf32>, tensor<128x32xf32>) -> tensor<16x32xf32>
  return %o : tensor<16x32xf32>
}

// -----

// A transformer block (attention + MLP, pre-residual) with only the input
// and the weights annotated: heads and the MLP hidden dimension follow
// "model" through the reshapes, the projections back are partial sums.
xla.mesh @mesh = <["data"=2, "model"=4]>

// CHECK-LABEL: func.func @transformer_block
// CHECK-SAME: -> (tensor<4x16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>})
// CHECK-COUNT-3: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {"model"}]>
// CHECK-COUNT-3: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {"model"}, {}]>
// CHECK: xla.einsum "bshd,bthd->bhst" {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}, {}, {}]>
// CHECK: xla.softmax {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}, {}, {}]>
// CHECK: xla.einsum "bhst,bthd->bshd" {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {"model"}, {}]>
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {"model"}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}], partial={"model"}>
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {"model"}]>
// CHECK: xla.gelu {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {"model"}]>
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}], partial={"model"}>
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>
func.func @transformer_block(
    %x: tensor<4x16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}, {}]>},
    %wq: tensor<64x64xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %wk: tensor<64x64xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %wv: tensor<64x64xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %wo: tensor<64x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>},
    %w1: tensor<64x256xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %w2: tensor<256x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> tensor<4x16x64xf32> {
  %q = xla.matmul %x, %wq : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
  %k = xla.matmul %x, %wk : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
  %v = xla.matmul %x, %wv : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
  %q4 = xla.reshape %q : (tensor<4x16x64xf32>) -> tensor<4x16x8x8xf32>
  %k4 = xla.reshape %k : (tensor<4x16x64xf32>) -> tensor<4x16x8x8xf32>
  %v4 = xla.reshape %v : (tensor<4x16x64xf32>) -> tensor<4x16x8x8xf32>
  %s = xla.einsum "bshd,bthd->bhst" %q4, %k4 : (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) -> tensor<4x8x16x16xf32>
  %p = xla.softmax %s, dim = 3 : tensor<4x8x16x16xf32>
  %c = xla.einsum "bhst,bthd->bshd" %p, %v4 : (tensor<4x8x16x16xf32>, tensor<4x16x8x8xf32>) -> tensor<4x16x8x8xf32>
  %c3 = xla.reshape %c : (tensor<4x16x8x8xf32>) -> tensor<4x16x64xf32>
  %a = xla.matmul %c3, %wo : (tensor<4x16x64xf32>, tensor<64x64xf32>) -> tensor<4x16x64xf32>
  %r = xla.add %x, %a : tensor<4x16x64xf32>
  %h = xla.matmul %r, %w1 : (tensor<4x16x64xf32>, tensor<64x256xf32>) -> tensor<4x16x256xf32>
  %g = xla.gelu %h : tensor<4x16x256xf32>
  %m = xla.matmul %g, %w2 : (tensor<4x16x256xf32>, tensor<256x64xf32>) -> tensor<4x16x64xf32>
  %y = xla.add %r, %m : tensor<4x16x64xf32>
  return %y : tensor<4x16x64xf32>
}
