// Reductions with a computation (reduce_region, reduce_window,
// select_and_scatter), partitioned over a 2x2 mesh or a line of 4 devices
// (--xla-spmd-pipeline; CHECK lines: the local signature and the
// collectives) and run on the 4 simulated devices against the single-device
// program (run_checks.py). Shapes that do not divide by their shard counts
// are marked "uneven".
//
// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s --check-prefix=RUN-CHECKS
// RUN: xla-opt %s --xla-spmd-pipeline | FileCheck %s
// RUN-CHECKS: checked 18 functions, 0 failed

xla.mesh @mesh = <["x"=2, "y"=2]>
xla.mesh @line = <["d"=4]>

// Max pool 3x3, stride 1, padded: a one-row halo from each neighbour along
// both split spatial dimensions.
// CHECK-LABEL: func.func @maxpool_3x3(
// CHECK-SAME: tensor<2x4x4x3xf32>
// CHECK-COUNT-4: xla.collective_permute
// CHECK: xla.reduce_window({{.*}}) init({{.*}}) window_dimensions = [1, 3, 3, 1], window_strides = [1, 1, 1, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = {{\[}}[0, 0], [0, 0], [0, 0], [0, 0]]
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @maxpool_3x3(%x: tensor<2x8x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>})
    -> (tensor<2x8x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %y = xla.reduce_window(%x) init(%ninf) window_dimensions = [1, 3, 3, 1], window_strides = [1, 1, 1, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = [[0, 0], [1, 1], [1, 1], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  } : (tensor<2x8x8x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
  return %y : tensor<2x8x8x3xf32>
}

// Max pool 2x2, stride 2: windows never cross shards.
// CHECK-LABEL: func.func @maxpool_2x2(
// CHECK-SAME: tensor<2x4x4x3xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return {{.*}} : tensor<2x2x2x3xf32>
func.func @maxpool_2x2(%x: tensor<2x8x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>})
    -> (tensor<2x4x4x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %y = xla.reduce_window(%x) init(%ninf) window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  } : (tensor<2x8x8x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
  return %y : tensor<2x4x4x3xf32>
}

// Uneven: 7 rows over 4 devices, 3x3 windows at stride 2.
// CHECK-LABEL: func.func @maxpool_uneven(
// CHECK-SAME: tensor<2x2x7x3xf32>
// CHECK: xla.collective_permute
// CHECK-NOT: xla.all_gather
// CHECK: return {{.*}} : tensor<2x1x4x3xf32>
func.func @maxpool_uneven(%x: tensor<2x7x7x3xf32> {xla.sharding = #xla.sharding<@line, [{}, {"d"}, {}, {}]>})
    -> (tensor<2x4x4x3xf32> {xla.sharding = #xla.sharding<@line, [{}, {"d"}, {}, {}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %y = xla.reduce_window(%x) init(%ninf) window_dimensions = [1, 3, 3, 1], window_strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = [[0, 0], [1, 1], [1, 1], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  } : (tensor<2x7x7x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
  return %y : tensor<2x4x4x3xf32>
}

// Integer max pool with a dilated window: halos of two rows (64 columns:
// on narrower rows two permutes would cost more than gathering the rows).
// CHECK-LABEL: func.func @maxpool_dilated_i32(
// CHECK-SAME: tensor<1x6x64xi32>
// CHECK-COUNT-2: xla.collective_permute
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @maxpool_dilated_i32(%x: tensor<1x12x64xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>})
    -> (tensor<1x12x64xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {}]>}) {
  %lowest = xla.constant dense<-2147483648> : tensor<i32>
  %y = xla.reduce_window(%x) init(%lowest) window_dimensions = [1, 3, 1], window_strides = [1, 1, 1], base_dilations = [1, 1, 1], window_dilations = [1, 2, 1], padding = [[0, 0], [2, 2], [0, 0]] {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %m = xla.max %a, %b : tensor<i32>
    xla.yield %m : tensor<i32>
  } : (tensor<1x12x64xi32>, tensor<i32>) -> tensor<1x12x64xi32>
  return %y : tensor<1x12x64xi32>
}

// Average pool 2x2, stride 2 (sum, then divide): the batch over x, rows
// over y; 6 rows give 3 outputs, uneven over 2.
// CHECK-LABEL: func.func @avgpool(
// CHECK-SAME: tensor<2x3x6x2xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @avgpool(%x: tensor<4x6x6x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>})
    -> (tensor<4x3x3x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %sum = xla.reduce_window(%x) init(%zero) window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<4x6x6x2xf32>, tensor<f32>) -> tensor<4x3x3x2xf32>
  %four = xla.constant dense<4.0> : tensor<4x3x3x2xf32>
  %avg = xla.div %sum, %four : tensor<4x3x3x2xf32>
  return %avg : tensor<4x3x3x2xf32>
}

// torch.cumsum along a split dimension: each window spans the whole
// dimension, wider than a neighbour's block, so the dimension is gathered;
// the other stays split.
// CHECK-LABEL: func.func @cumsum(
// CHECK-SAME: tensor<2x4xf32>
// CHECK: xla.all_gather %{{.*}}, dim = 1 groups = {{\[}}[0, 1], [2, 3]]
// CHECK: xla.reduce_window
// CHECK: } : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
func.func @cumsum(%x: tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %c = xla.reduce_window(%x) init(%zero) window_dimensions = [1, 8], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [7, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// Uneven cumsum along rows split over 4 devices: the scanned dimension is
// whole on every device.
// CHECK-LABEL: func.func @cumsum_uneven(
// CHECK-SAME: tensor<2x5xi32>
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @cumsum_uneven(%x: tensor<6x5xi32> {xla.sharding = #xla.sharding<@line, [{"d"}, {}]>})
    -> (tensor<6x5xi32> {xla.sharding = #xla.sharding<@line, [{"d"}, {}]>}) {
  %zero = xla.constant dense<0> : tensor<i32>
  %c = xla.reduce_window(%x) init(%zero) window_dimensions = [1, 5], window_strides = [1, 1], base_dilations = [1, 1], window_dilations = [1, 1], padding = [[0, 0], [4, 0]] {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = xla.add %a, %b : tensor<i32>
    xla.yield %s : tensor<i32>
  } : (tensor<6x5xi32>, tensor<i32>) -> tensor<6x5xi32>
  return %c : tensor<6x5xi32>
}

// The max pool's gradient: 2x2 windows at stride 2 stay inside the shards,
// so each device scatters into its own block.
// CHECK-LABEL: func.func @maxpool_grad(
// CHECK-SAME: tensor<2x4x4x3xf32>
// CHECK-SAME: tensor<2x2x2x3xf32>
// CHECK-NOT: xla.all_gather
// CHECK-NOT: xla.collective_permute
// CHECK: xla.select_and_scatter
// CHECK: return
func.func @maxpool_grad(%x: tensor<2x8x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>},
                        %dy: tensor<2x4x4x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>})
    -> (tensor<2x8x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}, {"y"}, {}]>}) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<2x8x8x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
  return %g : tensor<2x8x8x3xf32>
}

// Uneven: 14 rows (7 windows) over 4 devices: blocks of 4 rows hold 2
// whole windows each, the last block is partly padding.
// CHECK-LABEL: func.func @maxpool_grad_uneven(
// CHECK-SAME: tensor<2x4x6x3xf32>
// CHECK-SAME: tensor<2x2x3x3xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @maxpool_grad_uneven(%x: tensor<2x14x6x3xf32> {xla.sharding = #xla.sharding<@line, [{}, {"d"}, {}, {}]>},
                               %dy: tensor<2x7x3x3xf32> {xla.sharding = #xla.sharding<@line, [{}, {"d"}, {}, {}]>})
    -> (tensor<2x14x6x3xf32> {xla.sharding = #xla.sharding<@line, [{}, {"d"}, {}, {}]>}) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<2x14x6x3xf32>, tensor<2x7x3x3xf32>, tensor<f32>) -> tensor<2x14x6x3xf32>
  return %g : tensor<2x14x6x3xf32>
}

// Overlapping 3x3 windows at stride 2 cross shards: the windowed
// dimensions are gathered, the batch stays split.
// CHECK-LABEL: func.func @maxpool_grad_overlapping(
// CHECK-SAME: tensor<1x4x8x3xf32>
// CHECK: xla.all_gather
// CHECK: xla.select_and_scatter
// CHECK: return
func.func @maxpool_grad_overlapping(%x: tensor<2x8x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}, {}, {}]>},
                                    %dy: tensor<2x4x4x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}, {}, {}]>})
    -> (tensor<2x8x8x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}, {}, {}]>}) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [1, 3, 3, 1], window_strides = [1, 2, 2, 1], padding = [[0, 0], [1, 0], [1, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<2x8x8x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
  return %g : tensor<2x8x8x3xf32>
}

// A training step's pool: forward max pool, and its gradient for an
// upstream gradient of 2 * y.
// CHECK-LABEL: func.func @maxpool_forward_backward(
// CHECK-SAME: tensor<4x4x8x2xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @maxpool_forward_backward(%x: tensor<8x8x8x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>})
    -> (tensor<8x8x8x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %y = xla.reduce_window(%x) init(%ninf) window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  } : (tensor<8x8x8x2xf32>, tensor<f32>) -> tensor<8x4x4x2xf32>
  %dy = xla.add %y, %y : tensor<8x4x4x2xf32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<8x8x8x2xf32>, tensor<8x4x4x2xf32>, tensor<f32>) -> tensor<8x8x8x2xf32>
  return %g : tensor<8x8x8x2xf32>
}

// argmax over a split dimension: each device reduces its block, the
// partial (value, index) pairs are gathered along y and reduced again.
// CHECK-LABEL: func.func @argmax(
// CHECK-SAME: tensor<2x64xf32>
// CHECK: xla.reduce_region
// CHECK: xla.all_gather %{{.*}}, dim = 0 groups = {{\[}}[0, 1], [2, 3]] link = ici : (tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK: xla.all_gather %{{.*}}, dim = 0 groups = {{\[}}[0, 1], [2, 3]] link = ici : (tensor<1x2xi32>) -> tensor<2x2xi32>
// CHECK: xla.reduce_region
// CHECK: return
func.func @argmax(%x: tensor<4x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}, tensor<4xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<4x128xi32>
  %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %eq = xla.compare eq, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %lo = xla.min %ai, %bi : tensor<i32>
    %t = xla.select %eq, %lo, %bi : tensor<i32>
    %mi = xla.select %gt, %ai, %t : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<4x128xf32>, tensor<4x128xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %v, %i : tensor<4xf32>, tensor<4xi32>
}

// Uneven: 30 columns over 4 devices; the padding is masked with the init.
// The values, -|x| - 1, are below the -1 that the padding's zeros become,
// so unmasked padding would win.
// CHECK-LABEL: func.func @argmax_uneven(
// CHECK-SAME: tensor<8x8xf32>
// CHECK: xla.all_gather %{{.*}}, dim = 0 groups = {{\[}}[0, 1, 2, 3]] link = ici : (tensor<1x8xf32>) -> tensor<4x8xf32>
// CHECK: return
func.func @argmax_uneven(%x: tensor<8x30xf32> {xla.sharding = #xla.sharding<@line, [{}, {"d"}]>})
    -> (tensor<8xi32> {xla.sharding = #xla.sharding<@line, [{}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<8x30xi32>
  %one = xla.constant dense<1.0> : tensor<8x30xf32>
  %abs = xla.abs %x : tensor<8x30xf32>
  %neg = xla.neg %abs : tensor<8x30xf32>
  %y = xla.sub %neg, %one : tensor<8x30xf32>
  %v, %i = xla.reduce_region(%y, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %eq = xla.compare eq, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %lo = xla.min %ai, %bi : tensor<i32>
    %t = xla.select %eq, %lo, %bi : tensor<i32>
    %mi = xla.select %gt, %ai, %t : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<8x30xf32>, tensor<8x30xi32>, tensor<f32>, tensor<i32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %i : tensor<8xi32>
}

// Uneven over both axes of the 2x2 mesh: 127 columns in 4 shards; the
// values, |x| + 1, are above the padding's 1.
// CHECK-LABEL: func.func @argmin_two_axes(
// CHECK-SAME: tensor<5x32xbf16>
// CHECK: xla.all_gather %{{.*}}, dim = 0 groups = {{\[}}[0, 1, 2, 3]] link = ici : (tensor<1x5xbf16>) -> tensor<4x5xbf16>
// CHECK: return
func.func @argmin_two_axes(%x: tensor<5x127xbf16> {xla.sharding = #xla.sharding<@mesh, [{}, {"x", "y"}]>})
    -> (tensor<5xbf16>, tensor<5xi32>) {
  %inf = xla.constant dense<0x7F80> : tensor<bf16>
  %zero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<5x127xi32>
  %one = xla.constant dense<1.0> : tensor<5x127xbf16>
  %abs = xla.abs %x : tensor<5x127xbf16>
  %y = xla.add %abs, %one : tensor<5x127xbf16>
  %v, %i = xla.reduce_region(%y, %iota) init(%inf, %zero) dims = [1] {
  ^bb0(%av: tensor<bf16>, %ai: tensor<i32>, %bv: tensor<bf16>, %bi: tensor<i32>):
    %lt = xla.compare lt, %av, %bv : tensor<bf16>
    %eq = xla.compare eq, %av, %bv : tensor<bf16>
    %mv = xla.select %lt, %av, %bv : tensor<bf16>
    %lo = xla.min %ai, %bi : tensor<i32>
    %t = xla.select %eq, %lo, %bi : tensor<i32>
    %mi = xla.select %lt, %ai, %t : tensor<i32>
    xla.yield %mv, %mi : tensor<bf16>, tensor<i32>
  } : (tensor<5x127xbf16>, tensor<5x127xi32>, tensor<bf16>, tensor<i32>) -> (tensor<5xbf16>, tensor<5xi32>)
  return %v, %i : tensor<5xbf16>, tensor<5xi32>
}

// A two-operand reduce (sum of one input, max of the other) over both
// dimensions, one of them split: two stages.
// CHECK-LABEL: func.func @sum_and_max(
// CHECK-SAME: tensor<3x4xf32>
// CHECK: xla.all_gather %{{.*}}, dim = 0 groups = {{\[}}[0, 2], [1, 3]] link = ici : (tensor<1xf32>) -> tensor<2xf32>
// CHECK: return
func.func @sum_and_max(%a: tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                       %b: tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<f32>, tensor<f32>) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %s, %m = xla.reduce_region(%a, %b) init(%zero, %ninf) dims = [0, 1] {
  ^bb0(%as: tensor<f32>, %am: tensor<f32>, %bs: tensor<f32>, %bm: tensor<f32>):
    %0 = xla.add %as, %bs : tensor<f32>
    %1 = xla.max %am, %bm : tensor<f32>
    xla.yield %0, %1 : tensor<f32>, tensor<f32>
  } : (tensor<6x4xf32>, tensor<6x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %s, %m : tensor<f32>, tensor<f32>
}

// A recognised sum (one input, add, init 0) partitions like xla.reduce:
// a partial sum, all-reduced. Uneven: 7 rows in 4 shards.
// CHECK-LABEL: func.func @sum_recognised(
// CHECK-SAME: tensor<2x6xf32>
// CHECK: xla.all_reduce sum
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @sum_recognised(%a: tensor<7x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<6xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>}) {
  %zero = xla.constant dense<0.0> : tensor<f32>
  %s = xla.reduce_region(%a) init(%zero) dims = [0] {
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %0 = xla.add %x, %y : tensor<f32>
    xla.yield %0 : tensor<f32>
  } : (tensor<7x6xf32>, tensor<f32>) -> tensor<6xf32>
  return %s : tensor<6xf32>
}

// A recognised max over a split, uneven dimension of bf16.
// CHECK-LABEL: func.func @max_recognised_bf16(
// CHECK-SAME: tensor<4x3xbf16>
// CHECK: xla.all_reduce max
// CHECK: return
func.func @max_recognised_bf16(%a: tensor<4x10xbf16> {xla.sharding = #xla.sharding<@line, [{}, {"d"}]>})
    -> (tensor<4xbf16> {xla.sharding = #xla.sharding<@line, [{}]>}) {
  %ninf = xla.constant dense<0xFF80> : tensor<bf16>
  %s = xla.reduce_region(%a) init(%ninf) dims = [1] {
  ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
    %0 = xla.max %y, %x : tensor<bf16>
    xla.yield %0 : tensor<bf16>
  } : (tensor<4x10xbf16>, tensor<bf16>) -> tensor<4xbf16>
  return %s : tensor<4xbf16>
}

// Kept dimensions pass through, uneven (5 rows in 4 shards); the reduced
// dimension is whole on each device: no communication.
// CHECK-LABEL: func.func @argmax_kept_split(
// CHECK-SAME: tensor<2x6xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @argmax_kept_split(%x: tensor<5x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<5xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<5x6xi32>
  %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %eq = xla.compare eq, %av, %bv : tensor<f32>
    %mv = xla.select %gt, %av, %bv : tensor<f32>
    %lo = xla.min %ai, %bi : tensor<i32>
    %t = xla.select %eq, %lo, %bi : tensor<i32>
    %mi = xla.select %gt, %ai, %t : tensor<i32>
    xla.yield %mv, %mi : tensor<f32>, tensor<i32>
  } : (tensor<5x6xf32>, tensor<5x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xi32>)
  return %i : tensor<5xi32>
}
