// RUN: xla-opt %s --xla-explain-sharding -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: xla-opt %s --xla-explain-sharding --xla-partition=report-bytes=true -o /dev/null | FileCheck %s --check-prefix=EMIT
// RUN: xla-opt %s --xla-propagate-sharding --xla-partition --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-run %s --function=sum_of_partial --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=mean_of_partial --check | FileCheck %s --check-prefix=EXEC

// The pending sum of a partial matmul passes through a sum (or mean)
// reduce, so the all-reduce runs on the reduced result: 128 floats, 768 B
// per device, instead of the 64x128 product, 49,152 B. Propagation marks
// the reduce's result partial, the plan charges the all-reduce to the
// return, and the partitioner emits exactly that.

xla.mesh @mesh = <["a"=4]>

// PLAN-LABEL: sharding of @sum_of_partial:
// PLAN: %1 = xla.reduce {{.*}}: #xla.sharding<@mesh, [{}], partial={"a"}>
// PLAN: planned bytes of @sum_of_partial:
// PLAN-NEXT: func.return at partial-through-reduce.mlir:[[#@LINE+9]]:3: 768 B per device
// EMIT-LABEL: emitted bytes of @sum_of_partial:
// EMIT-NEXT: func.return at partial-through-reduce.mlir:[[#@LINE+7]]:3: 768 B per device
// BYTES: @sum_of_partial: 1 collective, sends 768 B per device
// BYTES-NEXT: all_reduce sum mesh_axes {{\[}}"a"] (group 4) ici in 512 B sends 768 B
func.func @sum_of_partial(%x: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}]>},
                          %w: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {}]>}) -> tensor<128xf32> {
  %y = xla.matmul %x, %w : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %s = xla.reduce sum %y, dims = [0] : (tensor<64x128xf32>) -> tensor<128xf32>
  return %s : tensor<128xf32>
}

// A mean is a scaled sum: the same plan. A max is not linear: the product
// is all-reduced first (the pending sum stops at the max).
// PLAN-LABEL: sharding of @mean_of_partial:
// PLAN: %1 = xla.reduce {{.*}}: #xla.sharding<@mesh, [{}], partial={"a"}>
// PLAN: %3 = xla.reduce {{.*}}: #xla.sharding<@mesh, [{}]>
// PLAN: planned bytes of @mean_of_partial:
// PLAN-NEXT: xla.reduce at partial-through-reduce.mlir:[[#@LINE+11]]:8: 49152 B per device
// PLAN-NEXT: func.return at partial-through-reduce.mlir:[[#@LINE+11]]:3: 768 B per device
// EMIT-LABEL: emitted bytes of @mean_of_partial:
// EMIT-NEXT: xla.reduce at partial-through-reduce.mlir:[[#@LINE+8]]:8: 49152 B per device
// EMIT-NEXT: func.return at partial-through-reduce.mlir:[[#@LINE+8]]:3: 768 B per device
func.func @mean_of_partial(%x: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"a"}]>},
                           %w: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"a"}, {}]>})
    -> (tensor<128xf32>, tensor<128xf32>) {
  %y = xla.matmul %x, %w : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %m = xla.reduce mean %y, dims = [0] : (tensor<64x128xf32>) -> tensor<128xf32>
  %z = xla.matmul %x, %w : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %n = xla.reduce max %z, dims = [0] : (tensor<64x128xf32>) -> tensor<128xf32>
  return %m, %n : tensor<128xf32>, tensor<128xf32>
}

// EXEC: [SUCCESS]
