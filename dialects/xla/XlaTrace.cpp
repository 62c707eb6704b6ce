//===- XlaTrace.cpp - xla.trace scopes in regions and locations -----------===//

#include "dialects/xla/XlaTrace.h"
#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace xspmd::xla {

LogicalResult TraceOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  auto yield = cast<YieldOp>(getBody().front().getTerminator());
  if (yield.getValues().getTypes() != getResultTypes())
    return emitOpError() << "yields " << yield.getValues().size()
                         << " value(s) of types "
                         << yield.getValues().getTypes() << " but has "
                         << getNumResults() << " result(s) of types "
                         << getResultTypes();
  if (!getKernel())
    return success();
  // A kernel runs on one chip without leaving it: no communication, no
  // control flow, no kernel inside.
  WalkResult walk = getBody().walk([&](Operation *op) -> WalkResult {
    auto nested = dyn_cast<TraceOp>(op);
    if (isa<CollectiveOpInterface, WhileOp, CaseOp, ManualComputationOp>(op) ||
        (nested && nested.getKernel())) {
      InFlightDiagnostic diag = emitOpError("kernel '")
                                << getName() << "' holds '" << op->getName()
                                << "'; a kernel holds no collectives, control "
                                   "flow or other kernels";
      diag.attachNote(op->getLoc()) << "here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

Location addTraceScope(Location loc, StringRef name) {
  return NameLoc::get(
      StringAttr::get(loc.getContext(), (kTraceLocPrefix + name).str()), loc);
}

/// Appends the scopes of `loc` to `scopes`; true if it had any.
static bool collectScopes(Location loc, SmallVectorImpl<StringRef> &scopes) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    StringRef text = name.getName().getValue();
    bool found = false;
    if (text.consume_front(kTraceLocPrefix)) {
      scopes.push_back(text);
      found = true;
    }
    return collectScopes(name.getChildLoc(), scopes) || found;
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location part : fused.getLocations())
      if (collectScopes(part, scopes))
        return true;
    return false;
  }
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return collectScopes(call.getCallee(), scopes);
  return false;
}

SmallVector<StringRef> getTraceScopes(Location loc) {
  SmallVector<StringRef> scopes;
  collectScopes(loc, scopes);
  return scopes;
}

size_t inlineTraceOps(Operation *root) {
  SmallVector<TraceOp> traces;
  // Post-order: inner traces are inlined into their parent's body first, so
  // the parent then wraps their (already scoped) locations once more.
  root->walk([&](TraceOp trace) { traces.push_back(trace); });
  for (TraceOp trace : traces) {
    Block &body = trace.getBody().front();
    StringRef name = trace.getName();
    body.walk(
        [&](Operation *op) { op->setLoc(addTraceScope(op->getLoc(), name)); });
    auto yield = cast<YieldOp>(body.getTerminator());
    trace.replaceAllUsesWith(yield.getValues());
    yield.erase();
    trace->getBlock()->getOperations().splice(Block::iterator(trace),
                                              body.getOperations());
    trace.erase();
  }
  return traces.size();
}

} // namespace xspmd::xla
