//===- CollectiveCSE.cpp - identical collectives of the same operand ------===//
//
// Collectives declare no memory effects (they synchronize devices), so the
// upstream CSE leaves them alone. Two collectives with the same name,
// operands, attributes and result types compute the same value on every
// device, so the later one can reuse the earlier one's result when the
// earlier one dominates it.
//
//===----------------------------------------------------------------------===//

#include "passes/optimize/Rewrites.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {

void eraseDuplicateCollectives(Operation *root, RewriteConfig &config) {
  if (!config.enabled(Rewrite::DuplicateCollective))
    return;
  SmallVector<Operation *> collectives;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<CollectiveOpInterface>(op))
      collectives.push_back(op);
  });
  DominanceInfo dominance(root);
  auto flags = OperationEquivalence::IgnoreLocations;
  llvm::DenseMap<llvm::hash_code, SmallVector<Operation *>> seen;
  for (Operation *op : collectives) {
    llvm::hash_code hash = OperationEquivalence::computeHash(
        op, OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue, flags);
    SmallVector<Operation *> &candidates = seen[hash];
    Operation *same = nullptr;
    for (Operation *earlier : candidates)
      if (dominance.properlyDominates(earlier, op) &&
          OperationEquivalence::isEquivalentTo(
              earlier, op, OperationEquivalence::exactValueMatch,
              /*markEquivalent=*/nullptr, flags)) {
        same = earlier;
        break;
      }
    if (!same) {
      candidates.push_back(op);
      continue;
    }
    op->replaceAllUsesWith(same);
    op->erase();
    config.fired(Rewrite::DuplicateCollective);
  }
}

} // namespace xspmd::optimize
