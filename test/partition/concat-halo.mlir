// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=AUTO
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition="halo=never" --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=NEVER
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition="halo=always" -verify-diagnostics -o /dev/null
// RUN: xla-opt %s --xla-explain-sharding --xla-partition=report-bytes=true -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: xla-run %s --function=halves --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=halves_uneven --check | FileCheck %s --check-prefix=EXEC

// Concatenate along a split dimension: result block k (R rows) holds
// positions [kR - o, kR - o + R) of an operand at offset o. An operand whose
// rows a device finds in its own block and its neighbours' comes by a halo
// exchange (a collective_permute per side); any other (or a cheaper one to
// gather) is all-gathered. Each device then takes its window of every
// operand and selects by result index, so padding is never read.
xla.mesh @mesh = <["x"=4]>

// 60 + 4 rows of 32 f32 into blocks of 16: device k holds rows [15k, 15k+15)
// of %a and needs [16k, 16k+16) clipped to 60, so up to 3 rows from its
// right neighbour (3 x 128 B); %b's 4 rows come from all devices and are
// gathered (3 x 128 B). Gathering %a would send 3 x 1920 B.
// CHECK-LABEL: func.func @append
// CHECK-DAG: %[[EDGE:.*]] = xla.slice %arg0, start = [0, 0], limit = [3, 32]
// CHECK-DAG: %[[HALO:.*]] = xla.collective_permute %[[EDGE]], pairs = {{\[}}[1, 0], [2, 1], [3, 2]] mesh_axes = @mesh["x"] : tensor<3x32xf32>
// CHECK-DAG: xla.concatenate %arg0, %[[HALO]], dim = 0 : (tensor<15x32xf32>, tensor<3x32xf32>) -> tensor<18x32xf32>
// CHECK-DAG: xla.all_gather %arg1, dim = 0 mesh_axes = @mesh["x"] : (tensor<1x32xf32>) -> tensor<4x32xf32>
// CHECK: xla.select
// CHECK: return %{{.*}} : tensor<16x32xf32>
// AUTO-LABEL: @append: 2 collectives, sends 768 B per device
// AUTO-DAG: all_gather mesh_axes ["x"] (group 4) ici in 128 B sends 384 B
// AUTO-DAG: collective_permute mesh_axes ["x"] (group 4) ici in 384 B sends 384 B
// NEVER-LABEL: @append: 3 collectives, sends 6144 B per device
// NEVER-DAG: all_gather mesh_axes ["x"] (group 4) ici in 1920 B sends 5760 B
// NEVER-DAG: all_gather mesh_axes ["x"] (group 4) ici in 128 B sends 384 B
func.func @append(%a: tensor<60x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<4x32xf32>)
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-remark@+1 {{halo=always: operand 1 is gathered: a device needs rows beyond its neighbours' blocks}}
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<60x32xf32>, tensor<4x32xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

// Uneven: 30 + 3 rows of 16 f32 into blocks of 9 (padded to 36): %a in
// blocks of 8, device k needs [9k, 9k+9) clipped to 30, up to 3 rows
// (192 B) from the right; %b (blocks of 1, the last one padding) is
// gathered (192 B).
// AUTO-LABEL: @uneven: 2 collectives, sends 384 B per device
// AUTO-DAG: all_gather mesh_axes ["x"] (group 4) ici in 64 B sends 192 B
// AUTO-DAG: collective_permute mesh_axes ["x"] (group 4) ici in 192 B sends 192 B
// NEVER-LABEL: @uneven: 3 collectives, sends 1728 B per device
func.func @uneven(%a: tensor<30x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<3x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<33x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-remark@+1 {{halo=always: operand 1 is gathered}}
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<30x16xf32>, tensor<3x16xf32>) -> tensor<33x16xf32>
  return %c : tensor<33x16xf32>
}

// Three operands: a token row, 60 rows, 3 rows of padding (64 rows of 32
// f32 in blocks of 16). %x (at offset 1) comes by a halo of 2 rows (256 B)
// from the right neighbour; the token is on device 0 already (it is split
// too: block 0 holds it, the others padding), and the tail is gathered
// (3 x 128 B).
// CHECK-LABEL: func.func @three
// CHECK-DAG: xla.collective_permute %{{.*}}, pairs = {{\[}}[1, 0], [2, 1], [3, 2]] mesh_axes = @mesh["x"] : tensor<2x32xf32>
// CHECK-DAG: xla.select
// CHECK: return %{{.*}} : tensor<16x32xf32>
// AUTO-LABEL: @three: 2 collectives, sends 640 B per device
// AUTO-DAG: all_gather mesh_axes ["x"] (group 4) ici in 128 B sends 384 B
// AUTO-DAG: collective_permute mesh_axes ["x"] (group 4) ici in 256 B sends 256 B
// NEVER-LABEL: @three: 4 collectives, sends 6528 B per device
func.func @three(%cls: tensor<1x32xf32>, %x: tensor<60x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %tail: tensor<3x32xf32>)
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-remark@+1 {{halo=always: operand 2 is gathered}}
  %c = xla.concatenate %cls, %x, %tail, dim = 0 : (tensor<1x32xf32>, tensor<60x32xf32>, tensor<3x32xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

// Two halves: result block k is operand blocks 2k and 2k+1, two devices
// away, so no halo fits. The blocks line up with the result's (8 rows
// divide 16 and the offset 32), so each lands whole in one of the two
// slots of its result block. %a's first slot (0 -> 0, 2 -> 1) and %b's
// second (1 -> 2, 3 -> 3) have distinct sources and targets, so one
// collective_permute moves both, each device sending the block of the
// operand it is a source for; likewise %a's second slot and %b's first.
// Two permutes of 1024 B: 2048 B per device, the minimum (device 1 must
// receive %a's blocks 2 and 3), where gathering both operands sends
// 2 x 3 x 1024 = 6144 B (halo=never).
// CHECK-LABEL: func.func @halves
// CHECK: %[[S0:.*]] = xla.select %{{.*}}, %arg1, %arg0 : tensor<8x32xf32>
// CHECK: %[[P0:.*]] = xla.collective_permute %[[S0]], pairs = {{\[}}[0, 0], [1, 2], [2, 1], [3, 3]] mesh_axes = @mesh["x"] : tensor<8x32xf32>
// CHECK: %[[S1:.*]] = xla.select %{{.*}}, %arg1, %arg0 : tensor<8x32xf32>
// CHECK: %[[P1:.*]] = xla.collective_permute %[[S1]], pairs = {{\[}}[0, 2], [1, 0], [2, 3], [3, 1]] mesh_axes = @mesh["x"] : tensor<8x32xf32>
// CHECK: xla.concatenate %[[P0]], %[[P1]], dim = 0 : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
// CHECK: xla.concatenate %[[P1]], %[[P0]], dim = 0 : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return %{{.*}} : tensor<16x32xf32>
// PLAN-LABEL: planned bytes of @halves:
// PLAN-NEXT: xla.concatenate at concat-halo.mlir:[[#@LINE+11]]:8: 2048 B per device
// PLAN-LABEL: emitted bytes of @halves:
// PLAN-NEXT: xla.concatenate at concat-halo.mlir:[[#@LINE+9]]:8: 2048 B per device
// AUTO-LABEL: @halves: 2 collectives, sends 2048 B per device
// AUTO-COUNT-2: collective_permute mesh_axes ["x"] (group 4) ici in 1024 B sends 1024 B
// NEVER-LABEL: @halves: 3 collectives, sends 6144 B per device
// NEVER-COUNT-2: all_gather mesh_axes ["x"] (group 4) ici in 1024 B sends 3072 B
func.func @halves(%a: tensor<32x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<32x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-remark@+2 {{halo=always: operand 0 is gathered}}
  // expected-remark@+1 {{halo=always: operand 1 is gathered}}
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

// Uneven halves: 8 + 6 rows of 128 f32 into blocks of 4 (padded to 16),
// both operands in blocks of 2 (%b's last one padding), %b at offset 8:
// result block 2 needs %b's blocks 0 and 1, two devices away, so no halo
// fits, but the blocks line up and move whole. The slot whose rows lie past
// %b's end (block 3's second) receives nothing and is never selected; %a's
// slot from device 3 shares a permute with %b's from devices 0 and 2. Two
// permutes of a 1024 B block where gathering sends 2 x 3 x 1024 B.
// CHECK-LABEL: func.func @halves_uneven
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 0], [1, 2], [2, 1]] mesh_axes = @mesh["x"] : tensor<2x128xf32>
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 2], [1, 0], [2, 3], [3, 1]] mesh_axes = @mesh["x"] : tensor<2x128xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return %{{.*}} : tensor<4x128xf32>
// AUTO-LABEL: @halves_uneven: 2 collectives, sends 2048 B per device
// NEVER-LABEL: @halves_uneven: 3 collectives, sends 6144 B per device
func.func @halves_uneven(%a: tensor<8x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %b: tensor<6x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<14x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  // expected-remark@+2 {{halo=always: operand 0 is gathered}}
  // expected-remark@+1 {{halo=always: operand 1 is gathered}}
  %c = xla.concatenate %a, %b, dim = 0 : (tensor<8x128xf32>, tensor<6x128xf32>) -> tensor<14x128xf32>
  return %c : tensor<14x128xf32>
}

// EXEC: [SUCCESS]
