// RUN: xla-opt %s --xla-partition="halo=always" | FileCheck %s

// Windowed ops on a split dimension exchange halos with their neighbours
// instead of gathering the dimension (halo=always: these blocks are so
// small that the default, by cost, gathers some of them;
// test/partition/halo-modes.mlir compares the modes).
xla.mesh @mesh = <["x"=4]>

// slice [1, 9) of 10 rows over 4 devices: device k needs rows
// [2k+1, 2k+3) but holds [3k, 3k+3), so it receives up to 2 rows from its
// left neighbour.
// CHECK-LABEL: func.func @slice_with_offset
// CHECK: %[[END:.*]] = xla.slice %[[A:.*]], start = [1, 0], limit = [3, 3], strides = [1, 1] : (tensor<3x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[HALO:.*]] = xla.collective_permute %[[END]], pairs = {{\[}}[0, 1], [1, 2], [2, 3]] mesh_axes = @mesh["x"] : tensor<2x3xf32>
// CHECK-NEXT: xla.concatenate %[[HALO]], %[[A]], dim = 0 : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<5x3xf32>
// CHECK: xla.dynamic_slice %{{.*}}[%{{.*}}, %{{.*}}], sizes = [2, 3] : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @slice_with_offset(%a: tensor<10x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %s = xla.slice %a, start = [1, 0], limit = [9, 3], strides = [1, 1] {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<10x3xf32>) -> tensor<8x3xf32>
  return %s : tensor<8x3xf32>
}

// Edge padding needs halos on both sides; outside the tensor the window
// holds the padding value.
// CHECK-LABEL: func.func @edge_pad
// CHECK-DAG: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 1], [1, 2], [2, 3]] mesh_axes = @mesh["x"] : tensor<2x3xf32>
// CHECK-DAG: xla.collective_permute %{{.*}}, pairs = {{\[}}[1, 0], [2, 1], [3, 2]] mesh_axes = @mesh["x"] : tensor<2x3xf32>
// CHECK-DAG: xla.constant dense<7.000000e+00> : tensor<7x3xf32>
// CHECK: xla.pad %{{.*}}, low = [0, 0], high = [0, 0], interior = [0, 0], value = 7.000000e+00 : (tensor<4x3xf32>) -> tensor<4x3xf32>
// CHECK-NOT: xla.all_gather
func.func @edge_pad(%a: tensor<10x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<13x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [2, 0], high = [1, 0], interior = [0, 0], value = 7.0 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<10x3xf32>) -> tensor<13x3xf32>
  return %p : tensor<13x3xf32>
}

// A 3-wide stride-1 convolution over a split spatial dimension: one row of
// halo from each side, then a local convolution without padding.
// CHECK-LABEL: func.func @conv_spatial
// CHECK-COUNT-2: xla.collective_permute
// CHECK: xla.convolution %{{.*}}, %{{.*}}, strides = [1], padding = {{\[}}[0, 0]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<2x4x3xf32>, tensor<3x3x5xf32>) -> tensor<2x2x5xf32>
// CHECK-NOT: xla.all_gather
func.func @conv_spatial(%in: tensor<2x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>},
                        %k: tensor<3x3x5xf32>)
    -> (tensor<2x8x5xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %c = xla.convolution %in, %k, strides = [1], padding = [[1, 1]], lhs_dilation = [1], rhs_dilation = [1] {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>} : (tensor<2x8x3xf32>, tensor<3x3x5xf32>) -> tensor<2x8x5xf32>
  return %c : tensor<2x8x5xf32>
}

// Interior padding cannot be windowed: the dimension is gathered.
// CHECK-LABEL: func.func @interior_pad
// CHECK: xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x"]
// CHECK: xla.pad %{{.*}}, low = [0, 0], high = [0, 0], interior = [1, 0]
func.func @interior_pad(%a: tensor<8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<15x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %p = xla.pad %a, low = [0, 0], high = [0, 0], interior = [1, 0], value = 0.0 {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : (tensor<8x3xf32>) -> tensor<15x3xf32>
  return %p : tensor<15x3xf32>
}
