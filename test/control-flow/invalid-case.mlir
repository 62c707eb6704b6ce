// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @predicate_three_branches(%p: tensor<i1>) {
  // expected-error @+1 {{'xla.case' op with an i1 predicate needs 2 branches (true, false), got 3}}
  xla.case %p : tensor<i1> {
    xla.yield
  }, {
    xla.yield
  }, {
    xla.yield
  }
  return
}

// -----

func.func @branch_types(%i: tensor<i32>, %x: tensor<4xf32>, %y: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.case' op branch 1 yields ('tensor<4xf64>') but the results are ('tensor<4xf32>')}}
  %r = xla.case %i : tensor<i32> -> tensor<4xf32> {
    xla.yield %x : tensor<4xf32>
  }, {
    // expected-note @+1 {{yielded here}}
    xla.yield %y : tensor<4xf64>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @no_branch(%i: tensor<i32>) {
  // expected-error @+1 {{'xla.case' op needs at least one branch}}
  "xla.case"(%i) : (tensor<i32>) -> ()
  return
}

// -----

func.func @branch_arguments(%i: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.case' op branch 0 takes arguments; branches use the values defined above the xla.case}}
  %r = "xla.case"(%i) ({
  ^bb0(%a: tensor<4xf32>):
    xla.yield %a : tensor<4xf32>
  }) : (tensor<i32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @index_type(%i: tensor<i64>) {
  // expected-error @+1 {{'xla.case' op operand #0 must be 0D tensor of 32-bit signless integer values or 0D tensor of 1-bit signless integer values, but got 'tensor<i64>'}}
  "xla.case"(%i) ({
    xla.yield
  }) : (tensor<i64>) -> ()
  return
}
