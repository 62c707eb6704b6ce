// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES

// A dynamic_slice taking part of a split dimension: each device slices the
// rows of the window it holds (zeros elsewhere, padding masked), a pending
// sum reduced once, when that is cheaper than gathering the dimension.
xla.mesh @line = <["x"=4]>

// 8 of 64 rows (blocks of 16 rows of 32 f32): all-reducing the 8x32 result
// (1024 B) sends 2 x 3/4 x 1024 = 1536 B; gathering the rows 3 x 2048 B.
// CHECK-LABEL: func.func @few_rows
// CHECK: %[[PADDED:.*]] = xla.pad %arg0, low = [8, 0], high = [8, 0], interior = [0, 0], value = 0.000000e+00 : (tensor<16x32xf32>) -> tensor<32x32xf32>
// CHECK: %[[WINDOW:.*]] = xla.dynamic_slice %[[PADDED]][%{{.*}}, %{{.*}}], sizes = [8, 32]
// CHECK: %[[MASKED:.*]] = xla.select %{{.*}}, %[[WINDOW]], %{{.*}} : tensor<8x32xf32>
// CHECK: xla.all_reduce sum %[[MASKED]] mesh_axes = @line["x"]
// CHECK-NOT: xla.all_gather
// CHECK: return
// BYTES-LABEL: @few_rows: 1 collective, sends 1536 B per device
// BYTES-NEXT: all_reduce sum mesh_axes ["x"] (group 4) ici in 1024 B sends 1536 B
func.func @few_rows(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}, %i: tensor<i32>)
    -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [8, 32] : (tensor<64x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return %s : tensor<8x32xf32>
}

// The result split by rows takes a reduce-scatter instead: 3/4 x 1024 B.
// BYTES-LABEL: @few_rows_split_result: 1 collective, sends 768 B per device
// BYTES-NEXT: reduce_scatter
func.func @few_rows_split_result(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}, %i: tensor<i32>)
    -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) {
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [8, 32] : (tensor<64x32xf32>, tensor<i32>, tensor<i32>) -> tensor<8x32xf32>
  return %s : tensor<8x32xf32>
}

// 60 of 64 rows: all-reducing 60x32 (7680 B, 11520 B sent) costs more than
// gathering the rows (6144 B), which is kept.
// BYTES-LABEL: @most_rows: 1 collective, sends 6144 B per device
// BYTES-NEXT: all_gather
func.func @most_rows(%a: tensor<64x32xf32> {xla.sharding = #xla.sharding<@line, [{"x"}, {}]>}, %i: tensor<i32>)
    -> (tensor<60x32xf32> {xla.sharding = #xla.sharding<@line, [{}, {}]>}) {
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %a[%i, %z], sizes = [60, 32] : (tensor<64x32xf32>, tensor<i32>, tensor<i32>) -> tensor<60x32xf32>
  return %s : tensor<60x32xf32>
}
