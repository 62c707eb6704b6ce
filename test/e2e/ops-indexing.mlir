// sort, scatter and hlo_gather partitioned over a 2x2 mesh and a line of 4
// devices, on divisible and non-divisible shapes, each run on the simulated
// devices against the single-device program (run_checks.py). Integer
// arguments are drawn from [-4, 4], so start indices include negative ones
// (clamped by gather, skipped by scatter).
//
// RUN: %python %S/run_checks.py xla-run %s | FileCheck %s
// CHECK: checked 23 functions, 0 failed

xla.mesh @mesh = <["x"=2, "y"=2]>
xla.mesh @line = <["z"=4]>

// argsort, descending and stable: keys with their positions, rows split.
func.func @argsort_rows(%x: tensor<8x6xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x6xf32>, tensor<8x6xi32>) {
  %iota = xla.iota dim = 1 : tensor<8x6xi32>
  %k, %i = xla.sort(%x, %iota) dim = 1 stable : tensor<8x6xf32>, tensor<8x6xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %gt = xla.compare gt, %a, %b : tensor<f32>
    xla.yield %gt : tensor<i1>
  }
  return %k, %i : tensor<8x6xf32>, tensor<8x6xi32>
}

// 7 rows over 4 devices (padded), ascending.
func.func @argsort_rows_uneven(%x: tensor<7x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<7x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, tensor<7x5xi32>) {
  %iota = xla.iota dim = 1 : tensor<7x5xi32>
  %k, %i = xla.sort(%x, %iota) dim = 1 stable : tensor<7x5xf32>, tensor<7x5xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %lt = xla.compare lt, %a, %b : tensor<f32>
    xla.yield %lt : tensor<i1>
  }
  return %k, %i : tensor<7x5xf32>, tensor<7x5xi32>
}

// topk (k = 3): a descending sort, then the first 3 columns.
func.func @topk(%x: tensor<6x9xf32> {xla.sharding = #xla.sharding<@line, [{"z"}, {}]>}) -> (tensor<6x3xf32>, tensor<6x3xi32>) {
  %iota = xla.iota dim = 1 : tensor<6x9xi32>
  %k, %i = xla.sort(%x, %iota) dim = 1 : tensor<6x9xf32>, tensor<6x9xi32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
    %gt = xla.compare gt, %a, %b : tensor<f32>
    xla.yield %gt : tensor<i1>
  }
  %vk = xla.slice %k, start = [0, 0], limit = [6, 3], strides = [1, 1] : (tensor<6x9xf32>) -> tensor<6x3xf32>
  %vi = xla.slice %i, start = [0, 0], limit = [6, 3], strides = [1, 1] : (tensor<6x9xi32>) -> tensor<6x3xi32>
  return %vk, %vi : tensor<6x3xf32>, tensor<6x3xi32>
}

// The sorted dimension is split: it is gathered first.
func.func @sort_split_dim(%x: tensor<4x10xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> (tensor<4x10xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %s = xla.sort(%x) dim = 1 : tensor<4x10xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %lt = xla.compare lt, %a, %b : tensor<i32>
    xla.yield %lt : tensor<i1>
  }
  return %s : tensor<4x10xi32>
}

// A lexicographic comparator (integer keys with many ties, then floats):
// the general comparator path; a 3-d tensor sorted along its middle dim.
func.func @sort_lexicographic(%k: tensor<3x7x2xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {"y"}]>}, %v: tensor<3x7x2xf32>) -> (tensor<3x7x2xi32>, tensor<3x7x2xf32>) {
  %sk, %sv = xla.sort(%k, %v) dim = 1 stable : tensor<3x7x2xi32>, tensor<3x7x2xf32> {
  ^bb0(%a0: tensor<i32>, %b0: tensor<i32>, %a1: tensor<f32>, %b1: tensor<f32>):
    %lt0 = xla.compare lt, %a0, %b0 : tensor<i32>
    %eq0 = xla.compare eq, %a0, %b0 : tensor<i32>
    %lt1 = xla.compare lt, %a1, %b1 : tensor<f32>
    %tie = xla.and %eq0, %lt1 : tensor<i1>
    %r = xla.or %lt0, %tie : tensor<i1>
    xla.yield %r : tensor<i1>
  }
  return %sk, %sv : tensor<3x7x2xi32>, tensor<3x7x2xf32>
}

// Embedding backward: the gradient rows added at the rows the (clamped,
// non-negative) indices name; the updates split over the batch, a pending
// sum added to the table once.
func.func @embedding_backward(%table: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}, %g: tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) {
  %i = xla.constant dense<[[0], [9], [3], [3], [7], [1], [9], [2]]> : tensor<8x1xi32>
  %is = xla.mark_sharding %i <@mesh, [{"x", "y"}, {}]> : tensor<8x1xi32>
  %r = xla.scatter %table[%is] updates(%g), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<8x1xi32>, tensor<8x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<10x4xf32>
}

// 7 updates over 4 devices (padded updates contribute nothing), indices
// from the arguments (negative ones are skipped); the table's columns split.
func.func @embedding_backward_uneven(%table: tensor<6x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}, %idx: tensor<7xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}, %g: tensor<7x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) -> tensor<6x4xf32> {
  %r = xla.scatter %table[%idx] updates(%g), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<6x4xf32>, tensor<7xi32>, tensor<7x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %b, %a : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<6x4xf32>
}

// The same on a line of 4 devices.
func.func @embedding_backward_line(%table: tensor<5x3xf32>, %idx: tensor<9x1xi32> {xla.sharding = #xla.sharding<@line, [{"z"}, {}]>}, %g: tensor<9x3xf32> {xla.sharding = #xla.sharding<@line, [{"z"}, {}]>}) -> tensor<5x3xf32> {
  %r = xla.scatter %table[%idx] updates(%g), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<5x3xf32>, tensor<9x1xi32>, tensor<9x3xf32>) -> tensor<5x3xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<5x3xf32>
}

// A max combiner (scatter_reduce amax) with split updates: a pending max.
func.func @scatter_max(%x: tensor<6x4xf32>, %idx: tensor<10x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>}, %u: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}]>}) -> tensor<6x4xf32> {
  %r = xla.scatter %x[%idx] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<6x4xf32>, tensor<10x1xi32>, tensor<10x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  }
  return %r : tensor<6x4xf32>
}

// index_put_ without accumulate (the update overwrites; later updates win):
// the table split by rows, each device applying the updates that land in
// its block; its columns split with the updates' window.
func.func @index_put(%x: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}, %v: tensor<5x4xf32>) -> (tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %i = xla.constant dense<[8, 1, 5, 8, 4]> : tensor<5xi32>
  %r = xla.scatter %x[%i] updates(%v), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<5xi32>, tensor<5x4xf32>) -> tensor<10x4xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    xla.yield %b : tensor<f32>
  }
  return %r : tensor<10x4xf32>
}

// index_put_ with uneven row blocks (7 rows over 4 devices) and indices
// from the arguments (some negative, skipped).
func.func @index_put_uneven(%x: tensor<7x3xi32> {xla.sharding = #xla.sharding<@line, [{"z"}, {}]>}, %idx: tensor<6xi32>, %v: tensor<6x3xi32>) -> (tensor<7x3xi32> {xla.sharding = #xla.sharding<@line, [{"z"}, {}]>}) {
  %r = xla.scatter %x[%idx] updates(%v), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<7x3xi32>, tensor<6xi32>, tensor<6x3xi32>) -> tensor<7x3xi32> {
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    xla.yield %b : tensor<i32>
  }
  return %r : tensor<7x3xi32>
}

// Both at once: the table split by rows over "x" (starts shifted into each
// block) and the updates split over "y" (a pending sum), with i64 indices.
func.func @scatter_rows_and_batch(%t: tensor<12x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %u: tensor<7x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {}]>}) -> (tensor<12x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) {
  %i = xla.constant dense<[[11], [0], [6], [5], [11], [-3], [12]]> : tensor<7x1xi64>
  %is = xla.mark_sharding %i <@mesh, [{"y"}, {}]> : tensor<7x1xi64>
  %r = xla.scatter %t[%is] updates(%u), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<12x3xf32>, tensor<7x1xi64>, tensor<7x3xf32>) -> tensor<12x3xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<12x3xf32>
}

// torch's scatter_add_(1, index, src) with batching dimensions: rows pass
// through, each row's elements added at its own positions.
func.func @scatter_add_dim1(%x: tensor<6x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %idx: tensor<6x3xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}, %src: tensor<6x3xf32>) -> (tensor<6x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %r = xla.scatter %x[%idx] updates(%src), batching_dims = [0] x [0], update_window_dims = [], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 2 : (tensor<6x5xf32>, tensor<6x3xi32>, tensor<6x3xf32>) -> tensor<6x5xf32> {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  }
  return %r : tensor<6x5xf32>
}

// Two inputs scattered together by a general (non-pairwise) computation:
// the updates are gathered.
func.func @scatter_pair_general(%x: tensor<6x2xf32>, %y: tensor<6x2xi32>, %idx: tensor<5x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %u: tensor<5x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %v: tensor<5x2xi32>) -> (tensor<6x2xf32>, tensor<6x2xi32>) {
  %r:2 = xla.scatter %x, %y[%idx] updates(%u, %v), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<6x2xf32>, tensor<6x2xi32>, tensor<5x1xi32>, tensor<5x2xf32>, tensor<5x2xi32>) -> (tensor<6x2xf32>, tensor<6x2xi32>) {
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<i32>):
    %m = xla.mul %a, %c : tensor<f32>
    %n = xla.sub %b, %d : tensor<i32>
    xla.yield %m, %n : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<6x2xf32>, tensor<6x2xi32>
}

// An embedding lookup in HLO's form from a vocabulary-split table: each
// device gathers the rows it owns, zeros elsewhere, then a sum.
func.func @gather_vocab(%t: tensor<10x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) -> (tensor<3x5x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %i = xla.constant dense<[[[0], [9], [3], [-2]], [[11], [4], [4], [7]], [[1], [2], [8], [0]], [[5], [6], [12], [3]], [[9], [9], [0], [1]]]> : tensor<5x4x1xi32>
  %r0 = xla.reshape %i : (tensor<5x4x1xi32>) -> tensor<20x1xi32>
  %r1 = xla.slice %r0, start = [0, 0], limit = [15, 1], strides = [1, 1] : (tensor<20x1xi32>) -> tensor<15x1xi32>
  %is = xla.reshape %r1 : (tensor<15x1xi32>) -> tensor<3x5x1xi32>
  %r = xla.hlo_gather %t[%is], offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3x5x1xi32>) -> tensor<3x5x4xf32>
  return %r : tensor<3x5x4xf32>
}

// The same over a line, 10 rows in 4 uneven blocks, indices from the
// arguments (negative ones clamp to row 0).
func.func @gather_vocab_line(%t: tensor<10x3xf32> {xla.sharding = #xla.sharding<@line, [{"z"}, {}]>}, %i: tensor<6xi32>) -> tensor<6x3xf32> {
  %r = xla.hlo_gather %t[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 3] : (tensor<10x3xf32>, tensor<6xi32>) -> tensor<6x3xf32>
  return %r : tensor<6x3xf32>
}

// take_along_dim: a batched gather (batch rows pass through) from an
// operand split along the indexed dimension too (a pending sum over "y").
func.func @gather_batched_vocab(%x: tensor<4x6x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}, {}]>}, %i: tensor<4x5x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {}]>}) -> (tensor<4x5x3xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}, {}]>}) {
  %r = xla.hlo_gather %x[%i], batching_dims = [0] x [0], offset_dims = [2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 2, slice_sizes = [1, 1, 3] : (tensor<4x6x3xf32>, tensor<4x5x1xi32>) -> tensor<4x5x3xf32>
  return %r : tensor<4x5x3xf32>
}

// Two-component start indices into a table split along both of them: each
// device keeps the starts inside its block in both dimensions.
func.func @gather_2d_points(%x: tensor<5x6xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}, %i: tensor<7x2xi32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>}) -> tensor<7xi32> {
  %r = xla.hlo_gather %x[%i], offset_dims = [], collapsed_slice_dims = [0, 1], start_index_map = [1, 0], index_vector_dim = 1, slice_sizes = [1, 1] : (tensor<5x6xi32>, tensor<7x2xi32>) -> tensor<7xi32>
  return %r : tensor<7xi32>
}

// An indexed dimension sliced whole (its start clamps to 0) split with the
// result, beside an owned one: only the owned start is shifted and masked.
func.func @gather_whole_indexed_dim(%x: tensor<6x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}, %i: tensor<5x2xi32>) -> (tensor<5x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}) {
  %r = xla.hlo_gather %x[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1, slice_sizes = [1, 8] : (tensor<6x8xf32>, tensor<5x2xi32>) -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// Windows of 3 along a split dimension (need-replication: gathered), the
// other dimension whole and split (passes through).
func.func @gather_windows(%x: tensor<9x8xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}, %i: tensor<4xi32>) -> (tensor<4x3x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}, {"y"}]>}) {
  %r = xla.hlo_gather %x[%i], offset_dims = [1, 2], collapsed_slice_dims = [], start_index_map = [0], index_vector_dim = 1, slice_sizes = [3, 8] : (tensor<9x8xf32>, tensor<4xi32>) -> tensor<4x3x8xf32>
  return %r : tensor<4x3x8xf32>
}

// i1 rows from a split table: the pending reduction is an `or`.
func.func @gather_pred(%t: tensor<6x4xi1> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}, %i: tensor<5x1xi32>) -> tensor<5x4xi1> {
  %r = xla.hlo_gather %t[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<6x4xi1>, tensor<5x1xi32>) -> tensor<5x4xi1>
  return %r : tensor<5x4xi1>
}

// Gather then scatter back (a gradient of the lookup) on bf16.
func.func @gather_scatter_bf16(%t: tensor<8x4xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>}, %i: tensor<6x1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>}) -> tensor<8x4xbf16> {
  %g = xla.hlo_gather %t[%i], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<8x4xbf16>, tensor<6x1xi32>) -> tensor<6x4xbf16>
  %z = xla.constant dense<0.0> : tensor<8x4xbf16>
  %r = xla.scatter %z[%i] updates(%g), update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<8x4xbf16>, tensor<6x1xi32>, tensor<6x4xbf16>) -> tensor<8x4xbf16> {
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = xla.add %a, %b : tensor<bf16>
    xla.yield %s : tensor<bf16>
  }
  return %r : tensor<8x4xbf16>
}

// Sort of f16 values along a split batch on the line.
func.func @sort_f16(%x: tensor<5x6xf16> {xla.sharding = #xla.sharding<@line, [{"z"}, {}]>}) -> tensor<5x6xf16> {
  %s = xla.sort(%x) dim = 1 : tensor<5x6xf16> {
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %lt = xla.compare lt, %a, %b : tensor<f16>
    xla.yield %lt : tensor<i1>
  }
  return %s : tensor<5x6xf16>
}
