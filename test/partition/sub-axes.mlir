// Sub-axes through partitioning: --xla-partition first refines each mesh
// whose axes are used in parts into those parts (same devices, in the same
// order; on a hybrid mesh the DCN part stays major), so collectives name
// exactly the part of an axis they need.

// RUN: xla-opt %s -split-input-file --xla-outline-manual-computations --xla-propagate-sharding --xla-partition | FileCheck %s

// [32, 8] rows over "x" (2 slices x 2 chips) reshaped to [2, 16, 8] and
// summed over the 16: the reshape keeps the rows split (the slice index on
// the 2, the chip index on the 16) and the sum is pending over the ICI part
// only: one all-reduce inside each slice, nothing over DCN.
// CHECK: xla.mesh @mesh = hybrid<ici=["x:(1)2"=1, "x:(2)2"=2, "y"=2], dcn=["x:(1)2"=2, "x:(2)2"=1, "y"=1]>
// CHECK-LABEL: func.func @sum_over_the_ici_part
// CHECK-SAME: tensor<8x4xf32> {{.*}}#xla.sharding<@mesh, [{"x":(1)2, "x":(2)2}, {"y"}]>
// CHECK-SAME: -> (tensor<1x4xf32> {{.*}}#xla.sharding<@mesh, [{"x":(1)2}, {"y"}]>
// CHECK: xla.reshape {{.*}} : (tensor<8x4xf32>) -> tensor<1x8x4xf32>
// CHECK: xla.reduce sum
// CHECK: xla.all_reduce sum %{{.*}} mesh_axes = @mesh["x:(2)2"] : tensor<1x4xf32>
// CHECK-NOT: xla.all_
xla.mesh @mesh = hybrid<ici=["x"=2, "y"=2], dcn=["x"=2, "y"=1]>
func.func @sum_over_the_ici_part(%a: tensor<32x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<2x8xf32> {
  %r = xla.reshape %a : (tensor<32x8xf32>) -> tensor<2x16x8xf32>
  %s = xla.reduce sum %r, dims = [1] : (tensor<2x16x8xf32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// -----

// A user's sub-axis on an argument and a whole-axis result: the
// refinement rewrites both over the parts, and the reshard gathers only the
// missing part ("x":(2)4 of "x"=8).
// CHECK: xla.mesh @mesh = <["x:(1)2"=2, "x:(2)4"=4]>
// CHECK-LABEL: func.func @gather_the_missing_part
// CHECK-SAME: tensor<8x16xf32> {{.*}}#xla.sharding<@mesh, [{"x":(1)2}, {}]>
// CHECK: xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x:(2)4"]
// CHECK-NOT: xla.all_
xla.mesh @mesh = <["x"=8]>
func.func @gather_the_missing_part(%a: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {}]>}) {
  return %a : tensor<16x16xf32>
}

// -----

// Collectives a user wrote (in a manual region) over a whole axis follow
// the refinement: they name every part of it.
// CHECK: xla.mesh @mesh = <["x:(1)2"=2, "x:(2)2"=2]>
// CHECK-LABEL: func.func @user_collective
// CHECK: xla.all_reduce sum %{{.*}} mesh_axes = @mesh["x:(1)2", "x:(2)2"]
xla.mesh @mesh = <["x"=4]>
func.func @user_collective(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)2}]>}) -> tensor<8x4xf32> {
  %l = xla.full_to_shard %a <@mesh, [{}, {"x"}]> : tensor<8x4xf32> -> tensor<8x1xf32>
  %r = xla.all_reduce sum %l mesh_axes = @mesh["x"] : tensor<8x1xf32>
  %g = xla.shard_to_full %r <@mesh, [{}, {"x"}]> : tensor<8x1xf32> -> tensor<8x4xf32>
  return %g : tensor<8x4xf32>
}
