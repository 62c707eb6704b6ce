//===- PlanCost.cpp - the bytes of propagation's final plan ---------------===//
//
// Prices the plan propagation settled on as the partitioner will carry it
// out: each op through the partitioner's own decisions (partition::planOp)
// and reshard planner, reshards an earlier op already did counted once. The
// whole-plan cost decides near ties; the per-op bytes are explain's plan.
//
//===----------------------------------------------------------------------===//

#include "passes/propagation/OpEvaluator.h"

#include "dialects/xla/XlaSubAxes.h"
#include "passes/partition/Concatenate.h"
#include "passes/partition/OpPlan.h"
#include "passes/partition/ReshardPlanner.h"
#include "passes/partition/Reverse.h"
#include "passes/partition/WindowedOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::prop::detail {

/// A reshard plan's price: its weighted cost, or the bytes each device sends.
static double planPrice(const partition::ReshardPlan &plan, bool bytesOnly) {
  if (!bytesOnly)
    return plan.cost;
  double bytes = 0;
  for (const partition::ReshardStep &step : plan.steps)
    bytes += step.bytesPerDevice;
  return bytes;
}

double FunctionPropagation::recordCost(int32_t r, ReshardsDone *done,
                                       bool bytesOnly) const {
  const OpRecord &record = records[r];
  const OpShardingRule &rule = *record.rule;
  int64_t numFactors = rule.getNumFactors();
  int32_t numTensors = record.tensors.size();
  FlatSymbolRefAttr meshRef;
  for (int32_t t : record.tensors)
    if (!meshRef)
      meshRef = states[t].mesh;
  if (!meshRef)
    return 0;
  auto found = meshes.find(meshRef);
  if (found == meshes.end() || !found->second)
    return 0;
  const MeshAxes &mesh = *found->second;
  if (std::optional<double> cost = maximalRecordCost(r, done, bytesOnly))
    return *cost;
  // Every op the partitioner plans (all but returns, marks and the identity
  // records of loops, cases and manual computations) is priced by its own
  // decision, partition::planOp: a factor assignment re-derived here would
  // drift from the partitioner's candidates and their order.
  if (record.carried < 0 && record.op->getNumOperands() > 0 &&
      !isa<func::ReturnOp, MarkShardingOp>(record.op) &&
      numTensors == static_cast<int32_t>(record.op->getNumOperands() +
                                         record.op->getNumResults()))
    if (std::optional<double> cost = opPlanCost(r, meshRef, done, bytesOnly))
      return *cost;
  // The factors' axes as the partitioner derives them
  // (FunctionPartitioner.cpp, chooseAssignment): the tensors of `lead`
  // decide their factors first (the results, or one operand then the
  // results), the other operands the factors nobody decided when they all
  // agree; an axis splits one factor; reduction factors keep their axes (a
  // pending sum) or not (their operands gathered). The partitioner keeps
  // the cheapest of these candidates, and so does the estimate.
  int32_t numOps = numOperands(record);
  // An op's factor takes no more shards than it has elements
  // (FactorAssignment.cpp); a returned or marked value becomes exactly
  // what the result or mark says.
  bool shardElements =
      !isa<func::ReturnOp, MarkShardingOp>(record.op) && record.carried < 0;
  SmallVector<bool> inCompound(numFactors, false);
  for (int32_t k = 0; k < numTensors; ++k)
    for (const DimFactors &dim : rule.getTensor(k))
      if (dim.size() > 1)
        for (int64_t f : dim)
          inCompound[f] = true;
  auto derive = [&](ArrayRef<int32_t> lead, bool keepReductions,
                    bool keepPermutations) {
    SmallVector<AxisList> factorAxes(numFactors);
    SmallVector<bool> set(numFactors, false), decided(numFactors, false),
        agreed(numFactors, true);
    // Factors in the order tensors set them: an axis two factors want goes
    // to the one set first (the partitioner offers axes tensor by tensor).
    SmallVector<int64_t> setOrder;
    SmallVector<AxisList> scratch(numFactors);
    auto visit = [&](int32_t k, bool leading) {
      const ValueState &state = states[record.tensors[k]];
      for (auto [d, factors] : llvm::enumerate(rule.getTensor(k))) {
        for (int64_t f : factors)
          scratch[f].clear();
        if (state.mesh == meshRef)
          projectDim(state.dims[d].axes, factors, rule.factorSizes, mesh,
                     scratch, shardElements);
        for (int64_t f : factors) {
          if (decided[f])
            continue;
          if (!set[f]) {
            factorAxes[f] = scratch[f];
            set[f] = true;
            decided[f] = leading;
            setOrder.push_back(f);
          } else if (factorAxes[f] != scratch[f]) {
            agreed[f] = false;
          }
        }
      }
    };
    for (int32_t k : lead)
      visit(k, /*leading=*/true);
    for (int32_t k = 0; k < numOps; ++k)
      if (!llvm::is_contained(lead, k))
        visit(k, /*leading=*/false);
    // A factor in a compound dimension is split evenly only: padding would
    // interleave with data (the partitioner stops at the first axis that
    // does not divide it).
    for (int64_t f : setOrder) {
      if (!inCompound[f])
        continue;
      int64_t taken = 1;
      for (auto [i, axis] : llvm::enumerate(factorAxes[f])) {
        taken *= mesh.size(axis);
        if (rule.factorSizes[f] % taken != 0) {
          factorAxes[f].resize(i);
          break;
        }
      }
    }
    llvm::SmallDenseSet<StringAttr, 8> used;
    for (int64_t f : setOrder) {
      if (!agreed[f] || rule.factorKinds[f] == FactorKind::needReplication ||
          (!keepReductions && rule.factorKinds[f] == FactorKind::reduction) ||
          (!keepPermutations && rule.factorKinds[f] == FactorKind::permutation))
        factorAxes[f].clear();
      for (auto [i, axis] : llvm::enumerate(factorAxes[f]))
        if (!used.insert(axis).second) {
          factorAxes[f].resize(i);
          break;
        }
    }
    return factorAxes;
  };
  SmallVector<int32_t> results;
  for (int32_t k = numOps; k < numTensors; ++k)
    results.push_back(k);
  SmallVector<SmallVector<int32_t>> leads{results};
  // A returned or marked value is resharded to exactly what the result or
  // mark says; other ops try each operand first too.
  bool boundary = isa<func::ReturnOp, MarkShardingOp>(record.op);
  for (int32_t k = 0; k < numOps && !boundary; ++k) {
    SmallVector<int32_t> lead{k};
    llvm::append_range(lead, results);
    leads.push_back(lead);
  }
  bool hasReduction =
      llvm::is_contained(rule.factorKinds, FactorKind::reduction);
  // Only windowed ops and reverse split their permutation factors (a halo
  // or mirror exchange); a reverse may also gather them.
  auto reverse = dyn_cast<ReverseOp>(record.op);
  SmallVector<bool, 2> permutationChoices{(reverse && record.carried < 0) ||
                                          partition::isWindowedOp(record.op)};
  if (reverse)
    permutationChoices.push_back(false);
  // The collective_permutes of a reverse whose input is split along a
  // reversed dimension.
  auto mirrorCost = [&](ArrayRef<AxisList> factorAxes, bool bytesOnly) {
    if (!reverse || record.carried >= 0)
      return 0.0;
    Evaluator e(record, states, meshRef, mesh);
    std::optional<ShardLayout> layout =
        toLayout(meshRef, e.target(0, factorAxes), reverse.getType(),
                 ReductionKind::sum);
    if (!layout)
      return 0.0;
    partition::ReshardPlanner &planner = getPlanner(meshRef);
    partition::ReshardCostModel costs = planner.getCosts();
    if (bytesOnly)
      costs = {1.0, 1.0, 0.0};
    return partition::mirrorExchangeCost(reverse, *layout, planner.getMesh(),
                                         costs);
  };
  Evaluator weighted(record, states, meshRef, mesh);
  weighted.setPrice([&](const AxisSharding &from, const AxisSharding &to,
                        const ValueState &state) -> std::optional<double> {
    if (producedAs(meshRef, state, to))
      return 0.0;
    return plannedCost(meshRef, from, to, state, /*bytesOnly=*/false);
  });
  SmallVector<AxisList> best;
  double bestCost = std::numeric_limits<double>::infinity();
  for (bool keepPermutations : permutationChoices) {
    for (bool keepReductions : {true, false}) {
      if (!keepReductions && !hasReduction)
        break;
      for (ArrayRef<int32_t> lead : leads) {
        SmallVector<AxisList> factorAxes =
            derive(lead, keepReductions, keepPermutations);
        double cost = weighted.cost(factorAxes, /*final=*/true) +
                      mirrorCost(factorAxes, /*bytesOnly=*/false);
        if (best.empty() || cost < bestCost) {
          bestCost = cost;
          best = std::move(factorAxes);
        }
      }
    }
  }
  Evaluator evaluator(record, states, meshRef, mesh);
  evaluator.setPrice([&](const AxisSharding &from, const AxisSharding &to,
                         const ValueState &state) -> std::optional<double> {
    if (producedAs(meshRef, state, to))
      return 0.0;
    std::optional<double> cost =
        plannedCost(meshRef, from, to, state, bytesOnly);
    // Planned bytes leave out what the partitioner cannot carry out.
    if (!cost && bytesOnly)
      return 0.0;
    return cost;
  });
  // Operand reshards are reused under the key opPlanCost gives the same
  // layout (a value an op gathered and the function returns gathered).
  evaluator.setKey([&](const AxisSharding &to, const ValueState &state) {
    return reuseKey(meshRef, state, to);
  });
  return evaluator.cost(best, /*final=*/true, done) +
         mirrorCost(best, bytesOnly);
}

const xla::MeshRefinement *
FunctionPropagation::getRefinement(FlatSymbolRefAttr meshRef,
                                   ArrayRef<const AxisSharding *> extra) const {
  MeshAttr mesh = meshAttrOf(meshRef);
  if (!mesh)
    return nullptr;
  auto note = [&](const AxisSharding &s, xla::SubAxisCuts &cuts) {
    for (const AxisList &dim : s.dims)
      for (StringAttr axis : dim)
        xla::noteSubAxisCuts(mesh, axis, cuts);
    for (StringAttr axis : s.partial)
      xla::noteSubAxisCuts(mesh, axis, cuts);
  };
  xla::SubAxisCuts cuts;
  if (settled) {
    auto [it, inserted] = settledCuts.try_emplace(meshRef);
    if (inserted) {
      for (const ValueState &state : states)
        if (state.mesh == meshRef)
          note(state.toAxisSharding(), it->second);
      // As xla::refineSubAxes: reshapes whose split is carried by parts of
      // an axis.
      func::FuncOp(func).walk([&](xla::ReshapeOp reshape) {
        auto inType =
            dyn_cast<RankedTensorType>(reshape.getOperand().getType());
        RankedTensorType outType = reshape.getType();
        if (!inType || !inType.hasStaticShape() || !outType.hasStaticShape())
          return;
        for (auto [value, other] :
             {std::pair<Value, ArrayRef<int64_t>>(reshape.getOperand(),
                                                  outType.getShape()),
              std::pair<Value, ArrayRef<int64_t>>(reshape.getResult(),
                                                  inType.getShape())}) {
          auto found = stateOf.find(value);
          if (found == stateOf.end() || states[found->second].mesh != meshRef)
            continue;
          SmallVector<SmallVector<StringAttr>> axes;
          for (const AxisList &dim :
               states[found->second].toAxisSharding().dims)
            axes.emplace_back(dim.begin(), dim.end());
          xla::noteReshapeCuts(
              mesh, cast<RankedTensorType>(value.getType()).getShape(), other,
              axes, it->second);
        }
      });
    }
    cuts = it->second;
  }
  for (const AxisSharding *s : extra)
    note(*s, cuts);
  std::string key;
  for (auto [i, points] : llvm::enumerate(cuts)) {
    key += std::to_string(i) + ":";
    for (int64_t p : points)
      key += std::to_string(p) + ",";
    key += ";";
  }
  auto [it, inserted] =
      refinements.try_emplace({meshRef.getAsOpaquePointer(), key});
  if (inserted) {
    std::string error;
    if (std::optional<xla::MeshRefinement> refinement =
            xla::MeshRefinement::build(mesh, cuts, error))
      it->second =
          std::make_unique<xla::MeshRefinement>(std::move(*refinement));
  }
  return it->second.get();
}

partition::ReshardPlanner &
FunctionPropagation::getPlanner(const xla::MeshRefinement &refinement) const {
  auto &planner = planners[refinement.getRefined()];
  if (!planner) {
    partition::ReshardCostModel costs;
    costs.iciByteCost = options.costModel.iciByteCost;
    costs.dcnByteCost = options.costModel.dcnByteCost;
    planner = std::make_unique<partition::ReshardPlanner>(
        xla::MeshModel::fromAttr(refinement.getRefined()), costs);
  }
  return *planner;
}

partition::ReshardPlanner &
FunctionPropagation::getPlanner(FlatSymbolRefAttr meshRef) const {
  const xla::MeshRefinement *refinement = getRefinement(meshRef);
  if (refinement)
    return getPlanner(*refinement);
  // Incompatible sub-axes (toLayout maps none of them): the whole axes.
  std::string error;
  auto &unrefined = refinements[{meshRef.getAsOpaquePointer(), "whole"}];
  if (!unrefined)
    unrefined = std::make_unique<xla::MeshRefinement>(
        *xla::MeshRefinement::build(meshAttrOf(meshRef), {}, error));
  return getPlanner(*unrefined);
}

MeshAttr FunctionPropagation::meshAttrOf(FlatSymbolRefAttr meshRef) const {
  // The function's mesh may be named by no sharding (values on maximal
  // meshes only): then it is looked up.
  auto found = meshes.find(meshRef);
  if (found != meshes.end() && found->second)
    return found->second->getMesh();
  if (MeshOp mesh = lookupMesh(func::FuncOp(func), meshRef, &symbols))
    return mesh.getMesh();
  return {};
}

FlatSymbolRefAttr FunctionPropagation::functionMesh() const {
  if (firstUserMesh)
    return firstUserMesh;
  if (MeshOp mesh = findFirstMesh(func::FuncOp(func)))
    return FlatSymbolRefAttr::get(mesh.getSymNameAttr());
  return {};
}

std::optional<double>
FunctionPropagation::maximalRecordCost(int32_t r, ReshardsDone *done,
                                       bool bytesOnly) const {
  const OpRecord &record = records[r];
  Operation *op = record.op;
  auto deviceOf = [&](const ValueState &state) -> int64_t {
    auto found = meshes.find(state.mesh);
    if (!state.mesh || found == meshes.end() || !found->second)
      return -1;
    MeshAttr mesh = found->second->getMesh();
    return mesh.isMaximal() ? mesh.getMaximalDevice() : -1;
  };
  if (llvm::none_of(record.tensors,
                    [&](int32_t t) { return deviceOf(states[t]) >= 0; }))
    return std::nullopt;
  FlatSymbolRefAttr meshRef = functionMesh();
  MeshAttr functionMeshAttr = meshRef ? meshAttrOf(meshRef) : MeshAttr();
  if (!functionMeshAttr || functionMeshAttr.isMaximal())
    return std::nullopt;
  // The layouts the partitioner gives the record's tensors: a maximal value
  // whole on its device, the others as propagation chose (on the function's
  // mesh, or replicated when no sharding reached them).
  SmallVector<ShardLayout> layouts;
  SmallVector<RankedTensorType> types;
  for (int32_t t : record.tensors) {
    const ValueState &state = states[t];
    RankedTensorType type = state.type;
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    types.push_back(type);
    if (int64_t device = deviceOf(state); device >= 0) {
      layouts.push_back(ShardLayout::maximal(type.getShape(), device));
      continue;
    }
    if (!state.mesh) {
      layouts.push_back(ShardLayout::replicated(type.getShape()));
      continue;
    }
    if (state.mesh != meshRef)
      return std::nullopt;
    std::optional<ShardLayout> layout =
        toLayout(meshRef, state.toAxisSharding(), type, state.partialKind);
    if (!layout)
      return std::nullopt;
    layouts.push_back(std::move(*layout));
  }
  // Tensor `k` moved to `to`; the partitioner reshards a value to a layout
  // once and reuses it.
  auto priceTensor = [&](int32_t k, const ShardLayout &to) {
    if (layouts[k] == to ||
        (done &&
         !done->insert({record.tensors[k], "layout " + to.key()}).second))
      return 0.0;
    return planPrice(
        getPlanner(meshRef).plan(types[k].getShape(),
                                 (types[k].getElementTypeBitWidth() + 7) / 8,
                                 layouts[k], to),
        bytesOnly);
  };
  // A returned or marked value becomes what the result or mark says.
  if (isa<func::ReturnOp, MarkShardingOp>(op))
    return priceTensor(0, layouts[1]);
  int32_t numOps = op->getNumOperands();
  if (record.carried >= 0 || op->getNumRegions() > 0 ||
      static_cast<int32_t>(record.tensors.size()) !=
          numOps + static_cast<int32_t>(op->getNumResults()))
    return std::nullopt;
  // Results all on one device: the op runs there, on its operands
  // gathered to (or broadcast onto) that device.
  ArrayRef<ShardLayout> results = ArrayRef(layouts).drop_front(numOps);
  int64_t device = results.front().maximalDevice;
  if (device >= 0 && llvm::all_of(results, [&](const ShardLayout &l) {
        return l.maximalDevice == device;
      })) {
    double cost = 0;
    for (int32_t k = 0; k < numOps; ++k)
      cost += priceTensor(k, ShardLayout::maximal(types[k].getShape(), device));
    return cost;
  }
  // Otherwise the op is partitioned by its rule, its maximal operands
  // broadcast into the layouts partition::planOp chooses.
  return priceOpOnLayouts(r, meshRef, ArrayRef(layouts).take_front(numOps),
                          results, done, bytesOnly);
}

std::optional<ShardLayout>
FunctionPropagation::toLayout(FlatSymbolRefAttr meshRef, const AxisSharding &s,
                              RankedTensorType type, ReductionKind kind,
                              const xla::MeshRefinement *refinement) const {
  if (!refinement)
    refinement = getRefinement(meshRef);
  if (!refinement || !type || !type.hasStaticShape() ||
      static_cast<int64_t>(s.dims.size()) != type.getRank())
    return std::nullopt;
  const xla::MeshModel &model = getPlanner(*refinement).getMesh();
  // The atoms of the refined mesh each axis stands for.
  auto indicesOf = [&](StringAttr a, SmallVectorImpl<int> &out) {
    SmallVector<StringAttr> atoms = refinement->expand(a);
    for (StringAttr atom : atoms) {
      int64_t i = model.axisIndex(atom.getValue());
      if (i < 0)
        return false;
      out.push_back(static_cast<int>(i));
    }
    return !atoms.empty();
  };
  ShardLayout layout;
  for (auto [d, dim] : llvm::enumerate(s.dims)) {
    auto &dimAxes = layout.dimAxes.emplace_back();
    for (StringAttr a : dim)
      if (!indicesOf(a, dimAxes))
        return std::nullopt;
    int64_t shards = 1;
    for (int i : dimAxes)
      shards *= model.axisSizes[i];
    layout.paddedSize.push_back(xla::paddedDimSize(type.getDimSize(d), shards));
  }
  for (StringAttr a : s.partial)
    if (!indicesOf(a, layout.partialAxes))
      return std::nullopt;
  llvm::sort(layout.partialAxes);
  layout.partialKind = kind;
  // An axis may split one dimension or be pending, not both: such a
  // candidate is no layout the planner knows.
  SmallVector<bool> seen(model.axisSizes.size(), false);
  for (ArrayRef<int> dimAxes : layout.dimAxes)
    for (int a : dimAxes)
      if (std::exchange(seen[a], true))
        return std::nullopt;
  for (int a : layout.partialAxes)
    if (std::exchange(seen[a], true))
      return std::nullopt;
  return layout;
}

std::optional<double> FunctionPropagation::opPlanCost(int32_t r,
                                                      FlatSymbolRefAttr meshRef,
                                                      ReshardsDone *done,
                                                      bool bytesOnly) const {
  const OpRecord &record = records[r];
  Operation *op = record.op;
  int32_t numOps = op->getNumOperands();
  // The layouts the partitioner will see: operands as propagation left
  // them (a value no sharding reached is replicated), results as it chose.
  SmallVector<ShardLayout> current, targets;
  for (auto [k, t] : llvm::enumerate(record.tensors)) {
    const ValueState &state = states[t];
    Value value = static_cast<int32_t>(k) < numOps ? op->getOperand(k)
                                                   : op->getResult(k - numOps);
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return std::nullopt;
    AxisSharding sharding;
    if (state.mesh == meshRef)
      sharding = state.toAxisSharding();
    else
      sharding.dims.resize(type.getRank());
    std::optional<ShardLayout> layout =
        toLayout(meshRef, sharding, type, state.partialKind);
    if (!layout)
      return std::nullopt;
    (static_cast<int32_t>(k) < numOps ? current : targets)
        .push_back(std::move(*layout));
  }
  return priceOpOnLayouts(r, meshRef, current, targets, done, bytesOnly);
}

double FunctionPropagation::priceOpOnLayouts(
    int32_t r, FlatSymbolRefAttr meshRef, ArrayRef<ShardLayout> current,
    ArrayRef<ShardLayout> targets, ReshardsDone *done, bool bytesOnly) const {
  const OpRecord &record = records[r];
  Operation *op = record.op;
  partition::ReshardPlanner &planner = getPlanner(meshRef);
  partition::OpPlan plan = partition::planOp(op, *record.rule, current, targets,
                                             planner, options.halo);
  partition::ReshardCostModel costs = planner.getCosts();
  if (bytesOnly)
    costs = {1.0, 1.0, 0.0};
  bool concat = isa<ConcatenateOp>(op) &&
                plan.kind == partition::OpPlan::rule &&
                plan.choice.concat.has_value();
  auto price = [&](Value value, ArrayRef<int64_t> shape, int64_t elementBytes,
                   const ShardLayout &from, const ShardLayout &to) {
    // A result nothing uses is never resharded (the partitioner reshards
    // a local result when a user asks for it, Partitioner::getAs).
    if (value && value.use_empty() && value.getDefiningOp() == op)
      return 0.0;
    // An operand its op left in layout `to` is used as it is.
    if (settled && value && llvm::is_contained(op->getOperands(), value))
      if (auto it = localLayouts.find(value);
          it != localLayouts.end() && it->second == to)
        return 0.0;
    // The partitioner reshards an operand to a layout once and reuses it.
    // A concatenate prices both layouts of each operand (as it is and
    // gathered): only the one its exchange uses is done (below).
    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      if (!value || operand != value || !done)
        continue;
      std::pair<int32_t, std::string> key{record.tensors[k],
                                          "layout " + to.key()};
      if (concat ? done->count(key) : !done->insert(key).second)
        return 0.0;
    }
    return planPrice(planner.plan(shape, elementBytes, from, to), bytesOnly);
  };
  double cost = partition::priceOpPlan(op, plan, current, targets,
                                       planner.getMesh(), costs, price);
  if (concat && done) {
    const partition::FactorAssignment &assignment = plan.choice.assignment;
    int64_t dim = cast<ConcatenateOp>(op).getDim();
    for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
      ShardLayout used = assignment.operands[k];
      if (plan.choice.concat->sources[k].kind ==
          partition::ConcatExchange::Source::Kind::gather)
        used = partition::gatheredAlong(
            used, dim,
            cast<RankedTensorType>(operand.getType()).getDimSize(dim));
      if (!(used == current[k]))
        done->insert({record.tensors[k], "layout " + used.key()});
    }
  }
  // Where the partitioner leaves the results (FunctionPartitioner.cpp,
  // partitionRuleOp).
  if (settled)
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      switch (plan.kind) {
      case partition::OpPlan::rule:
        localLayouts[result] = plan.choice.assignment.results[i];
        break;
      case partition::OpPlan::twoStageReduce:
        localLayouts[result] = plan.combined[i];
        break;
      default:
        localLayouts.erase(result);
        break;
      }
    }
  return cost;
}

bool FunctionPropagation::producedAs(FlatSymbolRefAttr meshRef,
                                     const ValueState &state,
                                     const AxisSharding &to) const {
  if (!settled || !state.value || !state.type)
    return false;
  auto it = localLayouts.find(state.value);
  if (it == localLayouts.end())
    return false;
  std::optional<ShardLayout> layout =
      toLayout(meshRef, to, state.type, state.partialKind);
  return layout && *layout == it->second;
}

std::string FunctionPropagation::reuseKey(FlatSymbolRefAttr meshRef,
                                          const ValueState &state,
                                          const AxisSharding &to) const {
  if (state.type)
    if (std::optional<ShardLayout> layout =
            toLayout(meshRef, to, state.type, state.partialKind))
      return "layout " + layout->key();
  std::string key = "axes";
  for (const AxisList &dim : to.dims) {
    for (StringAttr a : dim)
      key += a.getValue().str() + ",";
    key += ";";
  }
  return key;
}

std::optional<double> FunctionPropagation::plannedCost(
    FlatSymbolRefAttr meshRef, const AxisSharding &from, const AxisSharding &to,
    const ValueState &state, bool bytesOnly) const {
  // The partitioner plans on global shapes over the mesh refined at the
  // sub-axes in use; a value without a static shape has no plan.
  const xla::MeshRefinement *refinement = getRefinement(meshRef, {&from, &to});
  RankedTensorType type = state.type;
  // Sub-axes of the two sides no one mesh refines into (their cuts do not
  // divide each other): through the replicated layout, each side on its
  // own refinement.
  AxisSharding replicated;
  replicated.dims.resize(from.dims.size());
  if (!refinement && !(from == replicated) && !(to == replicated)) {
    std::optional<double> gather =
        plannedCost(meshRef, from, replicated, state, bytesOnly);
    std::optional<double> slice =
        plannedCost(meshRef, replicated, to, state, bytesOnly);
    if (gather && slice)
      return *gather + *slice;
    return std::nullopt;
  }
  std::optional<ShardLayout> source =
      toLayout(meshRef, from, type, state.partialKind, refinement);
  std::optional<ShardLayout> target =
      toLayout(meshRef, to, type, state.partialKind, refinement);
  if (!source || !target)
    return std::nullopt;
  if (*source == *target)
    return 0.0;
  const partition::ReshardPlan &plan =
      getPlanner(*refinement)
          .plan(type.getShape(), (type.getElementTypeBitWidth() + 7) / 8,
                *source, *target);
  return planPrice(plan, bytesOnly);
}

double FunctionPropagation::planCost() const {
  localLayouts.clear();
  double total = 0;
  ReshardsDone done;
  for (int32_t r = 0, e = records.size(); r < e; ++r)
    total += recordCost(r, &done);
  return total;
}

} // namespace xspmd::prop::detail
