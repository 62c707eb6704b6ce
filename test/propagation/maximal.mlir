// Maximal shardings do not spread: ops whose operands are all on one device
// run there, but an op mixing a maximal operand with a sharded one takes the
// sharded side's sharding, and nothing flows back into the maximal values.

// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s

xla.mesh @mesh = <["x"=4, "y"=2]>
xla.mesh @maximal_3 = <[], devices=[3]>
xla.mesh @maximal_5 = <[], devices=[5]>

// CHECK-LABEL: func.func @chain
// CHECK: xla.tanh %{{.*}} {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>}
// CHECK: xla.mul %{{.*}} {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>}
// CHECK: xla.add %{{.*}} {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}
// Unannotated values default to the module's mesh, never to a maximal one.
// CHECK: xla.exp %{{.*}} {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}
func.func @chain(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>},
                 %b: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
  %t = xla.tanh %a : tensor<8x8xf32>
  %m = xla.mul %t, %a : tensor<8x8xf32>
  %r = xla.add %m, %b : tensor<8x8xf32>
  %e = xla.exp %r : tensor<8x8xf32>
  return %e : tensor<8x8xf32>
}

// Operands on two different devices: not maximal, and no axes to take
// (replicated on the module's mesh).
// CHECK-LABEL: func.func @two_devices
// CHECK: xla.add %{{.*}} {xla.sharding = #xla.sharding<@mesh, [{}]>}
func.func @two_devices(%a: tensor<8xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}]>},
                       %b: tensor<8xf32> {xla.sharding = #xla.sharding<@maximal_5, [{}]>}) -> tensor<8xf32> {
  %r = xla.add %a, %b : tensor<8xf32>
  return %r : tensor<8xf32>
}

// A maximal value whose user is sharded keeps its device; the shared
// operand of both users is not pulled onto the device.
// CHECK-LABEL: func.func @no_backward
// CHECK-SAME: %arg0: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}
// CHECK: xla.neg %{{.*}} {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}
// CHECK: xla.mark_sharding %{{.*}} <@maximal_3, [{}]>
func.func @no_backward(%a: tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) -> tensor<8xf32> {
  %n = xla.neg %a : tensor<8xf32>
  %m = xla.mark_sharding %n <@maximal_3, [{}]> : tensor<8xf32>
  return %m : tensor<8xf32>
}
