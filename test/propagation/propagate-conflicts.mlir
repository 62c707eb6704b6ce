// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding=dcn-cost=1 | FileCheck %s --check-prefix=FLAT

// User shardings, open and closed dimensions, priorities, and conflicts
// resolved by estimated communication over ICI and DCN.
xla.mesh @hybrid = hybrid<ici=["data"=1, "model"=4], dcn=["data"=2, "model"=1]>

// "data" crosses slices (DCN), "model" stays inside them (ICI). Taking
// "data" costs an all-gather of %b over ICI; taking "model" an all-gather
// of %a over DCN, ten times dearer by default. With DCN priced as ICI,
// gathering %a (2 shards) is cheaper than %b (4 shards).
// CHECK-LABEL: func.func @dcn_costs_more
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}]>
// FLAT-LABEL: func.func @dcn_costs_more
// FLAT: xla.add {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"model"}, {}]>
func.func @dcn_costs_more(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}]>},
                          %b: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"model"}, {}]>}) -> tensor<16x64xf32> {
  %0 = xla.add %a, %b : tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// Priority beats cost: p0 propagates before p1.
// CHECK-LABEL: func.func @priority_wins
// CHECK-SAME: {xla.sharding = #xla.sharding<@hybrid, [{"data"}p1, {}]>}
// CHECK-SAME: {xla.sharding = #xla.sharding<@hybrid, [{"model"}p0, {}]>}
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"model"}, {}]>
// FLAT-LABEL: func.func @priority_wins
// FLAT: xla.add {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"model"}, {}]>
func.func @priority_wins(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}p1, {}]>},
                         %b: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"model"}p0, {}]>}) -> tensor<16x64xf32> {
  %0 = xla.add %a, %b : tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}

// An open user dimension ({"data", ?}) gains minor axes; a closed one
// ({"data"}) does not; neither loses any.
// CHECK-LABEL: func.func @open_and_closed
// CHECK-SAME: %arg0: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data", "model", ?}, {}]>}
// CHECK-SAME: %arg1: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}]>}
// CHECK-SAME: %arg2: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data", "model"}, {}]>}
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data", "model"}, {}]>
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data", "model"}, {}]>
func.func @open_and_closed(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data", ?}, {}]>},
                           %b: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}]>},
                           %c: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data", "model"}, {}]>}) -> tensor<16x64xf32> {
  %0 = xla.add %a, %c : tensor<16x64xf32>
  %1 = xla.add %b, %c : tensor<16x64xf32>
  return %1 : tensor<16x64xf32>
}

// mark_sharding pins an intermediate value; it reaches backward to the
// argument and forward to the result, and the op keeps its own sharding.
// CHECK-LABEL: func.func @mark_sharding
// CHECK-SAME: %arg0: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {"model"}]>}
// CHECK-SAME: -> (tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {"model"}]>})
// CHECK: xla.exp {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data"}, {"model"}]>
// CHECK: xla.mark_sharding %{{.*}} <@hybrid, [{"data"}, {"model"}]> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {"model"}]>}
// CHECK: xla.tanh {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"data"}, {"model"}]>
func.func @mark_sharding(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %0 = xla.exp %a : tensor<16x64xf32>
  %1 = xla.mark_sharding %0 <@hybrid, [{"data"}, {"model"}]> : tensor<16x64xf32>
  %2 = xla.tanh %1 : tensor<16x64xf32>
  return %2 : tensor<16x64xf32>
}

// A user sharding on an op is kept even when its operands disagree; the
// result annotation (replicated, closed) is not extended.
// CHECK-LABEL: func.func @user_sharding_on_op
// CHECK-SAME: -> (tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{}, {}]>})
// CHECK: xla.exp {{.*}}xla.sharding = #xla.sharding<@hybrid, [{"model"}, {}]>
func.func @user_sharding_on_op(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{"data"}, {}]>})
    -> (tensor<16x64xf32> {xla.sharding = #xla.sharding<@hybrid, [{}, {}]>}) {
  %0 = xla.exp %a {xla.sharding = #xla.sharding<@hybrid, [{"model"}, {}]>} : tensor<16x64xf32>
  return %0 : tensor<16x64xf32>
}
