//===- FunctionPartitioner.cpp - one function to an SPMD program ----------===//

#include "passes/partition/FunctionPartitioner.h"

#include "passes/common/FunctionAttrs.h"
#include "passes/inspect/Traffic.h"
#include "passes/partition/Concatenate.h"
#include "passes/partition/ControlFlow.h"
#include "passes/partition/DynamicSlice.h"
#include "passes/partition/DynamicUpdate.h"
#include "passes/partition/FactorAssignment.h"
#include "passes/partition/Halo.h"
#include "passes/partition/Indexing.h"
#include "passes/partition/LocalBuilder.h"
#include "passes/partition/LocalOps.h"
#include "passes/partition/ManualComputation.h"
#include "passes/partition/Maximal.h"
#include "passes/partition/ReduceRegion.h"
#include "passes/partition/ReshapeRelayout.h"
#include "passes/partition/ReshardBuilder.h"
#include "passes/partition/Reverse.h"
#include "passes/partition/WindowedOps.h"

#include "dialects/xla/XlaShardingRule.h"
#include "dialects/xla/XlaShardingRuleCache.h"

#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::partition {

FailureOr<MeshOp> findFunctionMesh(func::FuncOp func) {
  FlatSymbolRefAttr name;
  Operation *firstUser = nullptr;
  bool anyMaximal = false;
  SymbolTableCollection symbols;
  auto note = [&](Attribute attr, Operation *user) -> LogicalResult {
    auto sharding = dyn_cast_if_present<ShardingAttr>(attr);
    if (!sharding)
      return success();
    // Maximal meshes name one device of the function's mesh: values on them
    // are placed there (passes/partition/Maximal.h), not a second mesh.
    if (MeshOp meshOp = lookupMesh(func, sharding.getMesh(), &symbols);
        meshOp && meshOp.getMesh().isMaximal()) {
      anyMaximal = true;
      return success();
    }
    if (!name) {
      name = sharding.getMesh();
      firstUser = user;
      return success();
    }
    if (sharding.getMesh() == name)
      return success();
    InFlightDiagnostic diag = user->emitOpError()
                              << "uses mesh " << sharding.getMesh()
                              << " but the function already uses " << name
                              << "; a function is partitioned over one mesh";
    diag.attachNote(firstUser->getLoc()) << "first use of " << name;
    return diag;
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (failed(note(func.getArgAttr(i, kShardingAttrName), func)))
      return failure();
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    if (failed(note(func.getResultAttr(i, kShardingAttrName), func)))
      return failure();
  WalkResult walk = func.walk([&](Operation *op) {
    Attribute attr = op->getAttr(kShardingAttrName);
    if (auto mark = dyn_cast<MarkShardingOp>(op))
      attr = mark.getSharding();
    if (auto manual = dyn_cast<ManualComputationOp>(op))
      for (ArrayAttr list : {manual.getInShardings(), manual.getOutShardings()})
        for (Attribute sharding : list)
          if (failed(note(sharding, op)))
            return WalkResult::interrupt();
    return failed(note(attr, op)) ? WalkResult::interrupt()
                                  : WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  if (!name)
    return anyMaximal ? findFirstMesh(func) : MeshOp();
  MeshOp mesh = lookupMesh(func, name);
  if (!mesh)
    return func.emitOpError() << "names unknown mesh " << name;
  return mesh;
}

namespace {

/// How each op carries pending sums through (see PartialPolicy).
PartialPolicy partialPolicyOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, PartialPolicy>(op)
      .Case<AddOp, SubOp, NegOp, ReshapeOp, TransposeOp, BroadcastInDimOp,
            SliceOp, ConcatenateOp, ReverseOp>(
          [](auto) { return PartialPolicy::allOperands; })
      .Case([](PadOp pad) {
        return pad.getValue().isZero() ? PartialPolicy::allOperands
                                       : PartialPolicy::none;
      })
      .Case([](ReduceOp reduce) {
        return reduce.getKind() == ReduceKind::sum ||
                       reduce.getKind() == ReduceKind::mean
                   ? PartialPolicy::allOperands
                   : PartialPolicy::none;
      })
      .Case<MulOp, DotGeneralOp, MatmulOp, EinsumOp, ConvolutionOp>(
          [](auto) { return PartialPolicy::oneOperand; })
      .Default([](Operation *) { return PartialPolicy::none; });
}

/// Charges every collective the partitioner inserts to the op being
/// partitioned (the innermost, for ops in regions).
class TrafficListener : public OpBuilder::Listener {
public:
  TrafficListener(MeshAttr mesh, PartitionStats &stats)
      : mesh(mesh), stats(stats) {}

  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    auto collective = dyn_cast<CollectiveOpInterface>(op);
    if (!collective || !source)
      return;
    int64_t sent = inspect::collectiveTraffic(collective, mesh).sentBytes;
    if (sent > 0)
      stats.bytesByOp[inspect::describeOp(source)] += sent;
  }

  /// The op collectives are charged to until the guard goes away.
  struct Scope {
    Scope(TrafficListener &l, Operation *op) : l(l), saved(l.source) {
      l.source = op;
    }
    ~Scope() { l.source = saved; }
    TrafficListener &l;
    Operation *saved;
  };

private:
  MeshAttr mesh;
  PartitionStats &stats;
  Operation *source = nullptr;
};

class Partitioner : public RegionPartitioner {
public:
  Partitioner(func::FuncOp func, MeshOp meshOp, ReshardPlanner &planner,
              const PartitionOptions &options, PartitionStats &stats)
      : func(func), meshName(FlatSymbolRefAttr::get(meshOp.getSymNameAttr())),
        mesh(planner.getMesh()), planner(planner), options(options),
        stats(stats), traffic(meshOp.getMesh(), stats),
        builder(func.getContext(), &traffic), local(builder, mesh, meshName) {}

  LogicalResult run();

private:
  struct Placed {
    Value local;
    ShardLayout layout;
  };

  // RegionPartitioner (passes/partition/ControlFlow.h).
  OpBuilder &getBuilder() override { return builder; }
  const MeshModel &getMeshModel() const override { return mesh; }
  void place(Value global, Value local, const ShardLayout &layout) override {
    placed[global] = {local, layout};
  }
  LogicalResult partitionRegionBody(Block &block) override;

  ShardLayout layoutOf(Attribute sharding,
                       ArrayRef<int64_t> shape) const override {
    auto s = dyn_cast_if_present<ShardingAttr>(sharding);
    if (!s)
      return ShardLayout::replicated(shape);
    if (int64_t device = maximalDeviceOf(s.getMesh()); device >= 0)
      return ShardLayout::maximal(shape, device);
    return ShardLayout::fromSharding(s, mesh, shape);
  }
  /// The device of mesh `name` if it is maximal, else -1.
  int64_t maximalDeviceOf(FlatSymbolRefAttr name) const {
    auto [it, inserted] = maximalDevices.try_emplace(name, -1);
    if (inserted)
      if (MeshOp meshOp = lookupMesh(func, name))
        it->second = meshOp.getMesh().getMaximalDevice();
    return it->second;
  }
  /// The device every result of `op` is maximal on, or -1.
  int64_t maximalResultDevice(Operation *op) const;

  /// The local value of `global` in `layout`, resharding (once) if needed.
  Value getAs(Value global, const ShardLayout &layout, Location loc) override;
  /// Reshards `from`, the local value of `global` in `fromLayout`, to
  /// `layout` (cached as `global`'s local value in `layout`).
  Value reshard(Value global, Value from, const ShardLayout &fromLayout,
                const ShardLayout &layout, Location loc);
  /// What resharding `global` from `from` to `to` would cost.
  double reshardCost(Value global, const ShardLayout &from,
                     const ShardLayout &to);
  LogicalResult partitionOp(Operation *op);
  /// An assignment of an op's factors and what its reshards cost.
  struct RuleChoice {
    FactorAssignment assignment;
    /// Dimensions of the windowed operands that get a halo exchange.
    SmallVector<std::pair<int64_t, Window>> windows;
    /// Split windowed dimensions gathered instead, and why.
    SmallVector<std::pair<int64_t, StringRef>> gatheredWindows;
    /// A concatenate along a split dimension: each operand's exchange.
    std::optional<ConcatExchange> concat;
    double cost = std::numeric_limits<double>::infinity();
  };
  /// The cheapest assignment of `rule`'s factors for `op`.
  RuleChoice chooseAssignment(Operation *op, const OpShardingRule &rule);
  LogicalResult partitionRuleOp(Operation *op, const OpShardingRule &rule) {
    RuleChoice choice = chooseAssignment(op, rule);
    if (auto reshape = dyn_cast<ReshapeOp>(op))
      if (succeeded(partitionFlatRelayout(reshape, choice.cost)))
        return success();
    if (auto slice = dyn_cast<DynamicSliceOp>(op))
      if (succeeded(partitionMaskedDynamicSlice(slice, choice.cost)))
        return success();
    return buildRuleOp(op, rule, choice);
  }
  /// A dynamic_slice over split offset dimensions by a masked local slice,
  /// a pending sum (passes/partition/DynamicSlice.h), when its reduction
  /// costs less than `ruleCost`; fails, building nothing, otherwise.
  LogicalResult partitionMaskedDynamicSlice(DynamicSliceOp op, double ruleCost);
  /// A reshape between contiguous splits by a halo exchange on the flattened
  /// blocks (passes/partition/ReshapeRelayout.h), when it costs less than
  /// `ruleCost` (or halo=always); fails, building nothing, otherwise.
  LogicalResult partitionFlatRelayout(ReshapeOp op, double ruleCost);
  /// Builds the local op of `choice`, resharding operands to it.
  LogicalResult buildRuleOp(Operation *op, const OpShardingRule &rule,
                            const RuleChoice &choice);
  /// A reduce_region whose body is not a recognised reduction: reduced
  /// dimensions are gathered, or reduced per shard and the shards' results
  /// gathered and reduced again, whichever moves fewer bytes.
  LogicalResult partitionGeneralReduce(ReduceRegionOp op,
                                       const OpShardingRule &rule);
  /// Adds the group factor of a grouped convolution to `blocked` when its
  /// shards do not divide the groups.
  void blockUnevenGroups(Operation *op, const OpShardingRule &rule,
                         const FactorAssignment &assignment,
                         SmallVectorImpl<int64_t> &blocked);
  /// Dimensions of operand 0 of a windowed op whose permutation factor is
  /// sharded, with their windows; adds factors whose window is too wide for
  /// a halo exchange (or all, with halo=never) to `blocked`, and their
  /// dimensions to `gathered`.
  SmallVector<std::pair<int64_t, Window>>
  windowedDims(Operation *op, const OpShardingRule &rule,
               const FactorAssignment &assignment,
               SmallVectorImpl<int64_t> &blocked,
               SmallVectorImpl<std::pair<int64_t, StringRef>> &gathered);
  /// What the halo exchanges of `windows` cost.
  double haloCost(Operation *op, const FactorAssignment &assignment,
                  ArrayRef<std::pair<int64_t, Window>> windows);

  func::FuncOp func;
  FlatSymbolRefAttr meshName;
  const MeshModel &mesh;
  ReshardPlanner &planner;
  const PartitionOptions &options;
  PartitionStats &stats;
  TrafficListener traffic;
  OpBuilder builder;
  LocalBuilder local;
  DenseMap<Value, Placed> placed;
  std::map<std::pair<void *, std::string>, Value> reshardCache;
  mutable DenseMap<Attribute, int64_t> maximalDevices;
  /// Rules of the ops being partitioned (still alive until the old body is
  /// erased), computed once per kind of op.
  ShardingRuleCache rules;
};

Value Partitioner::getAs(Value global, const ShardLayout &layout,
                         Location loc) {
  const Placed &p = placed.at(global);
  if (p.layout == layout)
    return p.local;
  auto key = std::make_pair(global.getAsOpaquePointer(), layout.key());
  if (auto it = reshardCache.find(key); it != reshardCache.end())
    return it->second;
  // An op's local result that is not yet what propagation chose for the
  // value (a pending sum, typically) first becomes that, charged to the op:
  // the plan reshards there, then each user reshards what the value is.
  Value from = p.local;
  ShardLayout fromLayout = p.layout;
  if (auto result = dyn_cast<OpResult>(global)) {
    Operation *def = result.getOwner();
    ShardLayout own = layoutOf(
        getResultShardingAttr(def, result.getResultNumber()), shapeOf(global));
    if (!(own == p.layout) && !(own == layout)) {
      TrafficListener::Scope charge(traffic, def);
      from = getAs(global, own, loc);
      fromLayout = own;
    } else if (own == layout) {
      TrafficListener::Scope charge(traffic, def);
      return reshard(global, from, fromLayout, layout, loc);
    }
  }
  return reshard(global, from, fromLayout, layout, loc);
}

Value Partitioner::reshard(Value global, Value from,
                           const ShardLayout &fromLayout,
                           const ShardLayout &layout, Location loc) {
  if (fromLayout == layout)
    return from;
  auto key = std::make_pair(global.getAsOpaquePointer(), layout.key());
  auto type = cast<RankedTensorType>(global.getType());
  ShardLayout source = fromLayout, target = layout;
  Value value = from;
  if (source.isMaximal() || target.isMaximal()) {
    MaximalReshard m = planMaximalReshard(source, target, mesh);
    if (m.maskDevice >= 0)
      value = maskToDevice(builder, loc, value, m.maskDevice);
    source = std::move(m.from);
    target = std::move(m.to);
  }
  const ReshardPlan &plan = planner.plan(
      type.getShape(), (type.getElementTypeBitWidth() + 7) / 8, source, target);
  ++stats.reshards;
  for (const ReshardStep &step : plan.steps)
    stats.collectives += step.communicates();
  Value result = buildReshard(builder, loc, value, plan, mesh, meshName);
  reshardCache[key] = result;
  return result;
}

double Partitioner::reshardCost(Value global, const ShardLayout &from,
                                const ShardLayout &to) {
  if (from == to)
    return 0;
  auto type = cast<RankedTensorType>(global.getType());
  if (from.isMaximal() || to.isMaximal()) {
    MaximalReshard m = planMaximalReshard(from, to, mesh);
    return planner
        .plan(type.getShape(), (type.getElementTypeBitWidth() + 7) / 8, m.from,
              m.to)
        .cost;
  }
  return planner
      .plan(type.getShape(), (type.getElementTypeBitWidth() + 7) / 8, from, to)
      .cost;
}

LogicalResult Partitioner::run() {
  Block &body = func.getBody().front();
  Block *newBody = new Block();
  SmallVector<Type> argTypes;
  // Argument and result attributes are set in bulk at the end: one at a
  // time rebuilds the whole attribute array each time (quadratic).
  SmallVector<Attribute> argGlobals, resultGlobals, resultShardings;
  for (BlockArgument arg : body.getArguments()) {
    auto type = cast<RankedTensorType>(arg.getType());
    ShardLayout layout =
        layoutOf(func.getArgAttr(arg.getArgNumber(), kShardingAttrName),
                 type.getShape());
    Type localType = type.clone(layout.localShape(mesh));
    argTypes.push_back(localType);
    placed[arg] = {newBody->addArgument(localType, arg.getLoc()), layout};
    argGlobals.push_back(TypeAttr::get(type));
  }
  builder.setInsertionPointToEnd(newBody);
  for (Operation &op : body.without_terminator())
    if (failed(partitionOp(&op))) {
      delete newBody;
      return failure();
    }

  auto ret = cast<func::ReturnOp>(body.getTerminator());
  TrafficListener::Scope charge(traffic, ret);
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    auto type = cast<RankedTensorType>(value.getType());
    Attribute sharding = func.getResultAttr(i, kShardingAttrName);
    if (!sharding)
      if (Operation *def = value.getDefiningOp())
        sharding = def->getAttr(kShardingAttrName);
    if (!sharding)
      if (auto arg = dyn_cast<BlockArgument>(value))
        sharding = func.getArgAttr(arg.getArgNumber(), kShardingAttrName);
    ShardLayout layout = layoutOf(sharding, type.getShape());
    results.push_back(getAs(value, layout, ret.getLoc()));
    resultTypes.push_back(results.back().getType());
    resultShardings.push_back(sharding);
    resultGlobals.push_back(TypeAttr::get(type));
  }
  func::ReturnOp::create(builder, ret.getLoc(), results);
  setArgAttrs(func, kGlobalTypeAttrName, argGlobals);
  setResultAttrs(func, kShardingAttrName, resultShardings);
  setResultAttrs(func, kGlobalTypeAttrName, resultGlobals);

  // An argument and the result it aliases share a buffer only if their local
  // types agree; with different shardings they do not. As JAX does with such
  // donations, keep the argument donated and drop the alias (found by
  // differential fuzzing: test/fuzz/regressions/alias-sharding.mlir).
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto alias = func.getArgAttrOfType<IntegerAttr>(i, kAliasesAttrName);
    if (!alias || alias.getInt() < 0 ||
        alias.getInt() >= static_cast<int64_t>(resultTypes.size()) ||
        argTypes[i] == resultTypes[alias.getInt()])
      continue;
    func.emitWarning() << "argument " << i << " cannot alias result "
                       << alias.getInt() << " after partitioning: their local "
                       << "types " << argTypes[i] << " and "
                       << resultTypes[alias.getInt()]
                       << " differ; the argument stays donated";
    func.removeArgAttr(i, kAliasesAttrName);
    func.setArgAttr(i, kDonateAttrName, UnitAttr::get(func.getContext()));
  }

  // Swap in the new body and the local signature.
  func.getBody().push_back(newBody);
  body.dropAllDefinedValueUses();
  body.dropAllReferences();
  body.erase();
  func.setFunctionType(
      FunctionType::get(func.getContext(), argTypes, resultTypes));
  func->setAttr(kPartitionedAttrName, UnitAttr::get(func.getContext()));
  return success();
}

LogicalResult Partitioner::partitionRegionBody(Block &block) {
  auto outerReshards = reshardCache;
  for (Operation &op : block.without_terminator())
    if (failed(partitionOp(&op)))
      return failure();
  reshardCache = std::move(outerReshards);
  return success();
}

LogicalResult Partitioner::partitionOp(Operation *op) {
  TrafficListener::Scope charge(traffic, op);
  if (auto loop = dyn_cast<WhileOp>(op))
    return partitionWhile(loop, *this);
  if (auto select = dyn_cast<CaseOp>(op))
    return partitionCase(select, *this);
  if (auto manual = dyn_cast<ManualComputationOp>(op))
    return partitionManualComputation(manual, *this);
  if (op->getNumResults() == 0 ||
      !llvm::all_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>))
    return op->emitOpError("cannot be partitioned: the partitioner handles "
                           "ops with tensor results");
  Value result = op->getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  if (isa<CollectiveOpInterface, PartitionIdOp, AxisIndexOp>(op))
    return op->emitOpError()
           << "is already device-level SPMD code; --xla-partition expects a "
              "single-device program";
  if (auto mark = dyn_cast<MarkShardingOp>(op)) {
    ShardLayout layout = layoutOf(mark.getSharding(), type.getShape());
    placed[result] = {getAs(mark.getInput(), layout, op->getLoc()), layout};
    return success();
  }
  if (isa<ConstantOp, IotaOp>(op)) {
    // Sources are built whole; consumers slice what they need (no traffic).
    Operation *clone = builder.clone(*op);
    clone->removeAttr(kShardingAttrName);
    placed[result] = {clone->getResult(0),
                      ShardLayout::replicated(type.getShape())};
    return success();
  }
  if (auto rng = dyn_cast<RngOp>(op)) {
    if (rng.getOffsets())
      return op->emitOpError("is already partitioned (it has offsets)");
    ShardLayout layout =
        layoutOf(op->getAttr(kShardingAttrName), type.getShape());
    layout.partialAxes.clear();
    placed[result] = {buildLocalRng(local, rng, layout, mesh), layout};
    return success();
  }
  if (int64_t device = maximalResultDevice(op); device >= 0) {
    // Runs on `device` only, on its operands whole there.
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(getAs(operand,
                               ShardLayout::maximal(shapeOf(operand), device),
                               op->getLoc()));
    SmallVector<Value> results = buildMaximalOp(builder, op, operands, device);
    for (auto [global, localResult] : llvm::zip(op->getResults(), results))
      placed[global] = {localResult,
                        ShardLayout::maximal(shapeOf(global), device)};
    return success();
  }
  const OpShardingRule *rule = rules.lookup(op);
  if (!rule)
    return op->emitOpError("has no sharding rule; cannot partition it");
  if (auto reduce = dyn_cast<ReduceRegionOp>(op);
      reduce && !reduce.getRecognizedReduction())
    return partitionGeneralReduce(reduce, *rule);
  return partitionRuleOp(op, *rule);
}

int64_t Partitioner::maximalResultDevice(Operation *op) const {
  int64_t device = -1;
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    ShardLayout layout =
        layoutOf(getResultShardingAttr(op, i), shapeOf(result));
    if (!layout.isMaximal() || (device >= 0 && device != layout.maximalDevice))
      return -1;
    device = layout.maximalDevice;
  }
  return device;
}

Partitioner::RuleChoice
Partitioner::chooseAssignment(Operation *op, const OpShardingRule &rule) {
  SmallVector<ShardLayout> current;
  SmallVector<ArrayRef<int64_t>> operandShapes;
  for (Value operand : op->getOperands()) {
    current.push_back(placed.at(operand).layout);
    operandShapes.push_back(shapeOf(operand));
  }
  SmallVector<ArrayRef<int64_t>> resultShapes;
  SmallVector<ShardLayout> targets;
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    resultShapes.push_back(shapeOf(result));
    targets.push_back(
        layoutOf(getResultShardingAttr(op, i), resultShapes.back()));
  }
  // Candidate assignments: the result's layout decides first (what
  // propagation chose), or one operand's does; and operands split along a
  // reduction factor either keep that split (a pending sum to reduce
  // later) or are gathered (e.g. an FSDP weight whose all-gather is cheaper
  // than all-reducing the product). Keep the one whose reshards (operands
  // in, result out to its target) cost least; ties keep the earlier
  // candidate, so results-first with kept splits wins when nothing is
  // gained. Windowed ops and reverse may also gather their split windowed
  // (reversed) dimensions instead of exchanging halos (permuting mirror
  // blocks, passes/partition/Reverse.h); the permutes count in the cost.
  // halo=always or halo=never leaves one of the two.
  int64_t numOperands = op->getNumOperands();
  SmallVector<SmallVector<int64_t>> orders{{}};
  for (int64_t first = 0; first < numOperands; ++first) {
    SmallVector<int64_t> order{first, numOperands};
    for (int64_t o = 0; o < numOperands; ++o)
      if (o != first)
        order.push_back(o);
    orders.push_back(order);
  }
  struct Candidate {
    SmallVector<int64_t> order;
    bool splitReductions;
    bool shardPermutations;
  };
  bool exchanges = isWindowedOp(op) || isa<ReverseOp, ConcatenateOp>(op);
  SmallVector<bool, 2> permutationChoices{exchanges};
  // halo=never still lets windows that stay inside shards (a
  // select_and_scatter's) keep their split: windowedDims blocks the halos.
  if (exchanges && options.halo == HaloMode::never &&
      isa<ReverseOp, ConcatenateOp>(op))
    permutationChoices = {false};
  if (exchanges && options.halo == HaloMode::automatic)
    permutationChoices.push_back(false);
  SmallVector<Candidate> candidates;
  for (bool shardPermutations : permutationChoices) {
    for (bool splitReductions : {true, false}) {
      if (!splitReductions &&
          !llvm::is_contained(rule.factorKinds, FactorKind::reduction))
        break;
      for (const SmallVector<int64_t> &order : orders)
        candidates.push_back({order, splitReductions, shardPermutations});
    }
  }
  RuleChoice best;
  for (const auto &[order, splitReductions, shardPermutations] : candidates) {
    AssignmentOptions options;
    options.operandsSplitReductions = splitReductions;
    // Results first: their layouts are what propagation chose for them.
    options.resultsDecideTheirFactors = order.empty();
    options.partialPolicy = partialPolicyOf(op);
    options.shardPermutationFactors = shardPermutations;
    options.offerOrder = order;
    FactorAssignment candidate;
    SmallVector<std::pair<int64_t, Window>> candidateWindows;
    SmallVector<std::pair<int64_t, StringRef>> gathered;
    while (true) {
      candidate = assignFactors(rule, mesh, current, operandShapes, targets,
                                resultShapes, options);
      size_t blocked = options.blockedFactors.size();
      candidateWindows =
          windowedDims(op, rule, candidate, options.blockedFactors, gathered);
      blockUnevenGroups(op, rule, candidate, options.blockedFactors);
      if (options.blockedFactors.size() == blocked)
        break;
    }
    if (auto scatter = dyn_cast<ScatterOp>(op))
      makeScatterInputsPartial(scatter, candidate);
    double cost = 0;
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      cost += reshardCost(result, candidate.results[i], targets[i]);
    // A concatenate along a split dimension prices each operand's halo
    // exchange (and its reshard) against gathering it.
    std::optional<ConcatExchange> concat;
    if (auto concatOp = dyn_cast<ConcatenateOp>(op);
        concatOp && !candidate.results[0].dimAxes[concatOp.getDim()].empty())
      concat = planConcatExchange(
          concatOp, candidate, mesh, planner.getCosts(), this->options.halo,
          [&](unsigned i, const ShardLayout &layout) {
            return reshardCost(op->getOperand(i), current[i], layout);
          });
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (!concat)
        cost += reshardCost(operand, current[i], candidate.operands[i]);
    if (concat)
      cost += concat->cost;
    if (auto reverse = dyn_cast<ReverseOp>(op))
      cost += mirrorExchangeCost(reverse, candidate.operands[0], mesh,
                                 planner.getCosts());
    cost += haloCost(op, candidate, candidateWindows);
    if (cost < best.cost) {
      best.cost = cost;
      best.assignment = std::move(candidate);
      best.windows = std::move(candidateWindows);
      best.gatheredWindows = std::move(gathered);
      best.concat = std::move(concat);
    }
    // Costs are never negative and ties keep the earlier candidate, so no
    // later one can replace a free assignment (most ops need no reshard).
    if (best.cost == 0)
      break;
  }
  return best;
}

LogicalResult Partitioner::buildRuleOp(Operation *op,
                                       const OpShardingRule &rule,
                                       const RuleChoice &choice) {
  const FactorAssignment &assignment = choice.assignment;
  if (options.halo == HaloMode::always)
    for (auto [dim, why] : choice.gatheredWindows)
      op->emitRemark() << "halo=always: dimension " << dim
                       << " is gathered: " << why;
  if (auto concat = dyn_cast<ConcatenateOp>(op); concat && choice.concat) {
    int64_t dim = concat.getDim();
    SmallVector<Value> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      const ConcatExchange::Source &source = choice.concat->sources[i];
      if (options.halo == HaloMode::always && source.haloDoesNotFit)
        op->emitRemark() << "halo=always: operand " << i
                         << " is gathered: a device needs rows beyond its "
                            "neighbours' blocks";
      operands.push_back(getAs(operand,
                               source.gather
                                   ? gatheredAlong(assignment.operands[i], dim,
                                                   shapeOf(operand)[dim])
                                   : assignment.operands[i],
                               op->getLoc()));
    }
    placed[op->getResult(0)] = {buildLocalConcat(local, concat, operands,
                                                 assignment, *choice.concat,
                                                 mesh),
                                assignment.results[0]};
    return success();
  }
  SmallVector<ArrayRef<int64_t>> operandShapes;
  for (Value operand : op->getOperands())
    operandShapes.push_back(shapeOf(operand));
  SmallVector<Value> operands;
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    operands.push_back(getAs(operand, assignment.operands[i], op->getLoc()));

  // Reductions must not see padding: fill it with the reduction's identity
  // along every dimension holding a sharded reduction factor.
  for (auto [i, operand] : llvm::enumerate(operands)) {
    SmallVector<int64_t> dims;
    for (auto [d, factors] : llvm::enumerate(rule.operands[i]))
      for (int64_t f : factors)
        if (rule.factorKinds[f] == FactorKind::reduction &&
            !assignment.factorAxes[f].empty())
          dims.push_back(d);
    // A gather never reads the padding rows it does not own (it clamps
    // first).
    if (dims.empty() || isa<GatherOp, HloGatherOp>(op))
      continue;
    Type elem = cast<RankedTensorType>(operand.getType()).getElementType();
    operand = local.maskPadding(
        op->getLoc(), operand, assignment.operands[i], operandShapes[i], dims,
        reductionIdentity(builder, rule.reductionKind, elem));
  }

  SmallVector<int64_t> windowDims;
  for (auto [dim, window] : choice.windows) {
    for (unsigned i : windowedOperands(op))
      operands[i] = buildWindow(
          local, op->getLoc(), operands[i], assignment.operands[i], mesh, dim,
          operandShapes[i][dim], window, windowFill(builder, op, i));
    windowDims.push_back(dim);
  }

  if (auto scatter = dyn_cast<ScatterOp>(op)) {
    Operation *localOp =
        buildLocalScatter(local, scatter, operands, assignment, mesh);
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      placed[result] = {localOp->getResult(i), assignment.results[i]};
    return success();
  }
  if (op->getNumResults() > 1) {
    Operation *localOp = buildLocalRuleOp(local, op, operands, assignment, rule,
                                          windowDims, mesh);
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      placed[result] = {localOp->getResult(i), assignment.results[i]};
    return success();
  }
  Value result = op->getResult(0);
  Value localResult;
  if (auto dus = dyn_cast<DynamicUpdateSliceOp>(op))
    localResult = buildLocalDynamicUpdateSlice(
        local, dus, operands[0], operands[1],
        ValueRange(operands).drop_front(2), assignment.operands[0],
        assignment.operands[1], mesh);
  else if (auto gather = dyn_cast<GatherOp>(op))
    localResult = buildLocalEmbeddingGather(local, gather, operands[0],
                                            operands[1], assignment, mesh);
  else if (auto reverse = dyn_cast<ReverseOp>(op))
    localResult = buildLocalReverse(local, reverse, operands[0],
                                    assignment.operands[0], mesh);
  else if (auto gather = dyn_cast<HloGatherOp>(op))
    localResult = buildLocalHloGather(local, gather, operands[0], operands[1],
                                      assignment.operands[0],
                                      assignment.results[0], mesh);
  else
    localResult = buildLocalRuleOp(local, op, operands, assignment, rule,
                                   windowDims, mesh)
                      ->getResult(0);
  placed[result] = {localResult, assignment.results.front()};
  return success();
}

LogicalResult Partitioner::partitionGeneralReduce(ReduceRegionOp op,
                                                  const OpShardingRule &rule) {
  RuleChoice gathered = chooseAssignment(op, rule);
  RuleChoice split = chooseAssignment(op, splitReducedDims(op, rule));
  const FactorAssignment &assignment = split.assignment;
  if (assignment.results.front().partialAxes.empty())
    return buildRuleOp(op, rule, gathered);
  // The two-stage plan's cost: its operands' reshards, the gather of the
  // partial results, and the combined results' reshards to their targets.
  double cost = partialGatherCost(op, assignment.results, planner);
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    cost +=
        reshardCost(operand, placed.at(operand).layout, assignment.operands[i]);
  SmallVector<ShardLayout> combined;
  for (auto [i, result] : llvm::enumerate(op->getResults())) {
    ShardLayout layout = assignment.results[i];
    layout.partialAxes.clear();
    cost +=
        reshardCost(result, layout,
                    layoutOf(getResultShardingAttr(op, i), shapeOf(result)));
    combined.push_back(std::move(layout));
  }
  if (cost >= gathered.cost)
    return buildRuleOp(op, rule, gathered);
  SmallVector<Value> operands;
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    operands.push_back(getAs(operand, assignment.operands[i], op.getLoc()));
  SmallVector<Value> results =
      buildTwoStageReduce(local, op, operands, assignment, mesh, meshName);
  for (auto [i, result] : llvm::enumerate(op->getResults()))
    placed[result] = {results[i], combined[i]};
  return success();
}

LogicalResult Partitioner::partitionFlatRelayout(ReshapeOp op,
                                                 double ruleCost) {
  if (options.halo == HaloMode::never)
    return failure();
  const Placed &input = placed.at(op.getOperand());
  ShardLayout target =
      layoutOf(getResultShardingAttr(op, 0), op.getType().getShape());
  std::optional<FlatRelayout> plan =
      planFlatRelayout(op, input.layout, target, mesh, planner.getCosts());
  if (!plan || (options.halo == HaloMode::automatic && plan->cost >= ruleCost))
    return failure();
  placed[op.getResult()] = {
      buildFlatRelayout(local, op, input.local, *plan, target, mesh), target};
  return success();
}

LogicalResult Partitioner::partitionMaskedDynamicSlice(DynamicSliceOp op,
                                                       double ruleCost) {
  const Placed &input = placed.at(op.getInput());
  std::optional<ShardLayout> layout = maskedSliceLayout(op, input.layout, mesh);
  if (!layout)
    return failure();
  ShardLayout target =
      layoutOf(getResultShardingAttr(op, 0), op.getType().getShape());
  if (reshardCost(op.getResult(), *layout, target) >= ruleCost)
    return failure();
  SmallVector<Value> offsets;
  for (Value offset : op.getOffsets())
    offsets.push_back(getAs(offset, ShardLayout::replicated({}), op.getLoc()));
  placed[op.getResult()] = {buildMaskedDynamicSlice(local, op, input.local,
                                                    offsets, input.layout,
                                                    mesh),
                            *layout};
  return success();
}

void Partitioner::blockUnevenGroups(Operation *op, const OpShardingRule &rule,
                                    const FactorAssignment &assignment,
                                    SmallVectorImpl<int64_t> &blocked) {
  // A grouped convolution keeps whole groups on a device: its group factor
  // (the major factor of the output features) may only be split into a
  // number of shards that divides the group count (found by differential
  // fuzzing: test/fuzz/regressions/conv-groups.mlir).
  auto conv = dyn_cast<ConvolutionOp>(op);
  // With one group there is no group factor (size-1 factors are dropped).
  if (!conv || conv.getFeatureGroups() == 1)
    return;
  int64_t groupFactor = rule.results.front().back().front();
  int64_t shards = 1;
  for (int a : assignment.factorAxes[groupFactor])
    shards *= mesh.axisSizes[a];
  if (shards > 1 && conv.getFeatureGroups() % shards != 0 &&
      !llvm::is_contained(blocked, groupFactor))
    blocked.push_back(groupFactor);
}

SmallVector<std::pair<int64_t, Window>> Partitioner::windowedDims(
    Operation *op, const OpShardingRule &rule,
    const FactorAssignment &assignment, SmallVectorImpl<int64_t> &blocked,
    SmallVectorImpl<std::pair<int64_t, StringRef>> &gathered) {
  SmallVector<std::pair<int64_t, Window>> windows;
  if (!isWindowedOp(op))
    return windows;
  for (auto [d, factors] : llvm::enumerate(rule.operands[0])) {
    if (factors.size() != 1 ||
        rule.factorKinds[factors[0]] != FactorKind::permutation ||
        assignment.factorAxes[factors[0]].empty())
      continue;
    SplitWindow split = planSplitWindow(op, d, assignment, mesh);
    if (split.kind == SplitWindow::halo && options.halo == HaloMode::never)
      split = {SplitWindow::gather, {}, "halo=never"};
    if (split.kind == SplitWindow::gather) {
      blocked.push_back(factors[0]);
      gathered.push_back({static_cast<int64_t>(d), split.reason});
    } else if (split.kind == SplitWindow::halo) {
      windows.push_back({static_cast<int64_t>(d), split.window});
    }
  }
  return windows;
}

double Partitioner::haloCost(Operation *op, const FactorAssignment &assignment,
                             ArrayRef<std::pair<int64_t, Window>> windows) {
  double cost = 0;
  for (auto [dim, window] : windows)
    for (unsigned i : windowedOperands(op)) {
      const ShardLayout &layout = assignment.operands[i];
      auto type = cast<RankedTensorType>(op->getOperand(i).getType());
      double bytes = static_cast<double>(layout.localElements(mesh)) *
                     ((type.getElementTypeBitWidth() + 7) / 8);
      cost += haloExchangeCost(
          window, layout.numShards(mesh, dim), layout.localShape(mesh)[dim],
          bytes, planner.getCosts().byteCost(mesh.linkOf(layout.dimAxes[dim])),
          planner.getCosts());
    }
  return cost;
}

} // namespace

LogicalResult partitionFunction(func::FuncOp func, MeshOp mesh,
                                ReshardPlanner &planner,
                                const PartitionOptions &options,
                                PartitionStats &stats) {
  return Partitioner(func, mesh, planner, options, stats).run();
}

} // namespace xspmd::partition
