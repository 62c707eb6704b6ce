//===- CostModel.cpp - the time of every instruction of a program ---------===//

#include "runtime/timeline/CostModel.h"

#include <fmt/format.h>

#include <cstring>

namespace xspmd::timeline {

cost::CollectiveKind toCostKind(runtime::CollectiveKind kind) {
  switch (kind) {
  case runtime::CollectiveKind::allReduce:
    return cost::CollectiveKind::AllReduce;
  case runtime::CollectiveKind::allGather:
    return cost::CollectiveKind::AllGather;
  case runtime::CollectiveKind::reduceScatter:
    return cost::CollectiveKind::ReduceScatter;
  case runtime::CollectiveKind::allToAll:
    return cost::CollectiveKind::AllToAll;
  case runtime::CollectiveKind::collectivePermute:
    return cost::CollectiveKind::CollectivePermute;
  }
  llvm_unreachable("unknown collective kind");
}

double inputBytes(const runtime::CollectiveCall &call) {
  double bytes = static_cast<double>(runtime::byteWidth(call.elementType));
  for (int64_t d : call.inputShape)
    bytes *= static_cast<double>(d);
  return bytes;
}

CostModel::CostModel(const topology::Topology &topology,
                     CostModelOptions options)
    : topology(topology), options(options),
      collectiveModel(topology, options.collectives) {}

llvm::Expected<int32_t>
CostModel::estimate(const runtime::CollectiveCall &call) {
  double bytes = inputBytes(call);
  // The key: everything the estimate depends on.
  std::vector<int64_t> key;
  int64_t bits;
  static_assert(sizeof(bits) == sizeof(bytes));
  std::memcpy(&bits, &bytes, sizeof(bits));
  key.push_back(static_cast<int64_t>(call.kind));
  key.push_back(bits);
  key.push_back(static_cast<int64_t>(call.groups.size()));
  for (const auto &group : call.groups) {
    key.push_back(static_cast<int64_t>(group.size()));
    key.insert(key.end(), group.begin(), group.end());
  }
  for (auto [s, t] : call.pairs) {
    key.push_back(s);
    key.push_back(t);
  }
  auto [it, inserted] = cache.try_emplace(std::move(key), -1);
  if (!inserted) {
    ++cacheHits;
    return it->second;
  }

  cost::CollectiveOp op;
  op.kind = toCostKind(call.kind);
  op.bytesPerDevice = bytes;
  if (call.kind == runtime::CollectiveKind::collectivePermute) {
    // Pairs are positions within each group: every group sends the same
    // pattern, all at once.
    for (const auto &group : call.groups)
      for (auto [s, t] : call.pairs)
        op.pairs.push_back({group[s], group[t]});
  } else {
    for (const auto &group : call.groups)
      op.groups.emplace_back(group.begin(), group.end());
  }
  llvm::Expected<cost::CollectiveEstimate> estimate =
      collectiveModel.estimate(op);
  if (!estimate) {
    cache.erase(it);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        fmt::format("cannot cost {} on {}: {}", call.describe(),
                    topology.describe(), llvm::toString(estimate.takeError())));
  }
  CollectiveRecord record;
  record.kind = call.kind;
  record.bytesPerDevice = bytes;
  record.numGroups = static_cast<int64_t>(call.groups.size());
  record.groupSize =
      call.groups.empty() ? 0 : static_cast<int64_t>(call.groups[0].size());
  record.estimate = std::move(*estimate);
  if (!record.estimate.groupSeconds.empty()) {
    // The cost model's groups are the call's groups, or for a permute every
    // group's pairs in order; a device takes its own group's (pairs') time.
    record.deviceSeconds.assign(topology.getNumDevices(), 0);
    record.deviceGroup.assign(topology.getNumDevices(), -1);
    const std::vector<double> &groupSeconds = record.estimate.groupSeconds;
    size_t index = 0;
    for (const auto &group : call.groups) {
      if (call.kind != runtime::CollectiveKind::collectivePermute) {
        for (int64_t device : group) {
          record.deviceSeconds[device] = groupSeconds[index];
          record.deviceGroup[device] = static_cast<int32_t>(index);
        }
        ++index;
        continue;
      }
      for (auto [s, t] : call.pairs) {
        for (int64_t device : {group[s], group[t]})
          record.deviceSeconds[device] =
              std::max(record.deviceSeconds[device], groupSeconds[index]);
        ++index;
      }
    }
  }
  it->second = static_cast<int32_t>(collectives.size());
  collectives.push_back(std::move(record));
  return it->second;
}

llvm::Expected<const ProgramCosts *>
CostModel::addProgram(const runtime::Program &program) {
  auto found = programs.find(&program);
  if (found != programs.end())
    return found->second.get();
  auto costs = std::make_unique<ProgramCosts>();
  size_t n = program.instructions.size();
  costs->seconds.assign(n, 0);
  costs->collective.assign(n, -1);
  costs->compute.resize(n);
  const topology::GenerationSpec &spec = topology.getSpec();
  for (size_t i = 0; i < n; ++i) {
    const runtime::Instruction &inst = program.instructions[i];
    switch (inst.kind) {
    case runtime::InstructionKind::View:
    case runtime::InstructionKind::Loop:
    case runtime::InstructionKind::Case:
      break;
    case runtime::InstructionKind::Compute: {
      cost::OpWork work = inst.work;
      work.bytes = hbmBytes(inst);
      costs->compute[i] = cost::estimateCompute(spec, work, options.compute);
      costs->seconds[i] = costs->compute[i].seconds;
      break;
    }
    case runtime::InstructionKind::Collective: {
      llvm::Expected<int32_t> index = estimate(*inst.collective);
      if (!index)
        return index.takeError();
      costs->collective[i] = *index;
      costs->seconds[i] = collectives[*index].estimate.seconds;
      break;
    }
    }
  }
  costs->slots = planClockSlots(program);
  const ProgramCosts *result = costs.get();
  programs[&program] = std::move(costs);
  return result;
}

const ProgramCosts &CostModel::costsOf(const runtime::Program &program) const {
  auto found = programs.find(&program);
  assert(found != programs.end() && "program was not added");
  return *found->second;
}

} // namespace xspmd::timeline
