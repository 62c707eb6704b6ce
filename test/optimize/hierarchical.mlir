// RUN: xla-opt %s --xla-optimize-collectives -split-input-file | FileCheck %s
// RUN: xla-opt %s --xla-optimize-collectives=disable=hierarchical-all-reduce,hierarchical-reduce-scatter,hierarchical-all-gather -split-input-file | FileCheck %s --check-prefix=OFF

// Two slices of four chips; "data" crosses slices (DCN), "fsdp" stays
// inside (ICI). Devices: slice 0 = 0..3 (row 0), slice 1 = 4..7 (row 1).
xla.mesh @h = hybrid<ici=["data"=1, "fsdp"=4], dcn=["data"=2, "fsdp"=1]>

// all_reduce over both axes: reduce-scatter over ICI, all-reduce of the
// quarter over DCN (with the scale), all-gather over ICI.
// CHECK-LABEL: func.func @all_reduce
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter sum %arg0, dim = 0 mesh_axes = @h["fsdp"] link = ici : (tensor<8x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[AR:.*]] = xla.all_reduce sum %[[RS]] mesh_axes = @h["data"] link = dcn scale = 1.250000e-01 : tensor<2x3xf32>
// CHECK-NEXT: %[[AG:.*]] = xla.all_gather %[[AR]], dim = 0 mesh_axes = @h["fsdp"] link = ici : (tensor<2x3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: return %[[AG]]
// OFF-LABEL: func.func @all_reduce
// OFF-NEXT: xla.all_reduce sum %arg0 mesh_axes = @h["data", "fsdp"] scale
func.func @all_reduce(%x: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %0 = xla.all_reduce sum %x mesh_axes = @h["data", "fsdp"] scale = 0.125 : tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// No dim divides by 4: the tensor is flattened.
// CHECK-LABEL: func.func @all_reduce_flat
// CHECK-NEXT: %[[F:.*]] = xla.reshape %arg0 : (tensor<2x6xf32>) -> tensor<12xf32>
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter max %[[F]], dim = 0 mesh_axes = @h["fsdp"] link = ici : (tensor<12xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[AR:.*]] = xla.all_reduce max %[[RS]] mesh_axes = @h["data"] link = dcn : tensor<3xf32>
// CHECK-NEXT: %[[AG:.*]] = xla.all_gather %[[AR]], dim = 0 mesh_axes = @h["fsdp"] link = ici : (tensor<3xf32>) -> tensor<12xf32>
// CHECK-NEXT: %[[R:.*]] = xla.reshape %[[AG]] : (tensor<12xf32>) -> tensor<2x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @all_reduce_flat(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %0 = xla.all_reduce max %x mesh_axes = @h["fsdp", "data"] : tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// reduce_scatter with DCN-major positions (["data", "fsdp"]): the dim is
// seen as [2 slices, 4 chips, block].
// CHECK-LABEL: func.func @reduce_scatter_dcn_major
// CHECK-NEXT: %[[E:.*]] = xla.reshape %arg0 : (tensor<16x3xf32>) -> tensor<2x4x2x3xf32>
// CHECK-NEXT: %[[I:.*]] = xla.reduce_scatter sum %[[E]], dim = 1 mesh_axes = @h["fsdp"] link = ici : (tensor<2x4x2x3xf32>) -> tensor<2x1x2x3xf32>
// CHECK-NEXT: %[[D:.*]] = xla.reduce_scatter sum %[[I]], dim = 0 mesh_axes = @h["data"] link = dcn scale = 5.000000e-01 : (tensor<2x1x2x3xf32>) -> tensor<1x1x2x3xf32>
// CHECK-NEXT: %[[R:.*]] = xla.reshape %[[D]] : (tensor<1x1x2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @reduce_scatter_dcn_major(%x: tensor<16x3xf32>) -> tensor<2x3xf32> {
  %0 = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @h["data", "fsdp"] scale = 0.5 : (tensor<16x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// ICI-major positions (["fsdp", "data"]): [4 chips, 2 slices, block].
// CHECK-LABEL: func.func @reduce_scatter_ici_major
// CHECK-NEXT: %[[E:.*]] = xla.reshape %arg0 : (tensor<3x8xf32>) -> tensor<3x4x2x1xf32>
// CHECK-NEXT: %[[I:.*]] = xla.reduce_scatter sum %[[E]], dim = 1 mesh_axes = @h["fsdp"] link = ici : (tensor<3x4x2x1xf32>) -> tensor<3x1x2x1xf32>
// CHECK-NEXT: %[[D:.*]] = xla.reduce_scatter sum %[[I]], dim = 2 mesh_axes = @h["data"] link = dcn : (tensor<3x1x2x1xf32>) -> tensor<3x1x1x1xf32>
// CHECK-NEXT: %[[R:.*]] = xla.reshape %[[D]] : (tensor<3x1x1x1xf32>) -> tensor<3x1xf32>
func.func @reduce_scatter_ici_major(%x: tensor<3x8xf32>) -> tensor<3x1xf32> {
  %0 = xla.reduce_scatter sum %x, dim = 1 mesh_axes = @h["fsdp", "data"] : (tensor<3x8xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// all_gather: the small blocks cross DCN first, then ICI.
// CHECK-LABEL: func.func @all_gather
// CHECK-NEXT: %[[E:.*]] = xla.reshape %arg0 : (tensor<2x3xf32>) -> tensor<1x1x2x3xf32>
// CHECK-NEXT: %[[D:.*]] = xla.all_gather %[[E]], dim = 0 mesh_axes = @h["data"] link = dcn : (tensor<1x1x2x3xf32>) -> tensor<2x1x2x3xf32>
// CHECK-NEXT: %[[I:.*]] = xla.all_gather %[[D]], dim = 1 mesh_axes = @h["fsdp"] link = ici : (tensor<2x1x2x3xf32>) -> tensor<2x4x2x3xf32>
// CHECK-NEXT: %[[R:.*]] = xla.reshape %[[I]] : (tensor<2x4x2x3xf32>) -> tensor<16x3xf32>
// CHECK-NEXT: return %[[R]]
// OFF-LABEL: func.func @all_gather
// OFF-NEXT: xla.all_gather %arg0, dim = 0 mesh_axes = @h["data", "fsdp"]
func.func @all_gather(%x: tensor<2x3xf32>) -> tensor<16x3xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @h["data", "fsdp"] : (tensor<2x3xf32>) -> tensor<16x3xf32>
  return %0 : tensor<16x3xf32>
}

// Must not fire: only ICI, only DCN.
// CHECK-LABEL: func.func @no_decomposition
// CHECK-NEXT: xla.all_reduce sum %arg0 mesh_axes = @h["fsdp"]
// CHECK-NEXT: xla.all_reduce sum %arg0 mesh_axes = @h["data"]
// CHECK-NEXT: xla.all_gather %arg0, dim = 0 mesh_axes = @h["data"]
// CHECK-NEXT: return
func.func @no_decomposition(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<16xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @h["fsdp"] : tensor<8xf32>
  %1 = xla.all_reduce sum %x mesh_axes = @h["data"] : tensor<8xf32>
  %3 = xla.all_gather %x, dim = 0 mesh_axes = @h["data"] : (tensor<8xf32>) -> tensor<16xf32>
  return %0, %1, %3 : tensor<8xf32>, tensor<8xf32>, tensor<16xf32>
}

// Nothing divisible by the ICI size (4): the flattened tensor is padded to
// a multiple of it, and the padding sliced off after the gather.
// CHECK-LABEL: func.func @padded
// CHECK-NEXT: %[[F:.*]] = xla.reshape %arg0 : (tensor<3x5xf32>) -> tensor<15xf32>
// CHECK-NEXT: %[[P:.*]] = xla.pad %[[F]], low = [0], high = [1], interior = [0], value = 0.000000e+00 : (tensor<15xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter sum %[[P]], dim = 0 mesh_axes = @h["fsdp"] link = ici : (tensor<16xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[AR:.*]] = xla.all_reduce sum %[[RS]] mesh_axes = @h["data"] link = dcn : tensor<4xf32>
// CHECK-NEXT: %[[AG:.*]] = xla.all_gather %[[AR]], dim = 0 mesh_axes = @h["fsdp"] link = ici : (tensor<4xf32>) -> tensor<16xf32>
// CHECK-NEXT: %[[S:.*]] = xla.slice %[[AG]], start = [0], limit = [15], strides = [1] : (tensor<16xf32>) -> tensor<15xf32>
// CHECK-NEXT: %[[R:.*]] = xla.reshape %[[S]] : (tensor<15xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: return %[[R]]
func.func @padded(%y: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %0 = xla.all_reduce sum %y mesh_axes = @h["data", "fsdp"] : tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// A mixed axis: "d" has 2 chips per slice and spans 2 slices. Device array
// rows: [0 1], [2 3] (slice 0), [4 5], [6 7] (slice 1); the "d" groups are
// the columns [0 2 4 6] and [1 3 5 7]. Its ICI and DCN parts are not mesh
// axes, so the stages name explicit groups.
xla.mesh @m = hybrid<ici=["d"=2, "t"=2], dcn=["d"=2, "t"=1]>

// CHECK-LABEL: func.func @mixed_axis
// CHECK-NEXT: %[[RS:.*]] = xla.reduce_scatter sum %arg0, dim = 0 groups = {{\[\[}}0, 2], [4, 6], [1, 3], [5, 7]] link = ici : (tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %[[AR:.*]] = xla.all_reduce sum %[[RS]] groups = {{\[\[}}0, 4], [2, 6], [1, 5], [3, 7]] link = dcn : tensor<2x4xf32>
// CHECK-NEXT: %[[AG:.*]] = xla.all_gather %[[AR]], dim = 0 groups = {{\[\[}}0, 2], [4, 6], [1, 3], [5, 7]] link = ici : (tensor<2x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: return %[[AG]]
func.func @mixed_axis(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = xla.all_reduce sum %x mesh_axes = @m["d"] : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// Every device: the ICI part is a whole slice, the DCN part pairs devices
// at the same place in both slices.
// CHECK-LABEL: func.func @all_devices
// CHECK-NEXT: xla.reduce_scatter sum %arg0, dim = 0 groups = {{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]] link = ici : (tensor<8xf32>) -> tensor<2xf32>
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[\[}}0, 4], [1, 5], [2, 6], [3, 7]] link = dcn : tensor<2xf32>
// CHECK-NEXT: xla.all_gather %{{.*}}, dim = 0 groups = {{\[\[}}0, 1, 2, 3], [4, 5, 6, 7]] link = ici : (tensor<2xf32>) -> tensor<8xf32>
func.func @all_devices(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = xla.all_reduce sum %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// reduce_scatter over the mixed axis (positions DCN-major: coordinate =
// slice * 2 + chip).
// CHECK-LABEL: func.func @mixed_reduce_scatter
// CHECK-NEXT: xla.reshape %arg0 : (tensor<8xf32>) -> tensor<2x2x2xf32>
// CHECK-NEXT: xla.reduce_scatter sum %{{.*}}, dim = 1 groups = {{\[\[}}0, 2], [4, 6], [1, 3], [5, 7]] link = ici : (tensor<2x2x2xf32>) -> tensor<2x1x2xf32>
// CHECK-NEXT: xla.reduce_scatter sum %{{.*}}, dim = 0 groups = {{\[\[}}0, 4], [2, 6], [1, 5], [3, 7]] link = dcn : (tensor<2x1x2xf32>) -> tensor<1x1x2xf32>
func.func @mixed_reduce_scatter(%x: tensor<8xf32>) -> tensor<2xf32> {
  %0 = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @m["d"] : (tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Must not fire: positions interleave slices and chips (["t", "d"] puts
// "t" major, then the DCN part of "d", then its ICI part), so no reshape
// gives each stage one dim.
// CHECK-LABEL: func.func @interleaved
// CHECK-NEXT: xla.all_gather %arg0, dim = 0 mesh_axes = @m["t", "d"]
func.func @interleaved(%x: tensor<1xf32>) -> tensor<8xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @m["t", "d"] : (tensor<1xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Must not fire: a plain mesh has no slices.
xla.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @plain
// CHECK-NEXT: xla.all_reduce sum %arg0 mesh_axes = @mesh["x", "y"]
func.func @plain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["x", "y"] : tensor<8xf32>
  return %0 : tensor<8xf32>
}
