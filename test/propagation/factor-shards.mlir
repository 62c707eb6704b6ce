// RUN: xla-opt %s --xla-explain-sharding -o /dev/null | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-run %s --check | FileCheck %s --check-prefix=EXEC
// EXEC: [SUCCESS]

// An op's factor takes mesh axes only while it has fewer shards than
// elements, as the partitioner assigns them: 2 rows split over x and y (4
// shards) would leave half the devices holding padding, so the exp is split
// over x only and the argument is resharded to it. Propagation used to give
// the exp both axes, which the partitioner did not carry out (it planned
// 0 B and emitted 64 B); now the plan is what is emitted.
xla.mesh @mesh = <["x"=2, "y"=2]>

// CHECK-LABEL: sharding of @over_split_rows:
// CHECK: %0 = xla.exp {{.*}}: #xla.sharding<@mesh, [{"x"}, {}]>
// CHECK: planned bytes of @over_split_rows:
// CHECK-NEXT: xla.exp {{.*}}: 48 B per device
// BYTES: @over_split_rows: 3 collectives, sends 48 B per device
func.func @over_split_rows(%a: tensor<2x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) -> tensor<2x4xf32> {
  %e = xla.exp %a : tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}
