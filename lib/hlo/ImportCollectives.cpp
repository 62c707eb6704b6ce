//===- ImportCollectives.cpp - HLO's collectives and custom-calls ---------===//
//
// all-reduce, all-gather, reduce-scatter, all-to-all and collective-permute
// → the dialect's collectives with explicit groups (HLO's replica groups
// are read as device ids; see docs/hlo.md); partition-id and replica-id;
// the custom-calls torch_xla and JAX emit for shardings: Sharding →
// xla.mark_sharding, SPMDFullToShardShape / SPMDShardToFullShape →
// xla.full_to_shard / xla.shard_to_full.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloImportContext.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

/// Checks that the ids a collective's groups name are this run's devices.
/// HLO reads them by mode: without channel_id as replica ids (cross-replica),
/// with it as partition ids, and with use_global_device_ids=true as global
/// ids. A module has replicas or partitions, not both (HloImporter.cpp), so
/// device ids are whichever it has; a mode naming the other kind of id
/// groups each device with itself, which no program means.
LogicalResult checkGroupMode(ComputationImporter &ci, const Instruction &inst) {
  const HloAttr *channel = inst.findAttribute("channel_id");
  const HloAttr *global = inst.findAttribute("use_global_device_ids");
  bool globalIds = global && global->value == "true";
  if (globalIds && !channel)
    return ci.attrError(*global, "use_global_device_ids=true needs a "
                                 "channel_id (HLO's flattened-id mode)");
  if (globalIds)
    return success();
  int64_t replicas = ci.getModule().getReplicaCount();
  int64_t partitions = ci.getModule().getNumPartitions();
  if (!channel && partitions > 1)
    return ci.unsupported(inst, "without channel_id its groups are replica "
                                "ids, and the module has " +
                                    std::to_string(partitions) +
                                    " partitions of one replica each");
  if (channel && replicas > 1)
    return ci.unsupported(inst, "with channel_id (and no "
                                "use_global_device_ids) its groups are "
                                "partition ids, and the module has " +
                                    std::to_string(replicas) +
                                    " replicas of one partition each");
  return success();
}

/// The `groups` attribute for `replica_groups=` (none when absent or empty).
LogicalResult getGroups(ComputationImporter &ci, const Instruction &inst,
                        SmallVectorImpl<NamedAttribute> &attrs,
                        int64_t &groupSize) {
  groupSize = ci.getModule().getMeshes().getNumDevices();
  if (failed(checkGroupMode(ci, inst)))
    return failure();
  const HloAttr *attr = inst.findAttribute("replica_groups");
  if (!attr)
    return success();
  std::vector<SmallVector<int64_t>> groups;
  std::string error;
  if (!readReplicaGroups(attr->value, groups, error))
    return ci.attrError(*attr, error);
  if (groups.empty())
    return success();
  groupSize = groups.front().size();
  SmallVector<int64_t> flat;
  for (const SmallVector<int64_t> &g : groups)
    llvm::append_range(flat, g);
  auto type = RankedTensorType::get({(int64_t)groups.size(), groupSize},
                                    IntegerType::get(ci.getContext(), 64));
  attrs.push_back(ci.named("groups", DenseIntElementsAttr::get(type, flat)));
  return success();
}

FailureOr<xla::ReductionKind> getReductionKind(ComputationImporter &ci,
                                               const Instruction &inst) {
  const Computation *body = ci.getModule().lookupComputation(inst, "to_apply");
  if (!body)
    return failure();
  const Instruction &root = body->getRoot();
  if ((root.opcode == "maximum" || root.opcode == "minimum") &&
      !root.shape.isTuple && root.shape.elementType.front() == 'u')
    return ci.unsupported(inst, "an unsigned " + root.opcode +
                                    " reduction (the dialect's collectives "
                                    "order integers as signed)");
  std::string op = ComputationImporter::getBinaryReducer(*body);
  if (op == "add")
    return xla::ReductionKind::sum;
  if (op == "multiply")
    return xla::ReductionKind::mul;
  if (op == "maximum")
    return xla::ReductionKind::max;
  if (op == "minimum")
    return xla::ReductionKind::min;
  if (op == "and")
    return xla::ReductionKind::and_;
  if (op == "or")
    return xla::ReductionKind::or_;
  return ci.unsupported(inst, "reduction computation '" + body->name +
                                  "' is not one of add, multiply, maximum, "
                                  "minimum, and, or of its parameters");
}

LogicalResult importAllReduce(ComputationImporter &ci,
                              const Instruction &inst) {
  FailureOr<xla::ReductionKind> kind = getReductionKind(ci, inst);
  SmallVector<NamedAttribute> attrs;
  int64_t groupSize;
  SmallVector<Value> operands;
  SmallVector<Type> types;
  if (failed(kind) || failed(getGroups(ci, inst, attrs, groupSize)) ||
      failed(ci.getOperands(inst, operands)) ||
      failed(ci.getModule().getLeafTypes(inst.shape, inst.loc, types)))
    return failure();
  if (types.size() != operands.size())
    return ci.emitError(inst) << "all-reduce: " << operands.size()
                              << " operands but " << types.size() << " results";
  attrs.push_back(
      ci.named("kind", xla::ReductionKindAttr::get(ci.getContext(), *kind)));
  // A tuple all-reduce is one all-reduce per array.
  SmallVector<Value> results;
  for (auto [v, t] : llvm::zip(operands, types))
    results.push_back(
        ci.create<xla::AllReduceOp>(inst, t, v, attrs).getResult());
  ci.setResult(inst, results);
  return success();
}

LogicalResult importAllGather(ComputationImporter &ci,
                              const Instruction &inst) {
  SmallVector<NamedAttribute> attrs;
  int64_t groupSize;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, "dimensions", /*required=*/true);
  if (failed(type) || failed(dims) || failed(ci.expectOperands(inst, 1)) ||
      failed(getGroups(ci, inst, attrs, groupSize)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  if (failed(input))
    return failure();
  if (dims->size() != 1)
    return ci.attrError(*inst.findAttribute("dimensions"),
                        "expected one dimension");
  attrs.push_back(
      ci.named("dim", ci.getBuilder().getI64IntegerAttr(dims->front())));
  ci.setResult(
      inst,
      ci.create<xla::AllGatherOp>(inst, *type, *input, attrs).getResult());
  return success();
}

LogicalResult importReduceScatter(ComputationImporter &ci,
                                  const Instruction &inst) {
  SmallVector<NamedAttribute> attrs;
  int64_t groupSize;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  FailureOr<xla::ReductionKind> kind = getReductionKind(ci, inst);
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, "dimensions", /*required=*/true);
  if (failed(type) || failed(kind) || failed(dims) ||
      failed(ci.expectOperands(inst, 1)) ||
      failed(getGroups(ci, inst, attrs, groupSize)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  if (failed(input))
    return failure();
  if (dims->size() != 1)
    return ci.attrError(*inst.findAttribute("dimensions"),
                        "expected one dimension");
  attrs.push_back(
      ci.named("kind", xla::ReductionKindAttr::get(ci.getContext(), *kind)));
  attrs.push_back(
      ci.named("dim", ci.getBuilder().getI64IntegerAttr(dims->front())));
  ci.setResult(
      inst,
      ci.create<xla::ReduceScatterOp>(inst, *type, *input, attrs).getResult());
  return success();
}

LogicalResult importAllToAll(ComputationImporter &ci, const Instruction &inst) {
  if (inst.operands.size() != 1 || !inst.findAttribute("dimensions"))
    return ci.unsupported(inst, "the tuple form of all-to-all (several "
                                "operands, no dimensions=)");
  SmallVector<NamedAttribute> attrs;
  int64_t groupSize;
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(type) || failed(getGroups(ci, inst, attrs, groupSize)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  FailureOr<SmallVector<int64_t>> dims =
      ci.getIntList(inst, "dimensions", /*required=*/true);
  if (failed(input) || failed(dims))
    return failure();
  if (dims->size() != 1)
    return ci.attrError(*inst.findAttribute("dimensions"),
                        "expected one dimension");
  OpBuilder &b = ci.getBuilder();
  attrs.push_back(ci.named("split_dim", b.getI64IntegerAttr(dims->front())));
  attrs.push_back(ci.named("concat_dim", b.getI64IntegerAttr(dims->front())));
  attrs.push_back(ci.named("split_count", b.getI64IntegerAttr(groupSize)));
  ci.setResult(
      inst, ci.create<xla::AllToAllOp>(inst, *type, *input, attrs).getResult());
  return success();
}

LogicalResult importCollectivePermute(ComputationImporter &ci,
                                      const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  const HloAttr *pairsAttr =
      ci.getAttr(inst, "source_target_pairs", /*required=*/true);
  if (failed(type) || !pairsAttr || failed(ci.expectOperands(inst, 1)) ||
      failed(checkGroupMode(ci, inst)))
    return failure();
  FailureOr<Value> input = ci.getOperand(inst, 0);
  if (failed(input))
    return failure();
  std::vector<std::pair<int64_t, int64_t>> pairs;
  std::string error;
  if (!readPairs(pairsAttr->value, pairs, error))
    return ci.attrError(*pairsAttr, error);
  SmallVector<int64_t> flat;
  for (auto [s, t] : pairs)
    flat.append({s, t});
  auto pairsType = RankedTensorType::get({(int64_t)pairs.size(), 2},
                                         IntegerType::get(ci.getContext(), 64));
  ci.setResult(
      inst,
      ci.create<xla::CollectivePermuteOp>(
            inst, *type, *input,
            {ci.named("pairs", DenseIntElementsAttr::get(pairsType, flat))})
          .getResult());
  return success();
}

LogicalResult importPartitionId(ComputationImporter &ci,
                                const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(type))
    return failure();
  ci.setResult(inst,
               ci.create<xla::PartitionIdOp>(inst, *type, {}).getResult());
  return success();
}

/// replica-id: the device id when the devices are replicas (no
/// partitions), else 0 (one replica).
LogicalResult importReplicaId(ComputationImporter &ci,
                              const Instruction &inst) {
  FailureOr<RankedTensorType> type = ci.getResultType(inst);
  if (failed(type))
    return failure();
  if (ci.getModule().getNumPartitions() == 1) {
    ci.setResult(inst,
                 ci.create<xla::PartitionIdOp>(inst, *type, {}).getResult());
    return success();
  }
  auto zero = DenseElementsAttr::get(
      *type, ci.getBuilder().getIntegerAttr(type->getElementType(), 0));
  ci.setResult(inst, ci.create<xla::ConstantOp>(inst, *type, {},
                                                {ci.named("value", zero)})
                         .getResult());
  return success();
}

LogicalResult importCustomCall(ComputationImporter &ci,
                               const Instruction &inst) {
  const HloAttr *target =
      ci.getAttr(inst, "custom_call_target", /*required=*/true);
  if (!target)
    return failure();
  std::string name = readString(target->value);
  auto shardingOf = [&](const Instruction &of,
                        int64_t rank) -> FailureOr<xla::ShardingAttr> {
    const HloAttr *attr = of.findAttribute("sharding");
    if (!attr)
      return ci.emitError(of.opcodeLoc)
             << "custom-call '" << name << "' needs a sharding on '%" << of.name
             << "'";
    return ci.getModule().getMeshes().import(attr->value, rank,
                                             ci.getModule().getLoc(attr->loc));
  };
  if (name == "Sharding") {
    if (failed(ci.expectOperands(inst, 1)))
      return failure();
    FailureOr<Value> input = ci.getOperand(inst, 0);
    const HloAttr *attr = ci.getAttr(inst, "sharding", /*required=*/true);
    if (failed(input) || !attr)
      return failure();
    // Inside a manual region the value is per-device: nothing to mark.
    if (StringRef(attr->value).trim() == "{manual}") {
      ci.setResult(inst, *input);
      return success();
    }
    auto type = cast<RankedTensorType>(input->getType());
    FailureOr<xla::ShardingAttr> sharding = shardingOf(inst, type.getRank());
    if (failed(sharding))
      return failure();
    ci.setResult(
        inst, ci.create<xla::MarkShardingOp>(inst, type, *input,
                                             {ci.named("sharding", *sharding)})
                  .getResult());
    return success();
  }
  if (name == "SPMDFullToShardShape" || name == "SPMDShardToFullShape") {
    FailureOr<RankedTensorType> type = ci.getResultType(inst);
    if (failed(type) || failed(ci.expectOperands(inst, 1)))
      return failure();
    FailureOr<Value> input = ci.getOperand(inst, 0);
    if (failed(input))
      return failure();
    bool toShard = name == "SPMDFullToShardShape";
    // The global layout: the operand's (its Sharding custom-call) going in,
    // the instruction's own coming out.
    const Instruction *holder = &inst;
    if (toShard) {
      holder = ci.getOperandInstruction(inst, 0);
      if (!holder)
        return ci.emitError(inst) << name << ": the operand has no sharding";
    }
    auto globalType =
        toShard ? cast<RankedTensorType>(input->getType()) : *type;
    FailureOr<xla::ShardingAttr> sharding =
        shardingOf(*holder, globalType.getRank());
    if (failed(sharding))
      return failure();
    NamedAttribute attr = ci.named("sharding", *sharding);
    Value result =
        toShard ? ci.create<xla::FullToShardOp>(inst, *type, *input, {attr})
                      .getResult()
                : ci.create<xla::ShardToFullOp>(inst, *type, *input, {attr})
                      .getResult();
    ci.setResult(inst, result);
    return success();
  }
  return ci.emitError(target->loc)
         << "custom-call target '" << name << "' (%" << inst.name
         << ") is not supported (supported: Sharding, SPMDFullToShardShape, "
            "SPMDShardToFullShape)";
}

} // namespace

void xspmd::hlo::addCollectiveImporters(OpImporterTable &table) {
  table["all-reduce"] = importAllReduce;
  table["all-gather"] = importAllGather;
  table["reduce-scatter"] = importReduceScatter;
  table["all-to-all"] = importAllToAll;
  table["collective-permute"] = importCollectivePermute;
  table["partition-id"] = importPartitionId;
  table["replica-id"] = importReplicaId;
  table["custom-call"] = importCustomCall;
}
