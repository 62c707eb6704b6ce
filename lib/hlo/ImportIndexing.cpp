//===- ImportIndexing.cpp - HLO's gather, scatter and sort ----------------===//
//
// The dialect's forms carry HLO's dimension numbers one to one; scatter's
// update computation and sort's comparator become scalar regions.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

/// Copies HLO integer-list attributes onto `attrs` under new names.
LogicalResult copyLists(ComputationImporter &ci, const Instruction &inst,
                        ArrayRef<std::tuple<StringRef, StringRef, bool>> names,
                        SmallVectorImpl<NamedAttribute> &attrs) {
  for (auto [hlo, xla, required] : names) {
    FailureOr<SmallVector<int64_t>> list = ci.getIntList(inst, hlo, required);
    if (failed(list))
      return failure();
    attrs.push_back(ci.named(xla, ci.i64s(*list)));
  }
  return success();
}

/// `name=true` becomes a unit attribute.
LogicalResult copyFlag(ComputationImporter &ci, const Instruction &inst,
                       StringRef name, SmallVectorImpl<NamedAttribute> &attrs) {
  const HloAttr *attr = inst.findAttribute(name);
  if (!attr)
    return success();
  bool value;
  std::string error;
  if (!readBool(attr->value, value, error))
    return ci.attrError(*attr, error);
  if (value)
    attrs.push_back(ci.named(name, ci.getBuilder().getUnitAttr()));
  return success();
}

LogicalResult importGather(ComputationImporter &ci, const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  SmallVector<Value> operands;
  if (failed(type) || failed(ci.expectOperands(inst, 2)) ||
      failed(ci.getOperands(inst, operands)))
    return failure();
  SmallVector<NamedAttribute> attrs;
  FailureOr<int64_t> ivd = ci.getInt(inst, "index_vector_dim");
  if (failed(ivd) ||
      failed(
          copyLists(ci, inst,
                    {{"offset_dims", "offset_dims", true},
                     {"collapsed_slice_dims", "collapsed_slice_dims", true},
                     {"start_index_map", "start_index_map", true},
                     {"slice_sizes", "slice_sizes", true},
                     {"operand_batching_dims", "operand_batching_dims", false},
                     {"start_indices_batching_dims",
                      "start_indices_batching_dims", false}},
                    attrs)) ||
      failed(copyFlag(ci, inst, "indices_are_sorted", attrs)))
    return failure();
  attrs.push_back(
      ci.named("index_vector_dim", ci.getBuilder().getI64IntegerAttr(*ivd)));
  ci.setResult(
      inst,
      ci.create<xla::HloGatherOp>(inst, *type, operands, attrs)->getResults());
  return success();
}

LogicalResult importScatter(ComputationImporter &ci, const Instruction &inst) {
  const Computation *body = ci.getModule().lookupComputation(inst, "to_apply");
  if (!body)
    return failure();
  SmallVector<Value> operands;
  if (failed(ci.getOperands(inst, operands)))
    return failure();
  if (operands.size() < 3 || operands.size() % 2 == 0)
    return ci.emitError(inst) << "scatter takes N inputs, the indices and N "
                                 "updates; found "
                              << operands.size() << " operands";
  int32_t n = (operands.size() - 1) / 2;
  SmallVector<Type> types;
  if (failed(ci.getModule().getLeafTypes(inst.shape, inst.loc, types)))
    return failure();
  SmallVector<NamedAttribute> attrs;
  FailureOr<int64_t> ivd = ci.getInt(inst, "index_vector_dim");
  if (failed(ivd) ||
      failed(copyLists(ci, inst,
                       {{"update_window_dims", "update_window_dims", true},
                        {"inserted_window_dims", "inserted_window_dims", true},
                        {"scatter_dims_to_operand_dims",
                         "scatter_dims_to_operand_dims", true},
                        {"input_batching_dims", "input_batching_dims", false},
                        {"scatter_indices_batching_dims",
                         "scatter_indices_batching_dims", false}},
                       attrs)) ||
      failed(copyFlag(ci, inst, "indices_are_sorted", attrs)) ||
      failed(copyFlag(ci, inst, "unique_indices", attrs)))
    return failure();
  attrs.push_back(
      ci.named("index_vector_dim", ci.getBuilder().getI64IntegerAttr(*ivd)));
  attrs.push_back(ci.named("operandSegmentSizes",
                           ci.getBuilder().getDenseI32ArrayAttr({n, 1, n})));
  OpBuilder &b = ci.getBuilder();
  OperationState state(ci.getLoc(inst), xla::ScatterOp::getOperationName());
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttributes(attrs);
  state.addRegion();
  Operation *op = b.create(state);
  if (failed(ci.importRegion(*body, op->getRegion(0))))
    return failure();
  ci.setResult(inst, op->getResults());
  return success();
}

LogicalResult importSort(ComputationImporter &ci, const Instruction &inst) {
  const Computation *body = ci.getModule().lookupComputation(inst, "to_apply");
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, "dimensions", /*required=*/true);
  SmallVector<Value> operands;
  if (!body || failed(dims) || failed(ci.getOperands(inst, operands)))
    return failure();
  if (dims->size() != 1)
    return ci.attrError(*inst.findAttribute("dimensions"),
                        "expected one dimension");
  SmallVector<Type> types;
  if (failed(ci.getModule().getLeafTypes(inst.shape, inst.loc, types)))
    return failure();
  SmallVector<NamedAttribute> attrs{
      ci.named("dimension", ci.getBuilder().getI64IntegerAttr(dims->front()))};
  if (failed(copyFlag(ci, inst, "is_stable", attrs)))
    return failure();
  OperationState state(ci.getLoc(inst), xla::SortOp::getOperationName());
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttributes(attrs);
  state.addRegion();
  Operation *op = ci.getBuilder().create(state);
  if (failed(ci.importRegion(*body, op->getRegion(0))))
    return failure();
  ci.setResult(inst, op->getResults());
  return success();
}

} // namespace

void xspmd::hlo::addIndexingImporters(OpImporterTable &table) {
  table["gather"] = importGather;
  table["scatter"] = importScatter;
  table["sort"] = importSort;
}
