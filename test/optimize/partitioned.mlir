// RUN: xla-opt %s --xla-partition --xla-optimize-collectives | FileCheck %s

// The partitioner reshards one step at a time; the optimizer merges the
// steps and decomposes reductions that cross slices.

xla.mesh @mesh = <["x"=2, "y"=4]>
xla.mesh @hybrid = hybrid<ici=["d"=2, "m"=2], dcn=["d"=2, "m"=1]>

// Replicating a tensor split over ("x", "y"): a gather over "y" then one
// over "x" become one gather over ["x", "y"].
// CHECK-LABEL: func.func @replicate
// CHECK: xla.all_gather %{{.*}}, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<1x16xf32>) -> tensor<8x16xf32>
// CHECK-NOT: xla.all_gather
// CHECK: return
func.func @replicate(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<8x16xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %0 = xla.exp %a {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// A contraction split over a mixed axis ("d": 2 chips in each of 2
// slices): the partitioner reduces over "d" in one all_reduce; the
// optimizer reduces within each slice first and sends a half across DCN.
// CHECK-LABEL: func.func @mixed
// CHECK: xla.reduce_scatter sum %{{.*}}, dim = 0 groups = {{\[\[}}0, 2], [4, 6], [1, 3], [5, 7]] link = ici : (tensor<8x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[\[}}0, 4], [2, 6], [1, 5], [3, 7]] link = dcn : tensor<4x32xf32>
// CHECK-NEXT: xla.all_gather %{{.*}}, dim = 0 groups = {{\[\[}}0, 2], [4, 6], [1, 3], [5, 7]] link = ici : (tensor<4x32xf32>) -> tensor<8x32xf32>
// CHECK-NOT: xla.all_reduce
// CHECK: return
func.func @mixed(%a: tensor<8x16xf32> {xla.sharding = #xla.sharding<@hybrid, [{}, {"d"}]>},
                 %b: tensor<16x32xf32> {xla.sharding = #xla.sharding<@hybrid, [{"d"}, {}]>})
    -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@hybrid, [{}, {}]>}) {
  %0 = xla.matmul %a, %b {xla.sharding = #xla.sharding<@hybrid, [{}, {}], partial={"d"}>}
      : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}
