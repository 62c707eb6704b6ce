// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @cond_not_pred(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.while' op 'cond' must yield one tensor<i1>, got 'tensor<4xf32>'}}
  %r = xla.while (%a = %x) : tensor<4xf32> cond {
    // expected-note @+1 {{yielded here}}
    xla.yield %a : tensor<4xf32>
  } do {
    xla.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @body_wrong_types(%x: tensor<4xf32>, %y: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.while' op 'body' yields ('tensor<2xf32>') but the loop carries ('tensor<4xf32>')}}
  %r = xla.while (%a = %x) : tensor<4xf32> cond {
    %c = xla.constant dense<true> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    // expected-note @+1 {{yielded here}}
    xla.yield %y : tensor<2xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @body_wrong_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.while' op 'body' yields () but the loop carries ('tensor<4xf32>')}}
  %r = xla.while (%a = %x) : tensor<4xf32> cond {
    %c = xla.constant dense<true> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    // expected-note @+1 {{yielded here}}
    xla.yield
  }
  return %r : tensor<4xf32>
}

// -----

func.func @block_arg_types(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.while' op 'cond' takes arguments ('tensor<4xi32>') but the loop carries ('tensor<4xf32>')}}
  %r = "xla.while"(%x) ({
  ^bb0(%a: tensor<4xi32>):
    %c = xla.constant dense<true> : tensor<i1>
    xla.yield %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<4xf32>):
    xla.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @result_types(%x: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'xla.while' op has results ('tensor<2xf32>') but carries ('tensor<4xf32>')}}
  %r = "xla.while"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %c = xla.constant dense<true> : tensor<i1>
    xla.yield %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<4xf32>):
    xla.yield %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

func.func @no_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'xla.while' op 'body' must end in xla.yield}}
  %r = "xla.while"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %c = xla.constant dense<true> : tensor<i1>
    xla.yield %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<4xf32>):
    %n = xla.neg %a : tensor<4xf32>
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @type_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 1 types of carried values, got 2}}
  %r = xla.while (%a = %x) : tensor<4xf32>, tensor<4xf32> cond {
    %c = xla.constant dense<true> : tensor<i1>
    xla.yield %c : tensor<i1>
  } do {
    xla.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
