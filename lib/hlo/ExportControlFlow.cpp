//===- ExportControlFlow.cpp - HLO while and conditional ------------------===//
//
// Regions become computations. HLO computations are closed, so the values a
// while or case body uses from outside are passed in its tuple parameter:
// a while carries them through every iteration unchanged, each branch of a
// conditional gets its own operand tuple.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloExportContext.h"

#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

/// Values used in `regions` but defined outside them, in a stable order.
SmallVector<Value> capturedValues(MutableArrayRef<Region> regions) {
  llvm::SetVector<Value> values;
  for (Region &r : regions)
    getUsedValuesDefinedAbove(r, values);
  return values.takeVector();
}

} // namespace

LogicalResult xspmd::hlo::exportWhile(ComputationExporter &ce,
                                      xla::WhileOp op) {
  ModuleExporter &m = ce.getModule();
  SmallVector<Value> captured = capturedValues(op->getRegions());
  SmallVector<Type> types(op.getResultTypes());
  for (Value v : captured)
    types.push_back(v.getType());
  // cond and body take the tuple (carried values, then captured ones).
  auto exportRegion = [&](Region &region,
                          bool isBody) -> FailureOr<std::string> {
    ComputationExporter inner(m, m.uniqueName(isBody ? "body" : "cond"));
    std::string param = inner.addTupleParameter(types);
    SmallVector<std::string> elements = inner.emitUntuple(param, types);
    Block &block = region.front();
    for (auto [arg, n] : llvm::zip(block.getArguments(), elements))
      inner.bind(arg, n);
    for (auto [v, i] : llvm::zip(
             captured, llvm::seq<size_t>(op.getNumResults(), types.size())))
      inner.bind(v, elements[i]);
    if (failed(inner.exportOps(block)))
      return failure();
    Operation *yield = block.getTerminator();
    SmallVector<std::string> results;
    if (failed(inner.lookupAll(yield->getOperands(), yield, results)))
      return failure();
    if (!isBody)
      return inner.finish(results, yield->getOperandTypes());
    for (size_t i = op.getNumResults(); i < types.size(); ++i)
      results.push_back(elements[i]);
    return inner.finish(results, types, false, "", /*forceTuple=*/true);
  };
  FailureOr<std::string> cond = exportRegion(op.getCond(), false);
  if (failed(cond))
    return failure();
  FailureOr<std::string> body = exportRegion(op.getBody(), true);
  if (failed(body))
    return failure();
  SmallVector<std::string> inits;
  if (failed(ce.lookupAll(op.getInits(), op, inits)) ||
      failed(ce.lookupAll(captured, op, inits)))
    return failure();
  std::string tuple = ce.emit("tuple", hloTupleShape(types), "tuple", inits);
  std::string loop = ce.emit("while", hloTupleShape(types), "while", {tuple},
                             "condition=%" + *cond + ", body=%" + *body);
  SmallVector<std::string> results = ce.emitUntuple(loop, types);
  for (auto [r, n] : llvm::zip(op.getResults(), results))
    ce.bind(r, n);
  if (auto shardings = op->getAttrOfType<ArrayAttr>(xla::kShardingAttrName)) {
    std::string text = "{";
    for (size_t i = 0; i < types.size(); ++i) {
      std::string t = "{replicated}";
      if (i < shardings.size())
        if (auto s = dyn_cast<xla::ShardingAttr>(shardings[i])) {
          FailureOr<std::string> st = m.shardingText(s, op);
          if (failed(st))
            return failure();
          t = *st;
        }
      text += (i ? ", " : "") + t;
    }
    ce.addSharding(loop, text + "}");
  }
  return success();
}

LogicalResult xspmd::hlo::exportCase(ComputationExporter &ce, xla::CaseOp op) {
  ModuleExporter &m = ce.getModule();
  SmallVector<std::string> branchNames, branchOperands;
  for (Region &region : op.getBranches()) {
    SmallVector<Value> captured = capturedValues(region);
    SmallVector<Type> types;
    for (Value v : captured)
      types.push_back(v.getType());
    ComputationExporter inner(m, m.uniqueName("branch"));
    std::string param = inner.addTupleParameter(types);
    SmallVector<std::string> elements = inner.emitUntuple(param, types);
    for (auto [v, n] : llvm::zip(captured, elements))
      inner.bind(v, n);
    Block &block = region.front();
    if (failed(inner.exportOps(block)))
      return failure();
    Operation *yield = block.getTerminator();
    SmallVector<std::string> results;
    if (failed(inner.lookupAll(yield->getOperands(), yield, results)))
      return failure();
    branchNames.push_back(inner.finish(results, op.getResultTypes(), false, "",
                                       op.getNumResults() != 1));
    SmallVector<std::string> args;
    if (failed(ce.lookupAll(captured, op, args)))
      return failure();
    branchOperands.push_back(
        ce.emit("tuple", hloTupleShape(types), "tuple", args));
  }
  FailureOr<std::string> index = ce.lookup(op.getIndex(), op);
  if (failed(index))
    return failure();
  SmallVector<std::string> operands{*index};
  llvm::append_range(operands, branchOperands);
  std::string attrs;
  if (op.isPredicated()) {
    attrs = "true_computation=%" + branchNames[0] + ", false_computation=%" +
            branchNames[1];
  } else {
    attrs = "branch_computations={";
    for (auto [i, b] : llvm::enumerate(branchNames))
      attrs += (i ? ", %" : "%") + b;
    attrs += "}";
  }
  bool single = op.getNumResults() == 1;
  std::string shape = single ? hloShape(op.getResult(0).getType())
                             : hloTupleShape(op.getResultTypes());
  std::string cond =
      ce.emit("conditional", shape, "conditional", operands, attrs);
  if (single) {
    ce.bind(op.getResult(0), cond);
  } else {
    for (auto [r, n] :
         llvm::zip(op.getResults(), ce.emitUntuple(cond, op.getResultTypes())))
      ce.bind(r, n);
  }
  return success();
}
