//===- OutlineManualComputations.cpp - --xla-outline-manual-computations --===//
//
// torch_xla's enable_manual_sharding / disable_manual_sharding and XLA's
// SPMDFullToShardShape / SPMDShardToFullShape custom-calls mark where a
// program switches to per-device code and back, without delimiting a
// region. This pass finds, in each block, the ops that use per-device values
// (everything reachable from an xla.full_to_shard before an
// xla.shard_to_full), groups them into connected pieces and replaces each
// piece by an xla.manual_computation whose operands are the pieces'
// full_to_shard inputs and whose results replace their shard_to_full
// results. Values the piece computes from constants alone (a constant, a
// broadcast scalar) are copied into the body.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAOUTLINEMANUALCOMPUTATIONSPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;

namespace {

/// The ops computing `v` from constants alone (constants, iotas and pure
/// single-block ops of them, e.g. a broadcast scalar), producers first;
/// nothing when `v` depends on anything else. Such values can be copied
/// into a manual body.
std::optional<SmallVector<Operation *>> constantTree(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || !isPure(def) ||
      isa<RngOp, FullToShardOp, ShardToFullOp, CollectiveOpInterface,
          PartitionIdOp, AxisIndexOp>(def))
    return std::nullopt;
  SmallVector<Operation *> tree;
  for (Value operand : def->getOperands()) {
    std::optional<SmallVector<Operation *>> sub = constantTree(operand);
    if (!sub)
      return std::nullopt;
    for (Operation *op : *sub)
      if (!llvm::is_contained(tree, op))
        tree.push_back(op);
  }
  tree.push_back(def);
  return tree;
}

/// Outlines the manual pieces of `block`.
LogicalResult outlineBlock(Block &block) {
  SmallVector<Operation *> entries;
  for (Operation &op : block)
    if (isa<FullToShardOp>(op))
      entries.push_back(&op);
  SmallVector<ShardToFullOp> exits;
  for (Operation &op : block)
    if (auto exit = dyn_cast<ShardToFullOp>(op))
      exits.push_back(exit);
  if (entries.empty() && exits.empty())
    return success();

  // Everything reachable from an entry up to (and including) an exit is
  // per-device code; pieces connected by a use are one computation.
  llvm::SetVector<Operation *> manual(entries.begin(), entries.end());
  llvm::EquivalenceClasses<Operation *> pieces;
  for (Operation *entry : entries)
    pieces.insert(entry);
  for (size_t i = 0; i < manual.size(); ++i) {
    Operation *op = manual[i];
    if (isa<ShardToFullOp>(op))
      continue;
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *inBlock = block.findAncestorOpInBlock(*user);
        if (!inBlock || inBlock->hasTrait<mlir::OpTrait::IsTerminator>())
          return user->emitOpError()
                 << "uses a per-device value of " << op->getName() << " at "
                 << op->getLoc()
                 << "; per-device values leave a manual region only through "
                    "xla.shard_to_full";
        manual.insert(inBlock);
        pieces.unionSets(op, inBlock);
      }
  }
  for (ShardToFullOp exit : exits)
    if (!manual.contains(exit))
      return exit.emitOpError("takes a value that no xla.full_to_shard "
                              "produced; it ends a manual region, so its "
                              "operand must be per-device");

  // The values each piece's ops read from outside the piece: per-device
  // ones are its own; global ones are an error unless they are constants.
  for (Operation *op : manual) {
    if (isa<FullToShardOp>(op))
      continue;
    llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
    getUsedValuesDefinedAbove(op->getRegions(), used);
    for (Value v : used) {
      Operation *def = v.getDefiningOp();
      Operation *defInBlock = def ? block.findAncestorOpInBlock(*def) : nullptr;
      bool perDevice = defInBlock && manual.contains(defInBlock) &&
                       !isa<ShardToFullOp>(defInBlock);
      if (perDevice || constantTree(v))
        continue;
      InFlightDiagnostic diag =
          op->emitOpError()
          << "mixes a global value into per-device code; pass it through "
             "xla.full_to_shard first";
      diag.attachNote(v.getLoc()) << "the global value is defined here";
      return diag;
    }
  }

  // One manual computation per piece, placed after its last op.
  for (const auto *piece : pieces) {
    if (!piece->isLeader())
      continue;
    llvm::SmallPtrSet<Operation *, 16> members;
    for (Operation *op : pieces.members(*piece))
      members.insert(op);
    SmallVector<Operation *> ops; // in block order
    for (Operation *op : manual)
      if (members.contains(op))
        ops.push_back(op);
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    SmallVector<Value> inputs, outputs;
    SmallVector<Attribute> inShardings, outShardings;
    SmallVector<Type> resultTypes;
    for (Operation *op : ops) {
      if (auto entry = dyn_cast<FullToShardOp>(op)) {
        inputs.push_back(entry.getInput());
        inShardings.push_back(entry.getSharding());
      } else if (auto exit = dyn_cast<ShardToFullOp>(op)) {
        outputs.push_back(exit.getResult());
        outShardings.push_back(exit.getSharding());
        resultTypes.push_back(exit.getType());
      }
    }
    OpBuilder b(ops.back()->getContext());
    b.setInsertionPointAfter(ops.back());
    Location loc = ops.front()->getLoc();
    auto computation = ManualComputationOp::create(
        b, loc, resultTypes, inputs, b.getArrayAttr(inShardings),
        b.getArrayAttr(outShardings));
    Block *body = b.createBlock(&computation.getBody());
    IRMapping mapping;
    SmallVector<Value> yielded;
    for (Operation *op : ops) {
      if (auto entry = dyn_cast<FullToShardOp>(op)) {
        mapping.map(entry.getResult(),
                    body->addArgument(entry.getType(), entry.getLoc()));
        continue;
      }
      if (auto exit = dyn_cast<ShardToFullOp>(op)) {
        yielded.push_back(exit.getInput());
        continue;
      }
      // Constants it reads are copied in first.
      llvm::SetVector<Value> used(op->operand_begin(), op->operand_end());
      getUsedValuesDefinedAbove(op->getRegions(), used);
      for (Value v : used) {
        if (mapping.contains(v))
          continue;
        if (std::optional<SmallVector<Operation *>> tree = constantTree(v))
          for (Operation *source : *tree)
            if (!mapping.contains(source->getResult(0)))
              b.clone(*source, mapping);
      }
      b.clone(*op, mapping);
    }
    SmallVector<Value> yieldValues;
    for (Value v : yielded)
      yieldValues.push_back(mapping.lookup(v));
    YieldOp::create(b, loc, yieldValues);
    for (auto [output, result] :
         llvm::zip_equal(outputs, computation.getResults()))
      output.replaceAllUsesWith(result);
    for (Operation *op : llvm::reverse(ops))
      op->erase();
  }
  // A piece's results may have users before the ops it replaced.
  if (!sortTopologically(&block))
    return block.getParentOp()->emitOpError(
        "cannot outline its manual regions: a manual region depends on its "
        "own results through global code");
  return success();
}

struct OutlineManualComputationsPass
    : xspmd::impl::XlaOutlineManualComputationsPassBase<
          OutlineManualComputationsPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) {
      Operation *parent = block->getParentOp();
      if (!isInLocalRegion(parent) && !isa<ManualComputationOp>(parent) &&
          !parent->hasTrait<xspmd::xla::ScalarBodies>())
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      if (failed(outlineBlock(*block)))
        return signalPassFailure();
  }
};

} // namespace
