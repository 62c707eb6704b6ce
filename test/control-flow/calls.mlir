// func.call through the whole pipeline: the SPMD pipeline inlines calls
// before propagation, so each call site gets the shardings of its own
// arguments, and erases the private callee once no call is left. The
// simulator runs the unpartitioned reference with its calls in place.
//
// RUN: xla-opt %s --inline --xla-propagate-sharding | FileCheck %s --check-prefix=PROP
// RUN: xla-opt %s --xla-spmd-pipeline="lower=false" | FileCheck %s --check-prefix=PART
// RUN: xla-run %s --function=main --check --seed=1 | FileCheck %s --check-prefix=CHECKED
// RUN: xla-run %s --function=main --no-partition --seed=1 | FileCheck %s --check-prefix=REF

xla.mesh @mesh = <["data"=2, "model"=2]>

// The first call multiplies by a column-split weight, the second by a
// row-split one (Megatron): the copies of @layer get different shardings.
// PROP-NOT: func.func private @layer
// PROP-LABEL: func.func @main
// PROP: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>
// PROP: xla.relu {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>
// PROP: xla.matmul {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>
// PROP: xla.relu {{.*}}xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// PROP-NOT: call @layer

// PART-NOT: func.func private @layer
// PART-LABEL: func.func @main
// PART-SAME: tensor<4x16xf32>
// PART-SAME: tensor<16x8xf32>
// PART-SAME: tensor<8x16xf32>
// PART: %[[H1:.*]] = xla.matmul {{.*}} -> tensor<4x8xf32>
// PART: xla.relu %[[H1]] : tensor<4x8xf32>
// PART: %[[H2:.*]] = xla.matmul {{.*}} -> tensor<4x16xf32>
// PART: %[[S:.*]] = xla.all_reduce sum %[[H2]] mesh_axes = @mesh["model"] : tensor<4x16xf32>
// PART: xla.relu %[[S]] : tensor<4x16xf32>
// PART-NOT: call @layer

// CHECKED: PARTITIONED @main into @main.spmd: 1 all_reduce
// CHECKED: EXEC @main.spmd on 4 devices
// CHECKED: [check] result[0]: 8x16xf32 {{.*}}: ok
// CHECKED: [SUCCESS]

// REF: EXEC @main on 1 device
func.func private @layer(%x: tensor<8x16xf32>, %w: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %h = xla.matmul %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %r = xla.relu %h : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @main(%x: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                %w1: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
                %w2: tensor<16x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %a = call @layer(%x, %w1) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %b = call @layer(%a, %w2) : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

