// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition="halo=never" --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=NEVER

// Reshapes to a new sharded layout move data once: one all-to-all (over
// every axis that moves), one collective_permute, or nothing, never a
// gather, slice and gather again. Bytes are what one device sends.
xla.mesh @line = <["x"=4]>
xla.mesh @grid = <["x"=2, "y"=2]>

// [8,16] rows split 4 ways -> [128] split 4 ways: block k is flat
// [32k, 32k+32) on both sides, a local reshape.
// BYTES-LABEL: @merge_rows: 0 collectives, sends 0 B per device
func.func @merge_rows(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<128xf32> {xla.sharding = #xla.sharding<@line, [{"x"}]>}) {
  %r = xla.reshape %a : (tensor<8x16xf32>) -> tensor<128xf32>
  return %r : tensor<128xf32>
}

// [4,32] rows split -> [16,8] columns split: the 32 of a row is 4 rows of 8
// columns, so the split moves from the rows of 4 to the columns of 8; one
// all-to-all of the 128 B block keeps a quarter: 96 B.
// CHECK-LABEL: func.func @rows_to_cols
// CHECK: xla.reshape %{{.*}} : (tensor<1x32xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: xla.all_to_all %{{.*}}, split_dim = 1, concat_dim = 0, split_count = 4 mesh_axes = @line["x"] : (tensor<4x8xf32>) -> tensor<16x2xf32>
// CHECK-NEXT: return
// BYTES-LABEL: @rows_to_cols: 1 collective, sends 96 B per device
func.func @rows_to_cols(%a: tensor<4x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<16x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) {
  %r = xla.reshape %a : (tensor<4x32xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// [8,16] columns split over x and y -> [128] split over x and y: both axes
// move from the 16 to the 8 in one all-to-all over the 4 devices
// (3/4 x 128 B = 96 B). Moving them one at a time reversed their order, so
// the planner used to gather y, move x and slice y again (256 B).
// CHECK-LABEL: func.func @cols_to_flat_two_axes
// CHECK: xla.all_to_all %{{.*}}, split_dim = 0, concat_dim = 1, split_count = 4 mesh_axes = @grid["x", "y"] : (tensor<8x4xf32>) -> tensor<2x16xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
// BYTES-LABEL: @cols_to_flat_two_axes: 1 collective, sends 96 B per device
// BYTES-NEXT: all_to_all mesh_axes ["x", "y"] (group 4) ici in 128 B sends 96 B
func.func @cols_to_flat_two_axes(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@grid, [{}, {"x", "y"}]>})
    -> (tensor<128xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}]>}) {
  %r = xla.reshape %a : (tensor<8x16xf32>) -> tensor<128xf32>
  return %r : tensor<128xf32>
}

// [10,6] rows split 4 ways (blocks of 3 rows, padded to 12) -> [6,10] rows
// split 4 ways (blocks of 2 rows, padded to 8): device k holds flat
// [18k, 18k+18) and needs [20k, 20k+20), so it receives up to 8 elements
// from its right neighbour (32 B; 6 are data, device 3's last 2 are
// padding). The reshape rule has no common factor for 10x6 and 6x10 and
// gathered all 10 rows (3 x 72 B = 216 B).
// CHECK-LABEL: func.func @rows_regrouped
// CHECK: xla.reshape %{{.*}} : (tensor<3x6xf32>) -> tensor<18xf32>
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[1, 0], [2, 1], [3, 2]] mesh_axes = @line["x"] : tensor<8xf32>
// CHECK: xla.dynamic_slice
// CHECK: xla.reshape %{{.*}} : (tensor<20xf32>) -> tensor<2x10xf32>
// BYTES-LABEL: @rows_regrouped: 1 collective, sends 32 B per device
// NEVER-LABEL: @rows_regrouped: 2 collectives, sends 216 B per device
// NEVER-NEXT: all_gather
func.func @rows_regrouped(%a: tensor<10x6xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<6x10xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %r = xla.reshape %a : (tensor<10x6xf32>) -> tensor<6x10xf32>
  return %r : tensor<6x10xf32>
}

// [10,64] -> [20,32], rows split over both axes of the grid: flat blocks
// of 192 (3 rows of 64, padded to 12 rows) become blocks of 160 (5 rows of
// 32). Device 3 holds [576, 640) and needs [480, 640): 96 elements from
// device 2 (384 B), the most any device receives. The rule's factors
// ([10][2][32]) split the 10 unevenly, so it gathered and sliced both
// axes (2304 B).
// BYTES-LABEL: @rows_regrouped_grid: 1 collective, sends 384 B per device
// BYTES-NEXT: collective_permute mesh_axes ["x", "y"] (group 4) ici in 384 B sends 384 B
// NEVER-LABEL: @rows_regrouped_grid: 4 collectives, sends 2304 B per device
func.func @rows_regrouped_grid(%a: tensor<10x64xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>})
    -> (tensor<20x32xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}, {}]>}) {
  %r = xla.reshape %a : (tensor<10x64xf32>) -> tensor<20x32xf32>
  return %r : tensor<20x32xf32>
}

// Reshapes whose split is carried by parts of an axis plan on those parts:
// the partitioner (and explain) refine "x"=4 into "x":(1)2 x "x":(2)2 where
// a dimension of the other side begins inside it. A mesh of their own keeps
// that refinement away from the functions above.
xla.mesh @parts = <["x"=4]>

// [2,24] columns over x -> [48] over x: device 2i+j needs row i, columns
// [12j, 12j+12), held by devices 2j and 2j+1. As [{}, {x0, x1}] ->
// [{x0}, {x1}], x0 moves to the rows (an all-to-all over x0), then x1
// makes the columns contiguous (an all-to-all within them): 2 x 24 B of the
// 48 B block. Devices 1 and 2 must send two 24 B pieces, so 48 B is the
// least; the factor rule gathered the columns (3 x 48 = 144 B), and one
// all-to-all plus a permute of the block sent 72 B.
// CHECK: xla.mesh @parts = <["x:(1)2"=2, "x:(2)2"=2]>
// CHECK-LABEL: func.func @cols_to_flat_parts
// CHECK: xla.all_to_all %{{.*}}, split_dim = 0, concat_dim = 1, split_count = 2 mesh_axes = @parts["x:(1)2"] : (tensor<2x6xf32>) -> tensor<1x12xf32>
// CHECK-NEXT: xla.all_to_all %{{.*}}, split_dim = 1, concat_dim = 1, split_count = 2 mesh_axes = @parts["x:(2)2"] : (tensor<1x12xf32>) -> tensor<1x12xf32>
// CHECK-NEXT: xla.reshape %{{.*}} : (tensor<1x12xf32>) -> tensor<12xf32>
// BYTES-LABEL: @cols_to_flat_parts: 2 collectives, sends 48 B per device
// BYTES-NEXT: all_to_all mesh_axes ["x:(1)2"] (group 2) ici in 48 B sends 24 B
// BYTES-NEXT: all_to_all mesh_axes ["x:(2)2"] (group 2) ici in 48 B sends 24 B
func.func @cols_to_flat_parts(%a: tensor<2x24xf32> {xla.sharding = #xla.sharding<@parts, [{}, {"x"}]>})
    -> (tensor<48xf32> {xla.sharding = #xla.sharding<@parts, [{"x"}]>}) {
  %r = xla.reshape %a : (tensor<2x24xf32>) -> tensor<48xf32>
  return %r : tensor<48xf32>
}

// [128] over x -> [2,64] columns over x: the reverse. The reshape is local
// to [{x0}, {x1}] (device 2i+j holds row i, columns [32j, 32j+32)); x1
// spreads the columns (an all-to-all within them), then x0 leaves the rows
// (an all-to-all over x0): 2 x 64 B of the 128 B block. Devices 1 and 2
// must send two 64 B pieces, so 128 B is the least; an all-to-all and a
// permute of the block sent 192 B.
// CHECK-LABEL: func.func @flat_to_cols_parts
// CHECK: xla.reshape %{{.*}} : (tensor<32xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: xla.all_to_all %{{.*}}, split_dim = 1, concat_dim = 1, split_count = 2 mesh_axes = @parts["x:(2)2"] : (tensor<1x32xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: xla.all_to_all %{{.*}}, split_dim = 1, concat_dim = 0, split_count = 2 mesh_axes = @parts["x:(1)2"] : (tensor<1x32xf32>) -> tensor<2x16xf32>
// BYTES-LABEL: @flat_to_cols_parts: 2 collectives, sends 128 B per device
// BYTES-NEXT: all_to_all mesh_axes ["x:(2)2"] (group 2) ici in 128 B sends 64 B
// BYTES-NEXT: all_to_all mesh_axes ["x:(1)2"] (group 2) ici in 128 B sends 64 B
func.func @flat_to_cols_parts(%a: tensor<128xf32> {xla.sharding = #xla.sharding<@parts, [{"x"}]>})
    -> (tensor<2x64xf32> {xla.sharding = #xla.sharding<@parts, [{}, {"x"}]>}) {
  %r = xla.reshape %a : (tensor<128xf32>) -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}
