// RUN: xla-opt %s --xla-optimize-collectives -split-input-file | FileCheck %s
// RUN: xla-opt %s --xla-optimize-collectives=combine-threshold-bytes=128 -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: xla-opt %s --xla-optimize-collectives=disable=all-reduce-combiner -split-input-file | FileCheck %s --check-prefix=OFF

xla.mesh @mesh = <["data"=4, "model"=2]>

// Gradients of a data-parallel step: three all_reduces of one kind, scale
// and participants become one on the flattened concatenation. The update
// of the first parameter, between the reductions, moves after the combined
// one.
// CHECK-LABEL: func.func @gradients
// CHECK-DAG: %[[A:.*]] = xla.reshape %arg0 : (tensor<8x4xf32>) -> tensor<32xf32>
// CHECK-DAG: %[[B:.*]] = xla.reshape %arg1 : (tensor<4x2xf32>) -> tensor<8xf32>
// CHECK-DAG: %[[C:.*]] = xla.reshape %arg2 : (tensor<f32>) -> tensor<1xf32>
// CHECK: %[[CAT:.*]] = xla.concatenate %[[A]], %[[B]], %[[C]], dim = 0 : (tensor<32xf32>, tensor<8xf32>, tensor<1xf32>) -> tensor<41xf32>
// CHECK-NEXT: %[[R:.*]] = xla.all_reduce sum %[[CAT]] mesh_axes = @mesh["data"] scale = 2.500000e-01 : tensor<41xf32>
// CHECK-NEXT: %[[S0:.*]] = xla.slice %[[R]], start = [0], limit = [32], strides = [1]
// CHECK-NEXT: %[[G0:.*]] = xla.reshape %[[S0]] : (tensor<32xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[S1:.*]] = xla.slice %[[R]], start = [32], limit = [40], strides = [1]
// CHECK-NEXT: %[[G1:.*]] = xla.reshape %[[S1]] : (tensor<8xf32>) -> tensor<4x2xf32>
// CHECK-NEXT: %[[S2:.*]] = xla.slice %[[R]], start = [40], limit = [41], strides = [1]
// CHECK-NEXT: %[[G2:.*]] = xla.reshape %[[S2]] : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[U:.*]] = xla.sub %arg3, %[[G0]]
// CHECK-NEXT: return %[[U]], %[[G1]], %[[G2]]
// CHECK-NOT: xla.all_reduce
// SMALL-LABEL: func.func @gradients
// SMALL: xla.all_reduce sum %arg0
// SMALL: xla.concatenate
// SMALL: xla.all_reduce sum %{{.*}} : tensor<9xf32>
// OFF-LABEL: func.func @gradients
// OFF-COUNT-3: xla.all_reduce
func.func @gradients(%g0: tensor<8x4xf32>, %g1: tensor<4x2xf32>, %g2: tensor<f32>, %w0: tensor<8x4xf32>)
    -> (tensor<8x4xf32>, tensor<4x2xf32>, tensor<f32>) {
  %r0 = xla.all_reduce sum %g0 mesh_axes = @mesh["data"] scale = 0.25 : tensor<8x4xf32>
  %u0 = xla.sub %w0, %r0 : tensor<8x4xf32>
  %r1 = xla.all_reduce sum %g1 mesh_axes = @mesh["data"] scale = 0.25 : tensor<4x2xf32>
  %r2 = xla.all_reduce sum %g2 mesh_axes = @mesh["data"] scale = 0.25 : tensor<f32>
  return %u0, %r1, %r2 : tensor<8x4xf32>, tensor<4x2xf32>, tensor<f32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

// Must not fire: a dependence (the second reduces a function of the first),
// another kind, other participants, another element type, another scale.
// CHECK-LABEL: func.func @not_combined
// CHECK-NOT: xla.concatenate
// CHECK-COUNT-6: xla.all_reduce
// CHECK-NOT: xla.concatenate
func.func @not_combined(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["data"] : tensor<4xf32>
  %1 = xla.exp %0 : tensor<4xf32>
  %2 = xla.all_reduce sum %1 mesh_axes = @mesh["data"] : tensor<4xf32>
  %3 = xla.all_reduce max %b mesh_axes = @mesh["data"] : tensor<4xf32>
  %4 = xla.all_reduce min %b mesh_axes = @mesh["model"] : tensor<4xf32>
  %5 = xla.all_reduce sum %i mesh_axes = @mesh["model"] : tensor<4xi32>
  %6 = xla.all_reduce min %a mesh_axes = @mesh["model"] scale = 2.0 : tensor<4xf32>
  return %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}

// -----

xla.mesh @mesh = <["data"=4, "model"=2]>

// Groups that cross: "data" x2 needs "model" y1, "model" y2 needs "data" x1.
// Combining {x1, x2} makes y2 depend on y1 through the combined all_reduce,
// so {y1, y2} must then stay apart (combining them too made a cycle: found
// by differential fuzzing, test/fuzz/regressions/seed-8036.mlir).
// CHECK-LABEL: func.func @crossing_groups
// CHECK: %[[Y1:.*]] = xla.all_reduce sum %{{.*}} mesh_axes = @mesh["model"] : tensor<4xf32>
// CHECK: %[[T:.*]] = xla.tanh %[[Y1]]
// CHECK: %[[J:.*]] = xla.concatenate
// CHECK: %[[X:.*]] = xla.all_reduce sum %[[J]] mesh_axes = @mesh["data"] : tensor<8xf32>
// CHECK: xla.all_reduce sum %{{.*}} mesh_axes = @mesh["model"] : tensor<4xf32>
// CHECK-NOT: xla.concatenate
func.func @crossing_groups(%a: tensor<4xf32>, %b: tensor<4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>) {
  %x1 = xla.all_reduce sum %a mesh_axes = @mesh["data"] : tensor<4xf32>
  %y1 = xla.all_reduce sum %b mesh_axes = @mesh["model"] : tensor<4xf32>
  %t = xla.tanh %y1 : tensor<4xf32>
  %x2 = xla.all_reduce sum %t mesh_axes = @mesh["data"] : tensor<4xf32>
  %u = xla.tanh %x1 : tensor<4xf32>
  %y2 = xla.all_reduce sum %u mesh_axes = @mesh["model"] : tensor<4xf32>
  return %x2, %y2 : tensor<4xf32>, tensor<4xf32>
}
