// RUN: xla-opt %s --xla-partition | FileCheck %s --check-prefix=IR
// RUN: xla-opt %s --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=AUTO
// RUN: xla-opt %s --xla-partition="halo=always" --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=ALWAYS
// RUN: xla-opt %s --xla-partition="halo=never" --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=NEVER
// RUN: xla-opt %s --xla-partition="halo=always" -verify-diagnostics -o /dev/null
// RUN: not xla-opt %s --xla-partition="halo=sometimes" 2>&1 | FileCheck %s --check-prefix=BAD

// --xla-partition="halo=auto|always|never" on pad and slice over 4 devices.
// auto prices the halo exchange (one collective_permute per side that
// receives rows, 256 byte-equivalents each plus the rows' bytes) against
// gathering the dimension (the planner's all-gather, then a free slice);
// always exchanges halos whenever the window fits in the neighbours'
// blocks and otherwise gathers with a remark; never gathers.
xla.mesh @mesh = <["x"=4]>

// BAD: for the --halo option: Cannot find option named 'sometimes'!

// Shift down by one row (pad low 1, high -1): each device receives the last
// row of its left neighbour, 32 f32 = 128 B, instead of gathering the other
// three blocks of 16x32 f32 (3 x 2048 B).
// IR-LABEL: func.func @shift_down
// IR: %[[ROW:.*]] = xla.slice %{{.*}}, start = [15, 0], limit = [16, 32]
// IR: xla.collective_permute %[[ROW]], pairs = {{\[}}[0, 1], [1, 2], [2, 3]] mesh_axes = @mesh["x"] : tensor<1x32xf32>
// IR-NOT: xla.all_gather
// IR: return
// AUTO-LABEL: @shift_down: 1 collective, sends 128 B per device
// AUTO-NEXT: collective_permute mesh_axes ["x"] (group 4) ici in 128 B sends 128 B
// ALWAYS-LABEL: @shift_down: 1 collective, sends 128 B per device
// ALWAYS-NEXT: collective_permute
// NEVER-LABEL: @shift_down: 2 collectives, sends 6144 B per device
// NEVER-NEXT: all_gather mesh_axes ["x"] (group 4) ici in 2048 B sends 6144 B
func.func @shift_down(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [1, 0], high = [-1, 0], interior = [0, 0], value = 0.0 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %p : tensor<64x32xf32>
}

// Rows [1, 61) of 64 into blocks of 15: device k reads [15k+1, 15k+16) and
// holds [16k, 16k+16), so it needs up to 2 rows (256 B) from its left
// neighbour.
// AUTO-LABEL: @slice_offset: 1 collective, sends 256 B per device
// AUTO-NEXT: collective_permute mesh_axes ["x"] (group 4) ici in 256 B sends 256 B
// ALWAYS-LABEL: @slice_offset: 1 collective, sends 256 B per device
// NEVER-LABEL: @slice_offset: 2 collectives, sends 6144 B per device
// NEVER-NEXT: all_gather
func.func @slice_offset(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<60x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %s = xla.slice %a, start = [1, 0], limit = [61, 32], strides = [1, 1] {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<64x32xf32>) -> tensor<60x32xf32>
  return %s : tensor<60x32xf32>
}

// Edge padding of 10x3 f32 (blocks of 3 rows, 36 B) to 13 rows (blocks of
// 4): two halos of 2 rows (24 B each) cost 2 x (256 + 24) = 560, more than
// the all-gather's 256 + 3 x 36 = 364, so auto gathers; always exchanges.
// AUTO-LABEL: @edge_pad: 2 collectives, sends 108 B per device
// AUTO-NEXT: all_gather mesh_axes ["x"] (group 4) ici in 36 B sends 108 B
// ALWAYS-LABEL: @edge_pad: 2 collectives, sends 48 B per device
// ALWAYS-NEXT: collective_permute mesh_axes ["x"] (group 4) ici in 24 B sends 24 B
// ALWAYS-NEXT: collective_permute mesh_axes ["x"] (group 4) ici in 24 B sends 24 B
// NEVER-LABEL: @edge_pad: 2 collectives, sends 108 B per device
// NEVER-NEXT: all_gather
func.func @edge_pad(%a: tensor<10x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<13x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [2, 0], high = [1, 0], interior = [0, 0], value = 7.0 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<10x3xf32>) -> tensor<13x3xf32>
  return %p : tensor<13x3xf32>
}

// 8 rows in blocks of 2 padded to 10 rows in blocks of 3: device 3 reads
// [8, 11), 4 rows past its own block start, more than a neighbour holds.
// Even halo=always gathers, and says so.
// AUTO-LABEL: @too_wide: 2 collectives, sends 48 B per device
// AUTO-NEXT: all_gather
// ALWAYS-LABEL: @too_wide: 2 collectives, sends 48 B per device
// ALWAYS-NEXT: all_gather
// NEVER-LABEL: @too_wide: 2 collectives, sends 48 B per device
func.func @too_wide(%a: tensor<8x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-remark@+1 {{halo=always: dimension 0 is gathered: the window reaches past the neighbouring blocks}}
  %p = xla.pad %a, low = [1, 0], high = [1, 0], interior = [0, 0], value = 0.0 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<8x2xf32>) -> tensor<10x2xf32>
  return %p : tensor<10x2xf32>
}
