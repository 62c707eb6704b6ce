// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s
// RUN: xla-opt %s --xla-explain-sharding -o /dev/null | FileCheck %s --check-prefix=EXPLAIN

xla.mesh @mesh = <["data"=2, "model"=2]>

// The only annotation is a mark_sharding inside the body. Propagation
// reaches a fixed point through the loop: the carried value (block
// arguments, result) takes it, so do the loop's operand (the function's
// argument) and the function's result.
// CHECK-LABEL: func.func @marked_in_body
// CHECK-SAME: %arg0: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>})
// CHECK: xla.while
// CHECK-SAME: attributes {xla.sharding = [#xla.sharding<@mesh, []>, #xla.sharding<@mesh, [{"data"}, {}]>]}
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK: xla.mark_sharding
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>

// EXPLAIN-LABEL: sharding of @marked_in_body:
// EXPLAIN: %arg0: #xla.sharding<@mesh, [{"data"}, {}]>
// EXPLAIN-NEXT: dim 0 {"data"}: from xla.mark_sharding at propagate-while.mlir:[[#MARK:]]:{{[0-9]+}} through xla.while at propagate-while.mlir:[[#LOOP:]]:{{[0-9]+}} (carried value 1)
// EXPLAIN: %3#1 = xla.while at propagate-while.mlir:[[#LOOP]]:{{[0-9]+}}: #xla.sharding<@mesh, [{"data"}, {}]>
// EXPLAIN-NEXT: dim 0 {"data"}: from xla.mark_sharding at propagate-while.mlir:[[#MARK]]:{{[0-9]+}} through xla.add
// EXPLAIN-NEXT: carried value 1: one sharding for the initial %arg0, the regions' argument %arg3, the yielded %6 and the result
func.func @marked_in_body(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %zero = xla.constant dense<0> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %trips = xla.constant dense<3> : tensor<i32>
  %r:2 = xla.while (%i = %zero, %acc = %x) : tensor<i32>, tensor<8x16xf32>
  cond {
    %more = xla.compare lt, %i, %trips : tensor<i32>
    xla.yield %more : tensor<i1>
  } do {
    %y = xla.matmul %acc, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %m = xla.mark_sharding %y <@mesh, [{"data"}, {}]> : tensor<8x16xf32>
    %z = xla.add %m, %acc : tensor<8x16xf32>
    %next = xla.add %i, %one : tensor<i32>
    xla.yield %next, %z : tensor<i32>, tensor<8x16xf32>
  }
  return %r#1 : tensor<8x16xf32>
}

// A sharding from outside reaches the body through the carried value, and
// a weight captured from above gets its sharding from its use inside.
// CHECK-LABEL: func.func @from_outside
// CHECK-SAME: %arg1: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>}
// CHECK: xla.while
// CHECK-SAME: attributes {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>}
// CHECK: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>

// EXPLAIN-LABEL: sharding of @from_outside:
// EXPLAIN: %0 = xla.while at {{.*}}: #xla.sharding<@mesh, [{"data"}, {"model"}]>
// EXPLAIN-NEXT: dim 0 {"data"}: from argument 0 through xla.while at {{.*}} (initial carried value 0)
func.func @from_outside(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>},
                        %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %r = xla.while (%acc = %x) : tensor<8x16xf32>
  cond {
    %c = xla.constant dense<false> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    %y = xla.matmul %acc, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    xla.yield %y : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
