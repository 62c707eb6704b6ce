// A hand-written SPMD program: every device runs this function on its own
// local block, and the collectives are spelled out, as with torch_xla's
// xm.all_reduce & co. (no sharding annotations; nothing to propagate).
//
// Mesh ["data"=2, "model"=4], devices row-major:
//   data 0: 0 1 2 3      groups along "model": [0,1,2,3] [4,5,6,7]
//   data 1: 4 5 6 7      groups along "data":  [0,4] [1,5] [2,6] [3,7]

xla.mesh @mesh = <["data"=2, "model"=4]>

// Average per-device gradients over the data-parallel replicas:
// xm.all_reduce(xm.REDUCE_SUM, g, scale=1/2, groups=[[0,4],[1,5],[2,6],[3,7]]).
// Both spellings below name the same groups.
func.func @mean_gradients(%g: tensor<256x64xf32>) -> (tensor<256x64xf32>, tensor<256x64xf32>) {
  %by_axis = xla.all_reduce sum %g mesh_axes = @mesh["data"] scale = 0.5 : tensor<256x64xf32>
  %by_groups = xla.all_reduce sum %g groups = [[0, 4], [1, 5], [2, 6], [3, 7]] scale = 0.5 : tensor<256x64xf32>
  return %by_axis, %by_groups : tensor<256x64xf32>, tensor<256x64xf32>
}

// A local block of a weight sharded 4 ways on "model" along dim 0:
// all_gather rebuilds the full weight (blocks concatenated in group order),
// all_slice goes back to the local block without communication.
func.func @gather_and_slice(%w: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %full = xla.all_gather %w, dim = 0 mesh_axes = @mesh["model"] : (tensor<64x512xf32>) -> tensor<256x512xf32>
  %mine = xla.all_slice %full, dim = 0 mesh_axes = @mesh["model"] : (tensor<256x512xf32>) -> tensor<64x512xf32>
  return %mine : tensor<64x512xf32>
}

// Sum partial results over "model" and keep this device's quarter of the
// rows: one reduce_scatter instead of all_reduce + slice.
func.func @reduce_scatter_rows(%partial: tensor<128x512xf32>) -> tensor<32x512xf32> {
  %r = xla.reduce_scatter sum %partial, dim = 0 mesh_axes = @mesh["model"] : (tensor<128x512xf32>) -> tensor<32x512xf32>
  return %r : tensor<32x512xf32>
}

// Re-shard from "model" on the sequence to "model" on the heads: split the
// heads in 4, send block i to group member i, concatenate what arrives
// along the sequence.
func.func @sequence_to_heads(%x: tensor<2x32x16x64xbf16>) -> tensor<2x128x4x64xbf16> {
  %y = xla.all_to_all %x, split_dim = 2, concat_dim = 1, split_count = 4 mesh_axes = @mesh["model"] : (tensor<2x32x16x64xbf16>) -> tensor<2x128x4x64xbf16>
  return %y : tensor<2x128x4x64xbf16>
}

// Shift blocks one step around the "model" ring (as in a ring attention or
// a halo exchange). Pairs are positions within each group; a position that
// is no target would receive zeros.
func.func @ring_shift(%x: tensor<32x512xf32>) -> tensor<32x512xf32> {
  %y = xla.collective_permute %x, pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] mesh_axes = @mesh["model"] : tensor<32x512xf32>
  return %y : tensor<32x512xf32>
}

// Where am I? partition_id is the device id; axis_index the coordinate
// along one axis (here device 6 gives 6, 1 and 2).
func.func @coordinates() -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %id = xla.partition_id : tensor<i32>
  %d = xla.axis_index @mesh["data"] : tensor<i32>
  %m = xla.axis_index @mesh["model"] : tensor<i32>
  return %id, %d, %m : tensor<i32>, tensor<i32>, tensor<i32>
}
