// --check on 2 devices: non-divisible dims (padded blocks) and partial
// results.
//
// RUN: xla-run %s --function=relu_padded --reference-function=relu_reference --check --input=5xf32=-1,2,-3,4,5 | FileCheck %s --check-prefix=PAD
// RUN: xla-run %s --function=partial_matmul --reference-function=matmul_reference --check | FileCheck %s --check-prefix=PARTIAL
// RUN: not xla-run %s --function=relu_padded --reference-function=relu_wide --check 2>&1 | FileCheck %s --check-prefix=BLOCKS

xla.mesh @pair = <["x"=2]>

// 5 elements over 2 devices: blocks of ceil(5/2) = 3, the last one padded.
// PAD: EXEC @relu_padded on 2 devices
// PAD: result[0]: 5xf32=0 2 0 4 5
// PAD: [check] result[0]: 5xf32 max abs error 0, max rel error 0
// PAD: [SUCCESS]
func.func @relu_padded(%a: tensor<3xf32> {xla.sharding = #xla.sharding<@pair, [{"x"}]>})
    -> (tensor<3xf32> {xla.sharding = #xla.sharding<@pair, [{"x"}]>}) {
  %p = xla.partition_id : tensor<i32>
  %0 = xla.relu %a : tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func @relu_reference(%a: tensor<5xf32>) -> tensor<5xf32> {
  %0 = xla.relu %a : tensor<5xf32>
  return %0 : tensor<5xf32>
}

// The contraction dim is split: each device returns a partial sum, which
// the result's partial sharding folds.
// PARTIAL: EXEC @partial_matmul on 2 devices
// PARTIAL: [check] result[0]: 3x2xf32 {{.*}}: ok
// PARTIAL: [SUCCESS]
func.func @partial_matmul(%a: tensor<3x2xf32> {xla.sharding = #xla.sharding<@pair, [{}, {"x"}]>},
                          %b: tensor<2x2xf32> {xla.sharding = #xla.sharding<@pair, [{"x"}, {}]>})
    -> (tensor<3x2xf32> {xla.sharding = #xla.sharding<@pair, [{}, {}], partial={"x"}>}) {
  %p = xla.partition_id : tensor<i32>
  %0 = xla.matmul %a, %b : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

func.func @matmul_reference(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> tensor<3x2xf32> {
  %0 = xla.matmul %a, %b : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// A reference of 8 elements splits into blocks of 4, not 3.
// BLOCKS: xla-run: error: argument 0: the reference's 8xf32 splits into blocks of 4xf32 but the function takes 3xf32
func.func @relu_wide(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = xla.relu %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}
