//===- XlaIndexingOps.td - sort, scatter, HLO gather -------*- tablegen -*-===//
//
// HLO's data-dependent indexing ops: sort (with a comparator), scatter (with
// an update computation) and the general gather. Included by XlaOps.td.
// docs/dialect.md describes them; docs/partitioning.md how they are split.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLAINDEXINGOPS_TD
#define XSPMD_DIALECTS_XLA_XLAINDEXINGOPS_TD

def Xla_HloGatherOp : Xla_Op<"hlo_gather", [Pure]> {
  let summary = "HLO's general gather: slices of an operand at run-time offsets";
  let description = [{
    XLA's Gather (StableHLO `gather`): for every index of the result, the
    *batch* dimensions (those not in `offset_dims`) pick a start index
    vector from `start_indices` (along `index_vector_dim`, or the element
    itself when `index_vector_dim` equals its rank); component `k` is the
    start of the slice along operand dimension `start_index_map[k]`,
    clamped into `[0, dim - slice_sizes[d]]` as XLA does. `operand_batching_dims`
    and `start_indices_batching_dims` pair operand dimensions with
    dimensions of the indices that index them directly (a batched gather).
    The result's `offset_dims` walk the slice, without the
    `collapsed_slice_dims` and the operand's batching dimensions (both of
    slice size 1).

    ```mlir
    // torch.index_select(x, 0, idx) / an embedding lookup of 8 rows.
    %r = xla.hlo_gather %x[%idx], offset_dims = [1], collapsed_slice_dims = [0],
        start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 16]
        : (tensor<100x16xf32>, tensor<8x1xi32>) -> tensor<8x16xf32>
    // One row per batch element: x[b, idx[b], :].
    %s = xla.hlo_gather %y[%j], batching_dims = [0] x [0], offset_dims = [1],
        collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1,
        slice_sizes = [1, 1, 16]
        : (tensor<4x10x16xf32>, tensor<4xi32>) -> tensor<4x16xf32>
    ```

    `indices_are_sorted` is a promise XLA may exploit; xspmd ignores it. The
    embedding form `xla.gather` remains for the lazy-tensor frontend.
  }];
  let arguments = (ins Xla_Tensor:$operand, Xla_IndexTensor:$start_indices,
                       DenseI64ArrayAttr:$offset_dims,
                       DenseI64ArrayAttr:$collapsed_slice_dims,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$operand_batching_dims,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$start_indices_batching_dims,
                       DenseI64ArrayAttr:$start_index_map,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$index_vector_dim,
                       DenseI64ArrayAttr:$slice_sizes,
                       UnitAttr:$indices_are_sorted);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $start_indices `]` `,`
    (`batching_dims` `=` $operand_batching_dims^ `x`
     $start_indices_batching_dims `,`)?
    `offset_dims` `=` $offset_dims `,`
    `collapsed_slice_dims` `=` $collapsed_slice_dims `,`
    `start_index_map` `=` $start_index_map `,`
    `index_vector_dim` `=` $index_vector_dim `,`
    `slice_sizes` `=` $slice_sizes
    (`indices_are_sorted` $indices_are_sorted^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The result dimensions that are not offset dimensions, in order (they
    /// walk the indices' dimensions but index_vector_dim).
    ::llvm::SmallVector<int64_t> getBatchDims();
    /// The dimension of the indices that batch dimension `i` of the result
    /// walks.
    int64_t getIndicesDimOfBatch(int64_t i);
    /// Per operand dimension: the result dimension its slice lies along, or
    /// -1 when it is collapsed or a batching dimension.
    ::llvm::SmallVector<int64_t> getOffsetDimOfOperand();
  }];
}

def Xla_ScatterOp : Xla_Op<"scatter",
    [RecursiveMemoryEffects, IsolatedFromAbove, Xla_ScalarBodies,
     AttrSizedOperandSegments]> {
  let summary = "HLO's scatter: combines updates into slices at run-time offsets";
  let description = [{
    XLA's Scatter (StableHLO `scatter`) over N inputs of one shape, with N
    updates of one shape. For every index of the updates, the *scatter*
    dimensions (those not in `update_window_dims`) pick a start index vector
    from `scatter_indices` (along `index_vector_dim`, or the element itself
    when `index_vector_dim` equals its rank); component `k` is the start
    along input dimension `scatter_dims_to_operand_dims[k]`. The
    `update_window_dims` walk the window, which covers the input dimensions
    that are neither `inserted_window_dims` nor `input_batching_dims` (those
    have window size 1); `input_batching_dims` pair with
    `scatter_indices_batching_dims`. At every such position the update
    computation, given the N current values then the N updates (2N rank-0
    tensors), yields the N new values.

    An update whose whole window does not fit in the inputs (a start below 0
    or past `dim - window size` along any dimension) is skipped, as XLA's
    scatter expander does. Updates that hit one position are combined in
    the updates' row-major order; `indices_are_sorted` and `unique_indices`
    are promises xspmd ignores.

    ```mlir
    // index_add_ / embedding backward: rows of %g added at the rows %idx names.
    %r = xla.scatter %acc[%idx] updates(%g), update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
        index_vector_dim = 1
        : (tensor<100x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<100x16xf32> {
    ^bb0(%old: tensor<f32>, %new: tensor<f32>):
      %sum = xla.add %old, %new : tensor<f32>
      xla.yield %sum : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Xla_Tensor>:$inputs,
                       Xla_IndexTensor:$scatter_indices,
                       Variadic<Xla_Tensor>:$updates,
                       DenseI64ArrayAttr:$update_window_dims,
                       DenseI64ArrayAttr:$inserted_window_dims,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$input_batching_dims,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{}">:$scatter_indices_batching_dims,
                       DenseI64ArrayAttr:$scatter_dims_to_operand_dims,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$index_vector_dim,
                       UnitAttr:$indices_are_sorted, UnitAttr:$unique_indices);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region SizedRegion<1>:$update_computation);
  let assemblyFormat = [{
    $inputs `[` $scatter_indices `]` `updates` `(` $updates `)` `,`
    (`batching_dims` `=` $input_batching_dims^ `x`
     $scatter_indices_batching_dims `,`)?
    `update_window_dims` `=` $update_window_dims `,`
    `inserted_window_dims` `=` $inserted_window_dims `,`
    `scatter_dims_to_operand_dims` `=` $scatter_dims_to_operand_dims `,`
    `index_vector_dim` `=` $index_vector_dim
    (`indices_are_sorted` $indices_are_sorted^)?
    (`unique_indices` $unique_indices^)?
    attr-dict `:` functional-type(operands, results) $update_computation
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The update dimensions that are not window dimensions, in order (they
    /// walk the indices' dimensions but index_vector_dim).
    ::llvm::SmallVector<int64_t> getUpdateScatterDims();
    /// The dimension of the indices that scatter dimension `i` of the
    /// updates walks.
    int64_t getIndicesDimOfScatter(int64_t i);
    /// Per input dimension: the update dimension its window lies along, or
    /// -1 when it is an inserted or a batching dimension (window size 1).
    ::llvm::SmallVector<int64_t> getWindowDimOfInput();
  }];
}

def Xla_SortOp : Xla_Op<"sort",
    [RecursiveMemoryEffects, IsolatedFromAbove, Xla_ScalarBodies,
     InferTypeOpAdaptor]> {
  let summary = "Sorts N tensors of one shape along a dimension by a comparator";
  let description = [{
    HLO's sort: every row along `dimension` is permuted so that the
    comparator holds between consecutive elements, and all N inputs are
    permuted alike (values with their indices: torch.sort, topk, argsort).
    The comparator takes 2N rank-0 tensors in HLO's order `lhs0, rhs0,
    lhs1, rhs1, ...` and yields `tensor<i1>`: whether the lhs element
    goes before the rhs one. It must be a strict weak order. With `stable`,
    elements that compare equal keep their order.

    ```mlir
    // argsort, descending: keys with their positions.
    %k, %i = xla.sort(%x, %iota) dim = 1 stable : tensor<4x8xf32>, tensor<4x8xi32> {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %ia: tensor<i32>, %ib: tensor<i32>):
      %gt = xla.compare gt, %a, %b : tensor<f32>
      xla.yield %gt : tensor<i1>
    }
    ```

    The simulator sorts rows with `std::stable_sort` (or `std::sort` when
    not stable); comparator `compare lt/gt, arg0, arg1` on floats orders
    like XLA's total order for the values it sees (docs/simulator.md).
  }];
  let arguments = (ins Variadic<Xla_Tensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension,
                       UnitAttr:$is_stable);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region SizedRegion<1>:$comparator);
  let assemblyFormat = [{
    `(` $inputs `)` `dim` `=` $dimension (`stable` $is_stable^)? attr-dict
    `:` type($inputs) $comparator
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

#endif // XSPMD_DIALECTS_XLA_XLAINDEXINGOPS_TD
