// RUN: xla-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics | FileCheck %s
// RUN: xla-opt %s -split-input-file -allow-unregistered-dialect -verify-diagnostics --xla-annotate-sharding-rules | FileCheck %s --check-prefix=ANNOTATE

// An xla.sharding_rule attribute gives a rule to an op of another dialect,
// and overrides the rule of an xla op.

// CHECK-LABEL: func.func @custom_rule
// CHECK: "test.op"(%{{.*}}, %{{.*}}) {xla.sharding_rule = #xla.op_sharding_rule<([ij, k], [k])->([i, j]) {i=2, j=4, k=4} reduction<max>={k} need_replication={j}>}
// ANNOTATE-LABEL: func.func @custom_rule
// ANNOTATE: "test.op"(%{{.*}}, %{{.*}}) {xla.sharding_rule = #xla.op_sharding_rule<([ij, k], [k])->([i, j]) {i=2, j=4, k=4} reduction<max>={k} need_replication={j}>}
// ANNOTATE: xla.add {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4} need_replication={i, j}>
func.func @custom_rule(%a: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = "test.op"(%a, %b) {xla.sharding_rule = #xla.op_sharding_rule<([ij, k], [k])->([i, j]) {i=2, j=4, k=4} reduction<max>={k} need_replication={j}>} : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = xla.add %a, %a {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4} need_replication={i, j}>} : tensor<8x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Factor names are resolved through the size block, in any order; they
// print canonically.
// CHECK-LABEL: func.func @names
// CHECK: #xla.op_sharding_rule<([i, 1])->([i, j]) {i=8, j=4}>
func.func @names(%a: tensor<8x1xf32>) -> tensor<8x4xf32> {
  %0 = "test.bcast"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([z_3, 1])->([z_3, a]) {z_3=8, a=4}>} : (tensor<8x1xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @wrong_size(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{sharding rule makes dimension 1 of operand 0 of size 2 but it has size 4}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, k]) {i=8, j=2, k=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @wrong_rank(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{sharding rule gives result 0 1 dimensions but it has rank 2}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([ij]) {i=8, j=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @wrong_count(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{sharding rule has 2 operands but the op has 1}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @reduction_in_result(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{sharding rule maps reduction factor j to result 0; reduction factors belong to operands only}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} reduction={j}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @unused_factor(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{sharding rule factor k is used by no dimension}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4, k=2}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @two_kinds(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{factor j is given two kinds}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} permutation={j} need_replication={j}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @undeclared(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{factor 'k' has no size in the '{...}' block}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, k])->([i, k]) {i=8, j=4}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @not_a_rule(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'xla.sharding_rule' must be an #xla.op_sharding_rule, got "([i])"}}
  %0 = "test.op"(%a) {xla.sharding_rule = "([i])"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @bad_kind(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{unknown factor kind 'windowed'}}
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} windowed={j}>} : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
