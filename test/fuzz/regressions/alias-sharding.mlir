// Differential fuzzing (test/fuzz/fuzz.py), seed 23: pipeline-error
// before the fix: error: 'func.func' op argument 1 of type 'tensor<2xbf16>'
// cannot alias result 4 of type 'tensor<4xbf16>'
// An argument aliasing a result with another sharding: after partitioning
// their local types differ and the function no longer verified. The alias
// is dropped (the argument stays donated), with a warning.
// RUN: xla-opt %s --xla-spmd-pipeline 2>&1 | FileCheck %s
// RUN: xla-run %s --check --seed=23 2>&1 | FileCheck %s --check-prefix=SPMD

xla.mesh @mesh = <["x"=2]>
// CHECK: warning: argument 0 cannot alias result 0 after partitioning: their local types 'tensor<2xf32>' and 'tensor<4xf32>' differ; the argument stays donated
// CHECK: func.func @main(%arg0: tensor<2xf32> {xla.donate, xla.global_type = tensor<4xf32>, xla.sharding = #xla.sharding<@mesh, [{"x"}]>}
// CHECK-NOT: xla.aliases
// SPMD: PARTITIONED @main
// SPMD: [SUCCESS]
func.func @main(%arg0: tensor<4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>, xla.aliases = 0})
    -> (tensor<4xf32> {xla.sharding = #xla.sharding<@mesh, [{}]>}) {
  %0 = xla.neg %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
