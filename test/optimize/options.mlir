// RUN: not xla-opt %s --xla-optimize-collectives=disable=no-such-rewrite 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not xla-opt %s --xla-optimize-collectives=combine-threshold-bytes=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: xla-opt %s --xla-optimize-collectives=print-counts -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNTS
// RUN: xla-opt %s --xla-optimize-collectives="print-counts disable=gather-gather" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DISABLED

// UNKNOWN: error: xla-optimize-collectives: unknown rewrite 'no-such-rewrite' in disable= (known: reduce-scatter, slice-before-reduce,
// NEGATIVE: error: xla-optimize-collectives: combine-threshold-bytes must not be negative
// COUNTS: xla-optimize-collectives: reduce-scatter=1 gather-gather=1 dead-collective=1 all-reduce-combiner=2{{$}}
// DISABLED: xla-optimize-collectives: reduce-scatter=1 dead-collective=1 all-reduce-combiner=2{{$}}

xla.mesh @mesh = <["x"=2, "y"=4]>

func.func @f(%a: tensor<8xf32>, %b: tensor<1xf32>, %c: tensor<4xf32>, %d: tensor<4xf32>)
    -> (tensor<2xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["y"] : tensor<8xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @mesh["y"] : (tensor<8xf32>) -> tensor<2xf32>
  %2 = xla.all_gather %b, dim = 0 mesh_axes = @mesh["y"] : (tensor<1xf32>) -> tensor<4xf32>
  %3 = xla.all_gather %2, dim = 0 mesh_axes = @mesh["x"] : (tensor<4xf32>) -> tensor<8xf32>
  %4 = xla.all_reduce max %c mesh_axes = @mesh["x"] : tensor<4xf32>
  %5 = xla.all_reduce max %d mesh_axes = @mesh["x"] : tensor<4xf32>
  %6 = xla.collective_permute %d, pairs = [[0, 1]] mesh_axes = @mesh["x"] : tensor<4xf32>
  return %1, %3, %4, %5 : tensor<2xf32>, tensor<8xf32>, tensor<4xf32>, tensor<4xf32>
}
