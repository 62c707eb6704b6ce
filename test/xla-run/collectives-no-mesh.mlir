// A module without a mesh: collectives naming no participants span every
// device of the run, which --devices sets (default: 1 device, where each
// collective is the identity); shapes must fit that group size.
//
// RUN: xla-run %s --function=gather_all --devices=4 --input=2xf32=1,2 | FileCheck %s --check-prefix=FOUR
// RUN: not xla-run %s --function=gather_all --devices=2 --input=2xf32=1,2 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: xla-run %s --function=sum_all --input=2xf32=1,2 | FileCheck %s --check-prefix=ONE
// RUN: xla-run %s --function=sum_all --devices=3 --input=2xf32=1,2 | FileCheck %s --check-prefix=THREE
// RUN: xla-run %s --function=sum_groups --input=2xi32=1,2 | FileCheck %s --check-prefix=GROUPS
// RUN: not xla-run %s --function=sum_groups --devices=2 --input=2xi32=1,2 2>&1 | FileCheck %s --check-prefix=GROUPCOUNT

// FOUR: EXEC @gather_all on 4 devices
// FOUR: result[0]: 8xf32=1 2 1 2 1 2 1 2
// TWO: collectives-no-mesh.mlir:[[@LINE+3]]:8: error: 'xla.all_gather' op with groups of 2 devices its result must be 4xf32, not 8xf32
func.func @gather_all(%a: tensor<2xf32>) -> tensor<8xf32> {
  %p = xla.partition_id : tensor<i32>
  %0 = xla.all_gather %a, dim = 0 : (tensor<2xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// ONE: EXEC @sum_all on 1 device
// ONE: result[0]: 2xf32=1 2
// THREE: EXEC @sum_all on 3 devices
// THREE: result[0]: 2xf32=3 6
func.func @sum_all(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.all_reduce sum %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Replica groups decide the device count (6) without a mesh.
// GROUPS: EXEC @sum_groups on 6 devices
// GROUPS: result[0]: 2xi32=3 6
// GROUPCOUNT: xla-run: error: --devices=2 does not match the replica groups of @sum_groups, which list 6 devices
func.func @sum_groups(%a: tensor<2xi32>) -> tensor<2xi32> {
  %0 = xla.all_reduce sum %a groups = [[0, 1, 2], [3, 4, 5]] : tensor<2xi32>
  return %0 : tensor<2xi32>
}
