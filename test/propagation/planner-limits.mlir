// RUN: xla-opt %s --split-input-file --xla-explain-sharding -o /dev/null | FileCheck %s

// Propagation prices every reshard with the partitioner's planner. Two
// kinds of sharding have no plan of their own, and neither stops
// propagation.

// Sub-axes of one axis whose cuts do not divide each other ("x":(1)2 and
// "x":(1)3 of x=6) refine into no one mesh: a reshard between them is
// priced through the replicated layout, each side on its own refinement
// (gather the 576-byte tensor's halves, 288 B plus 256 for the
// collective; slicing is free). The partitioner rejects such a module.
// CHECK-LABEL: sharding of @incompatible_sub_axes:
// CHECK: conflict at func.return {{.*}}: axis "x:(1)2" wanted by factors i j
// CHECK-NEXT: on factor i from returned value: cost 544  <- chosen
// CHECK-NEXT: on factor j from function result: cost 544
xla.mesh @mesh = <["x"=6]>
func.func @incompatible_sub_axes(%a: tensor<12x12xf32> {xla.sharding = #xla.sharding<@mesh, [{"x":(1)2}, {}]>})
    -> (tensor<12x12xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x":(1)3}]>}) {
  %e = xla.exp %a : tensor<12x12xf32>
  return %e : tensor<12x12xf32>
}

// -----

// A value without a static shape has no size: its reshards cost nothing.
// CHECK-LABEL: sharding of @dynamic:
// CHECK: on factor i from returned value: cost 0  <- chosen
// CHECK-NEXT: on factor j from function result: cost 0
// CHECK: planned bytes of @dynamic:
// CHECK-NOT: B per device
xla.mesh @mesh = <["x"=2, "y"=2]>
func.func @dynamic(%a: tensor<?x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<?x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}]>}) {
  return %a : tensor<?x4xf32>
}
