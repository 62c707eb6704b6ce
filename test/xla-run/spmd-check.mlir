// --check runs the reference function on one device with the same global
// inputs and compares every output of the SPMD run with it.
//
// RUN: xla-run %s --function=mlp --reference-function=mlp_reference --check --seed=3 | FileCheck %s --check-prefix=MLP
// RUN: xla-run %s --function=rng_blocks --reference-function=rng_reference --check | FileCheck %s --check-prefix=RNG
// RUN: not xla-run %s --function=wrong_reduction --reference-function=mlp_reference --check --seed=3 | FileCheck %s --check-prefix=WRONG
// RUN: not xla-run %s --function=missing_all_reduce --reference-function=mlp_reference --check 2>&1 | FileCheck %s --check-prefix=REPLICA
// RUN: not xla-run %s --function=mlp --check 2>&1 | FileCheck %s --check-prefix=NOREF
// RUN: not xla-run %s --function=mlp --reference-function=rng_reference --check 2>&1 | FileCheck %s --check-prefix=ARITY

xla.mesh @mesh = <["data"=2, "model"=2]>

// A Megatron-style MLP, rows of x split over data, w1 by columns and w2 by
// rows over model; the partial products are summed over model.
// MLP: EXEC @mlp on 4 devices
// MLP: [check] result[0]: 8x8xf32 max abs error {{.*}}, max rel error {{.*}} (atol {{[0-9.e+-]+}}, rtol 0.0001): ok
// MLP: [SUCCESS]
func.func @mlp(%x: tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
               %w1: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
               %w2: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %h = xla.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %g = xla.gelu %h : tensor<4x8xf32>
  %p = xla.matmul %g, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = xla.all_reduce sum %p mesh_axes = @mesh["model"] : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

func.func @mlp_reference(%x: tensor<8x8xf32>, %w1: tensor<8x16xf32>, %w2: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %h = xla.matmul %x, %w1 : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = xla.gelu %h : tensor<8x16xf32>
  %y = xla.matmul %g, %w2 : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// Each device draws its rows of the global tensor at offset 2 * data.
// RNG: [check] result[0]: 4x3xf32 max abs error 0, max rel error 0 {{.*}}: ok
func.func @rng_blocks() -> (tensor<2x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %d = xla.axis_index @mesh["data"] : tensor<i32>
  %two = xla.constant dense<2> : tensor<i32>
  %row = xla.mul %d, %two : tensor<i32>
  %r = xla.broadcast_in_dim %row, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %z = xla.constant dense<0> : tensor<1xi32>
  %off = "xla.concatenate"(%r, %z) <{dim = 0 : i64}> : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
  %0 = xla.rng normal seed = 9, a = 0.0, b = 1.0 in [4, 3] at %off : tensor<2xi32> : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

func.func @rng_reference() -> tensor<4x3xf32> {
  %0 = xla.rng normal seed = 9, a = 0.0, b = 1.0 : tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// max instead of sum: the check fails and says where.
// WRONG: [check] result[0]: 8x8xf32 {{.*}}: MISMATCH
// WRONG-NEXT: [FAILED] result[0]: element at index {{[0-9]+}} ({{.*}}) does not match the expected ({{.*}}) ({{[0-9]+}} mismatching)
// WRONG-NOT: [SUCCESS]
func.func @wrong_reduction(%x: tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                           %w1: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                           %w2: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %h = xla.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %g = xla.gelu %h : tensor<4x8xf32>
  %p = xla.matmul %g, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = xla.all_reduce max %p mesh_axes = @mesh["model"] : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Without the all_reduce the model replicas hold different partial sums
// although the result says they are replicated.
// REPLICA: xla-run: error: result 0: devices 0 and 1 should hold the same replicated block but differ (element {{[0-9]+}}: {{.*}} vs {{.*}})
func.func @missing_all_reduce(%x: tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                              %w1: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                              %w2: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<4x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %h = xla.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %p = xla.matmul %h, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %z = xla.partition_id : tensor<i32>
  return %p : tensor<4x8xf32>
}

// NOREF: xla-run: error: --check needs a reference: annotate the program with shardings (it is then partitioned and compared with itself as written) or give --reference-function=NAME
// ARITY: xla-run: error: reference @rng_reference has 0 arguments and 1 results but @mlp has 3 and 1
