// Round trip of the per-device form --xla-lower-to-device produces: device
// tables, an entry that dispatches to bodies, and the bodies' device lists.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -
// RUN: xla-opt %s --xla-annotate-sharding-rules | FileCheck %s --check-prefix=RULE

xla.mesh @mesh = <["data"=2, "model"=2]>

// CHECK-LABEL: func.func @tables
// CHECK: xla.device_table [0, 0, 1, 1] : tensor<i32>
// CHECK: xla.device_table [0, 1, 0, 1] : tensor<i64>
// CHECK: xla.device_table [1, 0, 0, 0] : tensor<i1>
// CHECK: xla.device_table [-128, 0, 5, 127] : tensor<i8>
// RULE: xla.device_table [0, 0, 1, 1] {xla.sharding_rule = #xla.op_sharding_rule<()->([]) {}>} : tensor<i32>
func.func @tables() -> (tensor<i32>, tensor<i64>, tensor<i1>, tensor<i8>) {
  %0 = xla.device_table [0, 0, 1, 1] : tensor<i32>
  %1 = xla.device_table [0, 1, 0, 1] : tensor<i64>
  %2 = xla.device_table [1, 0, 0, 0] : tensor<i1>
  %3 = xla.device_table [-128, 0, 5, 127] : tensor<i8>
  return %0, %1, %2, %3 : tensor<i32>, tensor<i64>, tensor<i1>, tensor<i8>
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %[[Y:.*]]: tensor<8xi32>)
// CHECK: %[[R:.*]]:2 = xla.dispatch [@main.body0, @main.body1](%[[X]], %[[Y]]) : (tensor<2x8xf32>, tensor<8xi32>) -> (tensor<2x8xf32>, tensor<8xi32>)
// CHECK: return %[[R]]#0, %[[R]]#1
// RULE: xla.dispatch {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [k])->([l, m], [n]) {i=2, j=8, k=8, l=2, m=8, n=8} need_replication={i, j, k, l, m, n}>
func.func @main(%x: tensor<2x8xf32>, %y: tensor<8xi32>) -> (tensor<2x8xf32>, tensor<8xi32>) {
  %0:2 = xla.dispatch [@main.body0, @main.body1](%x, %y) : (tensor<2x8xf32>, tensor<8xi32>) -> (tensor<2x8xf32>, tensor<8xi32>)
  return %0#0, %0#1 : tensor<2x8xf32>, tensor<8xi32>
}

// CHECK-LABEL: func.func private @main.body0
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 3>}
// CHECK: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1], [2, 3]] link = ici : tensor<2x8xf32>
func.func private @main.body0(%x: tensor<2x8xf32>, %y: tensor<8xi32>) -> (tensor<2x8xf32>, tensor<8xi32>) attributes {xla.devices = array<i64: 0, 3>} {
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, 3]] link = ici : tensor<2x8xf32>
  return %0, %y : tensor<2x8xf32>, tensor<8xi32>
}

// CHECK-LABEL: func.func private @main.body1
// CHECK-SAME: attributes {xla.devices = array<i64: 1, 2>}
// CHECK: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1], [2, 3]] link = dcn : tensor<2x8xf32>
func.func private @main.body1(%x: tensor<2x8xf32>, %y: tensor<8xi32>) -> (tensor<2x8xf32>, tensor<8xi32>) attributes {xla.devices = array<i64: 1, 2>} {
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, 3]] link = dcn : tensor<2x8xf32>
  return %0, %y : tensor<2x8xf32>, tensor<8xi32>
}
