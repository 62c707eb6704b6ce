// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN: xla-opt %s --xla-spmd-pipeline | FileCheck %s --check-prefix=LOWER

xla.mesh @mesh = <["data"=2, "model"=2]>

// The carried activations are split over data; the weight, captured from
// above, is split by columns over model, and a mark_sharding in the body
// keeps the iteration's output split by columns. The carried value takes
// that layout: the loop carries column blocks, and the body gathers the
// columns the next matmul needs. The all_gather is inside the body.
// CHECK-LABEL: func.func @layers
// CHECK-SAME: %[[X:.*]]: tensor<4x16xf32>
// CHECK-SAME: %[[W:.*]]: tensor<16x8xf32>
// CHECK: %[[S:.*]] = xla.all_slice %[[X]], dim = 1 mesh_axes = @mesh["model"] : (tensor<4x16xf32>) -> tensor<4x8xf32>
// CHECK: %[[R:.*]]:2 = xla.while (%[[I:.*]] = %{{.*}}, %[[A:.*]] = %[[S]]) : tensor<i32>, tensor<4x8xf32> cond {
// CHECK: xla.compare lt, %[[I]]
// CHECK: } do {
// CHECK-NEXT: %[[G:.*]] = xla.all_gather %[[A]], dim = 1 mesh_axes = @mesh["model"] : (tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK-NEXT: %[[H:.*]] = xla.matmul %[[G]], %[[W]] : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[T:.*]] = xla.tanh %[[H]] : tensor<4x8xf32>
// CHECK: xla.yield %{{.*}}, %[[T]] : tensor<i32>, tensor<4x8xf32>
// CHECK: }
// CHECK: %[[OUT:.*]] = xla.all_gather %[[R]]#1, dim = 1 mesh_axes = @mesh["model"] : (tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK: return %[[OUT]] : tensor<4x16xf32>
// Lowered, the collective inside the body names its devices and link.
// LOWER-LABEL: func.func private @layers.body0
// LOWER: %[[OFF:.*]] = xla.device_table [0, 8, 0, 8] : tensor<i32>
// LOWER: xla.while
// LOWER: } do {
// LOWER-NEXT: xla.all_gather %{{.*}}, dim = 1 groups = {{\[\[}}0, 1], [2, 3]] link = ici
func.func @layers(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                  %w: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %trips = xla.constant dense<3> : tensor<i32>
  %r:2 = xla.while (%i = %zero, %a = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %more = xla.compare lt, %i, %trips : tensor<i32>
    xla.yield %more : tensor<i1>
  } do {
    %h = xla.matmul %a, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %t = xla.tanh %h : tensor<8x16xf32>
    %m = xla.mark_sharding %t <@mesh, [{"data"}, {"model"}]> : tensor<8x16xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %m : tensor<i32>, tensor<8x16xf32>
  }
  return %r#1 : tensor<8x16xf32>
}

// An initial value in another layout is resharded before the loop, and the
// result is resharded after it to what the function returns.
// CHECK-LABEL: func.func @reshard_around
// CHECK: %[[IN:.*]] = xla.all_gather %arg0, dim = 1 mesh_axes = @mesh["model"] : (tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK: %[[L:.*]] = xla.while (%{{.*}} = %[[IN]]) : tensor<4x16xf32>
// CHECK: } do {
// CHECK-NOT: xla.all_gather
// CHECK: }
// CHECK: xla.all_gather %[[L]], dim = 0 mesh_axes = @mesh["data"]
func.func @reshard_around(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %r = xla.while (%a = %x) : tensor<8x16xf32> attributes {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}
  cond {
    %c = xla.constant dense<false> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    %n = xla.neg %a : tensor<8x16xf32>
    xla.yield %n : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
