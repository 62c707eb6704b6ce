//===- XlaCollectiveOps.td - collective ops of xla ---------*- tablegen -*-===//
//
// The collective ops (all_reduce, all_gather, reduce_scatter, all_to_all,
// collective_permute, all_slice). Included by XlaOps.td after
// Xla_CollectiveOpInterface, which stays there: the interface generators
// only emit interfaces of the file they are run on.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLACOLLECTIVEOPS_TD
#define XSPMD_DIALECTS_XLA_XLACOLLECTIVEOPS_TD

class Xla_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Xla_Op<mnemonic, !listconcat(traits,
          [Xla_CollectiveOpInterface,
           DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  dag participants = (ins OptionalAttr<FlatSymbolRefAttr>:$mesh,
                          OptionalAttr<StrArrayAttr>:$axes,
                          OptionalAttr<I64ElementsAttr>:$groups,
                          OptionalAttr<Xla_LinkClass>:$link);
  let hasVerifier = 1;
}

def Xla_AllReduceOp : Xla_CollectiveOp<"all_reduce",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "Reduces across each group; every member gets the result";
  let description = [{
    torch_xla `xm.all_reduce(kind, x, scale, groups)`: the result is the
    reduction of every group member's input, multiplied by `scale`.

    ```mlir
    %r = xla.all_reduce sum %x mesh_axes = @mesh["model"] : tensor<8xf32>
    %r = xla.all_reduce max %x groups = [[0, 1], [2, 3]] : tensor<8xf32>
    ```
  }];
  let arguments = !con((ins Xla_ReductionKind:$kind, Xla_Tensor:$input,
                            DefaultValuedAttr<F64Attr, "1.0">:$scale),
                       participants);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `` custom<Participants>($mesh, $axes, $groups, $link)
    (`scale` `=` $scale^)? attr-dict `:` type($result)
  }];
}

def Xla_AllGatherOp : Xla_CollectiveOp<"all_gather",
    [SameOperandsAndResultElementType]> {
  let summary = "Concatenates every group member's input along `dim`, in group order";
  let arguments = !con((ins Xla_Tensor:$input,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$dim),
                       participants);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `dim` `=` $dim `` custom<Participants>($mesh, $axes, $groups, $link)
    attr-dict `:` functional-type(operands, results)
  }];
}

def Xla_ReduceScatterOp : Xla_CollectiveOp<"reduce_scatter",
    [SameOperandsAndResultElementType]> {
  let summary = "Reduces across each group and scatters the result along `dim`";
  let description = [{
    Group member at position i gets block i of the reduced tensor (split in
    group-size equal blocks along `dim`), multiplied by `scale`.
  }];
  let arguments = !con((ins Xla_ReductionKind:$kind, Xla_Tensor:$input,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
                            DefaultValuedAttr<F64Attr, "1.0">:$scale),
                       participants);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `,` `dim` `=` $dim
    `` custom<Participants>($mesh, $axes, $groups, $link)
    (`scale` `=` $scale^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Xla_AllToAllOp : Xla_CollectiveOp<"all_to_all",
    [SameOperandsAndResultElementType]> {
  let summary = "Splits along split_dim, exchanges, concatenates along concat_dim";
  let description = [{
    torch_xla `xm.all_to_all(x, split_dimension, concat_dimension,
    split_count, groups)`: block i of the input (split in `split_count`
    blocks along `split_dim`) goes to the group member at position i; the
    blocks received are concatenated along `concat_dim` in source order.
    `split_count` equals the group size.
  }];
  let arguments = !con((ins Xla_Tensor:$input,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$split_dim,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$concat_dim,
                            ConfinedAttr<I64Attr, [IntPositive]>:$split_count),
                       participants);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `split_dim` `=` $split_dim `,` `concat_dim` `=` $concat_dim `,`
    `split_count` `=` $split_count
    `` custom<Participants>($mesh, $axes, $groups, $link) attr-dict `:`
    functional-type(operands, results)
  }];
}

def Xla_CollectivePermuteOp : Xla_CollectiveOp<"collective_permute",
    [AllTypesMatch<["input", "result"]>]> {
  let summary = "Sends each source's input to its target; others get zeros";
  let description = [{
    `pairs = [[s, t], ...]`: with mesh axes or groups, `s` and `t` are
    positions within each group (the same pattern in every group); without,
    they are device ids. Each position is a source at most once and a target
    at most once; a device that is no target gets zeros, as in XLA.
  }];
  let arguments = !con((ins Xla_Tensor:$input, I64ElementsAttr:$pairs),
                       participants);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `pairs` `=` custom<Pairs>($pairs)
    `` custom<Participants>($mesh, $axes, $groups, $link) attr-dict `:`
    type($result)
  }];
}

def Xla_AllSliceOp : Xla_CollectiveOp<"all_slice",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "Keeps this device's block along `dim` (no communication)";
  let description = [{
    The dual of all_gather: the group member at position i keeps block i of
    its input, split in group-size equal blocks along `dim`.
  }];
  let arguments = !con((ins Xla_Tensor:$input,
                            ConfinedAttr<I64Attr, [IntNonNegative]>:$dim),
                       participants);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `dim` `=` $dim `` custom<Participants>($mesh, $axes, $groups, $link)
    attr-dict `:` functional-type(operands, results)
  }];
}

#endif // XSPMD_DIALECTS_XLA_XLACOLLECTIVEOPS_TD
