// SPMD programs over a mesh @mesh of 8 devices ("data"=2 x "model"=4 in
// some layout) that the run-pipeline-*.mlir tests declare; each is
// partitioned, lowered and checked against itself as written.

// Megatron MLP: w1 by columns, w2 by rows over "model"; rows of x over
// "data".
func.func @megatron(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                    %w1: tensor<16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                    %w2: tensor<32x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %h = xla.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %g = xla.gelu %h : tensor<8x32xf32>
  %y = xla.matmul %g, %w2 : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// 10 rows over 4 devices: padded to 12, the padding masked out of the
// softmax and the row sums by axis_index-based masks.
func.func @padded(%x: tensor<10x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<10x6xf32>, tensor<6xf32>) {
  %s = xla.softmax %x, dim = 0 : tensor<10x6xf32>
  %r = xla.reduce max %x, dims = [0] : (tensor<10x6xf32>) -> tensor<6xf32>
  return %s, %r : tensor<10x6xf32>, tensor<6xf32>
}

// A slice at an offset and edge padding: halos from both neighbours.
func.func @halo(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<14x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>},
        tensor<19x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}) {
  %s = xla.slice %a, start = [1, 0], limit = [15, 64], strides = [1, 1] : (tensor<16x64xf32>) -> tensor<14x64xf32>
  %p = xla.pad %a, low = [2, 0], high = [1, 0], interior = [0, 0], value = 7.0 : (tensor<16x64xf32>) -> tensor<19x64xf32>
  return %s, %p : tensor<14x64xf32>, tensor<19x64xf32>
}

// A reshard that moves blocks between devices (rows -> columns) and a
// gradient-style all-reduce over "data".
func.func @reshard(%x: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data", "model"}, {}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model", "data"}]>}, tensor<8xf32>) {
  %t = xla.transpose %x, permutation = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = xla.reduce sum %x, dims = [0] : (tensor<8x8xf32>) -> tensor<8xf32>
  return %t, %r : tensor<8x8xf32>, tensor<8xf32>
}
