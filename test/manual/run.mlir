// Manual regions run end to end: the partitioned program is checked against
// the program's own meaning (the manual regions run as written, everything
// else placed only as they need), whatever the user's shardings outside.
// RUN: xla-run %s --function=lse --check --seed=1 | FileCheck %s --check-prefix=LSE
// RUN: xla-run %s --function=ring --check --seed=2 | FileCheck %s --check-prefix=RING
// RUN: xla-run %s --function=uneven --check --seed=3 | FileCheck %s --check-prefix=UNEVEN

xla.mesh @mesh = <["data"=2, "model"=2]>

// LSE: PARTITIONED @lse into @lse.spmd: 1 all_reduce
// LSE: [check] result[0]: 8xf32 {{.*}}: ok
func.func @lse(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>}) -> tensor<8xf32> {
  %e = xla.exp %x : tensor<8x16xf32>
  %l = xla.full_to_shard %e <@mesh, [{"data"}, {"model"}]> : tensor<8x16xf32> -> tensor<4x8xf32>
  %s = xla.reduce sum %l, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
  %all = xla.all_reduce sum %s mesh_axes = @mesh["model"] : tensor<4xf32>
  %g = xla.shard_to_full %all <@mesh, [{"data"}]> : tensor<4xf32> -> tensor<8xf32>
  %r = xla.log %g : tensor<8xf32>
  return %r : tensor<8xf32>
}

// A hand-written ring step: each device passes its block to the next along
// "data" and adds its own; the result is sharded differently from what the
// user asked for the argument and the result.
// RING: [check] result[0]: 8x4xf32 {{.*}}: ok
func.func @ring(%x: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"data"}]>})
    -> (tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %r = xla.manual_computation (%l = %x : tensor<4x4xf32>)
      in_shardings = [<@mesh, [{"data"}, {}]>]
      out_shardings = [<@mesh, [{"data"}, {}]>] {
    %p = xla.collective_permute %l, pairs = [[0, 2], [2, 0], [1, 3], [3, 1]] : tensor<4x4xf32>
    %s = xla.add %l, %p : tensor<4x4xf32>
    xla.yield %s : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %t = xla.tanh %r : tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// Uneven blocks: 7 rows over 2 devices are blocks of 4, the last padded.
// UNEVEN: [check] result[0]: 7x3xf32 {{.*}}: ok
func.func @uneven(%x: tensor<7x3xf32>) -> tensor<7x3xf32> {
  %l = xla.full_to_shard %x <@mesh, [{"data"}, {}]> : tensor<7x3xf32> -> tensor<4x3xf32>
  %m = xla.mul %l, %l : tensor<4x3xf32>
  %g = xla.shard_to_full %m <@mesh, [{"data"}, {}]> : tensor<4x3xf32> -> tensor<7x3xf32>
  return %g : tensor<7x3xf32>
}
