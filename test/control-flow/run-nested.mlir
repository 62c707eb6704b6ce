// Loops in loops and loops in branches: values from outside live through
// every iteration of every enclosing loop, and collectives inside the inner
// loop run (and are timed) outer x inner times.
//
// RUN: xla-run %s --function=nested --check --seed=7 --timing | FileCheck %s --check-prefix=NESTED
// RUN: xla-run %s --function=loop_in_branch --input=i1=1 --seed=7 --check --timing | FileCheck %s --check-prefix=TAKEN
// RUN: xla-run %s --function=loop_in_branch --input=i1=0 --seed=7 --check --timing | FileCheck %s --check-prefix=SKIPPED

xla.mesh @mesh = <["data"=2, "model"=2]>

// 2 outer iterations of 3 inner ones: the inner body's all_gather runs 6
// times, plus once after the loops.
// NESTED: [check] result[0]: 8x16xf32 {{.*}}: ok
// NESTED: [SUCCESS]
// NESTED: collectives per step: 7 run (7 all-gather), 2 in the program
// NESTED: runs per step: 6
func.func @nested(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                  %w: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %outer_trips = xla.constant dense<2> : tensor<i32>
  %inner_trips = xla.constant dense<3> : tensor<i32>
  %half = xla.constant dense<0.5> : tensor<8x16xf32>
  %r:2 = xla.while (%i = %zero, %a = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %more = xla.compare lt, %i, %outer_trips : tensor<i32>
    xla.yield %more : tensor<i1>
  } do {
    %s:2 = xla.while (%j = %zero, %b = %a) : tensor<i32>, tensor<8x16xf32>
    cond {
      %more = xla.compare lt, %j, %inner_trips : tensor<i32>
      xla.yield %more : tensor<i1>
    } do {
      %h = xla.matmul %b, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
      %t = xla.tanh %h : tensor<8x16xf32>
      %next = xla.add %j, %one : tensor<i32>
      xla.yield %next, %t : tensor<i32>, tensor<8x16xf32>
    }
    %scaled = xla.mul %s#1, %half : tensor<8x16xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %scaled : tensor<i32>, tensor<8x16xf32>
  }
  return %r#1 : tensor<8x16xf32>
}

// A loop inside the branch taken runs; inside the other it does not.
// TAKEN: [check] result[0]: 8x16xf32 {{.*}}: ok
// TAKEN: collectives per step: 4 run (4 all-gather)
// SKIPPED: [check] result[0]: 8x16xf32 {{.*}}: ok
// SKIPPED: collectives per step: 1 run (1 all-gather)
func.func @loop_in_branch(%p: tensor<i1>,
                          %x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                          %w: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %trips = xla.constant dense<3> : tensor<i32>
  %r = xla.case %p : tensor<i1> -> tensor<8x16xf32> {
    %l:2 = xla.while (%i = %zero, %a = %x) : tensor<i32>, tensor<8x16xf32>
    cond {
      %more = xla.compare lt, %i, %trips : tensor<i32>
      xla.yield %more : tensor<i1>
    } do {
      %h = xla.matmul %a, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
      %t = xla.tanh %h : tensor<8x16xf32>
      %next = xla.add %i, %one : tensor<i32>
      xla.yield %next, %t : tensor<i32>, tensor<8x16xf32>
    }
    xla.yield %l#1 : tensor<8x16xf32>
  }, {
    %n = xla.neg %x : tensor<8x16xf32>
    xla.yield %n : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
