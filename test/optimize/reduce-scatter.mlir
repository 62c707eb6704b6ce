// RUN: xla-opt %s --xla-optimize-collectives -split-input-file | FileCheck %s
// RUN: xla-opt %s --xla-optimize-collectives=disable=reduce-scatter,slice-before-reduce -split-input-file | FileCheck %s --check-prefix=OFF

// all_reduce + all_slice over the same axes: one reduce_scatter, with the
// kind, scale and link kept.

xla.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @same_axes
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter max %arg0, dim = 1 mesh_axes = @mesh["y"] link = ici scale = 5.000000e-01 : (tensor<8x16xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: return %[[RS]]
// OFF-LABEL: func.func @same_axes
// OFF: xla.all_reduce
// OFF: xla.all_slice
func.func @same_axes(%x: tensor<8x16xf32>) -> tensor<8x4xf32> {
  %r = xla.all_reduce max %x mesh_axes = @mesh["y"] link = ici scale = 0.5 : tensor<8x16xf32>
  %s = xla.all_slice %r, dim = 1 mesh_axes = @mesh["y"] : (tensor<8x16xf32>) -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// Two axes, in the slice's order.
// CHECK-LABEL: func.func @two_axes
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter sum %arg0, dim = 0 mesh_axes = @mesh["y", "x"] : (tensor<16x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[RS]]
func.func @two_axes(%x: tensor<16x3xf32>) -> tensor<2x3xf32> {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["x", "y"] : tensor<16x3xf32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @mesh["y", "x"] : (tensor<16x3xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}

// Reduce over {x, y}, slice over y: reduce_scatter over y, then finish the
// reduction over x on the quarter; the scale goes on the last step.
// CHECK-LABEL: func.func @subset
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter sum %arg0, dim = 0 mesh_axes = @mesh["y"] : (tensor<16x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: %[[AR:.*]] = xla.all_reduce sum %[[RS]] mesh_axes = @mesh["x"] scale = 2.500000e-01 : tensor<4x3xf32>
// CHECK-NEXT: return %[[AR]]
func.func @subset(%x: tensor<16x3xf32>) -> tensor<4x3xf32> {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["x", "y"] scale = 0.25 : tensor<16x3xf32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @mesh["y"] : (tensor<16x3xf32>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// Every use is the same slice: one reduce_scatter serves both.
// CHECK-LABEL: func.func @alike_uses
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter min %arg0, dim = 0 groups = {{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]] : (tensor<8xi32>) -> tensor<2xi32>
// CHECK-NEXT: return %[[RS]], %[[RS]]
func.func @alike_uses(%x: tensor<8xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %r = xla.all_reduce min %x groups = [[0, 1, 2, 3], [4, 5, 6, 7]] : tensor<8xi32>
  %s = xla.all_slice %r, dim = 0 groups = [[0, 1, 2, 3], [4, 5, 6, 7]] : (tensor<8xi32>) -> tensor<2xi32>
  %t = xla.all_slice %r, dim = 0 groups = [[0, 1, 2, 3], [4, 5, 6, 7]] : (tensor<8xi32>) -> tensor<2xi32>
  return %s, %t : tensor<2xi32>, tensor<2xi32>
}

// Every device in one group.
// CHECK-LABEL: func.func @all_devices
// CHECK-NEXT: xla.reduce_scatter sum %arg0, dim = 0 : (tensor<8xf32>) -> tensor<1xf32>
func.func @all_devices(%x: tensor<8xf32>) -> tensor<1xf32> {
  %r = xla.all_reduce sum %x : tensor<8xf32>
  %s = xla.all_slice %r, dim = 0 : (tensor<8xf32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>
xla.mesh @flat = <["all"=8]>

// Must not fire: the reduced value is also used whole.
// CHECK-LABEL: func.func @other_use
// CHECK: xla.all_reduce
// CHECK: xla.all_slice
// CHECK-NOT: xla.reduce_scatter
func.func @other_use(%x: tensor<8xf32>) -> (tensor<2xf32>, tensor<8xf32>) {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<8xf32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @mesh["y"] : (tensor<8xf32>) -> tensor<2xf32>
  return %s, %r : tensor<2xf32>, tensor<8xf32>
}

// Must not fire: two slices on different dims.
// CHECK-LABEL: func.func @different_dims
// CHECK: xla.all_reduce
// CHECK-COUNT-2: xla.all_slice
// CHECK-NOT: xla.reduce_scatter
func.func @different_dims(%x: tensor<8x8xf32>) -> (tensor<2x8xf32>, tensor<8x2xf32>) {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<8x8xf32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @mesh["y"] : (tensor<8x8xf32>) -> tensor<2x8xf32>
  %t = xla.all_slice %r, dim = 1 mesh_axes = @mesh["y"] : (tensor<8x8xf32>) -> tensor<8x2xf32>
  return %s, %t : tensor<2x8xf32>, tensor<8x2xf32>
}

// Must not fire: slice axes partly inside the reduction's.
// CHECK-LABEL: func.func @partial_overlap
// CHECK: xla.all_reduce sum %arg0 mesh_axes = @mesh["y"]
// CHECK: xla.all_slice {{.*}} mesh_axes = @mesh["x", "y"]
func.func @partial_overlap(%x: tensor<8xf32>) -> tensor<1xf32> {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<8xf32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<8xf32>) -> tensor<1xf32>
  return %s : tensor<1xf32>
}

// Must not fire: different meshes, and different explicit groups.
// CHECK-LABEL: func.func @unrelated
// CHECK-COUNT-2: xla.all_reduce
// CHECK-NOT: xla.reduce_scatter
func.func @unrelated(%x: tensor<8xf32>) -> (tensor<1xf32>, tensor<2xf32>) {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["x", "y"] : tensor<8xf32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @flat["all"] : (tensor<8xf32>) -> tensor<1xf32>
  %q = xla.all_reduce sum %x groups = [[0, 1, 2, 3], [4, 5, 6, 7]] : tensor<8xf32>
  %t = xla.all_slice %q, dim = 0 groups = [[0, 2, 4, 6], [1, 3, 5, 7]] : (tensor<8xf32>) -> tensor<2xf32>
  return %s, %t : tensor<1xf32>, tensor<2xf32>
}

// Must not fire: a use of the reduced value between (here the slice is of
// an elementwise op of it, not of the reduction itself).
// CHECK-LABEL: func.func @use_in_between
// CHECK: xla.all_reduce
// CHECK: xla.exp
// CHECK: xla.all_slice
func.func @use_in_between(%x: tensor<8xf32>) -> tensor<2xf32> {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<8xf32>
  %e = xla.exp %r : tensor<8xf32>
  %s = xla.all_slice %e, dim = 0 mesh_axes = @mesh["y"] : (tensor<8xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// Slice axes disjoint from the reduction's: slice first, reduce a quarter.
// CHECK-LABEL: func.func @slice_before_reduce
// CHECK-NEXT: %[[S:.*]] = xla.all_slice %arg0, dim = 1 mesh_axes = @mesh["y"] : (tensor<8x8xf32>) -> tensor<8x2xf32>
// CHECK-NEXT: %[[R:.*]] = xla.all_reduce sum %[[S]] mesh_axes = @mesh["x"] scale = 5.000000e-01 : tensor<8x2xf32>
// CHECK-NEXT: return %[[R]]
// OFF-LABEL: func.func @slice_before_reduce
// OFF-NEXT: xla.all_reduce
// OFF-NEXT: xla.all_slice
func.func @slice_before_reduce(%x: tensor<8x8xf32>) -> tensor<8x2xf32> {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["x"] scale = 0.5 : tensor<8x8xf32>
  %s = xla.all_slice %r, dim = 1 mesh_axes = @mesh["y"] : (tensor<8x8xf32>) -> tensor<8x2xf32>
  return %s : tensor<8x2xf32>
}
