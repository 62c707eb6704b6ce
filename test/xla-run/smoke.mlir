// Runs a function on one device and prints its result in iree-run-module's
// syntax.
// RUN: xla-run %s --input=2x3xf32=1,2,3,4,5,6 --input="2x3xf32=[[1 1 1][2 2 2]]" | FileCheck %s

// CHECK: EXEC @main on 1 device
// CHECK-NEXT: result[0]: 2x3xf32=[2 6 12][24 35 48]
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = xla.add %a, %b : tensor<2x3xf32>
  %1 = xla.mul %0, %a : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
