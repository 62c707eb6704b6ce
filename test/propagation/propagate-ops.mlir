// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s

// Propagation through each op family.
xla.mesh @mesh = <["x"=4, "y"=2]>

// A sharded reduced dimension leaves a pending reduction of the reduce's
// kind: sum for sum and mean, mul for prod, max, min.
// CHECK-LABEL: func.func @reduce
// Function results are full values: never partial.
// CHECK-SAME: -> (tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}, tensor<16xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>}, tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}, tensor<16xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>}, tensor<f32> {xla.sharding = #xla.sharding<@mesh, []>})
// CHECK: xla.reduce sum {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}], partial={"y"}>
// CHECK: xla.reduce prod {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}], partial<mul>={"x"}>
// CHECK: xla.reduce max {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}], partial<max>={"y"}>
// CHECK: xla.reduce min {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}], partial<min>={"x"}>
// CHECK: xla.reduce mean {{.*}}xla.sharding = #xla.sharding<@mesh, [], partial={"x", "y"}>
func.func @reduce(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8xf32>, tensor<16xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) {
  %0 = xla.reduce sum %a, dims = [1] : (tensor<8x16xf32>) -> tensor<8xf32>
  %1 = xla.reduce prod %a, dims = [0] : (tensor<8x16xf32>) -> tensor<16xf32>
  %2 = xla.reduce max %a, dims = [1] : (tensor<8x16xf32>) -> tensor<8xf32>
  %3 = xla.reduce min %a, dims = [0] : (tensor<8x16xf32>) -> tensor<16xf32>
  %4 = xla.reduce mean %a, dims = [0, 1] : (tensor<8x16xf32>) -> tensor<f32>
  return %0, %1, %2, %3, %4 : tensor<8xf32>, tensor<16xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>
}

// Transpose permutes, broadcast maps kept dimensions and its operand is
// reached backward.
// CHECK-LABEL: func.func @transpose_broadcast
// CHECK-SAME: %arg1: tensor<16xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>}
// CHECK: xla.transpose {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}]>
// CHECK: xla.broadcast_in_dim {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}]>
func.func @transpose_broadcast(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>},
                               %b: tensor<16xf32>) -> tensor<16x8xf32> {
  %0 = xla.transpose %a, permutation = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %1 = xla.broadcast_in_dim %b, dims = [0] : (tensor<16xf32>) -> tensor<16x8xf32>
  %2 = xla.add %0, %1 : tensor<16x8xf32>
  return %2 : tensor<16x8xf32>
}

// dot_general: batch passes through; a sharded contracting dimension on
// both operands makes the result partial.
// CHECK-LABEL: func.func @dot_general
// CHECK: xla.dot_general {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {}], partial={"y"}>
func.func @dot_general(%a: tensor<4x8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {"y"}]>},
                       %b: tensor<4x16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}]>}) -> tensor<4x8x32xf32> {
  %0 = xla.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
  return %0 : tensor<4x8x32xf32>
}

// einsum with an output-only sharding reached backward: "bsd,df->bsf"
// with the result's f sharded gives the weight's f.
// CHECK-LABEL: func.func @einsum_backward
// CHECK-SAME: %arg1: tensor<16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}]>}
func.func @einsum_backward(%a: tensor<2x8x16xf32>, %w: tensor<16x32xf32>)
    -> (tensor<2x8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"x"}]>}) {
  %0 = xla.einsum "bsd,df->bsf" %a, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// Gather: the indices' and the rows' shardings pass through.
// CHECK-LABEL: func.func @embedding
// CHECK: xla.gather {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {"y"}]>
func.func @embedding(%t: tensor<1024x64xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>},
                     %i: tensor<8x16xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x16x64xf32> {
  %0 = xla.gather %t, %i : (tensor<1024x64xf32>, tensor<8x16xi32>) -> tensor<8x16x64xf32>
  return %0 : tensor<8x16x64xf32>
}

// A vocabulary-sharded table: each shard looks up the rows it owns, the
// result is a partial sum (cheaper than gathering the table here).
// CHECK-LABEL: func.func @vocab_parallel_embedding
// CHECK: xla.gather {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {}, {}], partial={"x"}>
func.func @vocab_parallel_embedding(%t: tensor<1024x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                                    %i: tensor<8x16xi32>) -> tensor<8x16x64xf32> {
  %0 = xla.gather %t, %i : (tensor<1024x64xf32>, tensor<8x16xi32>) -> tensor<8x16x64xf32>
  return %0 : tensor<8x16x64xf32>
}

// Pad, slice and concatenate move data across shards along the padded,
// sliced or concatenated dimension (permutation factors) but still
// propagate; a dynamically sliced dimension and softmax's dimension must
// be replicated.
// CHECK-LABEL: func.func @data_movement
// CHECK: xla.pad {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.slice {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.concatenate {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.dynamic_slice {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
// CHECK: xla.dynamic_update_slice {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
// CHECK: xla.softmax {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
func.func @data_movement(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>},
                         %i: tensor<i32>) -> tensor<8x20xf32> {
  %0 = xla.pad %a, low = [0, 2], high = [0, 2], interior = [0, 0], value = 0.0 : (tensor<8x16xf32>) -> tensor<8x20xf32>
  %1 = xla.slice %a, start = [0, 0], limit = [8, 8], strides = [1, 1] : (tensor<8x16xf32>) -> tensor<8x8xf32>
  %2 = "xla.concatenate"(%a, %a) <{dim = 1 : i64}> : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x32xf32>
  %3 = xla.dynamic_slice %a[%i, %i], sizes = [8, 4] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
  %4 = xla.dynamic_update_slice %a, %3[%i, %i] : (tensor<8x16xf32>, tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  %5 = xla.softmax %a, dim = 1 : tensor<8x16xf32>
  return %0 : tensor<8x20xf32>
}

// Convolution: batch and spatial dimensions (windowed) propagate, the
// kernel's window stays replicated.
// CHECK-LABEL: func.func @convolution
// CHECK-SAME: %arg1: tensor<3x3x16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {}, {}]>}
// CHECK: xla.convolution {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>
func.func @convolution(%x: tensor<8x32x32x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>},
                       %k: tensor<3x3x16x32xf32>) -> tensor<8x32x32x32xf32> {
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<8x32x32x32xf32>
  return %0 : tensor<8x32x32x32xf32>
}

// Output channels sharded on the kernel reach the result.
// CHECK-LABEL: func.func @convolution_channels
// CHECK: xla.convolution {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {}, {}, {"x"}]>
func.func @convolution_channels(%x: tensor<8x32x32x16xf32>,
                                %k: tensor<3x3x16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {}, {"x"}]>}) -> tensor<8x32x32x32xf32> {
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<8x32x32x16xf32>, tensor<3x3x16x32xf32>) -> tensor<8x32x32x32xf32>
  return %0 : tensor<8x32x32x32xf32>
}

// Sources take their consumers' shardings; collectives are barriers.
// CHECK-LABEL: func.func @sources_and_collectives
// CHECK: xla.iota {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
// CHECK: xla.constant {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
// CHECK: xla.rng {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
// CHECK: xla.all_reduce {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {}]>
func.func @sources_and_collectives(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = xla.iota dim = 0 : tensor<8x4xf32>
  %1 = xla.constant dense<2.0> : tensor<8x4xf32>
  %2 = xla.rng uniform seed = 1, a = 0.0, b = 1.0 : tensor<8x4xf32>
  %3 = xla.add %0, %1 : tensor<8x4xf32>
  %4 = xla.add %3, %2 : tensor<8x4xf32>
  %5 = xla.add %4, %a : tensor<8x4xf32>
  %6 = xla.all_reduce sum %a mesh_axes = @mesh["y"] : tensor<8x4xf32>
  return %5 : tensor<8x4xf32>
}
