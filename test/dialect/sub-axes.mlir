// Sub-axes in shardings (Shardy's "x":(m)k): parsing and printing in a
// round trip; the verifier's rules are in invalid-sub-axes.mlir.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s

xla.mesh @mesh = <["x"=8, "y"=2]>
// CHECK-LABEL: func.func @parts
// CHECK-SAME: #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)4, "y"}]>
// CHECK: xla.mark_sharding %{{.*}} <@mesh, [{"x":(1)4}, {}], partial={"x":(4)2}>
func.func @parts(%a: tensor<4x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {"x":(2)4, "y"}]>}) -> tensor<4x16xf32> {
  %0 = xla.mark_sharding %a <@mesh, [{"x":(1)4}, {}], partial={"x":(4)2}> : tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

