//===- XlaControlFlowOps.td - control-flow ops of xla ------*- tablegen -*-===//
//
// Loops and conditionals (HLO while and conditional). Included by XlaOps.td.
// docs/control-flow.md describes how shardings flow through them and how
// the partitioner and the simulator treat them.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLACONTROLFLOWOPS_TD
#define XSPMD_DIALECTS_XLA_XLACONTROLFLOWOPS_TD

def Xla_WhileOp : Xla_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "Loop while a condition holds (HLO while, fori_loop, scan)";
  let description = [{
    The operands are the initial values of the loop-carried values; the
    results are their values when `cond` first yields false. Both regions
    take the carried values as block arguments: `cond` yields one
    `tensor<i1>`, `body` yields the next carried values (the operands'
    types, in order).

    ```mlir
    %n, %acc = xla.while (%i = %zero, %x = %init) : tensor<i32>, tensor<8x16xf32>
    cond {
      %more = xla.compare lt, %i, %trips : tensor<i32>
      xla.yield %more : tensor<i1>
    } do {
      %y = xla.matmul %x, %w : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
      %next = xla.add %i, %one : tensor<i32>
      xla.yield %next, %y : tensor<i32>, tensor<8x16xf32>
    }
    ```

    Unlike HLO, the regions may use values defined above the loop (`%w`,
    `%trips`, `%one` above): they are loop invariants. Each carried value
    has one sharding, shared by the operand, the block arguments, the body's
    yield and the result.
  }];
  let arguments = (ins Variadic<Xla_Tensor>:$inits);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The `xla.yield` ending the body.
    YieldOp getBodyYield();
    /// The predicate `cond` yields.
    ::mlir::Value getCondition();
  }];
}

def Xla_CaseOp : Xla_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "Runs one of several branches (HLO conditional)";
  let description = [{
    With an `i32` index, branch `index` runs; an index out of range
    (negative or past the last branch) runs the last branch, as HLO's
    indexed conditional. With an `i1` predicate there are exactly two
    branches: `true` runs branch 0 and `false` branch 1 (HLO's predicated
    conditional, true computation first). Each branch ends in `xla.yield`
    of the results' types.

    ```mlir
    %r = xla.case %index : tensor<i32> -> tensor<8xf32> {
      %a = xla.neg %x : tensor<8xf32>
      xla.yield %a : tensor<8xf32>
    }, {
      xla.yield %x : tensor<8xf32>
    }
    ```

    Branches take no arguments: they use the values defined above the
    `xla.case` (the importer maps an HLO branch's parameter to the operand
    it is given). Each result has one sharding, which every branch's yielded
    value takes.
  }];
  let arguments = (ins AnyTypeOf<[0DTensorOf<[I32]>, 0DTensorOf<[I1]>]>:$index);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let assemblyFormat = [{
    $index `:` type($index) (`->` type($results)^)? attr-dict-with-keyword
    $branches
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The `xla.yield` ending branch `i`.
    YieldOp getBranchYield(unsigned i);
    /// Whether the index is an i1 predicate (true: branch 0).
    bool isPredicated();
  }];
}

#endif // XSPMD_DIALECTS_XLA_XLACONTROLFLOWOPS_TD
