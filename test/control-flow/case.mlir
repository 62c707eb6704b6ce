// RUN: xla-opt %s | FileCheck %s
// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @indexed
// CHECK: %[[R:.*]] = xla.case %arg0 : tensor<i32> -> tensor<8xf32> {
// CHECK-NEXT: %[[N:.*]] = xla.neg %arg1 : tensor<8xf32>
// CHECK-NEXT: xla.yield %[[N]] : tensor<8xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[E:.*]] = xla.exp %arg1 : tensor<8xf32>
// CHECK-NEXT: xla.yield %[[E]] : tensor<8xf32>
// CHECK-NEXT: }, {
// CHECK-NEXT: xla.yield %arg1 : tensor<8xf32>
// CHECK-NEXT: }
func.func @indexed(%i: tensor<i32>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %r = xla.case %i : tensor<i32> -> tensor<8xf32> {
    %n = xla.neg %x : tensor<8xf32>
    xla.yield %n : tensor<8xf32>
  }, {
    %e = xla.exp %x : tensor<8xf32>
    xla.yield %e : tensor<8xf32>
  }, {
    xla.yield %x : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// CHECK-LABEL: func.func @predicated
// CHECK: xla.case %arg0 : tensor<i1> -> tensor<8xf32>, tensor<i32> attributes {note = 1 : i64} {
func.func @predicated(%p: tensor<i1>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %r:2 = xla.case %p : tensor<i1> -> tensor<8xf32>, tensor<i32> attributes {note = 1} {
    %c = xla.constant dense<0> : tensor<i32>
    xla.yield %x, %c : tensor<8xf32>, tensor<i32>
  }, {
    %n = xla.neg %x : tensor<8xf32>
    %c = xla.constant dense<1> : tensor<i32>
    xla.yield %n, %c : tensor<8xf32>, tensor<i32>
  }
  return %r#0 : tensor<8xf32>
}

// CHECK-LABEL: func.func @no_results
// CHECK: xla.case %arg0 : tensor<i32> {
func.func @no_results(%i: tensor<i32>) {
  xla.case %i : tensor<i32> {
    xla.yield
  }
  return
}
