// RUN: xla-opt %s --xla-explain-sharding -o /dev/null | FileCheck %s
// RUN: xla-opt %s --xla-explain-sharding=global-trials=0 -o /dev/null | FileCheck %s --check-prefix=LOCAL
// RUN: xla-opt %s --xla-spmd-pipeline=lower=false --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-opt %s --xla-propagate-sharding=global-trials=0 --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=LOCALBYTES
// RUN: not xla-opt %s --xla-propagate-sharding=tie-tolerance=-1 2>&1 | FileCheck %s --check-prefix=BAD

// A near tie decided by the whole plan. At the first matmul axis "a" can
// split the rows (gather w, 24,576 B) or the columns (gather x, 24,576 B):
// the same locally (24,576 B and one collective, 256, each). The columns let the second matmul keep its contracting
// split (v's rows) and reduce-scatter its partial product into the
// result's column split (786,432 B); with the rows, the cheapest the
// partitioner can do is gather v (983,040 B). The whole-plan estimate
// prices each op with the partitioner's planner: 811,008 B (BYTES) and
// 1,007,616 B (LOCALBYTES) plus 256 per collective (its fixed cost).

xla.mesh @mesh = <["a"=4]>

// CHECK-LABEL: sharding of @tie:
// CHECK: %0 = xla.matmul {{.*}}: #xla.sharding<@mesh, [{}, {"a"}]>
// CHECK: conflict at xla.matmul at global-cost.mlir:[[#L1:]]:8: axis "a" wanted by factors i k
// CHECK-NEXT: on factor i from operand 0: cost 24832
// CHECK-NEXT: on factor k from operand 1: cost 24832  <- chosen
// CHECK: near tie at xla.matmul at global-cost.mlir:[[#L1]]:8 re-decided by the whole plan: axis on factor k, plan cost 811520 instead of 1008384

// LOCAL: %0 = xla.matmul {{.*}}: #xla.sharding<@mesh, [{"a"}, {}]>
// LOCAL: on factor i from operand 0: cost 24832  <- chosen
// LOCAL-NOT: near tie

// BYTES: @tie: 2 collectives, sends 811008 B per device
// BYTES-NEXT: all_gather mesh_axes {{\[}}"a"] (group 4) ici in 8192 B sends 24576 B
// BYTES-NEXT: reduce_scatter sum mesh_axes {{\[}}"a"] (group 4) ici in 1048576 B sends 786432 B

// Decided locally, the partitioner gathers v rather than move the product:
// 1,007,616 B.
// LOCALBYTES: @tie: 3 collectives, sends 1007616 B per device

// BAD: global-trials and tie-tolerance must be >= 0
func.func @tie(%x: tensor<1024x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {}]>},
               %w: tensor<8x1024xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}]>},
               %v: tensor<1024x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {}]>})
    -> (tensor<1024x256xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}]>}) {
  %h = xla.matmul %x, %w : (tensor<1024x8xf32>, tensor<8x1024xf32>) -> tensor<1024x1024xf32>
  %o = xla.matmul %h, %v : (tensor<1024x1024xf32>, tensor<1024x256xf32>) -> tensor<1024x256xf32>
  return %o : tensor<1024x256xf32>
}
