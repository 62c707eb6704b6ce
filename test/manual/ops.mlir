// Round trip of the manual-partitioning ops.
// RUN: xla-opt %s | FileCheck %s
// RUN: xla-opt %s | xla-opt | FileCheck %s

xla.mesh @mesh = <["data"=4, "model"=2]>

// CHECK-LABEL: func.func @markers
// CHECK: %[[L:.*]] = xla.full_to_shard %arg0 <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK: %[[T:.*]] = xla.tanh %[[L]] : tensor<2x16xf32>
// CHECK: xla.shard_to_full %[[T]] <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
func.func @markers(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<8x16xf32> -> tensor<2x16xf32>
  %t = xla.tanh %l : tensor<2x16xf32>
  %g = xla.shard_to_full %t <@mesh, [{"data"}, {}]> : tensor<2x16xf32> -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}

// Uneven dimensions are padded at the end: 7 rows over 4 devices are blocks of 2.
// CHECK-LABEL: func.func @uneven
// CHECK: xla.full_to_shard %arg0 <@mesh, [{"data"}, {"model"}]> : tensor<7x5xf32> -> tensor<2x3xf32>
func.func @uneven(%x: tensor<7x5xf32>) -> tensor<2x3xf32> {
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {"model"}]> : tensor<7x5xf32> -> tensor<2x3xf32>
  return %l : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @computation
// CHECK: %[[R:.*]]:2 = xla.manual_computation (%[[A:.*]] = %arg0 : tensor<2x16xf32>, %[[B:.*]] = %arg1 : tensor<16xf32>)
// CHECK-SAME: in_shardings = [<@mesh, [{"data"}, {}]>, <@mesh, [{}]>]
// CHECK-SAME: out_shardings = [<@mesh, [{"data"}, {}]>, <@mesh, [{}]>] {
// CHECK: xla.all_reduce sum %{{.*}} mesh_axes = @mesh["data"] : tensor<16xf32>
// CHECK: xla.yield %{{.*}}, %{{.*}} : tensor<2x16xf32>, tensor<16xf32>
// CHECK: } : (tensor<8x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
func.func @computation(%x: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>) {
  %y, %sum = xla.manual_computation (%lx = %x : tensor<2x16xf32>, %lb = %b : tensor<16xf32>)
      in_shardings = [<@mesh, [{"data"}, {}]>, <@mesh, [{}]>]
      out_shardings = [<@mesh, [{"data"}, {}]>, <@mesh, [{}]>] {
    %t = xla.tanh %lx : tensor<2x16xf32>
    %s = xla.reduce sum %t, dims = [0] : (tensor<2x16xf32>) -> tensor<16xf32>
    %all = xla.all_reduce sum %s mesh_axes = @mesh["data"] : tensor<16xf32>
    %biased = xla.add %all, %lb : tensor<16xf32>
    xla.yield %t, %biased : tensor<2x16xf32>, tensor<16xf32>
  } : (tensor<8x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  return %y, %sum : tensor<8x16xf32>, tensor<16xf32>
}

// No operands: a per-device computation of its own.
// CHECK-LABEL: func.func @no_inputs
// CHECK: xla.manual_computation () in_shardings = [] out_shardings = [<@mesh, [{"data", "model"}]>] {
func.func @no_inputs() -> tensor<8xi32> {
  %r = xla.manual_computation () in_shardings = [] out_shardings = [<@mesh, [{"data", "model"}]>] {
    %id = xla.partition_id : tensor<i32>
    %v = xla.broadcast_in_dim %id, dims = [] : (tensor<i32>) -> tensor<1xi32>
    xla.yield %v : tensor<1xi32>
  } : () -> tensor<8xi32>
  return %r : tensor<8xi32>
}
