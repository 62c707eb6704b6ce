// RUN: xla-opt %s | FileCheck %s
// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s

// CHECK-LABEL: func.func @counted
// CHECK: %[[R:.*]]:2 = xla.while (%[[I:.*]] = %{{.*}}, %[[X:.*]] = %arg0) : tensor<i32>, tensor<8x16xf32>
// CHECK-SAME: cond {
// CHECK-NEXT: %[[MORE:.*]] = xla.compare lt, %[[I]], %{{.*}} : tensor<i32>
// CHECK-NEXT: xla.yield %[[MORE]] : tensor<i1>
// CHECK-NEXT: } do {
// CHECK-NEXT: %[[Y:.*]] = xla.matmul %[[X]], %arg1
// CHECK-NEXT: %[[NEXT:.*]] = xla.add %[[I]], %{{.*}} : tensor<i32>
// CHECK-NEXT: xla.yield %[[NEXT]], %[[Y]] : tensor<i32>, tensor<8x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#1
func.func @counted(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %trips = xla.constant dense<3> : tensor<i32>
  %r:2 = xla.while (%i = %zero, %acc = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %more = xla.compare lt, %i, %trips : tensor<i32>
    xla.yield %more : tensor<i1>
  } do {
    %y = xla.matmul %acc, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %y : tensor<i32>, tensor<8x16xf32>
  }
  return %r#1 : tensor<8x16xf32>
}

// Attributes (here the shardings propagation writes) follow the types.
// CHECK-LABEL: func.func @attributed
// CHECK: xla.while (%{{.*}} = %arg0) : tensor<4xi1> attributes {note = "kept"} cond {
func.func @attributed(%p: tensor<4xi1>) -> tensor<4xi1> {
  %r = xla.while (%q = %p) : tensor<4xi1> attributes {note = "kept"} cond {
    %c = xla.constant dense<false> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    %n = xla.not %q : tensor<4xi1>
    xla.yield %n : tensor<4xi1>
  }
  return %r : tensor<4xi1>
}

// A loop without carried values.
// CHECK-LABEL: func.func @nothing_carried
// CHECK: xla.while () cond {
func.func @nothing_carried() {
  xla.while () cond {
    %c = xla.constant dense<false> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    xla.yield
  }
  return
}

// xla.trace still takes xla.yield.
// CHECK-LABEL: func.func @trace_in_body
// CHECK: xla.trace "step"
func.func @trace_in_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla.while (%a = %x) : tensor<4xf32> cond {
    %c = xla.constant dense<false> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    %t = xla.trace "step" {
      %n = xla.neg %a : tensor<4xf32>
      xla.yield %n : tensor<4xf32>
    } : tensor<4xf32>
    xla.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
