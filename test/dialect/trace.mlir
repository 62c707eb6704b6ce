// Round trip of xla.trace (torch_xla's xp.Trace) and its xla.yield: with
// results, without, nested, and using values defined above.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// CHECK-LABEL: func.func @results
// CHECK-SAME: (%[[X:.*]]: tensor<8x16xf32>, %[[W:.*]]: tensor<16x32xf32>)
// CHECK: %[[R:.*]]:2 = xla.trace "mlp" {
// CHECK:   %[[M:.*]] = xla.matmul %[[X]], %[[W]]
// CHECK:   %[[G:.*]] = xla.gelu %[[M]] : tensor<8x32xf32>
// CHECK:   xla.yield %[[G]], %[[M]] : tensor<8x32xf32>, tensor<8x32xf32>
// CHECK: } : tensor<8x32xf32>, tensor<8x32xf32>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @results(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %r:2 = xla.trace "mlp" {
    %m = xla.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %g = xla.gelu %m : tensor<8x32xf32>
    xla.yield %g, %m : tensor<8x32xf32>, tensor<8x32xf32>
  } : tensor<8x32xf32>, tensor<8x32xf32>
  return %r#0, %r#1 : tensor<8x32xf32>, tensor<8x32xf32>
}

// A kernel (a hand-written kernel such as flash attention); a plain trace
// may sit inside it.
// CHECK-LABEL: func.func @kernel
// CHECK: %[[K:.*]] = xla.trace "flash_attention" kernel {
// CHECK:   xla.trace "scores" {
// CHECK: } : tensor<8x8xf32>
func.func @kernel(%q: tensor<8x16xf32>, %k: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %r = xla.trace "flash_attention" kernel {
    %s = xla.trace "scores" {
      %m = xla.matmul %q, %k : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
      xla.yield %m : tensor<8x8xf32>
    } : tensor<8x8xf32>
    %p = xla.softmax %s, dim = 1 : tensor<8x8xf32>
    xla.yield %p : tensor<8x8xf32>
  } : tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// An empty body and no results: the yield is implicit.
// CHECK-LABEL: func.func @empty
// CHECK: xla.trace "marker" {
// CHECK-NEXT: }
func.func @empty() {
  xla.trace "marker" {
  }
  return
}

// Traces nest, and carry attributes.
// CHECK-LABEL: func.func @nested
// CHECK: xla.trace "step" attributes {note = "outer"} {
// CHECK:   xla.trace "forward" {
// CHECK:     xla.exp
// CHECK:     xla.yield
// CHECK:   } : tensor<4xf32>
// CHECK:   xla.yield
// CHECK: } : tensor<4xf32>
func.func @nested(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla.trace "step" attributes {note = "outer"} {
    %f = xla.trace "forward" {
      %e = xla.exp %x : tensor<4xf32>
      xla.yield %e : tensor<4xf32>
    } : tensor<4xf32>
    xla.yield %f : tensor<4xf32>
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}
