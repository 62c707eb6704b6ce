//===- Uniformity.cpp - which mesh axes a value is replicated over --------===//

#include "passes/optimize/Uniformity.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {

namespace {

/// Computes, for values of one function, the set of axes of one mesh over
/// which each is uniform (bit i = axis i).
class UniformAxes {
public:
  UniformAxes(MeshAttr mesh, FlatSymbolRefAttr name) : mesh(mesh), name(name) {}

  llvm::SmallBitVector get(Value root) {
    // Iterative post-order over the use-def graph: a value's set is computed
    // once those of its defining op's operands are known.
    SmallVector<std::pair<Value, bool>> stack = {{root, false}};
    while (!stack.empty()) {
      auto [value, expanded] = stack.pop_back_val();
      if (memo.count(value))
        continue;
      Operation *def = value.getDefiningOp();
      if (!def || expanded || !needsOperands(def)) {
        memo[value] = compute(value);
        continue;
      }
      stack.push_back({value, true});
      for (Value operand : def->getOperands())
        if (!memo.count(operand))
          stack.push_back({operand, false});
    }
    return memo.lookup(root);
  }

private:
  llvm::SmallBitVector none() const { return llvm::SmallBitVector(rank()); }
  llvm::SmallBitVector all() const {
    return llvm::SmallBitVector(rank(), true);
  }
  unsigned rank() const { return mesh.getRank(); }

  /// The axes a collective over mesh axes names, if it names axes of `mesh`.
  std::optional<llvm::SmallBitVector> ownAxes(CollectiveOpInterface op) const {
    if (!op.getAxesAttr() || op.getMeshAttr() != name)
      return std::nullopt;
    llvm::SmallBitVector bits = none();
    for (StringRef a : op.getAxesAttr().getAsValueRange<StringAttr>())
      bits.set(mesh.getAxisIndex(a));
    return bits;
  }

  static bool needsOperands(Operation *op) {
    return op->getNumOperands() > 0 && op->getNumRegions() == 0 &&
           !isa<AxisIndexOp, PartitionIdOp>(op);
  }

  llvm::SmallBitVector fromArgument(BlockArgument arg) const {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getBody().front())
      return none();
    auto sharding = func.getArgAttrOfType<ShardingAttr>(arg.getArgNumber(),
                                                        kShardingAttrName);
    if (!sharding)
      return func->hasAttr(kPartitionedAttrName) ? all() : none();
    if (sharding.getMesh() != name)
      return none();
    llvm::SmallBitVector bits = all();
    for (DimShardingAttr dim : sharding.getDims())
      for (StringAttr a : dim.getAxes())
        bits.reset(mesh.getAxisIndex(a.getValue()));
    for (StringAttr a : sharding.getPartialAxes())
      bits.reset(mesh.getAxisIndex(a.getValue()));
    return bits;
  }

  llvm::SmallBitVector fromCollective(CollectiveOpInterface op) const {
    Operation *o = op.getOperation();
    llvm::SmallBitVector input = memo.lookup(o->getOperand(0));
    bool gathers = isa<AllReduceOp, AllGatherOp>(o);
    if (!op.getAxesAttr() && !op.getGroupsAttr())
      return gathers ? all() : none(); // one group of every device
    std::optional<llvm::SmallBitVector> axes = ownAxes(op);
    if (!axes)
      return none();
    if (gathers)
      return input | *axes;
    llvm::SmallBitVector kept = input;
    kept.reset(*axes);
    return kept;
  }

  llvm::SmallBitVector compute(Value value) const {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return fromArgument(arg);
    Operation *def = value.getDefiningOp();
    if (auto index = dyn_cast<AxisIndexOp>(def)) {
      if (index.getMeshAttr() != name)
        return none();
      llvm::SmallBitVector bits = all();
      bits.reset(mesh.getAxisIndex(index.getAxis()));
      return bits;
    }
    if (isa<PartitionIdOp>(def) || def->getNumRegions() != 0)
      return none();
    if (auto collective = dyn_cast<CollectiveOpInterface>(def))
      return fromCollective(collective);
    if (!isMemoryEffectFree(def))
      return none();
    llvm::SmallBitVector bits = all();
    for (Value operand : def->getOperands())
      bits &= memo.lookup(operand);
    return bits;
  }

  MeshAttr mesh;
  FlatSymbolRefAttr name;
  llvm::DenseMap<Value, llvm::SmallBitVector> memo;
};

} // namespace

bool isUniformOver(Value value, FlatSymbolRefAttr meshName,
                   ArrayRef<StringRef> axes) {
  Operation *anchor = value.getDefiningOp();
  if (!anchor)
    anchor = cast<BlockArgument>(value).getOwner()->getParentOp();
  MeshOp meshOp = lookupMesh(anchor, meshName);
  if (!meshOp)
    return false;
  MeshAttr mesh = meshOp.getMesh();
  llvm::SmallBitVector uniform = UniformAxes(mesh, meshName).get(value);
  return llvm::all_of(axes, [&](StringRef a) {
    int64_t i = mesh.getAxisIndex(a);
    return i >= 0 && uniform.test(i);
  });
}

} // namespace xspmd::optimize
