// xla.case end to end: shardings flow from the branches to the results,
// each branch is partitioned with its own collectives, and the simulator
// runs (and times) the branch taken.
//
// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s --check-prefix=PROP
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s --check-prefix=PART
// RUN: xla-run %s --function=pick --input=i32=0 --seed=3 --check --timing | FileCheck %s --check-prefix=BRANCH0
// RUN: xla-run %s --function=pick --input=i32=1 --seed=3 --check --timing | FileCheck %s --check-prefix=BRANCH1
// RUN: xla-run %s --function=pick --input=i32=7 --seed=3 --check --timing | FileCheck %s --check-prefix=BRANCH1
// RUN: xla-run %s --function=pick --input=i32=-1 --seed=3 --check | FileCheck %s --check-prefix=CHECKED
// RUN: xla-run %s --function=sign_test --check --seed=2 | FileCheck %s --check-prefixes=CHECKED,SEED2
// RUN: xla-run %s --function=sign_test --check --seed=3 | FileCheck %s --check-prefixes=CHECKED,SEED3

xla.mesh @mesh = <["data"=2, "model"=2]>

// Branch 0 multiplies by a weight split by rows over model (a pending sum,
// completed inside the branch); branch 1 (and any index out of range) only
// negates, keeping x's sharding, which the result takes; branch 0's
// yield is resharded to it (the pending sum and the slice become one
// reduce_scatter once collectives are optimized).
// PROP-LABEL: func.func @pick
// PROP: xla.case %arg0 : tensor<i32> -> tensor<8x16xf32> attributes {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>}
// PART-LABEL: func.func @pick
// PART: xla.case %arg0 : tensor<i32> -> tensor<4x8xf32> {
// PART: xla.matmul {{.*}} -> tensor<4x16xf32>
// PART-NEXT: xla.all_reduce sum {{.*}} mesh_axes = @mesh["model"] : tensor<4x16xf32>
// PART-NEXT: xla.all_slice {{.*}}, dim = 1 mesh_axes = @mesh["model"] : (tensor<4x16xf32>) -> tensor<4x8xf32>
// PART: }, {
// PART-NOT: xla.all_reduce
// PART: xla.neg {{.*}} : tensor<4x8xf32>
// PART: }
//
// The branch taken is what runs and what the step time counts.
// BRANCH0: PARTITIONED @pick into @pick.spmd: 1 reduce_scatter
// BRANCH0: [check] result[0]: 8x16xf32 {{.*}}: ok
// BRANCH0: compute: 1 ops run (2 in the program
// BRANCH0: collectives per step: 1 run (1 reduce-scatter), 1 in the program
// BRANCH1: [check] result[0]: 8x16xf32 {{.*}}: ok
// BRANCH1: compute: 1 ops run (2 in the program
// BRANCH1: collectives per step: 0 run, 1 in the program
func.func @pick(%i: tensor<i32>,
                %x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>},
                %w: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}) -> tensor<8x16xf32> {
  %r = xla.case %i : tensor<i32> -> tensor<8x16xf32> {
    %h = xla.matmul %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %m = xla.mark_sharding %h <@mesh, [{"data"}, {}]> : tensor<8x16xf32>
    xla.yield %m : tensor<8x16xf32>
  }, {
    %n = xla.neg %x : tensor<8x16xf32>
    xla.yield %n : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// A predicate computed from sharded data (a sum completed by an
// all_reduce before the case, so every device takes the same branch):
// true runs branch 0, false branch 1. Seeds 5 and 6 take different
// branches.
// SEED2: result[1]: i1=0
// SEED3: result[1]: i1=1
func.func @sign_test(%x: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>}) -> (tensor<8x8xf32>, tensor<i1>) {
  %s = xla.reduce sum %x, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %p = xla.compare gt, %s, %zero : tensor<f32>
  %r = xla.case %p : tensor<i1> -> tensor<8x8xf32> {
    %d = xla.add %x, %x : tensor<8x8xf32>
    xla.yield %d : tensor<8x8xf32>
  }, {
    %n = xla.neg %x : tensor<8x8xf32>
    xla.yield %n : tensor<8x8xf32>
  }
  return %r, %p : tensor<8x8xf32>, tensor<i1>
}

// Every checked run matches the single-device run.
// CHECKED: [SUCCESS]
