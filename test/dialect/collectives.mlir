// Round trip of the collectives (all_reduce, all_gather, reduce_scatter,
// all_to_all, collective_permute, all_slice) with each participant form:
// mesh axes, explicit replica groups, and neither (all devices), plus the
// link class recorded after lowering.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

xla.mesh @mesh = <["data"=4, "model"=2]>
xla.mesh @hybrid = hybrid<ici=["data"=1, "fsdp"=4], dcn=["data"=2, "fsdp"=1]>

// CHECK-LABEL: func.func @all_reduce
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>, %[[I:.*]]: tensor<8xi32>, %[[P:.*]]: tensor<8xi1>)
// CHECK: xla.all_reduce sum %[[X]] mesh_axes = @mesh["model"] : tensor<8x16xf32>
// CHECK: xla.all_reduce mul %[[X]] mesh_axes = @mesh["data", "model"] : tensor<8x16xf32>
// CHECK: xla.all_reduce min %[[X]] mesh_axes = @mesh["model", "data"] : tensor<8x16xf32>
// CHECK: xla.all_reduce max %[[X]] groups = {{\[}}[0, 1], [2, 3], [4, 5], [6, 7]] : tensor<8x16xf32>
// No participants: every device, in id order.
// CHECK: xla.all_reduce sum %[[X]] : tensor<8x16xf32>
// scale multiplies the result (1.0, the default, is not printed).
// CHECK: xla.all_reduce sum %[[X]] mesh_axes = @mesh["data"] scale = 2.500000e-01 : tensor<8x16xf32>
// CHECK: xla.all_reduce sum %[[X]] groups = {{\[}}[0, 1, 2, 3, 4, 5, 6, 7]] scale = 1.250000e-01 : tensor<8x16xf32>
// CHECK: xla.all_reduce sum %[[X]] mesh_axes = @mesh["data"] : tensor<8x16xf32>
// and/or on integers and predicates.
// CHECK: xla.all_reduce and %[[I]] mesh_axes = @mesh["data"] : tensor<8xi32>
// CHECK: xla.all_reduce or %[[P]] : tensor<8xi1>
// CHECK: xla.all_reduce max %[[P]] groups = {{\[}}[0, 2, 4, 6], [1, 3, 5, 7]] : tensor<8xi1>
func.func @all_reduce(%x: tensor<8x16xf32>, %i: tensor<8xi32>, %p: tensor<8xi1>) {
  %0 = xla.all_reduce sum %x mesh_axes = @mesh["model"] : tensor<8x16xf32>
  %1 = xla.all_reduce mul %x mesh_axes = @mesh["data", "model"] : tensor<8x16xf32>
  %2 = xla.all_reduce min %x mesh_axes = @mesh["model", "data"] : tensor<8x16xf32>
  %3 = xla.all_reduce max %x groups = [[0, 1], [2, 3], [4, 5], [6, 7]] : tensor<8x16xf32>
  %4 = xla.all_reduce sum %x : tensor<8x16xf32>
  %5 = xla.all_reduce sum %x mesh_axes = @mesh["data"] scale = 0.25 : tensor<8x16xf32>
  %6 = xla.all_reduce sum %x groups = [[0, 1, 2, 3, 4, 5, 6, 7]] scale = 0.125 : tensor<8x16xf32>
  %7 = xla.all_reduce sum %x mesh_axes = @mesh["data"] scale = 1.0 : tensor<8x16xf32>
  %8 = xla.all_reduce and %i mesh_axes = @mesh["data"] : tensor<8xi32>
  %9 = xla.all_reduce or %p : tensor<8xi1>
  %10 = xla.all_reduce max %p groups = [[0, 2, 4, 6], [1, 3, 5, 7]] : tensor<8xi1>
  return
}

// CHECK-LABEL: func.func @all_gather
// CHECK-SAME: (%[[X:.*]]: tensor<2x16xf32>)
// CHECK: xla.all_gather %[[X]], dim = 0 mesh_axes = @mesh["data"] : (tensor<2x16xf32>) -> tensor<8x16xf32>
// CHECK: xla.all_gather %[[X]], dim = 1 mesh_axes = @mesh["data", "model"] : (tensor<2x16xf32>) -> tensor<2x128xf32>
// CHECK: xla.all_gather %[[X]], dim = 1 groups = {{\[}}[0, 1], [2, 3], [4, 5], [6, 7]] : (tensor<2x16xf32>) -> tensor<2x32xf32>
// CHECK: xla.all_gather %[[X]], dim = 0 : (tensor<2x16xf32>) -> tensor<16x16xf32>
func.func @all_gather(%x: tensor<2x16xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["data"] : (tensor<2x16xf32>) -> tensor<8x16xf32>
  %1 = xla.all_gather %x, dim = 1 mesh_axes = @mesh["data", "model"] : (tensor<2x16xf32>) -> tensor<2x128xf32>
  %2 = xla.all_gather %x, dim = 1 groups = [[0, 1], [2, 3], [4, 5], [6, 7]] : (tensor<2x16xf32>) -> tensor<2x32xf32>
  %3 = xla.all_gather %x, dim = 0 : (tensor<2x16xf32>) -> tensor<16x16xf32>
  return
}

// CHECK-LABEL: func.func @reduce_scatter
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK: xla.reduce_scatter sum %[[X]], dim = 0 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<2x16xf32>
// CHECK: xla.reduce_scatter max %[[X]], dim = 1 groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] : (tensor<8x16xf32>) -> tensor<8x4xf32>
// CHECK: xla.reduce_scatter sum %[[X]], dim = 0 scale = 1.250000e-01 : (tensor<8x16xf32>) -> tensor<1x16xf32>
// CHECK: xla.reduce_scatter mul %[[X]], dim = 1 mesh_axes = @mesh["model"] scale = 5.000000e-01 : (tensor<8x16xf32>) -> tensor<8x8xf32>
func.func @reduce_scatter(%x: tensor<8x16xf32>) {
  %0 = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<2x16xf32>
  %1 = xla.reduce_scatter max %x, dim = 1 groups = [[0, 1, 2, 3], [4, 5, 6, 7]] : (tensor<8x16xf32>) -> tensor<8x4xf32>
  %2 = xla.reduce_scatter sum %x, dim = 0 scale = 0.125 : (tensor<8x16xf32>) -> tensor<1x16xf32>
  %3 = xla.reduce_scatter mul %x, dim = 1 mesh_axes = @mesh["model"] scale = 0.5 : (tensor<8x16xf32>) -> tensor<8x8xf32>
  return
}

// CHECK-LABEL: func.func @all_to_all
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK: xla.all_to_all %[[X]], split_dim = 1, concat_dim = 0, split_count = 4 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<32x4xf32>
// CHECK: xla.all_to_all %[[X]], split_dim = 0, concat_dim = 1, split_count = 2 groups = {{\[}}[0, 4], [1, 5], [2, 6], [3, 7]] : (tensor<8x16xf32>) -> tensor<4x32xf32>
// Splitting and concatenating along one dimension keeps the shape.
// CHECK: xla.all_to_all %[[X]], split_dim = 0, concat_dim = 0, split_count = 8 : (tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @all_to_all(%x: tensor<8x16xf32>) {
  %0 = xla.all_to_all %x, split_dim = 1, concat_dim = 0, split_count = 4 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<32x4xf32>
  %1 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 2 groups = [[0, 4], [1, 5], [2, 6], [3, 7]] : (tensor<8x16xf32>) -> tensor<4x32xf32>
  %2 = xla.all_to_all %x, split_dim = 0, concat_dim = 0, split_count = 8 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// With mesh axes or groups, pairs are positions within each group; without,
// device ids. Positions that are no target receive zeros.
// CHECK-LABEL: func.func @collective_permute
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK: xla.collective_permute %[[X]], pairs = {{\[}}[0, 1], [1, 2], [2, 3], [3, 0]] mesh_axes = @mesh["data"] : tensor<8x16xf32>
// CHECK: xla.collective_permute %[[X]], pairs = {{\[}}[0, 1]] groups = {{\[}}[0, 1], [2, 3], [4, 5], [6, 7]] : tensor<8x16xf32>
// CHECK: xla.collective_permute %[[X]], pairs = {{\[}}[0, 7], [7, 0]] : tensor<8x16xf32>
// CHECK: xla.collective_permute %[[X]], pairs = [] groups = {{\[}}[0, 1, 2, 3, 4, 5, 6, 7]] : tensor<8x16xf32>
// CHECK: xla.collective_permute %[[X]], pairs = {{\[}}[1, 0]] mesh_axes = @mesh["model"] : tensor<8x16xf32>
func.func @collective_permute(%x: tensor<8x16xf32>) {
  %0 = xla.collective_permute %x, pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] mesh_axes = @mesh["data"] : tensor<8x16xf32>
  %1 = xla.collective_permute %x, pairs = [[0, 1]] groups = [[0, 1], [2, 3], [4, 5], [6, 7]] : tensor<8x16xf32>
  %2 = xla.collective_permute %x, pairs = [[0, 7], [7, 0]] : tensor<8x16xf32>
  %empty = xla.collective_permute %x, pairs = [] groups = [[0, 1, 2, 3, 4, 5, 6, 7]] : tensor<8x16xf32>
  %3 = xla.collective_permute %x, pairs = [[1, 0]] mesh_axes = @mesh["model"] : tensor<8x16xf32>
  return
}

// CHECK-LABEL: func.func @all_slice
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK: xla.all_slice %[[X]], dim = 0 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<2x16xf32>
// CHECK: xla.all_slice %[[X]], dim = 1 mesh_axes = @mesh["model", "data"] : (tensor<8x16xf32>) -> tensor<8x2xf32>
// CHECK: xla.all_slice %[[X]], dim = 1 groups = {{\[}}[0, 1], [2, 3], [4, 5], [6, 7]] : (tensor<8x16xf32>) -> tensor<8x8xf32>
// CHECK: xla.all_slice %[[X]], dim = 0 : (tensor<8x16xf32>) -> tensor<1x16xf32>
func.func @all_slice(%x: tensor<8x16xf32>) {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<2x16xf32>
  %1 = xla.all_slice %x, dim = 1 mesh_axes = @mesh["model", "data"] : (tensor<8x16xf32>) -> tensor<8x2xf32>
  %2 = xla.all_slice %x, dim = 1 groups = [[0, 1], [2, 3], [4, 5], [6, 7]] : (tensor<8x16xf32>) -> tensor<8x8xf32>
  %3 = xla.all_slice %x, dim = 0 : (tensor<8x16xf32>) -> tensor<1x16xf32>
  return
}

// After lowering, `link` records the network a collective travels on.
// CHECK-LABEL: func.func @links
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>)
// CHECK: xla.all_reduce sum %[[X]] mesh_axes = @hybrid["data"] link = dcn : tensor<8x16xf32>
// CHECK: xla.all_gather %[[X]], dim = 0 mesh_axes = @hybrid["fsdp"] link = ici : (tensor<8x16xf32>) -> tensor<32x16xf32>
// CHECK: xla.reduce_scatter sum %[[X]], dim = 0 groups = {{\[}}[0, 1, 2, 3, 4, 5, 6, 7]] link = mixed scale = 5.000000e-01 : (tensor<8x16xf32>) -> tensor<1x16xf32>
// CHECK: xla.all_to_all %[[X]], split_dim = 0, concat_dim = 1, split_count = 8 link = mixed : (tensor<8x16xf32>) -> tensor<1x128xf32>
// CHECK: xla.collective_permute %[[X]], pairs = {{\[}}[0, 1], [1, 0]] mesh_axes = @hybrid["data"] link = dcn : tensor<8x16xf32>
// CHECK: xla.all_slice %[[X]], dim = 0 mesh_axes = @hybrid["data"] link = dcn : (tensor<8x16xf32>) -> tensor<4x16xf32>
func.func @links(%x: tensor<8x16xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @hybrid["data"] link = dcn : tensor<8x16xf32>
  %1 = xla.all_gather %x, dim = 0 mesh_axes = @hybrid["fsdp"] link = ici : (tensor<8x16xf32>) -> tensor<32x16xf32>
  %2 = xla.reduce_scatter sum %x, dim = 0 groups = [[0, 1, 2, 3, 4, 5, 6, 7]] link = mixed scale = 0.5 : (tensor<8x16xf32>) -> tensor<1x16xf32>
  %3 = xla.all_to_all %x, split_dim = 0, concat_dim = 1, split_count = 8 link = mixed : (tensor<8x16xf32>) -> tensor<1x128xf32>
  %4 = xla.collective_permute %x, pairs = [[0, 1], [1, 0]] mesh_axes = @hybrid["data"] link = dcn : tensor<8x16xf32>
  %5 = xla.all_slice %x, dim = 0 mesh_axes = @hybrid["data"] link = dcn : (tensor<8x16xf32>) -> tensor<4x16xf32>
  return
}
