// RUN: xla-opt %s --xla-propagate-sharding --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s
// RUN: %python %xspmd_src/utils/compare-bytes.py --xla-opt xla-opt %s | FileCheck %s --check-prefix=EXPLAIN
// RUN: %python %xspmd_src/test/e2e/run_checks.py xla-run %s | FileCheck %s --check-prefix=RUN-CHECKS
// RUN-CHECKS: checked 1 functions, 0 failed
// EXPLAIN: 1 ops with traffic, 0 differ

// A reshape's cut is dropped when it does not fit the cuts in use: "x"=6
// is split at 3 by "x":(1)3, so the 2 of [2,36] cannot take "x":(1)2 (2
// and 3 do not form a chain); the reshape gathers instead, with no error.
xla.mesh @six = <["x"=6]>
// CHECK-LABEL: @parts_incompatible: 4 collectives, sends 240 B per device
// CHECK-NEXT: all_gather mesh_axes ["x:(3)2"]
// CHECK-NEXT: all_gather mesh_axes ["x:(1)3"]
func.func @parts_incompatible(%a: tensor<2x36xf32> {xla.sharding = #xla.sharding<@six, [{}, {"x"}]>},
                              %b: tensor<6x4xf32> {xla.sharding = #xla.sharding<@six, [{"x":(1)3}, {}]>})
    -> (tensor<72xf32> {xla.sharding = #xla.sharding<@six, [{"x"}]>}, tensor<6x4xf32>) {
  %r = xla.reshape %a : (tensor<2x36xf32>) -> tensor<72xf32>
  return %r, %b : tensor<72xf32>, tensor<6x4xf32>
}
