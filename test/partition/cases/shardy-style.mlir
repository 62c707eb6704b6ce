// RUN: xla-opt %s --xla-spmd-pipeline=lower=false --xla-report-collectives -o /dev/null | FileCheck %s
// RUN: %python %S/../../e2e/run_checks.py xla-run %s | FileCheck %s --check-prefix=RUN-CHECKS
// RUN-CHECKS: checked 26 functions, 0 failed

// Cases in the spirit of Shardy's and GSPMD's partitioner tests, written
// here in `xla`. Each states the fewest bytes one device must send, derived
// by hand with the collectives' costs the report uses (all-gather (g-1)B,
// all-to-all and reduce-scatter (g-1)/g B, all-reduce 2(g-1)/g B,
// collective_permute B of the piece sent; B the local block, g the group),
// and checks that the partitioned program (--xla-spmd-pipeline) sends
// exactly that (docs/partitioning.md, "Cases", has the table).
// All tensors are f32 (4 B); every mesh has 4 devices.
xla.mesh @line = <["x"=4]>
xla.mesh @grid = <["x"=2, "y"=2]>
xla.mesh @ab = <["a"=2, "b"=2]>

// 1. Batch dimension split on both operands and the result: each device
// multiplies its own batch. Minimum 0 B.
// CHECK-LABEL: @dot_batch: 0 collectives, sends 0 B per device
func.func @dot_batch(%l: tensor<4x8x16xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}, {}]>},
                     %r: tensor<4x16x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}, {}]>})
    -> (tensor<4x8x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}, {}]>}) {
  %d = xla.dot_general %l, %r, batch = [0] x [0], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  return %d : tensor<4x8x8xf32>
}

// 2. Contracting dimension split 4 ways, result replicated: a partial sum
// of the 8x8 result (256 B) all-reduced: 2 x 3/4 x 256 = 384 B (gathering
// both 128 B operand blocks instead: 2 x 3 x 128 = 768 B).
// CHECK-LABEL: @dot_contracting_all_reduce: 1 collective, sends 384 B per device
// CHECK-NEXT: all_reduce
func.func @dot_contracting_all_reduce(%l: tensor<8x16xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>},
                                      %r: tensor<16x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  %d = xla.matmul %l, %r : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}

// 3. The same with the result split by rows: a reduce-scatter of the
// partial sum, 3/4 x 256 = 192 B.
// CHECK-LABEL: @dot_contracting_reduce_scatter: 1 collective, sends 192 B per device
// CHECK-NEXT: reduce_scatter
func.func @dot_contracting_reduce_scatter(%l: tensor<8x16xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>},
                                          %r: tensor<16x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %d = xla.matmul %l, %r : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}

// 4. Batch over x and contracting over y: the 2x8x8 partial result (512 B)
// is all-reduced over y: 2 x 1/2 x 512 = 512 B (gathering the two 512 B
// operand blocks over y: 1024 B).
// CHECK-LABEL: @dot_batch_and_contracting: 1 collective, sends 512 B per device
func.func @dot_batch_and_contracting(%l: tensor<4x8x16xf32> {xla.sharding = #xla.sharding<@grid, [{"x"}, {}, {"y"}]>},
                                     %r: tensor<4x16x8xf32> {xla.sharding = #xla.sharding<@grid, [{"x"}, {"y"}, {}]>})
    -> (tensor<4x8x8xf32> {xla.sharding = #xla.sharding<@grid, [{"x"}, {}, {}]>}) {
  %d = xla.dot_general %l, %r, batch = [0] x [0], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  return %d : tensor<4x8x8xf32>
}

// 5. FSDP: replicated activations times a weight split by its (contracting)
// rows: all-gather the 2x4 weight blocks, 3 x 32 = 96 B (all-reducing the
// 64x4 product would send 2 x 3/4 x 1024 = 1536 B).
// CHECK-LABEL: @fsdp_matmul: 1 collective, sends 96 B per device
// CHECK-NEXT: all_gather
func.func @fsdp_matmul(%x: tensor<64x8xf32>, %w: tensor<8x4xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<64x4xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  %d = xla.matmul %x, %w : (tensor<64x8xf32>, tensor<8x4xf32>) -> tensor<64x4xf32>
  return %d : tensor<64x4xf32>
}

// 6. Megatron MLP: column-parallel W1, row-parallel W2, one all-reduce of
// the 16x32 output (2048 B): 2 x 3/4 x 2048 = 3072 B.
// CHECK-LABEL: @megatron_mlp: 1 collective, sends 3072 B per device
// CHECK-NEXT: all_reduce
func.func @megatron_mlp(%x: tensor<16x32xf32>,
                        %w1: tensor<32x64xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>},
                        %w2: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<16x32xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  %h = xla.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %t = xla.tanh %h : tensor<16x64xf32>
  %y = xla.matmul %t, %w2 : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// 7. Reshape splitting a split dimension, the split staying major: 0 B.
// CHECK-LABEL: @reshape_split: 0 collectives, sends 0 B per device
func.func @reshape_split(%a: tensor<32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}]>})
    -> (tensor<4x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %r = xla.reshape %a : (tensor<32xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// 8. Reshape merging into a split dimension: 0 B.
// CHECK-LABEL: @reshape_merge: 0 collectives, sends 0 B per device
func.func @reshape_merge(%a: tensor<4x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}]>}) {
  %r = xla.reshape %a : (tensor<4x8xf32>) -> tensor<32xf32>
  return %r : tensor<32xf32>
}

// 9. Reshape moving the split from the rows of [4,32] to the columns of
// [16,8]: a device keeps 8 of its 32 elements: one all-to-all,
// 3/4 x 128 = 96 B.
// CHECK-LABEL: @reshape_move_split: 1 collective, sends 96 B per device
// CHECK-NEXT: all_to_all
func.func @reshape_move_split(%a: tensor<4x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<16x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) {
  %r = xla.reshape %a : (tensor<4x32xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// 10. Reshape moving a split over two axes ([8,16] columns over x,y ->
// [128] over x,y): one all-to-all over both, 3/4 x 128 = 96 B.
// CHECK-LABEL: @reshape_two_axes: 1 collective, sends 96 B per device
// CHECK-NEXT: all_to_all mesh_axes ["x", "y"]
func.func @reshape_two_axes(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@grid, [{}, {"x", "y"}]>})
    -> (tensor<128xf32> {xla.sharding = #xla.sharding<@grid, [{"x", "y"}]>}) {
  %r = xla.reshape %a : (tensor<8x16xf32>) -> tensor<128xf32>
  return %r : tensor<128xf32>
}

// 11. Transpose carrying the split with its dimension: 0 B.
// CHECK-LABEL: @transpose_follow: 0 collectives, sends 0 B per device
func.func @transpose_follow(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<16x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) {
  %t = xla.transpose %a, permutation = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %t : tensor<16x8xf32>
}

// 12. Transpose whose result wants the other dimension split: one
// all-to-all of the 128 B block, 96 B.
// CHECK-LABEL: @transpose_resplit: 1 collective, sends 96 B per device
// CHECK-NEXT: all_to_all
func.func @transpose_resplit(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<16x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %t = xla.transpose %a, permutation = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  return %t : tensor<16x8xf32>
}

// 13. Broadcast chain (issue 13): a 32-vector split over "a" broadcast to
// 32x16x8 split over "a" on the 16. Gathering the vector first sends
// 64 B; an all-to-all of the result would send 4096 B.
// CHECK-LABEL: @broadcast_chain: 1 collective, sends 64 B per device
// CHECK-NEXT: all_gather
func.func @broadcast_chain(%x: tensor<32xf32> {xla.sharding = #xla.sharding<@ab, [{"a"}]>})
    -> (tensor<32x16x8xf32> {xla.sharding = #xla.sharding<@ab, [{}, {"a"}, {}]>}) {
  %b = xla.broadcast_in_dim %x, dims = [0] : (tensor<32xf32>) -> tensor<32x16xf32>
  %c = xla.broadcast_in_dim %b, dims = [0, 1] : (tensor<32x16xf32>) -> tensor<32x16x8xf32>
  return %c : tensor<32x16x8xf32>
}

// 14. A row sum over the split columns, broadcast back to the split
// layout: the 16-element partial sum (64 B) is all-reduced,
// 2 x 3/4 x 64 = 96 B.
// CHECK-LABEL: @reduce_then_broadcast: 1 collective, sends 96 B per device
// CHECK-NEXT: all_reduce
func.func @reduce_then_broadcast(%x: tensor<16x32xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>})
    -> (tensor<16x32xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) {
  %s = xla.reduce sum %x, dims = [1] : (tensor<16x32xf32>) -> tensor<16xf32>
  %b = xla.broadcast_in_dim %s, dims = [0] : (tensor<16xf32>) -> tensor<16x32xf32>
  %y = xla.sub %x, %b : tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// 15. Pad low 1, high -1 (a shift by one row) of 64x32 split by rows: one
// row from the left neighbour, 128 B.
// CHECK-LABEL: @pad_shift: 1 collective, sends 128 B per device
// CHECK-NEXT: collective_permute
func.func @pad_shift(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [1, 0], high = [-1, 0], interior = [0, 0], value = 0.0 : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %p : tensor<64x32xf32>
}

// 16. Slice rows [1, 61) of 64 into blocks of 15: up to 2 rows from the
// left neighbour, 256 B.
// CHECK-LABEL: @slice_offset: 1 collective, sends 256 B per device
// CHECK-NEXT: collective_permute
func.func @slice_offset(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<60x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %s = xla.slice %a, start = [1, 0], limit = [61, 32], strides = [1, 1] : (tensor<64x32xf32>) -> tensor<60x32xf32>
  return %s : tensor<60x32xf32>
}

// 17. Every other row of 64 split 4 ways: result block k (rows 16k..16k+15
// step 2) lies in input block k. 0 B.
// CHECK-LABEL: @slice_strided: 0 collectives, sends 0 B per device
func.func @slice_strided(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<32x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %s = xla.slice %a, start = [0, 0], limit = [64, 32], strides = [2, 1] : (tensor<64x32xf32>) -> tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}

// 18. Append 4 rows to 60 (both split by rows) into 64 split by rows: a
// halo of up to 3 rows of the 60 from the right neighbour (384 B), and the
// 4 rows, one per device, all needed by device 3: no collective of those
// the report counts moves them for less than 3 x 128 = 384 B (an
// all-gather, or three permutes into device 3). 768 B.
// CHECK-LABEL: @concat_append: 2 collectives, sends 768 B per device
func.func @concat_append(%a: tensor<60x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>},
                         %b: tensor<4x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<60x32xf32>, tensor<4x32xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

// 19. Concatenate along a dimension that is not split: 0 B.
// CHECK-LABEL: @concat_other_dim: 0 collectives, sends 0 B per device
func.func @concat_other_dim(%a: tensor<16x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>},
                            %b: tensor<16x24xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<16x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 1 : (tensor<16x8xf32>, tensor<16x24xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}

// 20. Conflicting annotations: rows-split + columns-split into rows-split:
// the columns-split operand moves by one all-to-all, 3/4 x 64 = 48 B.
// CHECK-LABEL: @conflicting_add: 1 collective, sends 48 B per device
// CHECK-NEXT: all_to_all
func.func @conflicting_add(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>},
                           %b: tensor<8x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %s = xla.add %a, %b : tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// 21. Reverse of 64 rows split 4 ways: block k becomes block 3-k, one
// permute of the whole 2048 B block.
// CHECK-LABEL: @reverse_rows: 1 collective, sends 2048 B per device
// CHECK-NEXT: collective_permute
func.func @reverse_rows(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %r = xla.reverse %a, dims = [0] : tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}

// 22. Dynamic slice along a dimension that is not split: each device
// slices its own rows. 0 B.
// CHECK-LABEL: @dynamic_slice_other_dim: 0 collectives, sends 0 B per device
func.func @dynamic_slice_other_dim(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}, %i: tensor<i32>)
    -> (tensor<64x8xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%z, %i], sizes = [64, 8] : (tensor<64x32xf32>, tensor<i32>, tensor<i32>) -> tensor<64x8xf32>
  return %s : tensor<64x8xf32>
}

// 23. Dynamic slice of 8 rows at a run-time offset from 64 rows split 4
// ways, result replicated: each device takes the rows of the window it
// holds (zeros elsewhere) and the 8x32 result (1024 B) is all-reduced,
// 2 x 3/4 x 1024 = 1536 B (gathering the rows, GSPMD's choice for an
// offset dimension, sends 3 x 2048 = 6144 B).
// CHECK-LABEL: @dynamic_slice_split_dim: 1 collective, sends 1536 B per device
// CHECK-NEXT: all_reduce
func.func @dynamic_slice_split_dim(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}, %i: tensor<i32>)
    -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [8, 32] : (tensor<64x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return %s : tensor<8x32xf32>
}

// 24. Concatenate two equal halves (32 rows each, split by rows) into 64
// rows split by rows: result block k is operand blocks 2k and 2k+1, two
// devices away from some of them. Device 1 needs %a's blocks 2 and 3 and
// holds neither: it receives 2 x 1024 B, and it sends its own two blocks
// (to devices 0 and 2); no collective the report counts moves a block for
// less than its 1024 B, so two permutes, 2048 B (each carries one block of
// %a to some devices and one of %b to the others). Gathering both halves
// sends 2 x 3 x 1024 = 6144 B.
// CHECK-LABEL: @concat_halves: 2 collectives, sends 2048 B per device
// CHECK-COUNT-2: collective_permute mesh_axes ["x"] (group 4) ici in 1024 B sends 1024 B
func.func @concat_halves(%a: tensor<32x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>},
                         %b: tensor<32x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>})
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}) {
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

// 25-26 use a mesh of their own: their reshapes split "x" into halves
// ("x":(1)2, "x":(2)2) for the whole mesh, which would turn the collectives
// of the cases above into collectives over the halves.
xla.mesh @halves = <["x"=4]>

// 25. [2,24] split by columns -> [48] split 4 ways: device 2i+j needs row
// i, columns [12j, 12j+12), the blocks of devices 2j and 2j+1. Device 1
// (row 0, columns 12-23) holds columns 6-11 of both rows and needs none of
// them: it sends 2 x 6 x 4 = 48 B, as does device 2 (one all-to-all over
// the 4 devices, 36 B, cannot do it: each block goes in two 24 B pieces to
// two devices, not in four equal ones). Two all-to-alls over halves of
// "x", 2 x 24 B = 48 B; gathering the columns sends 3 x 48 = 144 B.
// CHECK-LABEL: @reshape_cols_to_flat: 2 collectives, sends 48 B per device
// CHECK-COUNT-2: all_to_all mesh_axes ["x:({{[12]}})2"] (group 2) ici in 48 B sends 24 B
func.func @reshape_cols_to_flat(%a: tensor<2x24xf32> {xla.sharding = #xla.sharding<@halves, [{}, {"x"}]>})
    -> (tensor<48xf32> {xla.sharding = #xla.sharding<@halves, [{"x"}]>}) {
  %r = xla.reshape %a : (tensor<2x24xf32>) -> tensor<48xf32>
  return %r : tensor<48xf32>
}

// 26. [128] split 4 ways -> [2,64] split by columns: device 2i+j needs
// columns [16(2i+j), +16) of both rows, flat pieces held by devices i and
// 2+i. Devices 1 and 2 hold two pieces others need: each sends 2 x 16 x 4
// = 128 B. Two all-to-alls over halves of "x", 2 x 64 B = 128 B; an
// all-to-all and a permute of the 128 B block send 192 B.
// CHECK-LABEL: @reshape_flat_to_cols: 2 collectives, sends 128 B per device
// CHECK-COUNT-2: all_to_all mesh_axes ["x:({{[12]}})2"] (group 2) ici in 128 B sends 64 B
func.func @reshape_flat_to_cols(%a: tensor<128xf32> {xla.sharding = #xla.sharding<@halves, [{"x"}]>})
    -> (tensor<2x64xf32> {xla.sharding = #xla.sharding<@halves, [{}, {"x"}]>}) {
  %r = xla.reshape %a : (tensor<128xf32>) -> tensor<2x64xf32>
  return %r : tensor<2x64xf32>
}
