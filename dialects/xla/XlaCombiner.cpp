//===- XlaCombiner.cpp - recognising associative scalar bodies ------------===//

#include "dialects/xla/XlaCombiner.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace xspmd::xla {

static std::optional<ReductionKind> kindOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ReductionKind>>(op)
      .Case([](AddOp) { return ReductionKind::sum; })
      .Case([](MulOp) { return ReductionKind::mul; })
      .Case([](MaxOp) { return ReductionKind::max; })
      .Case([](MinOp) { return ReductionKind::min; })
      .Case([](AndOp) { return ReductionKind::and_; })
      .Case([](OrOp) { return ReductionKind::or_; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<ReductionKind> matchPairwiseCombiner(Region &body) {
  if (!body.hasOneBlock())
    return std::nullopt;
  Block &block = body.front();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return std::nullopt;
  int64_t n = yield.getValues().size();
  if (n == 0 || static_cast<int64_t>(block.getNumArguments()) != 2 * n)
    return std::nullopt;
  std::optional<ReductionKind> kind;
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumOperands() != 2)
      return std::nullopt;
    std::optional<ReductionKind> k = kindOf(def);
    if (!k || (kind && *kind != *k))
      return std::nullopt;
    kind = k;
    Value a = block.getArgument(i), b = block.getArgument(n + i);
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    if (!((lhs == a && rhs == b) || (lhs == b && rhs == a)))
      return std::nullopt;
  }
  return kind;
}

} // namespace xspmd::xla
