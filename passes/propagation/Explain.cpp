//===- Explain.cpp - print where each sharding came from ------------------===//
//
// --xla-explain-sharding output: per value its sharding and, per sharded
// dimension, the annotation it descends from and the op that brought it;
// then every conflict with its alternatives and their estimated costs.
//
//===----------------------------------------------------------------------===//

#include "passes/inspect/Traffic.h"
#include "passes/propagation/PropagationState.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::prop::detail {

void FunctionPropagation::logConflict(ConflictRecord record) {
  auto key = std::make_tuple(record.record, record.axis.getAsOpaquePointer(),
                             record.factor);
  auto [it, inserted] = conflictIndex.try_emplace(key, conflicts.size());
  if (inserted)
    conflicts.push_back(std::move(record));
  else
    conflicts[it->second] = std::move(record);
}

std::string describeOp(Operation *op) { return inspect::describeOp(op); }

static void printAxes(raw_ostream &os, ArrayRef<StringAttr> axes) {
  os << '{';
  llvm::interleaveComma(
      axes, os, [&](StringAttr a) { os << '"' << a.getValue() << '"'; });
  os << '}';
}

void FunctionPropagation::explain(raw_ostream &os) {
  AsmState asmState(func);
  auto nameOf = [&](Value v) {
    std::string s;
    llvm::raw_string_ostream o(s);
    v.printAsOperand(o, asmState);
    return s;
  };
  auto tensorLabel = [&](const OpRecord &record, int32_t k) {
    if (isa<func::ReturnOp>(record.op))
      return std::string(k == 0 ? "returned value" : "function result");
    if (isa<ManualComputationOp>(record.op)) {
      std::string index = std::to_string(record.carried);
      return k == 0 ? "operand " + index : "in_shardings[" + index + "]";
    }
    if (record.carried >= 0 && isa<CaseOp>(record.op->getParentOp())) {
      std::string result = "result " + std::to_string(record.carried);
      if (k == 1)
        return result;
      return "value branch " +
             std::to_string(record.op->getParentRegion()->getRegionNumber()) +
             " yields as " + result;
    }
    if (record.carried >= 0) {
      std::string carried = "carried value " + std::to_string(record.carried);
      if (k == 1)
        return carried;
      return (isa<YieldOp>(record.op) ? "value yielded as " : "initial ") +
             carried;
    }
    if (k < record.numOperands)
      return "operand " + std::to_string(k);
    return "result " + std::to_string(k - record.numOperands);
  };
  auto rootLabel = [&](int32_t root) {
    return root >= 0 ? annotations[root] : std::string("an annotation");
  };
  auto printState = [&](const ValueState &state, const std::string &label) {
    os << "  " << label << ": " << toAttr(state) << "\n";
    if (state.user)
      os << "    annotated (" << annotations[state.annotation] << ")\n";
    bool any = !state.partial.empty();
    for (auto [d, dim] : llvm::enumerate(state.dims)) {
      any |= !dim.axes.empty();
      if (dim.origin.record < 0)
        continue;
      const OpRecord &record = records[dim.origin.record];
      os << "    dim " << d << ' ';
      printAxes(os, dim.axes);
      os << ": from " << rootLabel(dim.origin.root) << " through "
         << describeOp(record.op) << " ("
         << tensorLabel(record, dim.origin.tensor) << ")\n";
    }
    if (!state.partial.empty() && state.partialOrigin.record >= 0) {
      const OpRecord &record = records[state.partialOrigin.record];
      os << "    partial ";
      printAxes(os, state.partial);
      os << " (" << stringifyReductionKind(state.partialKind)
         << "): reduction factor of " << describeOp(record.op) << " sharded by "
         << rootLabel(state.partialOrigin.root) << "\n";
    }
    if (!any && !state.user && !state.dims.empty())
      os << "    replicated: no sharding reached it\n";
  };

  os << "sharding of @" << func.getSymName() << ":\n";
  for (BlockArgument arg : func.getArguments())
    if (isa<RankedTensorType>(arg.getType()))
      printState(states[stateOf[arg]], nameOf(arg));
  for (Operation *op : annotatedOps)
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      printState(states[stateOf[result]],
                 nameOf(result) + " = " + describeOp(op));
      if (auto loop = dyn_cast<WhileOp>(op))
        os << "    carried value " << i << ": one sharding for the initial "
           << nameOf(loop.getInits()[i]) << ", the regions' argument "
           << nameOf(loop.getBody().getArgument(i)) << ", the yielded "
           << nameOf(loop.getBodyYield().getValues()[i]) << " and the result\n";
    }
  for (auto [i, s] : llvm::enumerate(resultStates))
    if (isa<RankedTensorType>(func.getResultTypes()[i]))
      printState(states[s], "result " + std::to_string(i));

  for (const ConflictRecord &conflict : conflicts) {
    const OpRecord &record = records[conflict.record];
    const OpShardingRule &rule = *record.rule;
    os << "  conflict at " << describeOp(record.op) << ": ";
    if (conflict.axis) {
      os << "axis \"" << conflict.axis.getValue() << "\" wanted by factors";
      for (const ConflictOption &o : conflict.options)
        os << ' ' << factorName(o.factor);
    } else {
      bool reduction =
          rule.factorKinds[conflict.factor] == FactorKind::reduction;
      os << (reduction ? "reduction factor " : "factor ")
         << factorName(conflict.factor) << " (size "
         << rule.factorSizes[conflict.factor] << ") can be sharded in "
         << conflict.options.size() << " ways";
    }
    os << "\n";
    for (auto [i, o] : llvm::enumerate(conflict.options)) {
      os << "    ";
      if (conflict.axis)
        os << "on factor " << factorName(o.factor);
      else
        printAxes(os, o.axes);
      if (!conflict.axis && o.axes.empty())
        os << " (unsharded)";
      if (o.tensor >= 0)
        os << " from " << tensorLabel(record, o.tensor);
      if (o.priority != kNoPriority)
        os << ", priority p" << o.priority;
      // An option the partitioner's planner cannot carry out (sub-axes no
      // mesh refines into) has no finite cost.
      if (std::isfinite(o.cost))
        os << ": cost " << static_cast<int64_t>(std::llround(o.cost));
      else
        os << ": no plan";
      if (static_cast<int32_t>(i) == conflict.chosen)
        os << "  <- chosen";
      os << "\n";
    }
  }
  for (const GlobalDecision &decision : globalDecisions) {
    const OpRecord &record = records[std::get<0>(decision.key)];
    os << "  near tie at " << describeOp(record.op) << " re-decided by the "
       << "whole plan: ";
    if (decision.kept.factor >= 0) {
      os << "axis on factor " << factorName(decision.kept.factor);
    } else {
      os << "factor " << factorName(std::get<2>(decision.key)) << " ";
      printAxes(os, decision.kept.axes);
    }
    os << ", plan cost "
       << static_cast<int64_t>(std::llround(decision.keptCost))
       << " instead of "
       << static_cast<int64_t>(std::llround(decision.otherCost)) << "\n";
  }
  for (const MovedReshard &moved : movedReshards)
    os << "  reshard for " << describeOp(moved.boundary) << " moved to "
       << nameOf(moved.value) << ": cost "
       << static_cast<int64_t>(std::llround(moved.cost)) << " instead of "
       << static_cast<int64_t>(std::llround(moved.costAtBoundary)) << "\n";
  // The bytes per device the plan moves around each op, unweighted and
  // under the same key --xla-partition=report-bytes=true uses, so that the
  // plan and what the partitioner emits compare op by op.
  llvm::MapVector<std::string, double, std::map<std::string, unsigned>> planned;
  ReshardsDone done;
  localLayouts.clear();
  for (int32_t r = 0, e = records.size(); r < e; ++r)
    if (double bytes = recordCost(r, &done, /*bytesOnly=*/true); bytes > 0)
      planned[describeOp(records[r].op)] += bytes;
  os << "planned bytes of @" << func.getSymName() << ":\n";
  for (const auto &[op, bytes] : planned)
    os << "  " << op << ": " << static_cast<int64_t>(std::llround(bytes))
       << " B per device\n";
  os.flush();
}

} // namespace xspmd::prop::detail
