// Collectives whose participants are explicit replica groups (torch_xla's
// `groups`), or all devices when neither groups nor mesh axes are given.
// Inputs as in collectives-mesh.mlir: with [{"x", "y"}] over 8 elements,
// device d holds elements 2d and 2d+1. Expected values worked out by hand.
//
// RUN: xla-run %s --function=all_reduces --input=8xf32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=AR
// RUN: xla-run %s --function=gather_in_group_order --input=8xf32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=AG
// RUN: xla-run %s --function=reduce_scatter --input=16xf64=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 | FileCheck %s --check-prefix=RS
// RUN: xla-run %s --function=all_to_all --input=16xi32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 | FileCheck %s --check-prefix=A2A
// RUN: xla-run %s --function=permutes --input=8xbf16=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=CP
// RUN: xla-run %s --function=all_slice --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=SLICE

xla.mesh @mesh = <["x"=2, "y"=2]>
// Rows r of this mesh hold devices {0, 3} and {1, 2}.
xla.mesh @cross = <["r"=2, "s"=2], devices=[0, 3, 1, 2]>

// Groups [[0, 1], [2, 3]] are the y groups: [4 6] and [12 14]. Groups
// [[0, 2], [1, 3]] are the x groups. Without participants, every device.
// AR: EXEC @all_reduces on 4 devices
// AR: result[0]: 4xf32=4 6 12 14
// AR: result[1]: 4xf32=6 8 10 12
// AR: result[2]: 2xf32=16 20
func.func @all_reduces(%a: tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>},
        tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>},
        tensor<2xf32>) {
  %0 = xla.all_reduce sum %a groups = [[0, 1], [2, 3]] : tensor<2xf32>
  %1 = xla.all_reduce sum %a groups = [[0, 2], [1, 3]] : tensor<2xf32>
  %2 = xla.all_reduce sum %a : tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// Group [3, 0] gathers device 3 then device 0: [7 8 1 2] on devices 0 and
// 3; group [1, 2]: [3 4 5 6] on devices 1 and 2. @cross puts devices 0, 3
// in row 0 and 1, 2 in row 1.
// AG: result[0]: 8xf32=7 8 1 2 3 4 5 6
func.func @gather_in_group_order(%a: tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<4xf32> {xla.sharding = #xla.sharding<@cross, [{"r"}]>}) {
  %0 = xla.all_gather %a, dim = 0 groups = [[3, 0], [1, 2]] : (tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Groups [[0, 1], [2, 3]] as in the mesh-axis form: [6 8 | 10 12 | 22 24 |
// 26 28].
// RS: result[0]: 8xf64=6 8 10 12 22 24 26 28
func.func @reduce_scatter(%a: tensor<4xf64> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<2xf64> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = xla.reduce_scatter sum %a, dim = 0 groups = [[0, 1], [2, 3]] : (tensor<4xf64>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// All four devices (no participants), split count 4: device p receives
// element p of every device, in device order.
// A2A: result[0]: 16xi32=1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 16
func.func @all_to_all(%a: tensor<4xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<4xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = xla.all_to_all %a, split_dim = 0, concat_dim = 0, split_count = 4 : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Pairs are positions within each group: swap in [[0, 1], [2, 3]]. Without
// participants they are device ids: 0 <-> 3; devices 1 and 2 get zeros.
// CP: result[0]: 8xbf16=3 4 1 2 7 8 5 6
// CP: result[1]: 8xbf16=7 8 0 0 0 0 1 2
func.func @permutes(%a: tensor<2xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<2xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
        tensor<2xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = xla.collective_permute %a, pairs = [[0, 1], [1, 0]] groups = [[0, 1], [2, 3]] : tensor<2xbf16>
  %1 = xla.collective_permute %a, pairs = [[0, 3], [3, 0]] : tensor<2xbf16>
  return %0, %1 : tensor<2xbf16>, tensor<2xbf16>
}

// Groups [[0, 2], [1, 3]] (the x groups): position = x.
// SLICE: result[0]: 4xf32=1 2 3 4
func.func @all_slice(%a: tensor<4xf32>) -> (tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) {
  %0 = xla.all_slice %a, dim = 0 groups = [[0, 2], [1, 3]] : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
