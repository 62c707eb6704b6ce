// xla.reverse on a 4x2 mesh: split reversed dimensions of 4 and 8 shards,
// divisible and padded, that exchange mirror blocks, and tiny ones that the
// partitioner gathers instead (cheaper by the planner's cost,
// docs/partitioning.md "Reverse"). Each function is partitioned and run on
// the 8 simulated devices against the single-device program.
//
// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s --check-prefix=RUN-CHECKS
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN-CHECKS: checked 7 functions, 0 failed

xla.mesh @mesh = <["x"=4, "y"=2]>

// CHECK-LABEL: func.func @divisible_x
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 3], [1, 2], [2, 1], [3, 0]] mesh_axes = @mesh["x"]
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @divisible_x(%a: tensor<8x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = xla.reverse %a, dims = [0] : tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// 10 rows in 4 blocks of 3 (p = 2): two permutes.
// CHECK-LABEL: func.func @padded_x
// CHECK-COUNT-2: xla.collective_permute
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @padded_x(%a: tensor<10x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<10x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %r = xla.reverse %a, dims = [0] : tensor<10x64xf32>
  return %r : tensor<10x64xf32>
}

// 13 rows over all 8 devices in blocks of 2 (p = 3 = 1*2 + 1): the mirror
// window straddles blocks n-2-q-k and n-1-q-k; device 7 holds only padding.
// CHECK-LABEL: func.func @padded_xy
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 5], [1, 4], [2, 3], [3, 2], [4, 1], [5, 0]] mesh_axes = @mesh["x", "y"]
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 6], [1, 5], [2, 4], [3, 3], [4, 2], [5, 1], [6, 0]] mesh_axes = @mesh["x", "y"]
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @padded_xy(%a: tensor<13x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<13x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %r = xla.reverse %a, dims = [0] : tensor<13x64xf32>
  return %r : tensor<13x64xf32>
}

// The result wanted on other axes: the reverse permutes where the operand
// is, the result is resharded after.
// CHECK-LABEL: func.func @resharded
// CHECK: xla.collective_permute
// CHECK: return
func.func @resharded(%a: tensor<12x64xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<12x64xbf16> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %r = xla.reverse %a, dims = [0, 1] : tensor<12x64xbf16>
  return %r : tensor<12x64xbf16>
}

// Tiny blocks: two permutes (2 x 256 + 36 byte-equivalents) cost more than
// one all_gather (256 + 3 x 36); the dimension is gathered.
// CHECK-LABEL: func.func @tiny_gathers
// CHECK: xla.all_gather
// CHECK-NOT: xla.collective_permute
// CHECK: return
func.func @tiny_gathers(%a: tensor<10x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<10x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = xla.reverse %a, dims = [0] : tensor<10x6xf32>
  return %r : tensor<10x6xf32>
}

// CHECK-LABEL: func.func @tiny_ints
// CHECK: xla.all_gather
// CHECK-NOT: xla.collective_permute
// CHECK: return
func.func @tiny_ints(%a: tensor<7x3xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<7x3xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %r = xla.reverse %a, dims = [1, 0] : tensor<7x3xi32>
  return %r : tensor<7x3xi32>
}

// A chain: elementwise math before and after a padded reverse.
// CHECK-LABEL: func.func @chain
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @chain(%a: tensor<10x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>},
                 %lo: tensor<10x64xf32>, %hi: tensor<10x64xf32>)
    -> (tensor<10x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %s = xla.sin %a : tensor<10x64xf32>
  %r = xla.reverse %s, dims = [0] : tensor<10x64xf32>
  %c = xla.clamp %lo, %r, %hi : tensor<10x64xf32>
  %f = xla.round_nearest_even %c : tensor<10x64xf32>
  return %f : tensor<10x64xf32>
}
