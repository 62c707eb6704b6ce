//===- XlaShardingRuleInterface.td - ops that declare a rule -*- tablegen -*-===//

#ifndef XSPMD_DIALECTS_XLA_XLASHARDINGRULEINTERFACE_TD
#define XSPMD_DIALECTS_XLA_XLASHARDINGRULEINTERFACE_TD

include "mlir/IR/OpBase.td"

def Xla_ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::xspmd::xla";
  let description = [{
    An op that declares its sharding rule as data: factors over its operand
    and result dimensions (dialects/xla/XlaShardingRule.h). Sharding
    propagation and the SPMD partitioner read the rule through
    `xspmd::xla::getShardingRule(op)`, which prefers an `xla.sharding_rule`
    attribute on the op when there is one.

    Every computational op of the xla dialect implements it (attached in
    XlaShardingRuleModels.cpp); ops of other dialects can attach it too.
  }];
  let methods = [
    InterfaceMethod<[{
        The rule of this op for its current operand and result types.
      }],
      "::xspmd::xla::OpShardingRule", "getShardingRule">,
  ];
}

#endif // XSPMD_DIALECTS_XLA_XLASHARDINGRULEINTERFACE_TD
