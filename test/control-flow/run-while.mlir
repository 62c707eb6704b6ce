// xla.while end to end: propagation, partitioning, lowering and the
// simulator, compared with the single-device run of the program as written.
//
// RUN: xla-run %s --function=layers3 --check --seed=2 --timing | FileCheck %s --check-prefix=THREE
// RUN: xla-run %s --function=layers6 --check --seed=2 --timing | FileCheck %s --check-prefix=SIX
// RUN: xla-run %s --function=until_large --check --seed=4 | FileCheck %s --check-prefix=UNTIL
// RUN: xla-run %s --function=layers3 --no-partition --seed=2 --timing | FileCheck %s --check-prefix=SINGLE
// RUN: not xla-run %s --function=layers3 --timing-only 2>&1 | FileCheck %s --check-prefix=TIMING-ONLY
// The trace shows every iteration: 3 matmuls and 3 + 1 all_gathers on each
// of the 4 devices.
// RUN: xla-run %s --function=layers3 --seed=2 --trace=%t.json > /dev/null
// RUN: grep -o '"name":"matmul"' %t.json | count 12
// RUN: grep -o '"name":"all-gather-start"' %t.json | count 16

xla.mesh @mesh = <["data"=2, "model"=2]>

// N iterations of x = tanh(x @ w + b) with x split over data and w by
// columns over model: each iteration gathers the columns of its result
// (an all_gather inside the body). The counter is carried too; the
// condition compares it with a constant. The timing counts every
// iteration: 3 iterations run 3 + 1 all_gathers (one after the loop
// returns the rows), 6 iterations 6 + 1; the compute ops are the 2 outside
// the loop, 4 per iteration in the body and the condition's comparison at
// each of the trips + 1 tests (2 + 12 + 4 = 18, 2 + 24 + 7 = 33).
// THREE: PARTITIONED @layers3 into @layers3.spmd: 2 all_gather
// THREE: [check] result[0]: 8x16xf32 {{.*}}: ok
// THREE: [check] result[1]: i32 max abs error 0{{.*}}: ok
// THREE: [SUCCESS]
// THREE: compute: 18 ops run (7 in the program, loops counted per iteration, branches as taken)
// THREE: collectives per step: 4 run (4 all-gather), 2 in the program (loops counted per iteration, branches as taken)
// THREE: runs per step: 3
// THREE: runs per step: 1
// SIX: compute: 33 ops run (7 in the program, loops counted per iteration, branches as taken)
// SIX: collectives per step: 7 run (7 all-gather), 2 in the program (loops counted per iteration, branches as taken)
// SIX: runs per step: 6
//
// The reference runs the same loop on one device.
// SINGLE: EXEC @layers3 on 1 device
// SINGLE: compute: 16 ops run (5 in the program, loops counted per iteration, branches as taken)
// SINGLE: collectives per step: 0 run
//
// TIMING-ONLY: error: the timing-only mode cannot run @layers3.spmd.body0: the trip count of xla.while at {{.*}}run-while.mlir:[[@LINE+8]]:10 depends on the values the program computes
func.func @layers3(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                   %w: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                   %b: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}, tensor<i32>) {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %trips = xla.constant dense<3> : tensor<i32>
  %r:2 = xla.while (%i = %zero, %a = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %more = xla.compare lt, %i, %trips : tensor<i32>
    xla.yield %more : tensor<i1>
  } do {
    %h = xla.matmul %a, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %s = xla.add %h, %b : tensor<8x16xf32>
    %t = xla.tanh %s : tensor<8x16xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %t : tensor<i32>, tensor<8x16xf32>
  }
  return %r#1, %r#0 : tensor<8x16xf32>, tensor<i32>
}

func.func @layers6(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                   %w: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                   %b: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}, tensor<i32>) {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %trips = xla.constant dense<6> : tensor<i32>
  %r:2 = xla.while (%i = %zero, %a = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %more = xla.compare lt, %i, %trips : tensor<i32>
    xla.yield %more : tensor<i1>
  } do {
    %h = xla.matmul %a, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %s = xla.add %h, %b : tensor<8x16xf32>
    %t = xla.tanh %s : tensor<8x16xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %t : tensor<i32>, tensor<8x16xf32>
  }
  return %r#1, %r#0 : tensor<8x16xf32>, tensor<i32>
}

// A trip count that depends on the data: double x until the sum of its
// squares passes a bound. x is split over both axes, so the condition's
// sum is a pending sum that every device completes with an all_reduce
// inside the condition: all devices decide alike and run the same number
// of iterations.
// UNTIL: PARTITIONED @until_large into @until_large.spmd: 1 all_reduce
// UNTIL: [check] result[0]: 8x8xf32 {{.*}}: ok
// UNTIL: [check] result[1]: i32 max abs error 0{{.*}}: ok
// UNTIL: [SUCCESS]
func.func @until_large(%x: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>}, tensor<i32>) {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %bound = xla.constant dense<1.0e4> : tensor<f32>
  %two = xla.constant dense<2.0> : tensor<8x8xf32>
  %r:2 = xla.while (%i = %zero, %a = %x) : tensor<i32>, tensor<8x8xf32>
  cond {
    %sq = xla.mul %a, %a : tensor<8x8xf32>
    %sum = xla.reduce sum %sq, dims = [0, 1] : (tensor<8x8xf32>) -> tensor<f32>
    %more = xla.compare lt, %sum, %bound : tensor<f32>
    xla.yield %more : tensor<i1>
  } do {
    %d = xla.mul %a, %two : tensor<8x8xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %d : tensor<i32>, tensor<8x8xf32>
  }
  return %r#1, %r#0 : tensor<8x8xf32>, tensor<i32>
}
