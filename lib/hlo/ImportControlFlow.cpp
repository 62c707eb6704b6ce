//===- ImportControlFlow.cpp - HLO's while, conditional, call -------------===//
//
// while → xla.while (the carried tuple's arrays are the loop-carried
// values); conditional → xla.case (a branch's parameter is bound to the
// value it is given); call → func.call of a private function per
// computation; fusion → its computation inlined.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

LogicalResult importWhile(ComputationImporter &ci, const Instruction &inst) {
  ModuleImporter &m = ci.getModule();
  const Computation *cond = m.lookupComputation(inst, "condition");
  const Computation *body = cond ? m.lookupComputation(inst, "body") : nullptr;
  if (!cond || !body || failed(ci.expectOperands(inst, 1)))
    return failure();
  for (const Computation *c : {cond, body})
    if (c->getParameters().size() != 1)
      return ci.emitError(inst) << "while: computation '" << c->name
                                << "' must take one parameter";
  SmallVector<Value> inits(ci.getOperandLeaves(inst, 0));
  SmallVector<Type> types;
  if (failed(m.getLeafTypes(inst.shape, inst.loc, types)))
    return failure();
  OperationState state(ci.getLoc(inst), xla::WhileOp::getOperationName());
  state.addOperands(inits);
  state.addTypes(types);
  state.addRegion();
  state.addRegion();
  Operation *op = ci.getBuilder().create(state);
  if (failed(ci.importRegion(*cond, op->getRegion(0))) ||
      failed(ci.importRegion(*body, op->getRegion(1))))
    return failure();
  ci.setResult(inst, op->getResults());
  return success();
}

LogicalResult importConditional(ComputationImporter &ci,
                                const Instruction &inst) {
  ModuleImporter &m = ci.getModule();
  std::vector<const Computation *> branches;
  if (const HloAttr *list = inst.findAttribute("branch_computations")) {
    std::vector<std::string> names;
    std::string error;
    if (!readComputationList(list->value, names, error))
      return ci.attrError(*list, error);
    for (const std::string &name : names) {
      const Computation *c = m.getAst().findComputation(name);
      if (!c)
        return ci.emitError(list->loc)
               << "no computation named '" << name << "'";
      branches.push_back(c);
    }
  } else {
    const Computation *t = m.lookupComputation(inst, "true_computation");
    const Computation *f =
        t ? m.lookupComputation(inst, "false_computation") : nullptr;
    if (!t || !f)
      return failure();
    branches = {t, f};
  }
  if (inst.operands.size() != branches.size() + 1)
    return ci.emitError(inst) << "conditional: " << branches.size()
                              << " branches need " << branches.size() + 1
                              << " operands, found " << inst.operands.size();
  FailureOr<Value> index = ci.getOperand(inst, 0);
  SmallVector<Type> types;
  if (failed(index) || failed(m.getLeafTypes(inst.shape, inst.loc, types)))
    return failure();
  OperationState state(ci.getLoc(inst), xla::CaseOp::getOperationName());
  state.addOperands(*index);
  state.addTypes(types);
  for (size_t i = 0; i < branches.size(); ++i)
    state.addRegion();
  Operation *op = ci.getBuilder().create(state);
  for (auto [i, branch] : llvm::enumerate(branches)) {
    SmallVector<SmallVector<Value>> bound{
        SmallVector<Value>(ci.getOperandLeaves(inst, i + 1))};
    if (failed(ci.importInlineRegion(*branch, op->getRegion(i), bound)))
      return failure();
  }
  ci.setResult(inst, op->getResults());
  return success();
}

LogicalResult importCall(ComputationImporter &ci, const Instruction &inst) {
  const Computation *callee =
      ci.getModule().lookupComputation(inst, "to_apply");
  if (!callee)
    return failure();
  FailureOr<func::FuncOp> func = ci.getModule().getCalledFunction(*callee);
  if (failed(func))
    return failure();
  SmallVector<Value> args;
  for (unsigned i = 0, e = inst.operands.size(); i < e; ++i)
    llvm::append_range(args, ci.getOperandLeaves(inst, i));
  if (args.size() != func->getNumArguments())
    return ci.emitError(inst)
           << "call: computation '" << callee->name << "' takes "
           << func->getNumArguments() << " arrays, given " << args.size();
  auto call =
      func::CallOp::create(ci.getBuilder(), ci.getLoc(inst), *func, args);
  ci.setResult(inst, call.getResults());
  return success();
}

LogicalResult importFusion(ComputationImporter &ci, const Instruction &inst) {
  const Computation *fused = ci.getModule().lookupComputation(inst, "calls");
  if (!fused)
    return failure();
  // kLoop, kInput, kOutput: how XLA generates code for it, not what it
  // computes (the called computation).
  (void)inst.findAttribute("kind");
  SmallVector<SmallVector<Value>> bound;
  for (unsigned i = 0, e = inst.operands.size(); i < e; ++i)
    bound.emplace_back(ci.getOperandLeaves(inst, i));
  ComputationImporter nested(ci.getModule(), ci.getBuilder());
  SmallVector<Value> results;
  if (failed(nested.importBody(*fused, bound, results)))
    return failure();
  ci.setResult(inst, results);
  return success();
}

} // namespace

void xspmd::hlo::addControlFlowImporters(OpImporterTable &table) {
  table["while"] = importWhile;
  table["conditional"] = importConditional;
  table["call"] = importCall;
  table["fusion"] = importFusion;
}
