// RUN: xla-opt %s --xla-partition | FileCheck %s

// A vocabulary-parallel embedding: each device holds a block of rows, looks
// up the (clamped) indices that fall in it and contributes zeros for the
// others; the sum over devices is the lookup.
xla.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func @embedding
// CHECK-SAME: %[[T:.*]]: tensor<3x4xf32>
// CHECK-SAME: %[[I:.*]]: tensor<5xi32>
// CHECK: %[[ROW0:.*]] = xla.mul %{{.*}}, %{{.*}} : tensor<i32>
// CHECK: %[[LO:.*]] = xla.max %[[I]], %{{.*}} : tensor<5xi32>
// CHECK: %[[CL:.*]] = xla.min %[[LO]], %{{.*}} : tensor<5xi32>
// CHECK: %[[SH:.*]] = xla.sub %[[CL]], %{{.*}} : tensor<5xi32>
// CHECK: %[[G:.*]] = xla.gather %[[T]], %[[SH]] : (tensor<3x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
// CHECK: %[[M:.*]] = xla.select %{{.*}}, %[[G]], %{{.*}} : tensor<5x4xf32>
// CHECK: xla.all_reduce sum %[[M]] mesh_axes = @mesh["x"] : tensor<5x4xf32>
func.func @embedding(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
                     %i: tensor<5xi32> {xla.sharding = #xla.sharding<@mesh, [{}]>})
    -> (tensor<5x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %g = xla.gather %t, %i {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial={"x"}>} : (tensor<10x4xf32>, tensor<5xi32>) -> tensor<5x4xf32>
  return %g : tensor<5x4xf32>
}
