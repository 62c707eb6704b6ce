//===- Propagation.cpp - sharding propagation driver ----------------------===//
//
// Per function: one state per tensor value (and per function result), one
// record per op that has a sharding rule (and one for the return), then
// rounds of worklist propagation, then write-back.
//
//===----------------------------------------------------------------------===//

#include "passes/propagation/PropagationState.h"

#include "dialects/xla/XlaOps.h"
#include "passes/common/FunctionAttrs.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::prop::detail {

AxisSharding ValueState::toAxisSharding() const {
  AxisSharding s;
  for (const DimState &dim : dims)
    s.dims.push_back(dim.axes);
  s.partial = partial;
  return s;
}

FunctionPropagation::FunctionPropagation(func::FuncOp func,
                                         SymbolTableCollection &symbols,
                                         const PropagationOptions &options,
                                         ForcedChoices forced)
    : func(func), symbols(symbols), options(options),
      forced(std::move(forced)) {}

void FunctionPropagation::noteGlobalDecision(const NearTie &tie, double kept,
                                             double other) {
  globalDecisions.push_back({tie.key, tie.alternative, kept, other});
}

static double bytesOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 0;
  unsigned bits = tensor.getElementType().getIntOrFloatBitWidth();
  return static_cast<double>(tensor.getNumElements()) *
         std::max<unsigned>(1, (bits + 7) / 8);
}

int32_t FunctionPropagation::addState(Value value, Type type) {
  int32_t index = states.size();
  ValueState &state = states.emplace_back();
  state.value = value;
  state.type = dyn_cast<RankedTensorType>(type);
  if (state.type)
    state.dims.resize(state.type.getRank());
  state.bytes = bytesOf(type);
  recordsOf.emplace_back();
  if (value)
    stateOf[value] = index;
  return index;
}

void FunctionPropagation::setUserSharding(ValueState &state,
                                          ShardingAttr sharding,
                                          const std::string &what) {
  state.user = true;
  state.mesh = sharding.getMesh();
  state.annotation = annotations.size();
  annotations.push_back(what);
  for (auto [dim, attr] : llvm::zip(state.dims, sharding.getDims())) {
    dim.axes.assign(attr.getAxes().begin(), attr.getAxes().end());
    dim.open = attr.getIsOpen();
    dim.userPriority = attr.getPriority();
    dim.priority = attr.getPriority().value_or(kNoPriority);
    dim.origin.root = state.annotation;
  }
  state.partial.assign(sharding.getPartialAxes().begin(),
                       sharding.getPartialAxes().end());
  state.partialKind = sharding.getPartialKind();
  state.partialOrigin.root = state.annotation;
  // A maximal mesh names one device: it is never the mesh other values
  // default to.
  if (!firstUserMesh && !isMaximalMesh(sharding.getMesh()))
    firstUserMesh = sharding.getMesh();
}

bool FunctionPropagation::isMaximalMesh(FlatSymbolRefAttr mesh) {
  MeshOp op = lookupMesh(func, mesh, &symbols);
  return op && op.getMesh().isMaximal();
}

FlatSymbolRefAttr FunctionPropagation::maximalMeshOfOperands(Operation *op) {
  FlatSymbolRefAttr common;
  for (Value operand : op->getOperands()) {
    auto it = stateOf.find(operand);
    if (it == stateOf.end())
      return {};
    const ValueState &state = states[it->second];
    if (!state.mesh || (common && state.mesh != common) ||
        !state.partial.empty() || !isMaximalMesh(state.mesh))
      return {};
    common = state.mesh;
  }
  return common;
}

const MeshAxes *FunctionPropagation::getMeshAxes(FlatSymbolRefAttr mesh) {
  std::unique_ptr<MeshAxes> &entry = meshes[mesh];
  if (!entry) {
    MeshOp op = lookupMesh(func, mesh, &symbols);
    if (!op)
      return nullptr;
    entry = std::make_unique<MeshAxes>(op.getMesh());
  }
  return entry.get();
}

/// The identity rule between a returned value and the function result:
/// one record per returned value, since distinct results are independent
/// (one axis may shard all of them).
static OpShardingRule returnRule(Type type) {
  ArrayRef<int64_t> shape;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    shape = tensor.getShape();
  OpShardingRuleBuilder b({shape}, {shape});
  for (auto [d, size] : llvm::enumerate(shape))
    b.addFactor({static_cast<int64_t>(d)}, {static_cast<int64_t>(d)}, size);
  return b.build();
}

const OpShardingRule *FunctionPropagation::identityRule(Type type) {
  std::unique_ptr<OpShardingRule> &rule = returnRules[type];
  if (!rule)
    rule = std::make_unique<OpShardingRule>(returnRule(type));
  return rule.get();
}

void FunctionPropagation::addCarriedStates(WhileOp op) {
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    int32_t s = addState(result, result.getType());
    states[s].carried = true;
    stateOf[op.getCond().getArgument(i)] = s;
    stateOf[op.getBody().getArgument(i)] = s;
  }
}

LogicalResult FunctionPropagation::addManualStates(
    ManualComputationOp op,
    function_ref<LogicalResult(ShardingAttr, Operation *)> checkMesh) {
  auto annotate = [&](int32_t s, Attribute sharding, StringRef list, size_t i) {
    auto one = cast<ShardingAttr>(sharding);
    if (failed(checkMesh(one, op)))
      return failure();
    setUserSharding(states[s], one,
                    (list + "[" + Twine(i) + "] of " + describeOp(op)).str());
    return success();
  };
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    if (failed(annotate(addState(result, result.getType()),
                        op.getOutShardings()[i], "out_shardings", i)))
      return failure();
  SmallVector<int32_t> &inputs = manualInputStates[op];
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    inputs.push_back(addState(Value(), input.getType()));
    if (failed(
            annotate(inputs.back(), op.getInShardings()[i], "in_shardings", i)))
      return failure();
  }
  return success();
}

LogicalResult FunctionPropagation::initialize() {
  auto checkMesh = [&](ShardingAttr sharding,
                       Operation *anchor) -> LogicalResult {
    if (getMeshAxes(sharding.getMesh()))
      return success();
    return anchor->emitError()
           << "sharding names unknown mesh " << sharding.getMesh();
  };
  // Arguments and results.
  for (BlockArgument arg : func.getArguments()) {
    int32_t s = addState(arg, arg.getType());
    if (auto sharding = func.getArgAttrOfType<ShardingAttr>(
            arg.getArgNumber(), kShardingAttrName)) {
      if (failed(checkMesh(sharding, func)))
        return failure();
      setUserSharding(states[s], sharding,
                      "argument " + std::to_string(arg.getArgNumber()));
    }
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    int32_t s = addState(Value(), type);
    states[s].isFuncResult = true;
    states[s].funcResult = i;
    resultStates.push_back(s);
    if (auto sharding =
            func.getResultAttrOfType<ShardingAttr>(i, kShardingAttrName)) {
      if (failed(checkMesh(sharding, func)))
        return failure();
      setUserSharding(states[s], sharding, "result " + std::to_string(i));
    }
  }
  // Op results, then op records (operands may be defined in any order in
  // graph regions, so all states exist before records are built).
  // Scalar computations (a reduction's combiner, a sort's comparator) and
  // manual computations hold no shardings: their values are per-element
  // scalars or per-device blocks.
  WalkResult walked = func.walk([&](Operation *op) -> WalkResult {
    if (op == func || isInLocalRegion(op))
      return WalkResult::advance();
    if (isa<FullToShardOp, ShardToFullOp>(op)) {
      op->emitOpError("marks a manual region that is not outlined yet; run "
                      "--xla-outline-manual-computations first (the SPMD "
                      "pipeline does)");
      return WalkResult::interrupt();
    }
    if (auto manual = dyn_cast<ManualComputationOp>(op)) {
      if (failed(addManualStates(manual, checkMesh)))
        return WalkResult::interrupt();
      annotatedOps.push_back(op); // for --xla-explain-sharding
      return WalkResult::advance();
    }
    bool allTensors = op->getNumResults() > 0;
    if (auto loop = dyn_cast<WhileOp>(op)) {
      addCarriedStates(loop);
    } else {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            addState(arg, arg.getType());
      for (OpResult result : op->getResults()) {
        int32_t s = addState(result, result.getType());
        // A case's result is whichever branch's yield: never partial.
        states[s].carried = isa<CaseOp>(op);
      }
    }
    for (OpResult result : op->getResults())
      allTensors &= isa<RankedTensorType>(result.getType());
    if (allTensors)
      annotatedOps.push_back(op);
    // User shardings on results: a mark_sharding's own, or `xla.sharding`.
    SmallVector<ShardingAttr> given;
    if (auto mark = dyn_cast<MarkShardingOp>(op)) {
      given.push_back(mark.getSharding());
    } else if (Attribute attr = op->getAttr(kShardingAttrName)) {
      if (auto one = dyn_cast<ShardingAttr>(attr))
        given.push_back(one);
      else if (auto many = dyn_cast<ArrayAttr>(attr))
        for (Attribute a : many)
          given.push_back(cast<ShardingAttr>(a));
    }
    for (auto [result, sharding] : llvm::zip(op->getResults(), given)) {
      if (failed(checkMesh(sharding, op)))
        return WalkResult::interrupt();
      setUserSharding(states[stateOf[result]], sharding,
                      isa<MarkShardingOp>(op)
                          ? describeOp(op)
                          : "xla.sharding of " + describeOp(op));
    }
    // An op whose operands all live on one device (a maximal mesh) runs
    // there: its results take that mesh and are fixed, as the operands'
    // are. Maximal shardings never spread further: propagation through op
    // rules only moves axes, and a maximal mesh has none.
    if (given.empty() && allTensors && op->getNumOperands() > 0 &&
        op->getNumRegions() == 0 && !isa<MarkShardingOp>(op))
      if (FlatSymbolRefAttr maximal = maximalMeshOfOperands(op))
        for (OpResult result : op->getResults())
          setUserSharding(
              states[stateOf[result]],
              ShardingAttr::getReplicated(
                  op->getContext(), maximal,
                  cast<RankedTensorType>(result.getType()).getRank()),
              "the maximal operands of " + describeOp(op));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  // One record per annotated op and per returned value.
  records.reserve(annotatedOps.size() + func.getNumResults());
  auto addRecord = [&](OpRecord record) {
    int32_t index = records.size();
    for (int32_t s : record.tensors)
      if (recordsOf[s].empty() || recordsOf[s].back() != index)
        recordsOf[s].push_back(index);
    records.push_back(std::move(record));
  };
  func.walk([&](Operation *op) {
    if (op == func || isInLocalRegion(op))
      return;
    // A manual computation's operands take the in_shardings (fixed states,
    // like a function's results) and give them nothing.
    if (auto manual = dyn_cast<ManualComputationOp>(op)) {
      for (auto [i, input] : llvm::enumerate(manual.getInputs()))
        addRecord(OpRecord{op,
                           identityRule(input.getType()),
                           {stateOf.lookup(input), manualInputStates[op][i]},
                           1,
                           static_cast<int32_t>(i)});
      return;
    }
    if (isa<func::ReturnOp>(op) && op->getParentOp() == func) {
      for (auto [i, value] : llvm::enumerate(op->getOperands())) {
        OpRecord record{op,
                        identityRule(value.getType()),
                        {stateOf.lookup(value), resultStates[i]},
                        1};
        addRecord(std::move(record));
      }
      return;
    }
    // Each branch's yielded values take the sharding of the case's results,
    // and give it theirs.
    if (auto select = dyn_cast<CaseOp>(op)) {
      for (unsigned b = 0; b < select.getBranches().size(); ++b) {
        YieldOp yield = select.getBranchYield(b);
        for (auto [i, value] : llvm::enumerate(yield.getValues()))
          addRecord(OpRecord{
              yield,
              identityRule(value.getType()),
              {stateOf.lookup(value), stateOf.lookup(select.getResult(i))},
              1,
              static_cast<int32_t>(i)});
      }
      return;
    }
    // A loop's initial values and its body's yielded values take the
    // sharding of the carried value they feed, and give it theirs.
    if (auto loop = dyn_cast<WhileOp>(op)) {
      YieldOp yield = loop.getBodyYield();
      for (auto [i, init] : llvm::enumerate(loop.getInits())) {
        int32_t carried = stateOf.lookup(loop.getResult(i));
        const OpShardingRule *rule = identityRule(init.getType());
        addRecord(OpRecord{op,
                           rule,
                           {stateOf.lookup(init), carried},
                           1,
                           static_cast<int32_t>(i)});
        addRecord(OpRecord{yield,
                           rule,
                           {stateOf.lookup(yield.getValues()[i]), carried},
                           1,
                           static_cast<int32_t>(i)});
      }
      return;
    }
    const OpShardingRule *rule = rules.lookup(op);
    if (!rule)
      return;
    OpRecord record{op, rule, {}, 0};
    for (Value operand : op->getOperands())
      record.tensors.push_back(stateOf.lookup(operand));
    record.numOperands = record.tensors.size();
    for (Value result : op->getResults())
      record.tensors.push_back(stateOf.lookup(result));
    addRecord(std::move(record));
  });
  return success();
}

void FunctionPropagation::propagate() {
  // Rounds: one per user priority in increasing order, then one for all.
  std::set<int64_t> rounds{kNoPriority};
  for (const ValueState &state : states)
    for (const DimState &dim : state.dims)
      if (dim.userPriority)
        rounds.insert(*dim.userPriority);
  // Each round has three stages, as Shardy's op-priority propagation:
  // agreement through pass-through ops (elementwise, reshapes, annotations)
  // first, so that what users pin on values reaches the ops around them
  // before those decide; then agreement through every op; then conflicts.
  enum Stage { kPassThrough, kBasic, kAggressive };
  std::vector<bool> passThrough;
  passThrough.reserve(records.size());
  for (const OpRecord &record : records)
    passThrough.push_back(record.rule->isPassThroughOnly());
  std::deque<int32_t> queue;
  std::vector<bool> queued(records.size(), false);
  SmallVector<int32_t> changed;
  for (int64_t round : rounds) {
    for (Stage stage : {kPassThrough, kBasic, kAggressive}) {
      auto inStage = [&](int32_t r) {
        return stage != kPassThrough || passThrough[r];
      };
      for (int32_t r = 0, e = records.size(); r < e; ++r) {
        if (!inStage(r))
          continue;
        queue.push_back(r);
        queued[r] = true;
      }
      while (!queue.empty()) {
        int32_t r = queue.front();
        queue.pop_front();
        queued[r] = false;
        changed.clear();
        processOp(r, stage == kAggressive, round, changed);
        ++numVisits;
        for (int32_t s : changed)
          for (int32_t other : recordsOf[s])
            if (other != r && !queued[other] && inStage(other)) {
              queued[other] = true;
              queue.push_back(other);
            }
      }
    }
  }
}

FlatSymbolRefAttr FunctionPropagation::getDefaultMesh() {
  if (firstUserMesh)
    return firstUserMesh;
  if (MeshOp mesh = findFirstMesh(func))
    return FlatSymbolRefAttr::get(mesh.getSymNameAttr());
  return {};
}

ShardingAttr FunctionPropagation::toAttr(const ValueState &state) {
  MLIRContext *ctx = func.getContext();
  FlatSymbolRefAttr mesh = state.mesh ? state.mesh : getDefaultMesh();
  SmallVector<DimShardingAttr> dims;
  for (const DimState &dim : state.dims)
    dims.push_back(
        DimShardingAttr::get(ctx, dim.axes, state.user && dim.open,
                             state.user ? dim.userPriority : std::nullopt));
  return ShardingAttr::get(ctx, mesh, dims, state.partial, state.partialKind);
}

void FunctionPropagation::writeBack() {
  if (!getDefaultMesh())
    return; // no mesh in the module: nothing to say
  SmallVector<Attribute> argShardings, resultShardings;
  for (BlockArgument arg : func.getArguments())
    argShardings.push_back(isa<RankedTensorType>(arg.getType())
                               ? toAttr(states[stateOf[arg]])
                               : Attribute());
  for (auto [i, s] : llvm::enumerate(resultStates))
    resultShardings.push_back(isa<RankedTensorType>(func.getResultTypes()[i])
                                  ? toAttr(states[s])
                                  : Attribute());
  setArgAttrs(func, kShardingAttrName, argShardings);
  setResultAttrs(func, kShardingAttrName, resultShardings);
  for (Operation *op : annotatedOps) {
    // A manual computation's results are its out_shardings.
    if (isa<ManualComputationOp>(op))
      continue;
    if (op->getNumResults() == 1) {
      op->setAttr(kShardingAttrName, toAttr(states[stateOf[op->getResult(0)]]));
      continue;
    }
    SmallVector<Attribute> all;
    for (Value result : op->getResults())
      all.push_back(toAttr(states[stateOf[result]]));
    op->setAttr(kShardingAttrName, ArrayAttr::get(func.getContext(), all));
  }
}

void FunctionPropagation::addStats(PropagationStats &stats) const {
  stats.records += records.size();
  stats.visits += numVisits;
  stats.decisions += numDecisions;
}

} // namespace xspmd::prop::detail

namespace xspmd::prop {

LogicalResult propagateShardings(ModuleOp module,
                                 const PropagationOptions &options,
                                 PropagationStats *stats) {
  SymbolTableCollection symbols;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    // Near ties are re-decided by the cost of the whole plan: propagation
    // runs again with the other option forced, and keeps it when the plan
    // is cheaper (greedily, in the order the conflicts were decided).
    detail::ForcedChoices forced;
    std::vector<std::tuple<detail::NearTie, double, double>> decisions;
    if (options.globalTrials > 0) {
      PropagationOptions quiet = options;
      quiet.explain = nullptr;
      auto run = [&](const detail::ForcedChoices &choices)
          -> FailureOr<std::unique_ptr<detail::FunctionPropagation>> {
        auto trial = std::make_unique<detail::FunctionPropagation>(
            func, symbols, quiet, choices);
        if (failed(trial->initialize()))
          return failure();
        trial->propagate();
        trial->placeReshards();
        return trial;
      };
      auto base = run(forced);
      if (failed(base))
        return failure();
      double best = (*base)->planCost();
      std::vector<detail::NearTie> pending = (*base)->nearTies();
      std::set<detail::ConflictKey> tried;
      int64_t trials = 0;
      while (!pending.empty() && trials < options.globalTrials) {
        detail::NearTie tie = pending.front();
        pending.erase(pending.begin());
        if (!tried.insert(tie.key).second || forced.count(tie.key))
          continue;
        detail::ForcedChoices choices = forced;
        choices[tie.key] = tie.alternative;
        auto trial = run(choices);
        ++trials;
        if (failed(trial))
          return failure();
        double cost = (*trial)->planCost();
        if (cost >= best)
          continue;
        decisions.push_back({tie, cost, best});
        best = cost;
        forced = std::move(choices);
        pending = (*trial)->nearTies();
      }
    }
    detail::FunctionPropagation propagation(func, symbols, options, forced);
    if (failed(propagation.initialize()))
      return failure();
    propagation.propagate();
    propagation.placeReshards();
    for (auto &[tie, kept, other] : decisions)
      propagation.noteGlobalDecision(tie, kept, other);
    if (options.explain)
      propagation.explain(*options.explain);
    propagation.writeBack();
    if (stats)
      propagation.addStats(*stats);
  }
  return success();
}

} // namespace xspmd::prop
