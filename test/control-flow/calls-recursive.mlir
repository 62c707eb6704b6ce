// The simulator inlines calls as it compiles; a recursive call has no end
// there and is refused with a located error.
// RUN: not xla-run %s --function=recursive --seed=1 2>&1 | FileCheck %s
// CHECK: error: 'func.call' op calls @recursive recursively; the simulator inlines calls
func.func @recursive(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = call @recursive(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
