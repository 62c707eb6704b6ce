// --xla-inline-trace moves xla.trace bodies in place and records the trace
// names in the ops' locations (outermost first), so the partitioned program
// still knows which trace each op came from. The SPMD pipeline runs it
// first; the collective the partitioner adds for the return keeps the
// return's location (outside any trace), as XLA's op metadata would.

// RUN: xla-opt %s --xla-inline-trace --mlir-print-debuginfo | FileCheck %s
// RUN: xla-opt %s --xla-spmd-pipeline --mlir-print-debuginfo | FileCheck %s --check-prefix=SPMD

xla.mesh @mesh = <["data"=2, "model"=2]>

// CHECK-LABEL: func.func @mlp
// CHECK-NOT: xla.trace
// CHECK-NOT: xla.yield
// CHECK: %[[M:.*]] = xla.matmul %arg0, %arg1 {{.*}} loc(#[[LM:loc[0-9]+]])
// CHECK-NEXT: %[[G:.*]] = xla.gelu %[[M]] : tensor<8x32xf32> loc(#[[LG:loc[0-9]+]])
// CHECK-NEXT: %[[M2:.*]] = xla.matmul %[[G]], %arg2 {{.*}} loc(#[[LM2:loc[0-9]+]])
// CHECK-NEXT: return %[[M2]] : tensor<8x16xf32>
// CHECK-DAG: #[[IM:loc[0-9]+]] = loc("xla.trace:layer1"(#{{loc[0-9]+}}))
// CHECK-DAG: #[[IM2:loc[0-9]+]] = loc("xla.trace:layer2"(#{{loc[0-9]+}}))
// CHECK-DAG: #[[LM]] = loc("xla.trace:step"(#[[IM]]))
// CHECK-DAG: #[[LM2]] = loc("xla.trace:step"(#[[IM2]]))

// SPMD-LABEL: func.func @mlp
// SPMD: xla.matmul {{.*}} -> tensor<4x16xf32> loc(#[[L1:loc[0-9]+]])
// SPMD: xla.all_reduce sum {{.*}} loc(#[[LR:loc[0-9]+]])
// SPMD-DAG: #[[LR]] = loc("{{.*}}inline-trace.mlir":{{[0-9]+}}:3)
// SPMD-DAG: #[[L1]] = loc("xla.trace:step"(#{{loc[0-9]+}}))
func.func @mlp(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
               %w1: tensor<16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
               %w2: tensor<32x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %y = xla.trace "step" {
    %h = xla.trace "layer1" {
      %m = xla.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      %g = xla.gelu %m : tensor<8x32xf32>
      xla.yield %g : tensor<8x32xf32>
    } : tensor<8x32xf32>
    %o = xla.trace "layer2" {
      %m2 = xla.matmul %h, %w2 : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
      xla.yield %m2 : tensor<8x16xf32>
    } : tensor<8x16xf32>
    xla.yield %o : tensor<8x16xf32>
  } : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
