//===- ReshardPlacement.cpp - move reshards to where tensors are small ----===//
//
// Propagation resolves a disagreement where it meets it: a value whose
// sharding differs from the function result's (or a mark_sharding's, or a
// manual computation's in_shardings) is
// resharded there, however large it has grown. When that value comes from
// a chain of ops that only copy or broadcast data (broadcast_in_dim,
// reshape, transpose, convert, unary elementwise), each used only by the
// chain or by boundaries that want the same sharding, the same reshard can
// be done at any link of the chain, on the tensor as it is there, with the
// target sharding carried back through the ops' rules (once for all those
// boundaries).
// This step prices every link with the partitioner's reshard planner and
// moves the reshard to the cheapest one: the shardings downstream of it
// become the target's (e.g. gather a 128-byte vector before broadcasting
// it to 16 KiB instead of all-to-all'ing the 16 KiB result).
//
//===----------------------------------------------------------------------===//

#include "passes/propagation/PropagationState.h"

#include "dialects/xla/XlaOps.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::prop::detail {
namespace {

/// Ops through which a reshard may move: every result element is a copy
/// (or a function) of one operand element.
bool movesDataOnly(Operation *op) {
  if (op->getNumOperands() != 1 || op->getNumResults() != 1)
    return false;
  return isa<BroadcastInDimOp, ReshapeOp, TransposeOp, ConvertOp>(op) ||
         op->hasTrait<OpTrait::Elementwise>();
}

/// The sharding of the operand that makes `op` produce `target` without
/// communication, through its rule; none when a compound dimension would
/// need axes split across its factors.
std::optional<AxisSharding> projectToOperand(const OpShardingRule &rule,
                                             const AxisSharding &target) {
  if (!target.partial.empty())
    return std::nullopt;
  SmallVector<AxisList> factorAxes(rule.getNumFactors());
  for (auto [d, factors] : llvm::enumerate(rule.results.front())) {
    const AxisList &axes = target.dims[d];
    if (axes.empty())
      continue;
    if (factors.size() != 1)
      return std::nullopt;
    factorAxes[factors.front()] = axes;
  }
  AxisSharding operand;
  for (const auto &factors : rule.operands.front()) {
    AxisList &axes = operand.dims.emplace_back();
    for (auto [i, f] : llvm::enumerate(factors)) {
      if (factorAxes[f].empty())
        continue;
      // Only the major factor of a compound dimension may be split.
      if (i != 0)
        return std::nullopt;
      axes = factorAxes[f];
    }
  }
  return operand;
}

} // namespace

std::optional<int32_t>
FunctionPropagation::boundaryTarget(OpOperand &use) const {
  Operation *user = use.getOwner();
  unsigned i = use.getOperandNumber();
  if (isa<func::ReturnOp>(user) && user->getParentOp() == func &&
      i < resultStates.size())
    return resultStates[i];
  if (auto mark = dyn_cast<MarkShardingOp>(user)) {
    auto it = stateOf.find(mark.getResult());
    if (it != stateOf.end())
      return it->second;
  }
  if (isa<ManualComputationOp>(user)) {
    auto it = manualInputStates.find(user);
    if (it != manualInputStates.end() && i < it->second.size())
      return it->second[i];
  }
  return std::nullopt;
}

void FunctionPropagation::placeReshards() {
  for (const OpRecord &boundary : records) {
    if (!isa<func::ReturnOp, MarkShardingOp, ManualComputationOp>(boundary.op))
      continue;
    int32_t in = boundary.tensors[0], out = boundary.tensors[1];
    const ValueState &target = states[out];
    const ValueState &source = states[in];
    if (!target.mesh || source.user || !source.partial.empty())
      continue;
    if (source.mesh && source.mesh != target.mesh)
      continue;
    if (!getMeshAxes(target.mesh))
      continue;
    AxisSharding want = target.toAxisSharding();
    if (!want.partial.empty() || source.toAxisSharding() == want)
      continue;

    // Walk up the chain; at each link, the sharding its input must have
    // for the rest of the chain to produce `want` locally.
    struct Link {
      int32_t state;
      AxisSharding target;
      double cost;
    };
    SmallVector<Link> chain;
    // Whether every use of the link's value other than `chainUser` is a
    // boundary that wants the link's target: then resharding above it
    // serves them all at once.
    auto onlyWantedAs = [&](const Link &link, Operation *chainUser) {
      for (OpOperand &use : states[link.state].value.getUses()) {
        Operation *user = use.getOwner();
        if (user == chainUser)
          continue;
        std::optional<int32_t> wanted = boundaryTarget(use);
        if (!wanted || states[*wanted].mesh != target.mesh ||
            !(states[*wanted].toAxisSharding() == link.target))
          return false;
      }
      return true;
    };
    // Priced by the partitioner's planner, as the whole plan is; a link it
    // cannot price (no static shape) never takes the reshard.
    auto costAt = [&](int32_t s, const AxisSharding &to) {
      return plannedCost(target.mesh, states[s].toAxisSharding(), to, states[s],
                         /*bytesOnly=*/false)
          .value_or(std::numeric_limits<double>::infinity());
    };
    chain.push_back({in, want, costAt(in, want)});
    Operation *chainUser = nullptr;
    while (true) {
      const Link &last = chain.back();
      Value value = states[last.state].value;
      Operation *op = value ? value.getDefiningOp() : nullptr;
      if (!op || !movesDataOnly(op) || !onlyWantedAs(last, chainUser))
        break;
      chainUser = op;
      const OpShardingRule *rule = rules.lookup(op);
      if (!rule)
        break;
      std::optional<AxisSharding> up = projectToOperand(*rule, last.target);
      auto it = stateOf.find(op->getOperand(0));
      if (!up || it == stateOf.end())
        break;
      const ValueState &operand = states[it->second];
      if (!operand.partial.empty() ||
          (operand.mesh && operand.mesh != target.mesh))
        break;
      chain.push_back({it->second, *up, costAt(it->second, *up)});
      // A user-annotated value keeps its sharding: the chain may reshard
      // it, but not pass through it.
      if (operand.user)
        break;
    }
    size_t best = 0;
    for (size_t i = 1; i < chain.size(); ++i)
      if (chain[i].cost < chain[best].cost)
        best = i;
    if (best == 0)
      continue;
    // Every value downstream of the cut takes its share of the target.
    for (size_t i = 0; i < best; ++i) {
      ValueState &state = states[chain[i].state];
      state.mesh = target.mesh;
      for (auto [dim, axes] : llvm::zip(state.dims, chain[i].target.dims)) {
        dim.axes = axes;
        dim.origin = Origin{-1, -1, target.annotation};
      }
    }
    movedReshards.push_back({boundary.op, states[chain[best].state].value,
                             chain[0].cost, chain[best].cost});
  }
  // The shardings are final: price them on the mesh the partitioner will
  // refine at their sub-axes.
  settled = true;
}

} // namespace xspmd::prop::detail
