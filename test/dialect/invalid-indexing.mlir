// Verifier rules of hlo_gather, scatter and sort.

// RUN: xla-opt %s -split-input-file -verify-diagnostics

func.func @gather_element_type(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op result element type 'f16' differs from the operand's 'f32'}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf16>
  return
}

// -----

func.func @gather_vector_dim(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op index_vector_dim 3 exceeds the rank 2 of start_indices}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 3, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_index_map_size(%x: tensor<10x4xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op start_index_map has 1 entries but the index vectors of start_indices have 2 components}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_index_map_range(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op start_index_map entry 2 is out of range for operand of rank 2}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [2], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_index_map_repeat(%x: tensor<10x4xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op start_index_map repeats dimension 0}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_collapsed_unsorted(%x: tensor<10x4xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op collapsed_slice_dims must be increasing, got [1, 0]}}
  %r = xla.hlo_gather %x[%i], offset_dims = [], collapsed_slice_dims = [1, 0], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<10x4xf32>, tensor<3x2xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_collapsed_and_batching(%x: tensor<3x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op operand dimension 0 is in both collapsed_slice_dims and operand_batching_dims}}
  %r = xla.hlo_gather %x[%i], batching_dims = [0] x [0], offset_dims = [], collapsed_slice_dims = [0, 1], start_index_map = [1], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<3x4xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_batching_indexed(%x: tensor<3x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op operand dimension 0 is in both start_index_map and operand_batching_dims}}
  %r = xla.hlo_gather %x[%i], batching_dims = [0] x [0], offset_dims = [], collapsed_slice_dims = [1], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<3x4xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_batching_vector_dim(%x: tensor<3x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op start_indices_batching_dims contains index_vector_dim 1}}
  %r = xla.hlo_gather %x[%i], batching_dims = [0] x [1], offset_dims = [], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<3x4xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_batching_count(%x: tensor<3x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op operand_batching_dims has 0 entries but start_indices_batching_dims has 1}}
  %r = "xla.hlo_gather"(%x, %i) <{offset_dims = array<i64>, collapsed_slice_dims = array<i64: 0, 1>, start_indices_batching_dims = array<i64: 0>, start_index_map = array<i64: 1>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 1>}> : (tensor<3x4xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_batching_size(%x: tensor<2x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op batching dimension 0 of operand has size 2 but dimension 0 of start_indices has size 3}}
  %r = xla.hlo_gather %x[%i], batching_dims = [0] x [0], offset_dims = [], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<2x4xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_slice_count(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op slice_sizes has 1 entries for an operand of rank 2}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_slice_too_big(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op slice size 5 of dimension 1 is outside [0, 4]}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 5] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gather_collapsed_size(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op dimension 0 is collapsed but its slice size is 2; it must be 1}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [2, 4] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_rank_count(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op offset_dims (2), collapsed_slice_dims (1) and operand_batching_dims (0) must together count the operand's rank 2}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @gather_offset_range(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op offset_dims entry 2 is out of range for the result of rank 2}}
  %r = xla.hlo_gather %x[%i], offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_shape(%x: tensor<10x4xf32>, %i: tensor<3x1xi32>) {
  // expected-error @+1 {{'xla.hlo_gather' op result shape [4, 3] differs from the gathered shape [3, 4]}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_float_indices(%x: tensor<10x4xf32>, %i: tensor<3x1xf32>) {
  // expected-error @+1 {{'xla.hlo_gather' op operand #1 must be statically shaped tensor of 32-bit signless integer or 64-bit signless integer values}}
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_counts(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op has 2 inputs but 1 updates}}
  %r:2 = xla.scatter %x, %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> (tensor<10x4xf32>, tensor<10x4xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    xla.yield %c, %d : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @scatter_input_shapes(%x: tensor<10x4xf32>, %y: tensor<10x5xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op input 1 has shape [10, 5] but input 0 has [10, 4]}}
  %r:2 = xla.scatter %x, %y[%i] updates(%u, %u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<10x5xf32>, tensor<6x1xi32>, tensor<6x4xf32>, tensor<6x4xf32>) -> (tensor<10x4xf32>, tensor<10x5xf32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    xla.yield %c, %d : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_type(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf16>) {
  // expected-error @+1 {{'xla.scatter' op update 0 has element type 'f16' but input 0 has 'f32'}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf16>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_result_type(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op result 0 has type 'tensor<10x4xf16>' but input 0 has 'tensor<10x4xf32>'}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf16> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_rank_count(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op update_window_dims (1), inserted_window_dims (0) and input_batching_dims (0) must together count the inputs' rank 2}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_rank(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4x1xf32>) {
  // expected-error @+1 {{'xla.scatter' op updates have rank 3 but the indices' 1 scatter dimensions and 1 window dimensions make 2}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4x1xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_update_scatter_size(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<5x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op update dimension 0 has size 5 but scatter_indices dimension 0 has size 6}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<5x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_window_size(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x5xf32>) {
  // expected-error @+1 {{'xla.scatter' op update window dimension 1 has size 5, larger than input dimension 1 (4)}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x5xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_map_size(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op scatter_dims_to_operand_dims has 2 entries but the index vectors of scatter_indices have 1 components}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_window_dims_unsorted(%x: tensor<10x4x3xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4x3xf32>) {
  // expected-error @+1 {{'xla.scatter' op update_window_dims must be increasing, got [2, 1]}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [2, 1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4x3xf32>, tensor<6x1xi32>, tensor<6x4x3xf32>) -> tensor<10x4x3xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return
}

// -----

func.func @scatter_body_args(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op update computation must take ('tensor<f32>', 'tensor<f32>'), got ('tensor<f32>')}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>):
    xla.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_body_yield(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op update computation must yield ('tensor<f32>'), got ('tensor<f32>', 'tensor<f32>')}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-note @+1 {{yielded here}}
    xla.yield %a, %b : tensor<f32>, tensor<f32>
  }
  return
}

// -----

func.func @scatter_body_not_scalar(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>) {
  // expected-error @+1 {{'xla.scatter' op region 0 is a scalar computation: argument 1 must be a rank-0 tensor, not 'tensor<4xf32>'}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<4xf32>):
    xla.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @scatter_captures(%x: tensor<10x4xf32>, %i: tensor<6x1xi32>, %u: tensor<6x4xf32>, %c: tensor<f32>) {
  // expected-note @+1 {{required by region isolation constraints}}
  %r = xla.scatter %x[%i] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-error @+1 {{'xla.add' op using value defined outside the region}}
    %s = xla.add %a, %c : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return
}

// -----

func.func @sort_shapes(%x: tensor<4x8xf32>, %y: tensor<4x7xi32>) {
  // expected-error @+1 {{'xla.sort' op input 1 has shape [4, 7] but input 0 has [4, 8]}}
  %k, %i = xla.sort(%x, %y) dim = 1 : tensor<4x8xf32>, tensor<4x7xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = xla.compare lt, %a, %b : tensor<f32>
    xla.yield %lt : tensor<i1>
  }
  return
}

// -----

func.func @sort_dim(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.sort' op dim 2 is out of range for rank 2}}
  %k = xla.sort(%x) dim = 2 : tensor<4x8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare lt, %a, %b : tensor<f32>
    xla.yield %lt : tensor<i1>
  }
  return
}

// -----

func.func @sort_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'xla.sort' op sorts along a dimension: inputs must have rank >= 1}}
  %k = xla.sort(%x) dim = 0 : tensor<f32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %lt = xla.compare lt, %a, %b : tensor<f32>
    xla.yield %lt : tensor<i1>
  }
  return
}

// -----

func.func @sort_comparator_args(%x: tensor<4x8xf32>, %y: tensor<4x8xi32>) {
  // expected-error @+1 {{'xla.sort' op comparator must take ('tensor<f32>', 'tensor<f32>', 'tensor<i32>', 'tensor<i32>'), got ('tensor<f32>', 'tensor<i32>', 'tensor<f32>', 'tensor<i32>')}}
  %k, %i = xla.sort(%x, %y) dim = 1 : tensor<4x8xf32>, tensor<4x8xi32> {
  ^bb0(%a: tensor<f32>, %c: tensor<i32>, %b: tensor<f32>, %d: tensor<i32>):
    %lt = xla.compare lt, %a, %b : tensor<f32>
    xla.yield %lt : tensor<i1>
  }
  return
}

// -----

func.func @sort_comparator_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'xla.sort' op comparator must yield ('tensor<i1>'), got ('tensor<f32>')}}
  %k = xla.sort(%x) dim = 1 : tensor<4x8xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    // expected-note @+1 {{yielded here}}
    xla.yield %a : tensor<f32>
  }
  return
}
