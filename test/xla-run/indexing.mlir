// sort, scatter and hlo_gather on one device; expected values by hand.
// RUN: xla-run %s --function=argsort --input=2x4xf32=3,1,2,0,5,7,6,4 | FileCheck %s --check-prefix=SORT
// RUN: xla-run %s --function=scatter_add --input=4x2xf32=0,0,1,1,2,2,3,3 --input=5xi32=1,3,1,-1,4 --input=5x2xf32=10,20,30,40,50,60,70,80,90,100 | FileCheck %s --check-prefix=SCATTER
// RUN: xla-run %s --function=index_put --input=3xi64=7,7,7 --input=3xi32=2,0,2 --input=3xi64=1,2,3 | FileCheck %s --check-prefix=PUT
// RUN: xla-run %s --function=gather --input=3x4xbf16=0,1,2,3,10,11,12,13,20,21,22,23 --input=3xi32=-5,1,7 | FileCheck %s --check-prefix=GATHER

// SORT: result[0]: 2x4xf32=[3 2 1 0][7 6 5 4]
// SORT: result[1]: 2x4xi32=[0 2 1 3][1 2 0 3]
func.func @argsort(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %iota = xla.iota dim = 1 : tensor<2x4xi32>
  %k, %i = xla.sort(%x, %iota) dim = 1 stable : tensor<2x4xf32>, tensor<2x4xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %gt = xla.compare gt, %a, %b : tensor<f32>
    xla.yield %gt : tensor<i1>
  }
  return %k, %i : tensor<2x4xf32>, tensor<2x4xi32>
}

// Rows 1 and 3 get their updates; -1 and 4 are out of bounds, skipped.
// SCATTER: result[0]: 4x2xf32=[0 0][61 81][2 2][33 43]
func.func @scatter_add(%x: tensor<4x2xf32>, %i: tensor<5xi32>, %u: tensor<5x2xf32>) -> tensor<4x2xf32> {
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<4x2xf32>, tensor<5xi32>, tensor<5x2xf32>) -> tensor<4x2xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<4x2xf32>
}

// The last update of an index wins.
// PUT: result[0]: 3xi64=2 7 3
func.func @index_put(%x: tensor<3xi64>, %i: tensor<3xi32>, %u: tensor<3xi64>) -> tensor<3xi64> {
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<3xi64>, tensor<3xi32>, tensor<3xi64>) -> tensor<3xi64> {
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    xla.yield %b : tensor<i64>
  }
  return %r : tensor<3xi64>
}

// Windows of 2 columns, starts clamped into [0, 2].
// GATHER: result[0]: 3x3x2xbf16={{\[\[}}0 1][10 11][20 21]]{{\[\[}}1 2][11 12][21 22]]{{\[\[}}2 3][12 13][22 23]]
func.func @gather(%x: tensor<3x4xbf16>, %i: tensor<3xi32>) -> tensor<3x3x2xbf16> {
  %r = xla.hlo_gather %x[%i], offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [1], index_vector_dim = 1, slice_sizes = [3, 2] : (tensor<3x4xbf16>, tensor<3xi32>) -> tensor<3x3x2xbf16>
  return %r : tensor<3x3x2xbf16>
}
