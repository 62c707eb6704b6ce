// RUN: xla-opt %s --xla-explain-sharding -o /dev/null | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-run %s --function=pending_two_axes --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=uneven_contraction --check | FileCheck %s --check-prefix=EXEC
// EXEC: [SUCCESS]

// Conflicts are priced by the partitioner's reshard planner, as the final
// plan is (weighted bytes per device plus 256 per collective), not by a
// per-axis formula. Each case below is one where the two disagree and the
// planner's choice moves fewer bytes.

xla.mesh @mesh = <["x"=2, "y"=2, "z"=2]>

// The contraction split over x and y makes the product pending on both;
// the result wants x on its rows. Keeping x on the contraction reduces the
// 120-byte product with a reduce-scatter over x and an all-reduce over y
// of the half left (60 + 60 B). The per-axis formula all-reduced y at full
// size (180 B) and so preferred moving x to the rows, which the partitioner
// carried out as one all-reduce over both axes (180 B).
// CHECK-LABEL: sharding of @pending_two_axes:
// CHECK: %0 = xla.matmul {{.*}}: #xla.sharding<@mesh, [{"x"}, {}], partial={"y"}>
// CHECK: conflict at xla.matmul {{.*}}: axis "x" wanted by factors i j
// CHECK-NEXT: on factor i from result 0: cost 1240
// CHECK-NEXT: on factor j from operand 0: cost 436  <- chosen
// CHECK: planned bytes of @pending_two_axes:
// CHECK-NEXT: xla.matmul {{.*}}: 60 B per device
// CHECK-NEXT: func.return {{.*}}: 60 B per device
// BYTES: @pending_two_axes: 2 collectives, sends 120 B per device
// BYTES-NEXT: reduce_scatter sum mesh_axes {{\[}}"x"] (group 2) ici in 120 B sends 60 B
// BYTES-NEXT: all_reduce sum mesh_axes {{\[}}"y"] (group 2) ici in 60 B sends 60 B
func.func @pending_two_axes(%a: tensor<6x7xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x", "y"}]>},
                            %b: tensor<7x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<6x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %r = xla.matmul %a, %b : (tensor<6x7xf32>, tensor<7x5xf32>) -> tensor<6x5xf32>
  return %r : tensor<6x5xf32>
}

xla.mesh @mesh24 = <["x"=2, "y"=4]>

// At the second matmul, x either stays on the 7-long contraction (the
// product pending, reduce-scattered into the result's rows) or c is
// gathered. The formula gathers c's whole block (42 B); the planner first
// slices c's columns by y (free, the result wants them split) and gathers a
// quarter of it (16 B). Gathering c also leaves t split by rows, not by its
// 7 columns padded to 8, so the first product's all-reduce moves 336 B
// instead of 384 B: 352 B per device instead of 416 B.
// CHECK-LABEL: sharding of @uneven_contraction:
// CHECK: %1 = xla.tanh {{.*}}: #xla.sharding<@mesh24, [{"x"}, {}]>
// CHECK: conflict at xla.matmul {{.*}}: reduction factor j (size 7) can be sharded in 2 ways
// CHECK-NEXT: {"x"} from operand 1: cost 288
// CHECK-NEXT: {} (unsharded): cost 272  <- chosen
// CHECK: planned bytes of @uneven_contraction:
// CHECK-NEXT: xla.tanh {{.*}}: 336 B per device
// CHECK-NEXT: xla.matmul {{.*}}: 16 B per device
// BYTES: @uneven_contraction: 5 collectives, sends 352 B per device
func.func @uneven_contraction(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@mesh24, [{}, {"y"}]>},
                              %b: tensor<64x7xf32> {xla.sharding = #xla.sharding<@mesh24, [{}, {}]>},
                              %c: tensor<7x3xf32> {xla.sharding = #xla.sharding<@mesh24, [{"x"}, {}]>})
    -> (tensor<16x3xf32> {xla.sharding = #xla.sharding<@mesh24, [{"x"}, {"y"}]>}) {
  %r = xla.matmul %a, %b : (tensor<16x64xf32>, tensor<64x7xf32>) -> tensor<16x7xf32>
  %t = xla.tanh %r : tensor<16x7xf32>
  %s = xla.matmul %t, %c : (tensor<16x7xf32>, tensor<7x3xf32>) -> tensor<16x3xf32>
  return %s : tensor<16x3xf32>
}
