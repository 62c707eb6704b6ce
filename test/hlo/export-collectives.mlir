// User collectives in a manual region export to HLO collectives over
// device-id replica groups (from mesh axes), with channel ids; an
// all_to_all whose split and concat dimensions differ becomes reshape,
// transpose, HLO's all-to-all and back. The exported module computes the
// same values.
// RUN: xla-translate --export-hlo %s | FileCheck %s
// RUN: rm -rf %t && mkdir %t
// RUN: xla-run %s --seed=5 --output=@%t/y.npy > /dev/null
// RUN: xla-translate --export-hlo %s -o %t/exported.hlo
// RUN: xla-run %t/exported.hlo --seed=5 --expected_output=@%t/y.npy | FileCheck %s --check-prefix=SAME
// RUN: xla-run %t/exported.hlo --check | FileCheck %s --check-prefix=SAME
// RUN: xla-translate --import-hlo %t/exported.hlo | FileCheck %s --check-prefix=BACK

// CHECK: HloModule collectives, num_partitions=4
// CHECK: custom-call(%Arg), custom_call_target="Sharding", sharding={devices=[2,2]0,1,2,3}
// CHECK: custom_call_target="SPMDFullToShardShape", sharding={manual}
// CHECK: f32[2,2,4] reshape(
// CHECK-NEXT: all-to-all({{.*}}), channel_id=1, replica_groups={{[{][{]}}0,2},{1,3}}, use_global_device_ids=true, dimensions={0}
// CHECK-NEXT: f32[2,2,4] transpose({{.*}}), dimensions={1,0,2}
// CHECK-NEXT: f32[2,8] reshape(
// CHECK: all-reduce({{.*}}), channel_id=2, replica_groups={{[{][{]}}0,1},{2,3}}, use_global_device_ids=true, to_apply=%add_f32
// CHECK: multiply({{.*}})
// CHECK: collective-permute({{.*}}), channel_id=3, source_target_pairs={{[{][{]}}0,1},{1,0},{2,3},{3,2}}
// CHECK: all-gather({{.*}}), channel_id=4, replica_groups={{[{][{]}}0,2},{1,3}}, use_global_device_ids=true, dimensions={1}
// CHECK: custom_call_target="SPMDShardToFullShape", sharding={devices=[2,2]0,1,2,3}

// SAME: [SUCCESS]

// BACK: xla.all_to_all %{{.*}}, split_dim = 0, concat_dim = 0, split_count = 2 groups = {{\[}}[0, 2], [1, 3]]
// BACK: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1], [2, 3]]
// BACK: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 1], [1, 0], [2, 3], [3, 2]]

module @collectives {
  xla.mesh @mesh = <["x"=2, "y"=2]>
  func.func @main(%a: tensor<8x8xf32>) -> tensor<8x16xf32> {
    %l = xla.full_to_shard %a <@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32> -> tensor<4x4xf32>
    %t = xla.all_to_all %l, split_dim = 0, concat_dim = 1, split_count = 2 mesh_axes = @mesh["x"]
        : (tensor<4x4xf32>) -> tensor<2x8xf32>
    %r = xla.all_reduce sum %t mesh_axes = @mesh["y"] scale = 0.5 : tensor<2x8xf32>
    %p = xla.collective_permute %r, pairs = [[0, 1], [1, 0]] mesh_axes = @mesh["y"] : tensor<2x8xf32>
    %s = xla.add %r, %p : tensor<2x8xf32>
    %g = xla.all_gather %s, dim = 1 mesh_axes = @mesh["x"] : (tensor<2x8xf32>) -> tensor<2x16xf32>
    %f = xla.shard_to_full %g <@mesh, [{"x"}, {"y"}]> : tensor<2x16xf32> -> tensor<4x32xf32>
    %c = xla.slice %f, start = [0, 0], limit = [4, 16], strides = [1, 1] : (tensor<4x32xf32>) -> tensor<4x16xf32>
    %d = xla.concatenate %c, %c, dim = 0 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
    return %d : tensor<8x16xf32>
  }
}
