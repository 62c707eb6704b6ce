// RUN: xla-opt %s --xla-partition | FileCheck %s

// Reverse along a split dimension: device k's result block is the mirror of
// an input block near n-1-k, received with collective_permutes along the
// dimension's axes and reversed locally (passes/partition/Reverse.h).
// Dimensions that are not reversed keep their split and move nothing. When
// gathering the dimension is cheaper by the planner's cost, it is gathered.
xla.mesh @mesh = <["x"=4, "y"=2]>

// 8 rows over 4 devices divide evenly: block k <- block 3-k, one permute.
// CHECK-LABEL: func.func @divisible
// CHECK-SAME: (%[[A:.*]]: tensor<2x32xf32>
// CHECK-NEXT: %[[M:.*]] = xla.collective_permute %[[A]], pairs = {{\[}}[0, 3], [1, 2], [2, 1], [3, 0]] mesh_axes = @mesh["x"] : tensor<2x32xf32>
// CHECK-NEXT: %[[R:.*]] = xla.reverse %[[M]], dims = [0] : tensor<2x32xf32>
// CHECK-NEXT: return %[[R]] : tensor<2x32xf32>
func.func @divisible(%a: tensor<8x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = xla.reverse %a, dims = [0] {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>} : tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// 10 rows over 4 devices: blocks of 3, padded to 12 (p = 2 = 0*3 + 2).
// Result block k holds input rows [7-3k, 10-3k): the last 2 rows of block
// 2-k, then the first row of block 3-k. Two permutes, then a local reverse.
// CHECK-LABEL: func.func @padded
// CHECK-SAME: (%[[A:.*]]: tensor<3x32xf32>
// CHECK: %[[TAIL:.*]] = xla.slice %[[A]], start = [1, 0], limit = [3, 32], strides = [1, 1] : (tensor<3x32xf32>) -> tensor<2x32xf32>
// CHECK-NEXT: %[[T:.*]] = xla.collective_permute %[[TAIL]], pairs = {{\[}}[0, 2], [1, 1], [2, 0]] mesh_axes = @mesh["x"] : tensor<2x32xf32>
// CHECK-NEXT: %[[HEAD:.*]] = xla.slice %[[A]], start = [0, 0], limit = [1, 32], strides = [1, 1] : (tensor<3x32xf32>) -> tensor<1x32xf32>
// CHECK-NEXT: %[[H:.*]] = xla.collective_permute %[[HEAD]], pairs = {{\[}}[0, 3], [1, 2], [2, 1], [3, 0]] mesh_axes = @mesh["x"] : tensor<1x32xf32>
// CHECK-NEXT: %[[W:.*]] = xla.concatenate %[[T]], %[[H]], dim = 0 : (tensor<2x32xf32>, tensor<1x32xf32>) -> tensor<3x32xf32>
// CHECK-NEXT: xla.reverse %[[W]], dims = [0] : tensor<3x32xf32>
// CHECK-NOT: xla.all_gather
func.func @padded(%a: tensor<10x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<10x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = xla.reverse %a, dims = [0] {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>} : tensor<10x64xf32>
  return %r : tensor<10x64xf32>
}

// 5 rows over "y" = 2: blocks of 3, p = 1. The tail row stays on device 0
// (a pair with itself: no collective); the head moves 0 <-> 1.
// CHECK-LABEL: func.func @padded_two_shards
// CHECK-SAME: (%[[A:.*]]: tensor<3x64xf32>
// CHECK: %[[TAIL:.*]] = xla.slice %[[A]], start = [2, 0]
// CHECK-NEXT: %[[HEAD:.*]] = xla.slice %[[A]], start = [0, 0], limit = [2, 64]
// CHECK-NEXT: %[[H:.*]] = xla.collective_permute %[[HEAD]], pairs = {{\[}}[0, 1], [1, 0]] mesh_axes = @mesh["y"] : tensor<2x64xf32>
// CHECK-NEXT: %[[W:.*]] = xla.concatenate %[[TAIL]], %[[H]], dim = 0
// CHECK-NEXT: xla.reverse %[[W]], dims = [0] : tensor<3x64xf32>
// CHECK-NOT: xla.collective_permute
func.func @padded_two_shards(%a: tensor<5x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>})
    -> (tensor<5x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>}) {
  %r = xla.reverse %a, dims = [0] {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>} : tensor<5x64xf32>
  return %r : tensor<5x64xf32>
}

// A dimension split over both axes: 8 shards, pairs over ["x", "y"].
// CHECK-LABEL: func.func @two_axes
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 7], [1, 6], [2, 5], [3, 4], [4, 3], [5, 2], [6, 1], [7, 0]] mesh_axes = @mesh["x", "y"] : tensor<2x64xf32>
// CHECK-NEXT: xla.reverse %{{.*}}, dims = [0] : tensor<2x64xf32>
func.func @two_axes(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %r = xla.reverse %a, dims = [0] {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>} : tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// Both dimensions reversed and split: one permute along each dimension's
// axis (in the order of `dims`), then one local reverse of both.
// CHECK-LABEL: func.func @both_dims
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 1], [1, 0]] mesh_axes = @mesh["y"] : tensor<4x32xf32>
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 3], [1, 2], [2, 1], [3, 0]] mesh_axes = @mesh["x"] : tensor<4x32xf32>
// CHECK-NEXT: xla.reverse %{{.*}}, dims = [1, 0] : tensor<4x32xf32>
func.func @both_dims(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = xla.reverse %a, dims = [1, 0] {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>} : tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// Reversing only the unsplit dimension moves nothing.
// CHECK-LABEL: func.func @local_dim
// CHECK-NEXT: xla.reverse %{{.*}}, dims = [1] : tensor<2x64xf32>
// CHECK-NEXT: return
func.func @local_dim(%a: tensor<8x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %r = xla.reverse %a, dims = [1] {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// A tiny padded tensor: two permutes (2 x 256 + 36 byte-equivalents) cost
// more than gathering the 4 blocks (256 + 3 x 36), so the dimension is
// gathered (and its padding cut), reversed whole and sliced back
// (all_slice: no traffic).
// CHECK-LABEL: func.func @tiny_gathers
// CHECK: xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x"] : (tensor<3x3xf32>) -> tensor<12x3xf32>
// CHECK: xla.reverse %{{.*}}, dims = [0] : tensor<10x3xf32>
// CHECK: xla.all_slice %{{.*}}, dim = 0 mesh_axes = @mesh["x"]
// CHECK-NOT: xla.collective_permute
func.func @tiny_gathers(%a: tensor<10x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<10x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %r = xla.reverse %a, dims = [0] {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>} : tensor<10x6xf32>
  return %r : tensor<10x6xf32>
}
