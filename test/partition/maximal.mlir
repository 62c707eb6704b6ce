// A value on one device (a maximal mesh) partitioned in an 8-device module:
// ops on it run on that device only (an xla.case on partition_id), and a
// sharded consumer receives it by GSPMD's broadcast, masked to zero on the
// other devices and reduced (here a reduce-scatter into the consumer's
// rows, cheaper than all-reduce + slice); the bytes are counted.

// RUN: xla-opt %s --xla-partition | FileCheck %s
// RUN: xla-opt %s --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-opt %s --xla-explain-sharding --xla-partition=report-bytes=true -o /dev/null | FileCheck %s --check-prefixes=PLAN,EMIT
// RUN: xla-run %s --function=onto_device --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=device_to_device --check | FileCheck %s --check-prefix=EXEC

// --xla-explain-sharding prices these moves with the partitioner's planner
// (PLAN), and the partitioner emits exactly that (EMIT): the broadcast
// from device 3 into the consumer's rows, the gather to device 3 (for a
// result, or for an op that runs there), and a move from device 3 to
// device 5 (a broadcast from 3, kept on 5).

xla.mesh @mesh = <["x"=8]>
xla.mesh @maximal_3 = <[], devices=[3]>
xla.mesh @maximal_5 = <[], devices=[5]>

// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[A:.*]]: tensor<16x4xf32> {xla.global_type = tensor<16x4xf32>, xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>}
// CHECK: %[[ID:.*]] = xla.partition_id : tensor<i32>
// CHECK: %[[K:.*]] = xla.constant dense<3> : tensor<i32>
// CHECK: %[[HERE:.*]] = xla.compare eq, %[[ID]], %[[K]] : tensor<i32>
// CHECK: %[[E:.*]] = xla.case %[[HERE]] : tensor<i1> -> tensor<16x4xf32> {
// CHECK-NEXT: %[[X:.*]] = xla.exp %[[A]] : tensor<16x4xf32>
// CHECK-NEXT: xla.yield %[[X]]
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[Z:.*]] = xla.constant dense<0.000000e+00> : tensor<16x4xf32>
// CHECK-NEXT: xla.yield %[[Z]]
// CHECK: %[[ID2:.*]] = xla.partition_id : tensor<i32>
// CHECK: %[[K2:.*]] = xla.constant dense<3> : tensor<i32>
// CHECK: %[[HERE2:.*]] = xla.compare eq, %[[ID2]], %[[K2]] : tensor<i32>
// CHECK: %[[P:.*]] = xla.broadcast_in_dim %[[HERE2]]
// CHECK: %[[MASKED:.*]] = xla.select %[[P]], %[[E]], %{{.*}}
// CHECK: %[[RS:.*]] = xla.reduce_scatter sum %[[MASKED]], dim = 0 mesh_axes = @mesh["x"] : (tensor<16x4xf32>) -> tensor<2x4xf32>
// CHECK: xla.add %[[RS]], %{{.*}} : tensor<2x4xf32>
func.func @broadcast(%a: tensor<16x4xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>},
                     %b: tensor<16x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<16x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %e = xla.exp %a {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>} : tensor<16x4xf32>
  %r = xla.add %e, %b {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>} : tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}

// A sharded value into a maximal result: gathered (device 3 then holds it).
// CHECK-LABEL: func.func @gather_to_device
// CHECK: %[[G:.*]] = xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x"] : (tensor<2x4xf32>) -> tensor<16x4xf32>
// CHECK: return %[[G]] : tensor<16x4xf32>
func.func @gather_to_device(%b: tensor<16x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<16x4xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>}) {
  return %b : tensor<16x4xf32>
}

// A sharded operand of an op that runs on device 3 is gathered first.
// CHECK-LABEL: func.func @onto_device
// CHECK: %[[G:.*]] = xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x"] : (tensor<2x4xf32>) -> tensor<16x4xf32>
// CHECK: xla.case
// CHECK-NEXT: xla.exp %[[G]] : tensor<16x4xf32>
func.func @onto_device(%b: tensor<16x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<16x4xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>}) {
  %e = xla.exp %b {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>} : tensor<16x4xf32>
  return %e : tensor<16x4xf32>
}

// Device 3's value is broadcast (an all-reduce of the masked value) and
// device 5 keeps it.
// CHECK-LABEL: func.func @device_to_device
// CHECK: xla.all_reduce sum %{{.*}} mesh_axes = @mesh["x"] : tensor<8x4xf32>
func.func @device_to_device(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>})
    -> (tensor<8x4xf32> {xla.sharding = #xla.sharding<@maximal_5, [{}, {}]>}) {
  %n = xla.neg %a : tensor<8x4xf32>
  return %n : tensor<8x4xf32>
}

// PLAN-LABEL: planned bytes of @broadcast:
// PLAN-NEXT: xla.add at maximal.mlir:[[#$ADD:]]:8: 224 B per device
// PLAN-LABEL: planned bytes of @gather_to_device:
// PLAN-NEXT: func.return at maximal.mlir:[[#$RET:]]:3: 224 B per device
// PLAN-LABEL: planned bytes of @onto_device:
// PLAN-NEXT: xla.exp at maximal.mlir:[[#$EXP:]]:8: 224 B per device
// PLAN-LABEL: planned bytes of @device_to_device:
// PLAN-NEXT: func.return at maximal.mlir:[[#$MOVE:]]:3: 224 B per device
// EMIT-LABEL: emitted bytes of @broadcast:
// EMIT-NEXT: xla.add at maximal.mlir:[[#$ADD]]:8: 224 B per device
// EMIT-LABEL: emitted bytes of @gather_to_device:
// EMIT-NEXT: func.return at maximal.mlir:[[#$RET]]:3: 224 B per device
// EMIT-LABEL: emitted bytes of @onto_device:
// EMIT-NEXT: xla.exp at maximal.mlir:[[#$EXP]]:8: 224 B per device
// EMIT-LABEL: emitted bytes of @device_to_device:
// EMIT-NEXT: func.return at maximal.mlir:[[#$MOVE]]:3: 224 B per device
// EXEC: [SUCCESS]

// The broadcast moves the whole 256 B value through a reduce-scatter.
// BYTES: @broadcast: 1 collective, sends 224 B per device
// BYTES-NEXT: reduce_scatter sum mesh_axes ["x"] (group 8) ici in 256 B sends 224 B
// BYTES: @gather_to_device: 1 collective, sends 224 B per device
// BYTES-NEXT: all_gather mesh_axes ["x"] (group 8) ici in 32 B sends 224 B
