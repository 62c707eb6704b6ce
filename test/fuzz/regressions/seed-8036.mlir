// Differential fuzzing (test/fuzz/fuzz.py), seed 8036: pipeline-error
// before the fix: error: operand #0 does not dominate this use
// The all-reduce combiner combined two groups that cross ("x": x2 needs a
// "y" result, "y": y2 needs an "x" result): after the "x" group was one
// all_reduce, the "y" group depended on itself. Members that depend on an
// earlier member once earlier groups are combined now stay apart.
// RUN: xla-opt %s --xla-spmd-pipeline -o /dev/null
// RUN: xla-run %s --check --seed=8036 | FileCheck %s
// CHECK: [SUCCESS]

xla.mesh @mesh = <["x"=4, "y"=2, "z"=1]>
func.func @main(%arg0: tensor<7x4x1xf32>, %arg1: tensor<1x4x6xi64>, %arg2: tensor<7x4x1xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}, {"x"}]>}, %arg3: tensor<7x4x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"y", ?}p0, {}, {}], partial={"x"}>}, %arg4: tensor<4x7x2xf32>, %arg5: tensor<1x1x2xf32>, %arg6: tensor<i32>, %arg7: tensor<i32> {xla.sharding = #xla.sharding<@mesh, [], partial<or>={"y"}>}, %arg8: tensor<1x2x5xf32> {xla.sharding = #xla.sharding<@mesh, [{0, ?}, {}, {}]>}, %arg9: tensor<i64>, %arg10: tensor<i32>, %arg11: tensor<7x1xf32> {xla.sharding = #xla.sharding<@mesh, [{?}, {}]>}) -> (tensor<1x4x5xf32>, tensor<4xf32>, tensor<4x7x2xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {1}p0, {0, 2}p0]>}, tensor<1x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"y", "z"}, {"x"}]>}, tensor<1x1x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {"y"}]>}) {
  %v1 = xla.min %arg0, %arg2 : tensor<7x4x1xf32>
  %v2 = xla.transpose %arg0, permutation = [1, 2, 0] : (tensor<7x4x1xf32>) -> tensor<4x1x7xf32>
  %v3 = xla.einsum "abc,ced->bad" %v2, %arg3 : (tensor<4x1x7xf32>, tensor<7x4x5xf32>) -> tensor<1x4x5xf32>
  %v4 = xla.sub %v1, %v1 : tensor<7x4x1xf32>
  %v5 = xla.matmul %v2, %arg4 : (tensor<4x1x7xf32>, tensor<4x7x2xf32>) -> tensor<4x1x2xf32>
  %v6 = xla.transpose %v4, permutation = [1, 2, 0] : (tensor<7x4x1xf32>) -> tensor<4x1x7xf32>
  %v7 = xla.reduce sum %v5, dims = [2] : (tensor<4x1x2xf32>) -> tensor<4x1xf32>
  %v8 = xla.constant dense<7> : tensor<i32>
  %v9 = xla.dynamic_update_slice %v2, %arg5[%arg6, %arg6, %v8] : (tensor<4x1x7xf32>, tensor<1x1x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4x1x7xf32>
  %v10 = xla.slice %v9, start = [1, 0, 0], limit = [2, 1, 6], strides = [2, 1, 1] : (tensor<4x1x7xf32>) -> tensor<1x1x6xf32>
  %v11 = xla.mul %arg6, %arg7 : tensor<i32>
  %v12 = xla.dynamic_update_slice %v3, %arg8[%arg9, %arg10, %v11] : (tensor<1x4x5xf32>, tensor<1x2x5xf32>, tensor<i64>, tensor<i32>, tensor<i32>) -> tensor<1x4x5xf32>
  %v13 = xla.mark_sharding %v7 <@mesh, [{?}, {"x", ?}]> : tensor<4x1xf32>
  %v14 = xla.reshape %v13 : (tensor<4x1xf32>) -> tensor<4xf32>
  %v15 = xla.exp %arg4 : tensor<4x7x2xf32>
  %v16 = xla.dot_general %v6, %arg11, batch = [1] x [1], contract = [2] x [0] : (tensor<4x1x7xf32>, tensor<7x1xf32>) -> tensor<1x4xf32>
  return %v12, %v14, %v15, %v16, %v10 : tensor<1x4x5xf32>, tensor<4xf32>, tensor<4x7x2xf32>, tensor<1x4xf32>, tensor<1x1x6xf32>
}

