//===- XlaReductionOps.td - reductions with a computation --*- tablegen -*-===//
//
// HLO's reduce with any to_apply computation, reduce-window and
// select-and-scatter. Their regions are scalar computations (ScalarBodies):
// the simulator compiles them once and applies them per element
// (runtime/kernels/ScalarComputation.h). Included by XlaOps.td.
// docs/partitioning.md describes how they are partitioned.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLAREDUCTIONOPS_TD
#define XSPMD_DIALECTS_XLA_XLAREDUCTIONOPS_TD

def Xla_ScalarTensor
    : 0DTensorOf<[F32, BF16, F16, F64, I1, I8, I32, I64]>;

def Xla_ReduceRegionOp : Xla_Op<"reduce_region",
    [Pure, IsolatedFromAbove, Xla_ScalarBodies, AttrSizedOperandSegments]> {
  let summary = "Reduces N tensors over dimensions with a computation (HLO reduce)";
  let description = [{
    HLO's reduce with any `to_apply` computation. The N `inputs` have one
    shape; `inits` are N rank-0 tensors of their element types. The body
    takes 2N rank-0 arguments, in HLO's order: the N accumulators, then the
    N elements; it yields the N new accumulators. Result `i` is input `i`'s
    shape without `dims`, folded from `inits[i]`.

    ```mlir
    // argmax along dim 1: (value, index) pairs, the first maximum wins.
    %v, %i = xla.reduce_region(%x, %iota) init(%ninf, %zero) dims = [1] {
    ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
      %gt = xla.compare gt, %av, %bv : tensor<f32>
      %eq = xla.compare eq, %av, %bv : tensor<f32>
      %v = xla.select %gt, %av, %bv : tensor<f32>
      %lo = xla.min %ai, %bi : tensor<i32>
      %t = xla.select %eq, %lo, %bi : tensor<i32>
      %i = xla.select %gt, %ai, %t : tensor<i32>
      xla.yield %v, %i : tensor<f32>, tensor<i32>
    } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>)
        -> (tensor<4xf32>, tensor<4xi32>)
    ```

    As in XLA, `inits` and the body must form a monoid (the inits are
    identities, the body associative and commutative): the order in which
    elements are combined, and how often an init is combined in, is the
    implementation's (the partitioner reduces shards separately, then
    combines their results). A single-input reduction whose body is one of
    add, mul, max, min, and, or of its arguments with an identity init is
    a recognised reduction: it partitions like `xla.reduce`.
  }];
  let arguments = (ins Variadic<Xla_Tensor>:$inputs,
                       Variadic<Xla_ScalarTensor>:$inits,
                       DenseI64ArrayAttr:$dims);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $inits `)` `dims` `=` $dims $body attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The reduction a partial result of this op leaves pending when it is
    /// a recognised one (see the description), else nothing.
    std::optional<ReductionKind> getRecognizedReduction();
  }];
}

def Xla_ReduceWindowOp : Xla_Op<"reduce_window",
    [Pure, IsolatedFromAbove, Xla_ScalarBodies, AttrSizedOperandSegments]> {
  let summary = "Reduces windows of N tensors with a computation (HLO reduce-window)";
  let description = [{
    HLO's reduce-window: for every window position, the body folds the
    window's elements of the N `inputs` (one shape) from the N rank-0
    `inits`, as `xla.reduce_region` folds reduced elements. Per dimension:
    `window_dimensions` and `window_strides`, `base_dilations` (holes
    between input elements) and `window_dilations` (holes between window
    elements), and `padding` `[lo, hi]` added at the ends (negative
    removes). Padding and holes hold the init value. Result size per
    dimension: with `D = (size - 1) * base + 1` (0 for an empty dimension),
    `P = lo + D + hi` and `K = (window - 1) * window_dilation + 1`, it is 0
    when `P < K` and `(P - K) / stride + 1` otherwise.

    ```mlir
    // torch.cumsum(x, dim=1) for x of 4x8: a window of the whole dimension
    // padded by 7 in front.
    %c = xla.reduce_window(%x) init(%zero) window_dimensions = [1, 8],
        window_strides = [1, 1], base_dilations = [1, 1],
        window_dilations = [1, 1], padding = [[0, 0], [7, 0]] {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.yield %s : tensor<f32>
    } : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Xla_Tensor>:$inputs,
                       Variadic<Xla_ScalarTensor>:$inits,
                       DenseI64ArrayAttr:$window_dimensions,
                       DenseI64ArrayAttr:$window_strides,
                       DenseI64ArrayAttr:$base_dilations,
                       DenseI64ArrayAttr:$window_dilations,
                       DenseI64ArrayAttr:$padding);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $inits `)`
    `window_dimensions` `=` $window_dimensions `,`
    `window_strides` `=` $window_strides `,`
    `base_dilations` `=` $base_dilations `,`
    `window_dilations` `=` $window_dilations `,`
    `padding` `=` custom<Padding>($padding)
    $body attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def Xla_SelectAndScatterOp : Xla_Op<"select_and_scatter",
    [Pure, IsolatedFromAbove, Xla_ScalarBodies,
     AllTypesMatch<["operand", "result"]>]> {
  let summary = "Scatters into the element each window selects (HLO select-and-scatter)";
  let description = [{
    HLO's select-and-scatter, the gradient of a max (or min) pool. For each
    window of `operand` (`window_dimensions`, `window_strides`, `padding`
    `[lo, hi]` per dimension, as `xla.reduce_window` without dilations;
    `source` has the shape of that reduce-window's result), `select` picks
    one element: the first valid element of the window, in row-major order,
    is the current choice, and each later element `e` replaces it when
    `select(current, e)` is false. Padding is never selected; a window of
    padding only scatters nothing. The result starts as `init` everywhere,
    and the window's `source` element is combined into the selected
    position with `scatter(result, source)`, windows in row-major order.

    ```mlir
    // Gradient of a 2x2, stride-2 max pool.
    %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [2, 2],
        window_strides = [2, 2], padding = [[0, 0], [0, 0]] select {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %ge = xla.compare ge, %a, %b : tensor<f32>
      xla.yield %ge : tensor<i1>
    } scatter {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = xla.add %a, %b : tensor<f32>
      xla.yield %s : tensor<f32>
    } : (tensor<8x8xf32>, tensor<4x4xf32>, tensor<f32>) -> tensor<8x8xf32>
    ```
  }];
  let arguments = (ins Xla_Tensor:$operand, Xla_Tensor:$source,
                       Xla_ScalarTensor:$init,
                       DenseI64ArrayAttr:$window_dimensions,
                       DenseI64ArrayAttr:$window_strides,
                       DenseI64ArrayAttr:$padding);
  let results = (outs Xla_Tensor:$result);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let assemblyFormat = [{
    $operand `,` $source `,` $init `,`
    `window_dimensions` `=` $window_dimensions `,`
    `window_strides` `=` $window_strides `,`
    `padding` `=` custom<Padding>($padding)
    `select` $select `scatter` $scatter attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

#endif // XSPMD_DIALECTS_XLA_XLAREDUCTIONOPS_TD
