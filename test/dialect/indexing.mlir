// Round trip of hlo_gather, scatter and sort.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// CHECK-LABEL: func.func @gather_rows
// CHECK: xla.hlo_gather %{{.*}}[%{{.*}}], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
func.func @gather_rows(%x: tensor<100x16xf32>, %i: tensor<8x1xi32>) -> tensor<8x16xf32> {
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 16] : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// The vector dimension may be implicit (the indices' rank), slices need not
// be collapsed, and the indices may be i64.
// CHECK-LABEL: func.func @gather_windows
// CHECK: xla.hlo_gather %{{.*}}[%{{.*}}], offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [1], index_vector_dim = 1, slice_sizes = [6, 3] indices_are_sorted : (tensor<6x10xbf16>, tensor<4xi64>) -> tensor<4x6x3xbf16>
func.func @gather_windows(%x: tensor<6x10xbf16>, %i: tensor<4xi64>) -> tensor<4x6x3xbf16> {
  %r = xla.hlo_gather %x[%i], offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [1], index_vector_dim = 1, slice_sizes = [6, 3] indices_are_sorted : (tensor<6x10xbf16>, tensor<4xi64>) -> tensor<4x6x3xbf16>
  return %r : tensor<4x6x3xbf16>
}

// StableHLO's example with batching dimensions.
// CHECK-LABEL: func.func @gather_batching
// CHECK: xla.hlo_gather %{{.*}}[%{{.*}}], batching_dims = [0] x [1], offset_dims = [3, 4], collapsed_slice_dims = [1], start_index_map = [2, 1], index_vector_dim = 3, slice_sizes = [1, 1, 2, 2] : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
func.func @gather_batching(%x: tensor<2x3x4x2xi32>, %i: tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32> {
  %r = xla.hlo_gather %x[%i], batching_dims = [0] x [1], offset_dims = [3, 4], collapsed_slice_dims = [1], start_index_map = [2, 1], index_vector_dim = 3, slice_sizes = [1, 1, 2, 2] : (tensor<2x3x4x2xi32>, tensor<2x2x3x2xi64>) -> tensor<2x2x3x2x2xi32>
  return %r : tensor<2x2x3x2x2xi32>
}

// CHECK-LABEL: func.func @scatter_add
// CHECK: xla.scatter %{{.*}}[%{{.*}}] updates(%{{.*}}), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>):
// CHECK-NEXT: %[[S:.*]] = xla.add %[[A]], %[[B]] : tensor<f32>
// CHECK-NEXT: xla.yield %[[S]] : tensor<f32>
// CHECK-NEXT: }
func.func @scatter_add(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) -> tensor<10x4xf32> {
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<10x4xf32>
}

// Two inputs, batching dimensions and both promises.
// CHECK-LABEL: func.func @scatter_pair
// CHECK: %{{.*}}:2 = xla.scatter %{{.*}}, %{{.*}}[%{{.*}}] updates(%{{.*}}, %{{.*}}), batching_dims = [0] x [0], update_window_dims = [], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 indices_are_sorted unique_indices : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<3x2xi32>, tensor<3x2xf32>, tensor<3x2xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>) {
func.func @scatter_pair(%x: tensor<3x5xf32>, %y: tensor<3x5xi32>, %i: tensor<3x2xi32>, %u: tensor<3x2xf32>, %v: tensor<3x2xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>) {
  %r:2 = xla.scatter %x, %y[%i] updates(%u, %v), batching_dims = [0] x [0], update_window_dims = [], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 indices_are_sorted unique_indices : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<3x2xi32>, tensor<3x2xf32>, tensor<3x2xi32>) -> (tensor<3x5xf32>, tensor<3x5xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    xla.yield %c, %d : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<3x5xf32>, tensor<3x5xi32>
}

// CHECK-LABEL: func.func @argsort
// CHECK: %{{.*}}:2 = xla.sort(%{{.*}}, %{{.*}}) dim = 1 stable : tensor<4x8xf32>, tensor<4x8xi32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>, %{{.*}}: tensor<i32>, %{{.*}}: tensor<i32>):
// CHECK-NEXT: %[[C:.*]] = xla.compare gt, %[[A]], %[[B]] : tensor<f32>
// CHECK-NEXT: xla.yield %[[C]] : tensor<i1>
func.func @argsort(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %iota = xla.iota dim = 1 : tensor<4x8xi32>
  %k, %i = xla.sort(%x, %iota) dim = 1 stable : tensor<4x8xf32>, tensor<4x8xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %gt = xla.compare gt, %a, %b : tensor<f32>
    xla.yield %gt : tensor<i1>
  }
  return %k, %i : tensor<4x8xf32>, tensor<4x8xi32>
}

// CHECK-LABEL: func.func @sort_one
// CHECK: xla.sort(%{{.*}}) dim = 0 : tensor<5xi8> {
func.func @sort_one(%x: tensor<5xi8>) -> tensor<5xi8> {
  %s = xla.sort(%x) dim = 0 : tensor<5xi8> {
  ^bb0(%a: tensor<i8>, %b: tensor<i8>):
    %lt = xla.compare lt, %a, %b : tensor<i8>
    xla.yield %lt : tensor<i1>
  }
  return %s : tensor<5xi8>
}
