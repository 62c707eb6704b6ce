// RUN: xla-opt %s --xla-propagate-sharding | FileCheck %s
// RUN: xla-opt %s --xla-explain-sharding -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: xla-opt %s --xla-spmd-pipeline=lower=false --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-run %s --function=broadcast_chain --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=marked --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=fanout --check | FileCheck %s --check-prefix=EXEC
// EXEC: [SUCCESS]

// A value that reaches a function result (or a mark_sharding) with the
// wrong sharding is resharded where that is cheapest along its chain of
// data-moving ops, not where the disagreement is met. Links are priced by
// the partitioner's planner: bytes per device plus 256 per collective.
xla.mesh @mesh = <["a"=2, "b"=2]>

// Gathering the 128-byte vector (64 B per device) beats an all-to-all of
// the 16 KiB broadcast (4096 B per device).
// CHECK-LABEL: func.func @broadcast_chain
// CHECK: xla.broadcast_in_dim {{.*}} {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}]>}
// CHECK: xla.broadcast_in_dim {{.*}} {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}, {}]>}
// EXPLAIN: reshard for func.return at {{.*}}reshard-placement.mlir:{{[0-9]+}}:3 moved to %arg0: cost 320 instead of 4352
// BYTES: @broadcast_chain: 1 collective, sends 64 B per device
// BYTES-NEXT: all_gather mesh_axes ["a"] (group 2) ici in 64 B sends 64 B
func.func @broadcast_chain(%x: tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}]>})
    -> (tensor<32x16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}, {}]>}) {
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<32xf32>) -> tensor<32x16xf32>
  %1 = xla.broadcast_in_dim %0, dims = [0, 1] : (tensor<32x16xf32>) -> tensor<32x16x8xf32>
  return %1 : tensor<32x16x8xf32>
}

// The same through a convert and an elementwise op, ending at a
// mark_sharding: before the convert to f64 the vector is half as large.
// CHECK-LABEL: func.func @marked
// CHECK: xla.convert {{.*}} {xla.sharding = #xla.sharding<@mesh, [{}]>}
// CHECK: xla.exp {{.*}} {xla.sharding = #xla.sharding<@mesh, [{}]>}
// CHECK: xla.broadcast_in_dim {{.*}} {xla.sharding = #xla.sharding<@mesh, [{}, {"b"}]>}
// EXPLAIN: reshard for xla.mark_sharding at {{.*}} moved to %arg0: cost 320 instead of 4352
// BYTES: @marked: 1 collective, sends 64 B per device
func.func @marked(%x: tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}]>}) -> tensor<32x64xf64> {
  %0 = xla.convert %x : tensor<32xf32> -> tensor<32xf64>
  %1 = xla.exp %0 : tensor<32xf64>
  %2 = xla.broadcast_in_dim %1, dims = [0] : (tensor<32xf64>) -> tensor<32x64xf64>
  %3 = xla.mark_sharding %2 <@mesh, [{}, {"b"}]> : tensor<32x64xf64>
  return %3 : tensor<32x64xf64>
}

// A link with another use keeps its sharding (that use wants it): the
// reshard stays at the result.
// CHECK-LABEL: func.func @shared_link
// CHECK: %[[B:.*]] = xla.broadcast_in_dim {{.*}} {xla.sharding = #xla.sharding<@mesh, [{"a"}, {}]>}
// BYTES: @shared_link: 1 collective
// BYTES-NEXT: all_to_all
func.func @shared_link(%x: tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}]>})
    -> (tensor<32x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}]>},
        tensor<32x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {}]>}) {
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<32xf32>) -> tensor<32x16xf32>
  return %0, %0 : tensor<32x16xf32>, tensor<32x16xf32>
}

// A value several boundaries want with the same sharding is resharded once,
// where it is cheapest for all: the broadcast result returned twice as
// [{}, {"a"}, {}] gathers the vector (64 B per device) instead of one
// all_to_all of the 32x16x8 result (4096 B per device) shared by both
// results.
// CHECK-LABEL: func.func @fanout
// CHECK: xla.broadcast_in_dim {{.*}} {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}]>}
// CHECK: xla.broadcast_in_dim {{.*}} {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}, {}]>}
// EXPLAIN: reshard for func.return at {{.*}}reshard-placement.mlir:[[#@LINE+8]]:3 moved to %arg0: cost 320 instead of 4352
// BYTES: @fanout: 1 collective, sends 64 B per device
// BYTES-NEXT: all_gather mesh_axes {{\[}}"a"] (group 2) ici in 64 B sends 64 B
func.func @fanout(%x: tensor<32xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}]>})
    -> (tensor<32x16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}, {}]>},
        tensor<32x16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}, {}]>}) {
  %0 = xla.broadcast_in_dim %x, dims = [0] : (tensor<32xf32>) -> tensor<32x16xf32>
  %1 = xla.broadcast_in_dim %0, dims = [0, 1] : (tensor<32x16xf32>) -> tensor<32x16x8xf32>
  return %1, %1 : tensor<32x16x8xf32>, tensor<32x16x8xf32>
}
