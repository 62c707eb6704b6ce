// --xla-outline-manual-computations: the per-device code between
// full_to_shard and shard_to_full becomes xla.manual_computation ops.
// RUN: xla-opt %s --xla-outline-manual-computations | FileCheck %s

xla.mesh @mesh = <["data"=4, "model"=2]>

// One region: the constant it reads is copied in; the global code before and
// after stays outside.
// CHECK-LABEL: func.func @one_region
// CHECK: %[[E:.*]] = xla.exp %arg0
// CHECK: %[[M:.*]] = xla.manual_computation (%[[L:.*]] = %[[E]] : tensor<2x16xf32>)
// CHECK-SAME: in_shardings = [<@mesh, [{"data"}, {}]>] out_shardings = [<@mesh, [{"data"}, {}]>] {
// CHECK-NEXT: %[[C:.*]] = xla.constant dense<2.000000e+00> : tensor<2x16xf32>
// CHECK-NEXT: %[[P:.*]] = xla.mul %[[L]], %[[C]]
// CHECK-NEXT: %[[S:.*]] = xla.all_reduce sum %[[P]] mesh_axes = @mesh["data"]
// CHECK-NEXT: xla.yield %[[S]] : tensor<2x16xf32>
// CHECK-NEXT: } : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: %[[N:.*]] = xla.neg %[[M]]
// CHECK: %[[G:.*]] = xla.add %[[N]], %[[C2:.*]] :
// CHECK: return %[[G]]
func.func @one_region(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %two = xla.constant dense<2.0> : tensor<2x16xf32>
  %full_two = xla.constant dense<2.0> : tensor<8x16xf32>
  %e = xla.exp %x : tensor<8x16xf32>
  %l = xla.full_to_shard %e <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  %p = xla.mul %l, %two : tensor<2x16xf32>
  %s = xla.all_reduce sum %p mesh_axes = @mesh["data"] : tensor<2x16xf32>
  %g = xla.shard_to_full %s <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  %n = xla.neg %g : tensor<8x16xf32>
  %r = xla.add %n, %full_two : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Two inputs joined in one region, two outputs; a second, independent
// region becomes a second manual computation.
// CHECK-LABEL: func.func @two_regions
// CHECK: %[[A:.*]]:2 = xla.manual_computation (%{{.*}} = %arg0 : tensor<2x16xf32>, %{{.*}} = %arg1 : tensor<8x8xf32>)
// CHECK-SAME: in_shardings = [<@mesh, [{"data"}, {}]>, <@mesh, [{}, {"model"}]>] out_shardings = [<@mesh, [{"data"}, {}]>, <@mesh, [{}, {"model"}]>]
// CHECK: } : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK: %[[B:.*]] = xla.manual_computation (%{{.*}} = %arg2 : tensor<1x4xf32>)
// CHECK: xla.tanh
// CHECK: } : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK: return %[[A]]#0, %[[A]]#1, %[[B]]
func.func @two_regions(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>, %z: tensor<4x8xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>) {
  %lx = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  %ly = xla.full_to_shard %y <@mesh, [{}, {"model"}]> : tensor<8x16xf32> -> tensor<8x8xf32>
  %t = xla.transpose %ly, permutation = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %sl = xla.slice %t, start = [0, 0], limit = [2, 8], strides = [1, 1] : (tensor<8x8xf32>) -> tensor<2x8xf32>
  %c = xla.concatenate %sl, %sl, dim = 1 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x16xf32>
  %sum = xla.add %lx, %c : tensor<2x16xf32>
  %gx = xla.shard_to_full %sum <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  %gy = xla.shard_to_full %t <@mesh, [{}, {"model"}]> : tensor<8x8xf32> -> tensor<8x16xf32>
  %lz = xla.full_to_shard %z <@mesh, [{"data"}, {"model"}]> : tensor<4x8xf32> -> tensor<1x4xf32>
  %tz = xla.tanh %lz : tensor<1x4xf32>
  %gz = xla.shard_to_full %tz <@mesh, [{"data"}, {"model"}]> : tensor<1x4xf32> -> tensor<4x8xf32>
  return %gx, %gy, %gz : tensor<8x16xf32>, tensor<8x16xf32>, tensor<4x8xf32>
}

// A result used before the region's last op: the block is reordered so that
// its uses follow the manual computation.
// CHECK-LABEL: func.func @early_exit
// CHECK: %[[M:.*]]:2 = xla.manual_computation
// CHECK: xla.neg %[[M]]#0
func.func @early_exit(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  %g1 = xla.shard_to_full %l <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  %n = xla.neg %g1 : tensor<8x16xf32>
  %t = xla.tanh %l : tensor<2x16xf32>
  %g2 = xla.shard_to_full %t <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  return %n, %g2 : tensor<8x16xf32>, tensor<8x16xf32>
}

// Markers inside a loop body are outlined there.
// CHECK-LABEL: func.func @in_loop
// CHECK: xla.while
// CHECK: } do {
// CHECK: xla.manual_computation
// CHECK: xla.all_gather
func.func @in_loop(%x: tensor<8x16xf32>, %n: tensor<i32>) -> tensor<8x16xf32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %i, %r = xla.while (%i = %zero, %v = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %more = xla.compare lt, %i, %n : tensor<i32>
    xla.yield %more : tensor<i1>
  } do {
    %l = xla.full_to_shard %v <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
    %a = xla.all_gather %l, dim = 0 mesh_axes = @mesh["data"] : (tensor<2x16xf32>) -> tensor<8x16xf32>
    %s = xla.slice %a, start = [2, 0], limit = [4, 16], strides = [1, 1] : (tensor<8x16xf32>) -> tensor<2x16xf32>
    %g = xla.shard_to_full %s <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %g : tensor<i32>, tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// A scalar broadcast to the shard's shape is copied in with its constant.
// CHECK-LABEL: func.func @broadcast_constant
// CHECK: xla.manual_computation
// CHECK-NEXT: %[[C:.*]] = xla.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[B:.*]] = xla.broadcast_in_dim %[[C]], dims = [] : (tensor<f32>) -> tensor<2x16xf32>
// CHECK-NEXT: xla.mul %{{.*}}, %[[B]]
func.func @broadcast_constant(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %two = xla.constant dense<2.0> : tensor<f32>
  %b = xla.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  %m = xla.mul %l, %b : tensor<2x16xf32>
  %g = xla.shard_to_full %m <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}
