//===- XlaShardingRule.td - op sharding rules as attributes -*- tablegen -*-===//
//
// The attribute form of an op's sharding rule (dialects/xla/XlaShardingRule.h
// holds the C++ form every pass reads). Included from XlaAttrs.td so that the
// attributes are generated and registered with the others.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLASHARDINGRULE_TD
#define XSPMD_DIALECTS_XLA_XLASHARDINGRULE_TD

include "dialects/xla/XlaDialect.td"
include "dialects/xla/XlaEnums.td"

def Xla_DimMappingAttr : AttrDef<Xla_Dialect, "DimMapping"> {
  let attrName = "xla.dim_mapping";
  let summary = "The factors of one tensor dimension, major to minor";
  let parameters = (ins OptionalArrayRefParameter<"int64_t">:$factors);
}

def Xla_TensorMappingAttr : AttrDef<Xla_Dialect, "TensorMapping"> {
  let attrName = "xla.tensor_mapping";
  let summary = "The factors of each dimension of one tensor";
  let parameters = (ins OptionalArrayRefParameter<"DimMappingAttr">:$dims);
}

def Xla_OpShardingRuleAttr : Xla_Attr<"OpShardingRule", "op_sharding_rule"> {
  let summary = "How an op's operand and result dimensions share factors";
  let description = [{
    An op's sharding rule, as data: a list of factors (named `i`, `j`, ...
    in the text form) with their sizes, and for every dimension of every
    operand and result the factors it is made of, major to minor. Two
    dimensions that share a factor can be sharded the same way along it.

    ```mlir
    #xla.op_sharding_rule<([i, j], [j, k])->([i, k]) {i=8, j=16, k=4} reduction={j}>
    #xla.op_sharding_rule<([ij, k])->([i, jk]) {i=2, j=4, k=4}>
    #xla.op_sharding_rule<([i, 1])->([i, j]) {i=8, j=4}>
    #xla.op_sharding_rule<([i, j])->([i]) {i=8, j=4} reduction<max>={j}>
    ```

    A dimension is the concatenation of its factors' names; `1` is a
    dimension made of no factor (size 1). Factors are pass-through unless
    listed as `reduction` (summed over: a result computed with it sharded is
    a pending `partial` reduction of the given kind, sum by default),
    `need_replication` (must not be sharded) or `permutation` (may be
    sharded but the partitioner moves data across shards: windows, pads,
    slices, concatenation; the dimensions of such a factor may differ in
    size, its size is the result's).

    Attached to an op as `xla.sharding_rule`, it overrides the op's own rule:
    that is how ops of other dialects get a rule.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "factor sizes">:$factorSizes,
    OptionalArrayRefParameter<"TensorMappingAttr">:$operandMappings,
    OptionalArrayRefParameter<"TensorMappingAttr">:$resultMappings,
    OptionalArrayRefParameter<"int64_t">:$reductionFactors,
    OptionalArrayRefParameter<"int64_t">:$needReplicationFactors,
    OptionalArrayRefParameter<"int64_t">:$permutationFactors,
    DefaultValuedParameter<"ReductionKind", "ReductionKind::sum">:$reductionKind);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  // Conversions from and to the C++ form (xspmd::xla::OpShardingRule) are
  // free functions in dialects/xla/XlaShardingRule.h.
}

#endif // XSPMD_DIALECTS_XLA_XLASHARDINGRULE_TD
