// One device: a sort, a scatter-add and a gather (indexing-work.test).
func.func @main(%x: tensor<4x8xf32>, %t: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>, %e: tensor<100x16xf32>, %j: tensor<8x1xi32>) -> (tensor<4x8xf32>, tensor<10x4xf32>, tensor<8x16xf32>) {
  %s = xla.sort(%x) dim = 1 : tensor<4x8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare lt, %a, %b : tensor<f32>
    xla.yield %lt : tensor<i1>
  }
  %r = xla.scatter %t[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = xla.add %a, %b : tensor<f32>
    xla.yield %sum : tensor<f32>
  }
  %g = xla.hlo_gather %e[%j], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return %s, %r, %g : tensor<4x8xf32>, tensor<10x4xf32>, tensor<8x16xf32>
}
