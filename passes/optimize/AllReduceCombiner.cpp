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
  /// Ops after the first member that depend on some member, in block order
  /// (filled when the group is combined).
  SmallVector<Operation *> dependents;
};

/// Forms groups in one pass over `block`: an all_reduce joins the open
/// group of its key unless it depends on one of that group's members (or the
/// group is full), in which case the group closes and a new one opens. Each
/// op carries the open groups it transitively depends on, so the pass is
/// linear in the block's size times the (small) number of open groups.
std::vector<Group> formGroups(Block &block, int64_t threshold) {
  std::vector<Group> groups;
  SmallVector<int64_t> groupBytes;
  SmallVector<bool> open;
  // Indices of the open groups, ascending: closed groups are never visited
  // again, so a block of many all_reduces does not scan every group it made.
  SmallVector<unsigned> openGroups;
  llvm::DenseMap<Operation *, SmallVector<unsigned, 2>> deps;
  for (Operation &op : block) {
    SmallVector<unsigned, 2> mine;
    op.walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        Operation *def = v.getDefiningOp();
        if (!def)
          continue;
        auto it = deps.find(def);
        if (it == deps.end())
          continue;
        for (unsigned g : it->second)
          if (open[g] && !llvm::is_contained(mine, g))
            mine.push_back(g);
      }
    });
    if (auto ar = dyn_cast<AllReduceOp>(op)) {
      int64_t bytes = numBytes(ar.getType());
      std::optional<unsigned> target;
      bool closed = false;
      for (unsigned g : openGroups) {
        if (!sameKey(groups[g].members.front(), ar))
          continue;
        if (llvm::is_contained(mine, g) || groupBytes[g] + bytes > threshold) {
          open[g] = false; // closes: this op must come after its result
          closed = true;
        } else {
          target = g;
        }
      }
      if (closed)
        llvm::erase_if(openGroups, [&](unsigned g) { return !open[g]; });
      if (!target) {
        target = groups.size();
        groups.emplace_back();
        groupBytes.push_back(0);
        open.push_back(true);
        openGroups.push_back(*target);
      }
      groups[*target].members.push_back(ar);
      groupBytes[*target] += bytes;
      mine.push_back(*target);
    }
    llvm::erase_if(mine, [&](unsigned g) { return !open[g]; });
    if (!mine.empty())
      deps[&op] = std::move(mine);
  }
  return groups;
}

/// Sorts the members of `group` into block order, drops the members that
/// now depend on an earlier one, and collects the ops between the first and
/// the last remaining member that depend on a member, in block order.
///
/// Members were independent when the groups formed, but combining an
/// earlier group makes everything that used one of its members depend on all
/// of them: with x1 -> y2 and y1 -> x2, combining {x1, x2} makes y2 depend on
/// y1, so {y1, y2} must not combine (found by differential fuzzing:
/// test/fuzz/regressions/seed-8036.mlir). Combining also moves the ops that
/// depend on a group, members of later groups among them, so the members'
/// order is read again when one of them was `moved` (only then: each move
/// invalidates the block's op order, and reading it again costs a pass over
/// the block).
void collectDependents(Group &group, const llvm::DenseSet<Operation *> &moved) {
  if (llvm::any_of(group.members,
                   [&](AllReduceOp m) { return moved.contains(m); }))
    llvm::stable_sort(group.members, [](AllReduceOp a, AllReduceOp b) {
      return a->isBeforeInBlock(b);
    });
  llvm::DenseSet<Operation *> members, reached;
  for (AllReduceOp m : group.members)
    members.insert(m);
  SmallVector<AllReduceOp> kept{group.members.front()};
  reached.insert(group.members.front());
  // Dependents with the number of kept members before them: those after the
  // last kept member stay where they are.
  SmallVector<std::pair<Operation *, size_t>> dependents;
  Operation *end = group.members.back()->getNextNode();
  for (Operation *op = group.members.front()->getNextNode(); op != end;
       op = op->getNextNode()) {
    bool member = members.contains(op);
    bool dependent = usesAny(op, reached);
    if (!member && !dependent)
      continue;
    reached.insert(op);
    if (dependent)
      dependents.push_back({op, kept.size()});
    else
      kept.push_back(cast<AllReduceOp>(op));
  }
  group.members = std::move(kept);
  for (auto [op, keptBefore] : dependents)
    if (keptBefore < group.members.size())
      group.dependents.push_back(op);
}

/// Replaces the members of `group` by one all_reduce; returns it, or null
/// when fewer than two members remain combinable.
AllReduceOp combine(Group &group, llvm::DenseSet<Operation *> &moved) {
  collectDependents(group, moved);
  if (group.members.size() < 2)
    return nullptr;
  AllReduceOp last = group.members.back();

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
  for (Operation *op : group.dependents) {
    op->moveAfter(cursor);
    moved.insert(op);
    cursor = op;
  }
  for (AllReduceOp m : llvm::reverse(group.members))
    m->erase();
  return combined;
}

void combineInBlock(Block &block, RewriteConfig &config) {
  llvm::DenseSet<Operation *> moved;
  for (Group &group : formGroups(block, config.combineThresholdBytes)) {
    if (group.members.size() < 2)
      continue;
    if (combine(group, moved))
      config.fired(Rewrite::AllReduceCombiner, group.members.size());
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
