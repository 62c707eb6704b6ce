// --xla-spmd-pipeline ends with --xla-lower-to-device (then CSE);
// lower=false stops at the SPMD program on mesh axes.

// RUN: xla-opt %s --xla-spmd-pipeline | FileCheck %s
// RUN: xla-opt %s --xla-spmd-pipeline=lower=false | FileCheck %s --check-prefix=SPMD
// RUN: xla-opt %s --pass-pipeline="builtin.module(xla-spmd-pipeline{optimize=false lower=true})" | FileCheck %s

xla.mesh @mesh = <["data"=2, "model"=2]>

// CHECK-LABEL: func.func @mlp
// CHECK-SAME: {xla.global_type = tensor<8x8xf32>, xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: attributes {xla.partitioned}
// CHECK-NEXT: %[[R:.*]] = xla.dispatch [@mlp.body0](%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
// The body keeps the entry's argument, result and function attributes.
// CHECK: func.func private @mlp.body0
// CHECK-SAME: (%{{.*}}: tensor<4x8xf32> {xla.global_type = tensor<8x8xf32>, xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 1, 2, 3>, xla.partitioned}
// CHECK: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1], [2, 3]] link = ici : tensor<4x8xf32>
// CHECK-NOT: axis_index
// CHECK-NOT: mesh_axes

// SPMD-LABEL: func.func @mlp
// SPMD: xla.all_reduce sum %{{.*}} mesh_axes = @mesh["model"] : tensor<4x8xf32>
// SPMD-NOT: xla.dispatch
// SPMD-NOT: xla.devices
func.func @mlp(%x: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
               %w1: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
               %w2: tensor<16x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %h = xla.matmul %x, %w1 : (tensor<8x8xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = xla.gelu %h : tensor<8x16xf32>
  %y = xla.matmul %g, %w2 : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// The printed per-device program runs as is and computes what the program
// as written computes on one device.
// RUN: xla-run %s --function=mlp --no-partition --seed=1 --output=@%t.ref.npy
// RUN: xla-opt %s --xla-spmd-pipeline | xla-run - --function=mlp --seed=1 --expected_output=@%t.ref.npy | FileCheck %s --check-prefix=SIM
// SIM: EXEC @mlp on 4 devices
// SIM: [SUCCESS]

// Running the pipeline on its own output is harmless: entries and bodies
// are partitioned functions (not partitioned again) and lowering skips
// them.
// RUN: xla-opt %s --xla-spmd-pipeline | xla-opt --xla-spmd-pipeline | FileCheck %s --check-prefix=TWICE
// TWICE-LABEL: func.func @mlp
// TWICE-NEXT: xla.dispatch [@mlp.body0]
// TWICE: func.func private @mlp.body0
// TWICE-SAME: attributes {xla.devices = array<i64: 0, 1, 2, 3>, xla.partitioned}
// TWICE: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1], [2, 3]] link = ici
// TWICE-NOT: func.func private
