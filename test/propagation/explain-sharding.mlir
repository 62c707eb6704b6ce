// RUN: xla-opt %s --xla-explain-sharding -o /dev/null | FileCheck %s
// RUN: xla-opt %s --xla-propagate-sharding=explain=true -o /dev/null | FileCheck %s

xla.mesh @mesh = <["data"=2, "model"=4]>

// Every value: its sharding, then per sharded dimension the annotation it
// descends from and the op that brought it.
// CHECK-LABEL: sharding of @megatron:
// CHECK-NEXT:   %arg0: #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK-NEXT:     annotated (argument 0)
// CHECK-NEXT:   %arg1: #xla.sharding<@mesh, [{}, {"model"}]>
// CHECK-NEXT:     annotated (argument 1)
// CHECK-NEXT:   %arg2: #xla.sharding<@mesh, [{"model"}, {}]>
// CHECK-NEXT:     annotated (argument 2)
// CHECK-NEXT:   %0 = xla.matmul at explain-sharding.mlir:{{[0-9]+}}:8: #xla.sharding<@mesh, [{"data"}, {"model"}]>
// CHECK-NEXT:     dim 0 {"data"}: from argument 0 through xla.matmul at explain-sharding.mlir:{{[0-9]+}}:8 (operand 0)
// CHECK-NEXT:     dim 1 {"model"}: from argument 1 through xla.matmul at explain-sharding.mlir:{{[0-9]+}}:8 (operand 1)
// CHECK-NEXT:   %1 = xla.gelu at explain-sharding.mlir:{{[0-9]+}}:8: #xla.sharding<@mesh, [{"data"}, {"model"}]>
// CHECK-NEXT:     dim 0 {"data"}: from argument 0 through xla.gelu at explain-sharding.mlir:{{[0-9]+}}:8 (operand 0)
// CHECK-NEXT:     dim 1 {"model"}: from argument 1 through xla.gelu at explain-sharding.mlir:{{[0-9]+}}:8 (operand 0)
// CHECK-NEXT:   %2 = xla.matmul at explain-sharding.mlir:{{[0-9]+}}:8: #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>
// CHECK-NEXT:     dim 0 {"data"}: from argument 0 through xla.matmul at explain-sharding.mlir:{{[0-9]+}}:8 (operand 0)
// CHECK-NEXT:     partial {"model"} (sum): reduction factor of xla.matmul at explain-sharding.mlir:{{[0-9]+}}:8 sharded by argument 1
// CHECK-NEXT:   result 0: #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK-NEXT:     dim 0 {"data"}: from argument 0 through func.return at explain-sharding.mlir:{{[0-9]+}}:3 (returned value)
// CHECK-NOT: conflict
func.func @megatron(%x: tensor<16x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                    %w1: tensor<32x128xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                    %w2: tensor<128x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>}) -> tensor<16x32xf32> {
  %h = xla.matmul %x, %w1 : (tensor<16x32xf32>, tensor<32x128xf32>) -> tensor<16x128xf32>
  %g = xla.gelu %h : tensor<16x128xf32>
  %o = xla.matmul %g, %w2 : (tensor<16x128xf32>, tensor<128x32xf32>) -> tensor<16x32xf32>
  return %o : tensor<16x32xf32>
}

// Conflicts list their alternatives with priorities and costs: the
// partitioner's planner's weighted bytes per device plus 256 per
// collective. Sharding the contracting dimension costs one all-to-all of %x
// over both axes (1024 * 7/8 = 896, + 256) and an all-reduce of the result
// (2 * 16384 * 7/8 = 28672, + 256); gathering %w costs 8192 * 7/8 = 7168
// in two all-gathers (+ 512).
// CHECK-LABEL: sharding of @fsdp:
// CHECK-NEXT:   %arg0: #xla.sharding<@mesh, [{"data", "model"}, {}]>
// CHECK-NEXT:     annotated (argument 0)
// CHECK-NEXT:   %arg1: #xla.sharding<@mesh, [{"data", "model"}, {}]>
// CHECK-NEXT:     annotated (argument 1)
// CHECK-NEXT:   %arg2: #xla.sharding<@mesh, [{}]>
// CHECK-NEXT:     replicated: no sharding reached it
// CHECK-NEXT:   %0 = xla.exp at {{.*}}: #xla.sharding<@mesh, [{}]>
// CHECK-NEXT:     replicated: no sharding reached it
// CHECK-NEXT:   %1 = xla.matmul at {{.*}}: #xla.sharding<@mesh, [{"data", "model"}, {}]>
// CHECK-NEXT:     dim 0 {"data", "model"}: from argument 0 through xla.matmul at {{.*}} (operand 0)
// CHECK-NEXT:   result 0: #xla.sharding<@mesh, [{"data", "model"}, {}]>
// CHECK-NEXT:     dim 0 {"data", "model"}: from argument 0 through func.return at {{.*}} (returned value)
// CHECK-NEXT:   conflict at xla.matmul at explain-sharding.mlir:{{[0-9]+}}:8: reduction factor j (size 32) can be sharded in 2 ways
// CHECK-NEXT:     {"data", "model"} from operand 1: cost 30080
// CHECK-NEXT:     {} (unsharded): cost 7680  <- chosen
func.func @fsdp(%x: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data", "model"}, {}]>},
                %w: tensor<32x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"data", "model"}, {}]>},
                %u: tensor<8xf32>) -> tensor<64x64xf32> {
  %0 = xla.exp %u : tensor<8xf32>
  %h = xla.matmul %x, %w : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  return %h : tensor<64x64xf32>
}

// One axis wanted by two factors: the stronger priority keeps it.
// CHECK-LABEL: sharding of @axis_twice:
// CHECK:        conflict at xla.matmul at {{.*}}: axis "model" wanted by factors i k
// CHECK-NEXT:     on factor i from operand 0, priority p0: cost {{[0-9]+}}  <- chosen
// CHECK-NEXT:     on factor k from operand 1: cost {{[0-9]+}}{{$}}
func.func @axis_twice(%a: tensor<16x64xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}p0, {}]>},
                      %b: tensor<64x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>}) -> tensor<16x32xf32> {
  %0 = xla.matmul %a, %b : (tensor<16x64xf32>, tensor<64x32xf32>) -> tensor<16x32xf32>
  return %0 : tensor<16x32xf32>
}
