// Maximal (single-device) meshes next to the module's 8-device mesh: they
// parse, print back and do not count as meshes of another device count.

// RUN: xla-opt %s | FileCheck %s
// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --xla-dump-meshes -o /dev/null | FileCheck %s --check-prefix=DUMP

// CHECK: xla.mesh @maximal_3 = <[], devices=[3]>
// CHECK: xla.mesh @mesh = <["x"=2, "y"=4]>
// CHECK: xla.mesh @one_axis = <["x"=1], devices=[7]>
// CHECK: xla.mesh @maximal_0 = <[], devices=[0]>
xla.mesh @maximal_3 = <[], devices=[3]>
xla.mesh @mesh = <["x"=2, "y"=4]>
xla.mesh @one_axis = <["x"=1], devices=[7]>
xla.mesh @maximal_0 = <[], devices=[0]>

// CHECK-LABEL: func.func @f
// CHECK-SAME: #xla.sharding<@maximal_3, [{}, {}]>
// CHECK: xla.mark_sharding %{{.*}} <@mesh, [{"x"}, {}]>
func.func @f(%a: tensor<8x4xf32> {xla.sharding = #xla.sharding<@maximal_3, [{}, {}]>}) -> tensor<8x4xf32> {
  %b = xla.mark_sharding %a <@mesh, [{"x"}, {}]> : tensor<8x4xf32>
  return %b : tensor<8x4xf32>
}

// DUMP: mesh @maximal_3: maximal on device 3
// DUMP: mesh @mesh: 8 devices, shape [2, 4]
// DUMP: mesh @one_axis: maximal on device 7
// DUMP: mesh @maximal_0: maximal on device 0
