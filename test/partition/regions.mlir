// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN: xla-opt %s --xla-spmd-pipeline=lower=false --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES

// Reductions with a computation on a split dimension: halos for
// reduce_window, the two-stage reduction for a general reduce_region (or a
// gather when that moves fewer bytes), local select_and_scatter.
xla.mesh @mesh = <["x"=4]>

// A 3-wide max pool at stride 1 over 16 rows split 4 ways: each device
// receives one row from each neighbour, fills the ends of the tensor with
// the init (-inf), and pools its 6-row window without padding.
// CHECK-LABEL: func.func @maxpool_halo
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 1], [1, 2], [2, 3]] mesh_axes = @mesh["x"] : tensor<2x1x8xf32>
// CHECK: xla.collective_permute %{{.*}}, pairs = {{\[}}[1, 0], [2, 1], [3, 2]] mesh_axes = @mesh["x"] : tensor<2x1x8xf32>
// CHECK: xla.constant dense<0xFF800000> : tensor<2x6x8xf32>
// CHECK: %[[W:.*]] = xla.dynamic_slice %{{.*}}, sizes = [2, 6, 8] : (tensor<2x6x8xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x6x8xf32>
// CHECK: xla.reduce_window(%[[W]]) init(%{{.*}}) window_dimensions = [1, 3, 1], window_strides = [1, 1, 1], base_dilations = [1, 1, 1], window_dilations = [1, 1, 1], padding = {{\[}}[0, 0], [0, 0], [0, 0]] {
// CHECK: } : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
// BYTES: @maxpool_halo: 2 collectives, sends 128 B per device
func.func @maxpool_halo(%x: tensor<2x16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>})
    -> (tensor<2x16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %y = xla.reduce_window(%x) init(%ninf) window_dimensions = [1, 3, 1], window_strides = [1, 1, 1], base_dilations = [1, 1, 1], window_dilations = [1, 1, 1], padding = [[0, 0], [1, 1], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  } : (tensor<2x16x8xf32>, tensor<f32>) -> tensor<2x16x8xf32>
  return %y : tensor<2x16x8xf32>
}

// argmax over 32 columns split 4 ways: each device reduces its 8 columns
// (the iota's columns are its global indices), the (value, index) partials
// are gathered as a new leading dimension and reduced again with the same
// body. Each device sends its 4 values and 4 indices to 3 others (96 B)
// instead of its 4x8 block of the input (384 B).
// CHECK-LABEL: func.func @argmax
// CHECK: %[[P:.*]]:2 = xla.reduce_region(%{{.*}}, %{{.*}}) init(%{{.*}}, %{{.*}}) dims = [1] {
// CHECK: } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK: %[[V:.*]] = xla.reshape %[[P]]#0 : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK: %[[GV:.*]] = xla.all_gather %[[V]], dim = 0 mesh_axes = @mesh["x"] : (tensor<1x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[I:.*]] = xla.reshape %[[P]]#1 : (tensor<4xi32>) -> tensor<1x4xi32>
// CHECK: %[[GI:.*]] = xla.all_gather %[[I]], dim = 0 mesh_axes = @mesh["x"] : (tensor<1x4xi32>) -> tensor<4x4xi32>
// CHECK: xla.reduce_region(%[[GV]], %[[GI]]) init(%{{.*}}, %{{.*}}) dims = [0] {
// CHECK: } : (tensor<4x4xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
// CHECK: return
// BYTES: @argmax: 3 collectives, sends 96 B per device
func.func @argmax(%x: tensor<4x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4xf32>, tensor<4xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<4x32xi32>
  %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %eq = xla.compare eq, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %lo = xla.min %ai, %bi : tensor<i32>
    %t = xla.select %eq, %lo, %bi : tensor<i32>
    %mi = xla.select %gt, %ai, %t : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<4x32xf32>, tensor<4x32xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %v, %i : tensor<4xf32>, tensor<4xi32>
}

// With one column per device, a shard's partial result is as large as its
// block: gathering the input (16 B per device sent 3 times) beats
// gathering the partials (32 B), and the reduction runs once.
// CHECK-LABEL: func.func @argmax_narrow
// CHECK: xla.all_gather %{{.*}}, dim = 1 mesh_axes = @mesh["x"] : (tensor<4x1xf32>) -> tensor<4x4xf32>
// CHECK-NOT: xla.all_gather
// CHECK: xla.reduce_region
// CHECK-NOT: xla.reduce_region
// CHECK: return
// BYTES: @argmax_narrow: 1 collective, sends 48 B per device
func.func @argmax_narrow(%x: tensor<4x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4xf32>, tensor<4xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<4x4xi32>
  %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %mi = xla.select %gt, %ai, %bi : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<4x4xf32>, tensor<4x4xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %v, %i : tensor<4xf32>, tensor<4xi32>
}

// Uneven (30 columns in blocks of 8): stage 1 reads the padding as the
// init, so that it never wins.
// CHECK-LABEL: func.func @argmax_uneven
// CHECK: %[[COLS:.*]] = xla.compare lt, %{{.*}}, %{{.*}} : tensor<8x8xi32>
// CHECK: %[[INIT:.*]] = xla.broadcast_in_dim %{{.*}}, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
// CHECK: xla.select %[[COLS]], %{{.*}}, %[[INIT]] : tensor<8x8xf32>
// CHECK: xla.reduce_region
// CHECK: xla.all_gather
// CHECK: return
func.func @argmax_uneven(%x: tensor<8x30xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}]>})
    -> tensor<8xi32> {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<8x30xi32>
  %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %mi = xla.select %gt, %ai, %bi : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<8x30xf32>, tensor<8x30xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %i : tensor<8xi32>
}

// The max pool's gradient with 2-row windows at stride 2: every window is
// inside one device's block, so nothing moves.
// CHECK-LABEL: func.func @maxpool_grad
// CHECK-NOT: xla.all_gather
// CHECK-NOT: xla.collective_permute
// CHECK: xla.select_and_scatter %{{.*}}, %{{.*}}, %{{.*}}, window_dimensions = [2, 1], window_strides = [2, 1], padding = {{\[}}[0, 0], [0, 0]] select {
// CHECK: } : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
// BYTES: @maxpool_grad: 0 collectives
func.func @maxpool_grad(%x: tensor<16x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                        %dy: tensor<8x3xf32>)
    -> (tensor<16x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [2, 1], window_strides = [2, 1], padding = [[0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<16x3xf32>, tensor<8x3xf32>, tensor<f32>) -> tensor<16x3xf32>
  return %g : tensor<16x3xf32>
}
