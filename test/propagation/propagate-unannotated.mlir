// RUN: xla-opt %s -split-input-file -allow-unregistered-dialect --xla-propagate-sharding | FileCheck %s

// Functions no sharding reaches are replicated over the module's first mesh.
xla.mesh @first = <["x"=4]>
xla.mesh @second = <["a"=2, "b"=2]>

// CHECK-LABEL: func.func @nothing_annotated
// CHECK-SAME: %arg0: tensor<8x4xf32> {xla.sharding = #xla.sharding<@first, [{}, {}]>}
// CHECK-SAME: -> (tensor<8x4xf32> {xla.sharding = #xla.sharding<@first, [{}, {}]>})
// CHECK: xla.exp {{.*}}xla.sharding = #xla.sharding<@first, [{}, {}]>
func.func @nothing_annotated(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = xla.exp %a : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Ops without a sharding rule are barriers: nothing crosses them, their
// results are replicated.
// CHECK-LABEL: func.func @unknown_op
// CHECK: "test.op"(%{{.*}}) {xla.sharding = #xla.sharding<@first, [{}, {}]>}
// CHECK: xla.exp {{.*}}xla.sharding = #xla.sharding<@first, [{}, {}]>
func.func @unknown_op(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@first, [{"x"}, {}]>}) -> tensor<8x4xf32> {
  %0 = "test.op"(%a) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = xla.exp %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}

// ... unless they carry an xla.sharding_rule.
// CHECK-LABEL: func.func @unknown_op_with_rule
// CHECK: "test.op"(%{{.*}}) {xla.sharding = #xla.sharding<@first, [{}, {"x"}]>
func.func @unknown_op_with_rule(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@first, [{"x"}, {}]>}) -> tensor<4x8xf32> {
  %0 = "test.op"(%a) {xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([j, i]) {i=8, j=4}>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// Shardings over another mesh are not mixed with the op's mesh (the one
// of its strongest sharding; the first on ties).
// CHECK-LABEL: func.func @two_meshes
// CHECK: xla.add {{.*}}xla.sharding = #xla.sharding<@first, [{"x"}, {}]>
func.func @two_meshes(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@first, [{"x"}, {}]>},
                      %b: tensor<8x4xf32> {xla.sharding = #xla.sharding<@second, [{}, {"a"}]>}) -> tensor<8x4xf32> {
  %0 = xla.add %a, %b : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// Non-tensor values and scalars are fine.
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: %arg0: tensor<f32> {xla.sharding = #xla.sharding<@first, []>}
// CHECK-SAME: %arg1: index
// CHECK-NOT: index {xla.sharding
func.func @scalars(%a: tensor<f32>, %i: index) -> tensor<f32> {
  %0 = xla.exp %a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Without a mesh there is nothing to say: the module is unchanged.
// CHECK-LABEL: func.func @no_mesh
// CHECK-NOT: xla.sharding
func.func @no_mesh(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = xla.exp %a : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
