// --xla-lower-to-device names the participants of every collective by
// device id: the groups of mesh axes on plain and permuted meshes, one group
// of every device when none is named, and collective_permute pairs as
// absolute device ids. On a plain mesh every link is ICI and all devices
// share one body.

// RUN: xla-opt %s --xla-lower-to-device | FileCheck %s
// RUN: xla-opt %s --xla-lower-to-device | xla-opt | FileCheck %s

xla.mesh @mesh = <["data"=2, "model"=4]>
xla.mesh @perm = <["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7]>

// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK-NEXT: %[[R:.*]]:6 = xla.dispatch [@plain.body0](%[[X]])
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#3, %[[R]]#4, %[[R]]#5
// CHECK: func.func private @plain.body0
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>}
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] link = ici : tensor<8x16xf32>
// CHECK-NEXT: xla.all_gather %{{.*}}, dim = 1 groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] link = ici : (tensor<8x16xf32>) -> tensor<8x64xf32>
// CHECK-NEXT: xla.reduce_scatter sum %{{.*}}, dim = 1 groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] link = ici : (tensor<8x16xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: xla.all_to_all %{{.*}}, split_dim = 1, concat_dim = 0, split_count = 4 groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] link = ici : (tensor<8x16xf32>) -> tensor<32x4xf32>
// Positions in each "model" group become device ids.
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4]] link = ici : tensor<8x16xf32>
// CHECK-NEXT: xla.all_reduce max %{{.*}} groups = {{\[}}[0, 1, 2, 3, 4, 5, 6, 7]] link = ici : tensor<8x16xf32>
// CHECK-NOT: mesh_axes
// CHECK-NOT: func.func private @plain.body1
func.func @plain(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x64xf32>, tensor<8x4xf32>, tensor<32x4xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["model"] : tensor<8x16xf32>
  %1 = xla.all_gather %x, dim = 1 mesh_axes = @mesh["model"] : (tensor<8x16xf32>) -> tensor<8x64xf32>
  %2 = xla.reduce_scatter sum %x, dim = 1 mesh_axes = @mesh["model"] : (tensor<8x16xf32>) -> tensor<8x4xf32>
  %3 = xla.all_to_all %x, split_dim = 1, concat_dim = 0, split_count = 4 mesh_axes = @mesh["model"] : (tensor<8x16xf32>) -> tensor<32x4xf32>
  %4 = xla.collective_permute %x, pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] mesh_axes = @mesh["model"] : tensor<8x16xf32>
  %5 = xla.all_reduce max %x : tensor<8x16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<8x16xf32>, tensor<8x64xf32>, tensor<8x4xf32>, tensor<32x4xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// @perm places mesh position (x, y) on device devices[2x + y]: the "x"
// groups are the columns [0, 4, 1, 5] and [2, 6, 3, 7], in "x" order; the
// "y" pairs are (0, 2), (4, 6), (1, 3), (5, 7).
// CHECK-LABEL: func.func private @permuted.body0
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>}
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 4, 1, 5], [2, 6, 3, 7]] link = ici
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 4, 1, 5, 2, 6, 3, 7]] link = ici
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 2], [1, 3], [2, 0], [3, 1], [4, 6], [5, 7], [6, 4], [7, 5]] link = ici
func.func @permuted(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @perm["x"] : tensor<8x16xf32>
  %1 = xla.all_reduce sum %x mesh_axes = @perm["y", "x"] : tensor<8x16xf32>
  %2 = xla.collective_permute %x, pairs = [[0, 1], [1, 0]] mesh_axes = @perm["y"] : tensor<8x16xf32>
  return %0, %1, %2 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// Explicit groups stay; permute pairs within groups become device ids;
// permutes without participants already name devices.
// CHECK-LABEL: func.func private @groups.body0
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 4], [1, 5], [2, 6], [3, 7]] link = ici
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[1, 0], [5, 4]] link = ici
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[2, 7], [7, 2]] link = ici
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = [] link = ici
func.func @groups(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = xla.all_reduce sum %x groups = [[0, 4], [1, 5], [2, 6], [3, 7]] : tensor<8x16xf32>
  %1 = xla.collective_permute %x, pairs = [[1, 0]] groups = [[0, 1, 2, 3], [4, 5, 6, 7]] : tensor<8x16xf32>
  %2 = xla.collective_permute %x, pairs = [[7, 2], [2, 7]] : tensor<8x16xf32>
  %3 = xla.collective_permute %x, pairs = [] mesh_axes = @mesh["data"] : tensor<8x16xf32>
  return %0, %1, %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// Functions without collectives or device ids (single-device programs) are
// left alone; a partitioned one is lowered even without communication.
// CHECK-LABEL: func.func @single_device
// CHECK-NEXT: xla.neg
// CHECK-LABEL: func.func @local_only
// CHECK-SAME: attributes {xla.partitioned}
// CHECK-NEXT: xla.dispatch [@local_only.body0]
// CHECK: func.func private @local_only.body0
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, xla.partitioned}
// CHECK-NEXT: xla.neg
func.func @single_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @local_only(%x: tensor<4xf32>) -> tensor<4xf32> attributes {xla.partitioned} {
  %0 = xla.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
