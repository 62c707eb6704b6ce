// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s

// A dynamically shaped argument split along a static dimension and returned
// as it is partitions: each device holds ?x2 (errors for the rest:
// invalid-dynamic.mlir).
// CHECK-LABEL: func.func @split_static_dim
// CHECK-SAME: (%{{.*}}: tensor<?x2xf32> {xla.global_type = tensor<?x8xf32>
// CHECK-SAME: -> (tensor<?x2xf32>
// CHECK-NEXT: return %{{.*}} : tensor<?x2xf32>
xla.mesh @line = <["x"=4]>
func.func @split_static_dim(%a: tensor<?x8xf32> {xla.sharding = #xla.sharding<@line, [{}, {"x"}]>}) -> tensor<?x8xf32> {
  return %a : tensor<?x8xf32>
}
