// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s

// Reshapes propagate through compound factors (--xla-annotate-sharding-rules
// shows them), forward and backward.
xla.mesh @mesh = <["x"=4, "y"=2]>

// [8,4] -> [32] = ([i, j])->([ij]): "x" covers 4 of i=8, so dimension 0 of
// the result is split the same way.
// CHECK-LABEL: func.func @merge_keeps_sharding
// CHECK-SAME: -> (tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>})
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}]>
func.func @merge_keeps_sharding(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> tensor<32xf32> {
  %0 = xla.reshape %a : (tensor<8x4xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// [32] -> [4,8] = ([ij])->([i, j]): "x" (4) covers i exactly.
// CHECK-LABEL: func.func @split_shards_major
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
func.func @split_shards_major(%a: tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) -> tensor<4x8xf32> {
  %0 = xla.reshape %a : (tensor<32xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Two axes on a compound dimension: "x" covers i, "y" goes on to j.
// CHECK-LABEL: func.func @split_two_axes
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>
func.func @split_two_axes(%a: tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) -> tensor<4x8xf32> {
  %0 = xla.reshape %a : (tensor<32xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Backward: the result's two axes land on the operand's dimension 0
// (x covers 4 of 8, y the remaining 2).
// CHECK-LABEL: func.func @backward
// CHECK-SAME: %arg0: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}
func.func @backward(%a: tensor<8x4xf32>) -> (tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = xla.reshape %a : (tensor<8x4xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// [32] -> [2,16]: "x" (4) splits into 2 x 2 across the two result
// dimensions: sub-axes "x":(1)2 and "x":(2)2 (Shardy's), no communication.
// CHECK-LABEL: func.func @splits_an_axis
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>
func.func @splits_an_axis(%a: tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) -> tensor<2x16xf32> {
  %0 = xla.reshape %a : (tensor<32xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// And back: the two parts on adjacent factors of one dimension join into
// the whole axis again.
// CHECK-LABEL: func.func @joins_sub_axes
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}]>
func.func @joins_sub_axes(%a: tensor<2x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}) -> tensor<32xf32> {
  %0 = xla.reshape %a : (tensor<2x16xf32>) -> tensor<32xf32>
  return %0 : tensor<32xf32>
}

// A part of an axis on one dimension, and the rest used elsewhere: the
// sub-axis a reshape would create must not overlap what the value holds.
// CHECK-LABEL: func.func @sub_axis_next_to_its_axis
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}, {"y"}]>
func.func @sub_axis_next_to_its_axis(%a: tensor<32x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<2x16x4xf32> {
  %0 = xla.reshape %a : (tensor<32x4xf32>) -> tensor<2x16x4xf32>
  return %0 : tensor<2x16x4xf32>
}

// A non-divisible sharding (6 rows over 4 devices, padded) passes through
// single-factor dimensions but not into a compound one: uneven shards of
// the rows are not contiguous ranges of the flattened tensor.
// CHECK-LABEL: func.func @non_divisible
// CHECK: xla.exp {{.*}}xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{}]>
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{}, {}]>
func.func @non_divisible(%a: tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> tensor<6x4xf32> {
  %0 = xla.exp %a : tensor<6x4xf32>
  %1 = xla.reshape %0 : (tensor<6x4xf32>) -> tensor<24xf32>
  %2 = xla.reshape %0 : (tensor<6x4xf32>) -> tensor<4x6xf32>
  return %0 : tensor<6x4xf32>
}

// [6,4] -> [4,6] shares only a major factor 2 (6 = 2*3, 4 = 2*2): "y" (2)
// passes, the remainders must be replicated.
// CHECK-LABEL: func.func @shared_major_factor
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>
func.func @shared_major_factor(%a: tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>}) -> tensor<4x6xf32> {
  %0 = xla.reshape %a : (tensor<6x4xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// Attention heads: [B, S, H*D] -> [B, S, H, D] and back.
// CHECK-LABEL: func.func @heads
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}, {}, {"x"}, {}]>
// CHECK: xla.transpose {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}, {}, {}]>
// CHECK: xla.transpose {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}, {}, {"x"}, {}]>
// CHECK: xla.reshape {{.*}}xla.sharding = #xla.sharding<@mesh, [{"y"}, {}, {"x"}]>
func.func @heads(%a: tensor<2x16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}, {"x"}]>}) -> tensor<2x16x64xf32> {
  %0 = xla.reshape %a : (tensor<2x16x64xf32>) -> tensor<2x16x8x8xf32>
  %1 = xla.transpose %0, permutation = [0, 2, 1, 3] : (tensor<2x16x8x8xf32>) -> tensor<2x8x16x8xf32>
  %2 = xla.transpose %1, permutation = [0, 2, 1, 3] : (tensor<2x8x16x8xf32>) -> tensor<2x16x8x8xf32>
  %3 = xla.reshape %2 : (tensor<2x16x8x8xf32>) -> tensor<2x16x64xf32>
  return %3 : tensor<2x16x64xf32>
}
