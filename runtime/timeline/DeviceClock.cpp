//===- DeviceClock.cpp - one device's simulated timeline ------------------===//

#include "runtime/timeline/DeviceClock.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace xspmd::timeline {

namespace {
/// HLO's names of the collective kinds, as XLA's async flags spell them.
constexpr std::pair<llvm::StringLiteral, runtime::CollectiveKind>
    kCollectiveNames[] = {
        {"all-gather", runtime::CollectiveKind::allGather},
        {"all-reduce", runtime::CollectiveKind::allReduce},
        {"reduce-scatter", runtime::CollectiveKind::reduceScatter},
        {"all-to-all", runtime::CollectiveKind::allToAll},
        {"collective-permute", runtime::CollectiveKind::collectivePermute},
};
} // namespace

llvm::Expected<SyncCollectives> SyncCollectives::parse(llvm::StringRef spec) {
  if (spec.trim() == "all")
    return all();
  SyncCollectives kinds;
  llvm::SmallVector<llvm::StringRef> names;
  spec.split(names, ',');
  for (llvm::StringRef name : names) {
    name = name.trim();
    const auto *it = llvm::find_if(kCollectiveNames, [&](const auto &entry) {
      return entry.first == name;
    });
    if (it == std::end(kCollectiveNames))
      return llvm::createStringError(
          "'" + name.str() +
          "' is not a collective kind: expected all or a comma-separated "
          "list of all-gather, all-reduce, reduce-scatter, all-to-all, "
          "collective-permute");
    kinds.add(it->second);
  }
  return kinds;
}

std::string SyncCollectives::describe() const {
  if (isNone())
    return "none";
  llvm::SmallVector<llvm::StringRef> names;
  for (const auto &[name, kind] : kCollectiveNames)
    if (contains(kind))
      names.push_back(name);
  if (names.size() == std::size(kCollectiveNames))
    return "all";
  return llvm::join(names, ", ");
}

bool Event::operator==(const Event &other) const {
  return kind == other.kind && instruction == other.instruction &&
         step == other.step && scope == other.scope && begin == other.begin &&
         groupStart == other.groupStart && end == other.end;
}

DeviceClock::DeviceClock(int64_t device, const CostModel &model,
                         ClockOptions options)
    : device(device), model(model), options(options) {}

DeviceClock::DeviceClock(const DeviceClock &other, int64_t device)
    : DeviceClock(other) {
  this->device = device;
}

/// Bitwise: the same bits give the same arithmetic later.
static bool same(double a, double b) {
  return std::memcmp(&a, &b, sizeof(double)) == 0;
}

static bool sameStats(const DeviceStats &a, const DeviceStats &b) {
  return same(a.compute, b.compute) && same(a.communication, b.communication) &&
         same(a.busy, b.busy) && same(a.groupWait, b.groupWait) &&
         same(a.stall, b.stall) && same(a.span, b.span) &&
         a.computeOps == b.computeOps && a.collectives == b.collectives;
}

bool DeviceClock::sameTimeline(const DeviceClock &other) const {
  if (options.recordEvents || other.options.recordEvents ||
      !(options.sync == other.options.sync) || &model != &other.model ||
      program != other.program || step != other.step ||
      programSteps != other.programSteps || runs != other.runs ||
      !same(stepBegin, other.stepBegin) ||
      !same(computeFree, other.computeFree) ||
      !same(queueFree, other.queueFree) || !sameStats(stats, other.stats) ||
      steps.size() != other.steps.size())
    return false;
  for (size_t k = 0; k < steps.size(); ++k)
    if (!same(steps[k].begin, other.steps[k].begin) ||
        !same(steps[k].end, other.steps[k].end))
      return false;
  return true;
}

void DeviceClock::followTimeline(const DeviceClock &other) {
  program = other.program;
  costs = other.costs;
  slotOf = other.slotOf;
  step = other.step;
  stepBegin = other.stepBegin;
  computeFree = other.computeFree;
  queueFree = other.queueFree;
  steps = other.steps;
  programSteps = other.programSteps;
  runs = other.runs;
  stats = other.stats;
}

void DeviceClock::record(EventKind kind, int32_t instruction, int32_t scope,
                         double begin, double groupStart, double end) {
  if (options.recordEvents)
    events.push_back(
        Event{kind, instruction, step, scope, begin, groupStart, end});
}

void DeviceClock::beginProgram(const runtime::Program &p) {
  ++step;
  if (program != &p) {
    programSteps = 0;
    runs.clear();
  }
  program = &p;
  costs = &model.costsOf(p);
  const ClockSlots &plan = costs->slots;
  slotOf = plan.of.data();
  // Only a program with loops or cases runs an instruction other than once
  // per step.
  ++programSteps;
  if (plan.hasRegions && runs.empty())
    runs.assign(p.instructions.size(), 0);
  stepBegin = std::max(computeFree, queueFree);
  computeFree = queueFree = stepBegin;
  // Arguments and constants are in HBM when the step starts.
  ready.assign(plan.count, stepBegin);
  pendingDone.assign(plan.count, -1);
  isOpen.assign(p.instructions.size(), false);
  openCollectives.clear();
  openKept = 0;
}

std::vector<int64_t> DeviceClock::getRuns() const {
  if (!program)
    return {};
  if (costs->slots.hasRegions)
    return runs;
  return std::vector<int64_t>(program->instructions.size(), programSteps);
}

void DeviceClock::done(int32_t index, int32_t scope) {
  const runtime::Instruction &inst = program->instructions[index];
  double begin = computeFree;
  double end = std::max(begin, ready[slotOf[inst.results[0]]]);
  computeFree = end;
  stats.stall += end - begin;
  isOpen[index] = false;
  record(EventKind::Done, index, scope, begin, begin, end);
}

void DeviceClock::onInstruction(int32_t index) {
  const runtime::Instruction &inst = program->instructions[index];
  if (!runs.empty())
    ++runs[index];
  // A loop or case takes no time itself; the instructions of its regions are
  // reported as they run (a loop's at each iteration).
  if (inst.kind == runtime::InstructionKind::Loop ||
      inst.kind == runtime::InstructionKind::Case)
    return;
  if (inst.kind == runtime::InstructionKind::View) {
    // Same buffer: ready (and awaited) with its operand.
    int32_t operand = slotOf[inst.operands[0]];
    for (int32_t r : inst.results) {
      ready[slotOf[r]] = ready[operand];
      pendingDone[slotOf[r]] = pendingDone[operand];
    }
    return;
  }
  assert(inst.kind == runtime::InstructionKind::Compute &&
         "collectives go through issueCollective");
  for (int32_t s : inst.operands) {
    int32_t awaited = pendingDone[slotOf[s]];
    if (awaited >= 0 && isOpen[awaited])
      done(awaited, inst.scope);
  }
  double begin = computeFree;
  for (int32_t s : inst.operands)
    begin = std::max(begin, ready[slotOf[s]]);
  double end = begin + costs->seconds[index];
  computeFree = end;
  for (int32_t r : inst.results) {
    ready[slotOf[r]] = end;
    pendingDone[slotOf[r]] = -1;
  }
  busy.add(begin, end);
  busy.settle(horizon());
  stats.compute += end - begin;
  ++stats.computeOps;
  record(EventKind::Compute, index, inst.scope, begin, begin, end);
}

double DeviceClock::issueCollective(int32_t index) {
  const runtime::Instruction &inst = program->instructions[index];
  double operandReady = ready[slotOf[inst.operands[0]]];
  // One collective at a time per device: a synchronous one also waits for
  // the async ones before it (only differs when some kinds are async).
  issued = isAsync(inst) ? std::max(operandReady, queueFree)
                         : std::max({operandReady, computeFree, queueFree});
  return issued;
}

void DeviceClock::startCollective(int32_t index, double groupStart) {
  const runtime::Instruction &inst = program->instructions[index];
  double start = std::max(groupStart, issued);
  double end = start + model.secondsOn(*costs, index, device);
  if (!runs.empty())
    ++runs[index];
  ++stats.collectives;
  stats.communication += end - start;
  stats.groupWait += start - issued;
  int32_t result = slotOf[inst.results[0]];
  ready[result] = end;
  if (isAsync(inst)) {
    queueFree = end;
    pendingDone[result] = index;
    isOpen[index] = true;
    // Drop the collectives already done once the list has doubled, so it
    // holds the open ones, not every collective of the step.
    if (openCollectives.size() >= 2 * openKept + 16) {
      llvm::erase_if(openCollectives, [&](int32_t c) { return !isOpen[c]; });
      openKept = openCollectives.size();
    }
    openCollectives.push_back(index);
    record(EventKind::AsyncCollective, index, inst.scope, issued, start, end);
  } else {
    computeFree = queueFree = end;
    pendingDone[result] = -1;
    record(EventKind::SyncCollective, index, inst.scope, issued, start, end);
  }
  busy.add(start, end);
  busy.settle(horizon());
}

void DeviceClock::onCopy(llvm::ArrayRef<int32_t> from,
                         llvm::ArrayRef<int32_t> to) {
  // Same buffers: ready (and awaited) with their sources.
  llvm::SmallVector<std::pair<double, int32_t>, 4> values;
  for (int32_t s : from)
    values.push_back({ready[slotOf[s]], pendingDone[slotOf[s]]});
  for (auto [slot, value] : llvm::zip_equal(to, values)) {
    ready[slotOf[slot]] = value.first;
    pendingDone[slotOf[slot]] = value.second;
  }
}

void DeviceClock::endProgram() {
  // Results still in flight are awaited before the program returns.
  for (int32_t index : openCollectives)
    if (isOpen[index])
      done(index, /*scope=*/-1);
  double stepEnd = std::max(computeFree, queueFree);
  steps.push_back({stepBegin, stepEnd});
  stats.span += stepEnd - stepBegin;
  stats.busy += busy.finish();
  computeFree = queueFree = stepEnd;
}

} // namespace xspmd::timeline
