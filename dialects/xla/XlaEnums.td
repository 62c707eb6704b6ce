//===- XlaEnums.td - enums of the xla dialect --------------*- tablegen -*-===//

#ifndef XSPMD_DIALECTS_XLA_XLAENUMS_TD
#define XSPMD_DIALECTS_XLA_XLAENUMS_TD

include "mlir/IR/EnumAttr.td"

// The reductions of xm.all_reduce (REDUCE_SUM, REDUCE_MUL, REDUCE_AND,
// REDUCE_OR, REDUCE_MIN, REDUCE_MAX); also the pending reduction of a
// `partial` sharding.
def Xla_ReductionKind : I32EnumAttr<"ReductionKind", "collective reduction", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"and_", 2, "and">, I32EnumAttrCase<"or_", 3, "or">,
    I32EnumAttrCase<"min", 4>, I32EnumAttrCase<"max", 5>]> {
  let cppNamespace = "::xspmd::xla";
}

// The reductions of xla.reduce.
def Xla_ReduceKind : I32EnumAttr<"ReduceKind", "tensor reduction", [
    I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"prod", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"mean", 4>, I32EnumAttrCase<"and_", 5, "and">,
    I32EnumAttrCase<"or_", 6, "or">]> {
  let cppNamespace = "::xspmd::xla";
}

def Xla_CompareDirection : I32EnumAttr<"CompareDirection", "comparison", [
    I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
    I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
    I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::xspmd::xla";
}

def Xla_RngDistribution : I32EnumAttr<"RngDistribution", "random distribution", [
    I32EnumAttrCase<"uniform", 0>, I32EnumAttrCase<"normal", 1>]> {
  let cppNamespace = "::xspmd::xla";
}

// Which network a mesh axis (or a collective over it) travels on: the ICI
// inside a TPU slice, the data-centre network between slices, or both.
def Xla_LinkClass : I32EnumAttr<"LinkClass", "link class", [
    I32EnumAttrCase<"ici", 0>, I32EnumAttrCase<"dcn", 1>,
    I32EnumAttrCase<"mixed", 2>]> {
  let cppNamespace = "::xspmd::xla";
}

#endif // XSPMD_DIALECTS_XLA_XLAENUMS_TD
