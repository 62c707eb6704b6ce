// RUN: xla-opt %s --xla-propagate-sharding --xla-partition | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding --xla-explain-sharding -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: xla-opt %s --xla-spmd-pipeline=lower=false --xla-report-collectives -o /dev/null | FileCheck %s --check-prefix=BYTES
// RUN: xla-run %s --function=fsdp_weight --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=row_parallel --check | FileCheck %s --check-prefix=EXEC
// EXEC: [SUCCESS]

// An operand split along a contracting (reduction) factor is either kept
// split, making the product a pending sum, or gathered: the partitioner
// prices both and the cheaper wins, as propagation's conflict resolution
// chose.
xla.mesh @mesh = <["x"=4]>

// FSDP: the weight's rows are split, the activations replicated. Gathering
// the 128-byte weight (each device receives 96 B) beats slicing the
// activations and all-reducing the 1 KiB product (1536 B per device); each
// option also pays its collective's fixed cost (256).
// EXPLAIN: conflict at xla.matmul
// EXPLAIN-NEXT: {"x"} from operand 1: cost 1792
// EXPLAIN-NEXT: {} (unsharded): cost 352  <- chosen
// CHECK-LABEL: func.func @fsdp_weight
// CHECK: %[[W:.*]] = xla.all_gather %arg1, dim = 0 mesh_axes = @mesh["x"] : (tensor<2x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: xla.matmul %arg0, %[[W]] : (tensor<64x8xf32>, tensor<8x4xf32>) -> tensor<64x4xf32>
// CHECK-NOT: xla.all_reduce
// CHECK: return
// BYTES: @fsdp_weight: 1 collective, sends 96 B per device
func.func @fsdp_weight(%x: tensor<64x8xf32>,
                       %w: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<64x4xf32> {
  %0 = xla.matmul %x, %w : (tensor<64x8xf32>, tensor<8x4xf32>) -> tensor<64x4xf32>
  return %0 : tensor<64x4xf32>
}

// Row-parallel (Megatron): both operands split along the contracting
// dimension; the small product's all-reduce (24 B per device) beats
// gathering either operand.
// CHECK-LABEL: func.func @row_parallel
// CHECK: xla.matmul %arg0, %arg1 : (tensor<4x16xf32>, tensor<16x1xf32>) -> tensor<4x1xf32>
// CHECK: xla.all_reduce sum
// CHECK-NOT: xla.all_gather
// BYTES: @row_parallel: 1 collective, sends 24 B per device
func.func @row_parallel(%x: tensor<4x64xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"x"}]>},
                        %w: tensor<64x1xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<4x1xf32> {
  %0 = xla.matmul %x, %w : (tensor<4x64xf32>, tensor<64x1xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}
