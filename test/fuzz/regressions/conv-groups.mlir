// Differential fuzzing (test/fuzz/fuzz.py), seeds 999, 1353, 1412, 1654:
// pipeline-error before the fix:
//   error: feature_groups 0 must divide the input channels (1) and the output features (1)
//   error: kernel input features (1) times feature_groups (1) must equal the input channels (2)
// The partitioner split the group factor of a grouped convolution into more
// shards than groups (or into shards that do not divide them), leaving
// fewer than one group per device. That factor is now split only when its
// shards divide the group count.
// RUN: xla-opt %s --xla-spmd-pipeline -o /dev/null
// RUN: xla-run %s --function=three_groups --check --seed=999 | FileCheck %s
// RUN: xla-run %s --function=one_group --check --seed=1412 | FileCheck %s
// RUN: xla-run %s --function=three_groups_two_shards --check --seed=1412 | FileCheck %s
// RUN: xla-run %s --function=one_feature --check --seed=2078 | FileCheck %s
// RUN: xla-run %s --function=four_groups --check --seed=7 | FileCheck %s
// CHECK: [SUCCESS]

xla.mesh @mesh = <["a"=4, "b"=2]>

// Three groups over "a" (4 shards): the groups stay whole.
func.func @three_groups(%x: tensor<2x4x3xf64>, %k: tensor<2x1x3xf64>)
    -> (tensor<2x3x3xf64> {xla.sharding = #xla.sharding<@mesh, [{"b"}, {}, {"a"}]>}) {
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1], feature_groups = 3 : (tensor<2x4x3xf64>, tensor<2x1x3xf64>) -> tensor<2x3x3xf64>
  return %0 : tensor<2x3x3xf64>
}

// One group (no group factor): the output features split freely.
func.func @one_group(%x: tensor<1x5x2xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"b"}]>}, %k: tensor<2x2x4xf32>)
    -> (tensor<1x4x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"a", "b"}]>}) {
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<1x5x2xf32>, tensor<2x2x4xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}

// Three groups over "b" (2 shards): feature_groups 3 over 2 devices.
func.func @three_groups_two_shards(%x: tensor<3x2x3x3xi32>, %k: tensor<1x3x1x3xi32>)
    -> (tensor<3x2x4x3xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {}, {"b"}]>}) {
  %0 = xla.convolution %x, %k, strides = [2, 2], padding = [[1, 0], [2, 2]], lhs_dilation = [2, 2], rhs_dilation = [1, 1], feature_groups = 3 : (tensor<3x2x3x3xi32>, tensor<1x3x1x3xi32>) -> tensor<3x2x4x3xi32>
  return %0 : tensor<3x2x4x3xi32>
}

// One output feature and one group: no factor of size > 1 in the features
// (the first version of the fix crashed here).
func.func @one_feature(%x: tensor<1x2x5xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"a"}]>}, %k: tensor<3x5x1xf32>)
    -> (tensor<1x1x1xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"b"}]>}) {
  %0 = xla.convolution %x, %k, strides = [2], padding = [[0, 2]], lhs_dilation = [1], rhs_dilation = [1] : (tensor<1x2x5xf32>, tensor<3x5x1xf32>) -> tensor<1x1x1xf32>
  return %0 : tensor<1x1x1xf32>
}

// Four groups over "a" (4 shards) divide evenly and are still split.
// SPLIT-LABEL: func.func @four_groups
// SPLIT: xla.convolution %arg0, %arg1, {{.*}} : (tensor<2x4x1xf32>, tensor<2x1x2xf32>) -> tensor<2x3x2xf32>
// RUN: xla-opt %s --xla-spmd-pipeline | FileCheck %s --check-prefix=SPLIT
func.func @four_groups(%x: tensor<2x4x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"a"}]>}, %k: tensor<2x1x8xf32>)
    -> (tensor<2x3x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"a"}]>}) {
  %0 = xla.convolution %x, %k, strides = [1], padding = [[0, 0]], lhs_dilation = [1], rhs_dilation = [1], feature_groups = 4 : (tensor<2x4x4xf32>, tensor<2x1x8xf32>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}
