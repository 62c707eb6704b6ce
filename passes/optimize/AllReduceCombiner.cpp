//===- AllReduceCombiner.cpp - independent all_reduces into one -----------===//
//
// As XLA's all-reduce combiner: all_reduces of one block with the same
// kind, scale, participants, link and element type, none depending on
// another, become one all_reduce of the concatenation of their flattened
// inputs, followed by a slice and a reshape per original result:
//
//   %a' = reshape %a ; %b' = reshape %b ; %c = concatenate %a', %b'
//   %r = all_reduce %c ; %ra = reshape (slice %r [0, |a|]) ; %rb = ...
//
// The combined op sits where the last member was; ops between the first and
// the last member that use an earlier member's result (directly or through
// other ops) move after it, in their order. A group stops growing at the
// byte threshold.
//
//===----------------------------------------------------------------------===//

#include "passes/optimize/CollectiveUtils.h"
#include "passes/optimize/Rewrites.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {
namespace {

bool sameKey(AllReduceOp a, AllReduceOp b) {
  Participants pa = Participants::of(a), pb = Participants::of(b);
  return a.getKind() == b.getKind() && a.getScaleAttr() == b.getScaleAttr() &&
         pa.sameGroupsAs(pb) && pa.link == pb.link &&
         a.getType().getElementType() == b.getType().getElementType();
}

/// Whether `op` (or an op nested in it) uses a result of an op of `reached`.
bool usesAny(Operation *op, const llvm::DenseSet<Operation *> &reached) {
  return op
      ->walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          if (Operation *def = v.getDefiningOp(); def && reached.contains(def))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

struct Group {
  SmallVector<AllReduceOp> members;
  /// Ops after the first member that depend on some member, in block order.
  SmallVector<Operation *> dependents;
};

/// Starting at `seed`, the largest group of independent all_reduces alike
/// `seed` that fits in `threshold` bytes.
Group collectGroup(AllReduceOp seed, int64_t threshold) {
  Group group;
  group.members.push_back(seed);
  int64_t bytes = numBytes(seed.getType());
  llvm::DenseSet<Operation *> reached = {seed};
  for (Operation *op = seed->getNextNode(); op; op = op->getNextNode()) {
    bool dependent = usesAny(op, reached);
    auto ar = dyn_cast<AllReduceOp>(op);
    if (ar && !dependent && sameKey(seed, ar) &&
        bytes + numBytes(ar.getType()) <= threshold) {
      group.members.push_back(ar);
      bytes += numBytes(ar.getType());
      reached.insert(op);
    } else if (dependent) {
      group.dependents.push_back(op);
      reached.insert(op);
    }
  }
  return group;
}

/// Replaces the members of `group` by one all_reduce; returns it.
AllReduceOp combine(Group &group) {
  AllReduceOp last = group.members.back();
  SmallVector<Operation *> toMove;
  for (Operation *op : group.dependents)
    if (op->isBeforeInBlock(last))
      toMove.push_back(op);

  SmallVector<Location> locs;
  for (AllReduceOp m : group.members)
    locs.push_back(m.getLoc());
  OpBuilder b(last->getContext());
  Location loc = b.getFusedLoc(locs);
  b.setInsertionPointAfter(last);
  SmallVector<Value> flat;
  int64_t total = 0;
  for (AllReduceOp m : group.members) {
    int64_t n = m.getType().getNumElements();
    flat.push_back(createReshape(b, loc, m.getInput(), m.getType().clone({n})));
    total += n;
  }
  auto flatType = group.members.front().getType().clone({total});
  Value joined = ConcatenateOp::create(b, loc, flatType, flat, 0);
  auto combined = cast<AllReduceOp>(last->clone());
  combined->setOperand(0, joined);
  combined.getResult().setType(flatType);
  combined->setLoc(loc);
  b.insert(combined);

  int64_t offset = 0;
  for (AllReduceOp m : group.members) {
    int64_t n = m.getType().getNumElements();
    Value part = SliceOp::create(
        b, loc, combined, b.getDenseI64ArrayAttr(offset),
        b.getDenseI64ArrayAttr(offset + n), b.getDenseI64ArrayAttr(1));
    m.getResult().replaceAllUsesWith(createReshape(b, loc, part, m.getType()));
    offset += n;
  }
  Operation *cursor = b.getInsertionPoint() == b.getBlock()->end()
                          ? &b.getBlock()->back()
                          : b.getInsertionPoint()->getPrevNode();
  for (Operation *op : toMove) {
    op->moveAfter(cursor);
    cursor = op;
  }
  for (AllReduceOp m : llvm::reverse(group.members))
    m->erase();
  return combined;
}

void combineInBlock(Block &block, RewriteConfig &config) {
  llvm::DenseSet<Operation *> done;
  while (true) {
    AllReduceOp seed;
    for (Operation &op : block)
      if (auto ar = dyn_cast<AllReduceOp>(op); ar && !done.contains(ar)) {
        seed = ar;
        break;
      }
    if (!seed)
      return;
    Group group = collectGroup(seed, config.combineThresholdBytes);
    if (group.members.size() < 2) {
      done.insert(seed);
      continue;
    }
    config.fired(Rewrite::AllReduceCombiner, group.members.size());
    done.insert(combine(group));
  }
}

} // namespace

void combineAllReduces(Operation *root, RewriteConfig &config) {
  if (!config.enabled(Rewrite::AllReduceCombiner))
    return;
  SmallVector<Block *> blocks;
  root->walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks)
    combineInBlock(*block, config);
}

} // namespace xspmd::optimize
