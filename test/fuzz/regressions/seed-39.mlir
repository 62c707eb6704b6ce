// Differential fuzzing (test/fuzz/fuzz.py), seed 39: mismatch
// before the fix: [FAILED] result[0]: element at index 0 (-0.76255995) does not match the expected (-0.8228592) (1 mismatching)
// A dynamic_update_slice whose operand was split along a dimension the
// update covers only partly wrote the update at the global offset into every
// device's block. Each device now writes the part of the update that falls
// in its block (passes/partition/DynamicUpdate.cpp).
// RUN: xla-opt %s --xla-spmd-pipeline -o /dev/null
// RUN: xla-run %s --check --seed=39 | FileCheck %s
// RUN: xla-run %s --check --input=1x1x2x1xf32=1,2 --input=1x1x2x1xf32=10,20 --input=1x1x1x1xf32=100 --input=i32=1 | FileCheck %s --check-prefix=VALUES
// CHECK: [SUCCESS]
// VALUES: result[0]: 1x1x2x1xf32={{\[\[\[9\]\[100\]\]\]}}
// VALUES: [SUCCESS]

xla.mesh @mesh = <["x"=1, "y"=2]>
func.func @main(%arg0: tensor<1x1x2x1xf32>, %arg1: tensor<1x1x2x1xf32>, %arg2: tensor<1x1x1x1xf32>, %arg3: tensor<i32>) -> (tensor<1x1x2x1xf32>) {
  %v1 = xla.neg %arg0 {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"y"}, {}]>} : tensor<1x1x2x1xf32>
  %v2 = xla.add %v1, %arg1 : tensor<1x1x2x1xf32>
  %v3 = xla.dynamic_update_slice %v2, %arg2[%arg3, %arg3, %arg3, %arg3] : (tensor<1x1x2x1xf32>, tensor<1x1x1x1xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x1xf32>
  return %v3 : tensor<1x1x2x1xf32>
}
