//===- DeviceClock.cpp - one device's simulated timeline ------------------===//

#include "runtime/timeline/DeviceClock.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cassert>

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

void DeviceClock::record(EventKind kind, int32_t instruction, int32_t scope,
                         double begin, double groupStart, double end) {
  if (options.recordEvents)
    events.push_back(
        Event{kind, instruction, step, scope, begin, groupStart, end});
}

void DeviceClock::beginProgram(const runtime::Program &p) {
  ++step;
  if (program != &p)
    runs.assign(p.instructions.size(), 0);
  program = &p;
  costs = &model.costsOf(p);
  stepBegin = std::max(computeFree, queueFree);
  computeFree = queueFree = stepBegin;
  // Arguments and constants are in HBM when the step starts.
  ready.assign(p.numSlots, stepBegin);
  pendingDone.assign(p.numSlots, -1);
  isOpen.assign(p.instructions.size(), false);
  openCollectives.clear();
  computeBusy.clear();
  transfers.clear();
}

void DeviceClock::done(int32_t index, int32_t scope) {
  const runtime::Instruction &inst = program->instructions[index];
  double begin = computeFree;
  double end = std::max(begin, ready[inst.results[0]]);
  computeFree = end;
  stats.stall += end - begin;
  isOpen[index] = false;
  record(EventKind::Done, index, scope, begin, begin, end);
}

void DeviceClock::onInstruction(int32_t index) {
  const runtime::Instruction &inst = program->instructions[index];
  ++runs[index];
  // A loop or case takes no time itself; the instructions of its regions are
  // reported as they run (a loop's at each iteration).
  if (inst.kind == runtime::InstructionKind::Loop ||
      inst.kind == runtime::InstructionKind::Case)
    return;
  if (inst.kind == runtime::InstructionKind::View) {
    // Same buffer: ready (and awaited) with its operand.
    for (int32_t r : inst.results) {
      ready[r] = ready[inst.operands[0]];
      pendingDone[r] = pendingDone[inst.operands[0]];
    }
    return;
  }
  assert(inst.kind == runtime::InstructionKind::Compute &&
         "collectives go through issueCollective");
  for (int32_t s : inst.operands)
    if (pendingDone[s] >= 0 && isOpen[pendingDone[s]])
      done(pendingDone[s], inst.scope);
  double begin = computeFree;
  for (int32_t s : inst.operands)
    begin = std::max(begin, ready[s]);
  double end = begin + costs->seconds[index];
  computeFree = end;
  for (int32_t r : inst.results) {
    ready[r] = end;
    pendingDone[r] = -1;
  }
  computeBusy.push_back({begin, end});
  stats.compute += end - begin;
  ++stats.computeOps;
  record(EventKind::Compute, index, inst.scope, begin, begin, end);
}

double DeviceClock::issueCollective(int32_t index) {
  const runtime::Instruction &inst = program->instructions[index];
  double operandReady = ready[inst.operands[0]];
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
  ++runs[index];
  ++stats.collectives;
  transfers.push_back({start, end});
  stats.communication += end - start;
  stats.groupWait += start - issued;
  int32_t result = inst.results[0];
  ready[result] = end;
  if (isAsync(inst)) {
    queueFree = end;
    pendingDone[result] = index;
    isOpen[index] = true;
    openCollectives.push_back(index);
    record(EventKind::AsyncCollective, index, inst.scope, issued, start, end);
  } else {
    computeFree = queueFree = end;
    pendingDone[result] = -1;
    record(EventKind::SyncCollective, index, inst.scope, issued, start, end);
  }
}

void DeviceClock::onCopy(llvm::ArrayRef<int32_t> from,
                         llvm::ArrayRef<int32_t> to) {
  // Same buffers: ready (and awaited) with their sources.
  llvm::SmallVector<std::pair<double, int32_t>, 4> values;
  for (int32_t s : from)
    values.push_back({ready[s], pendingDone[s]});
  for (auto [slot, value] : llvm::zip_equal(to, values)) {
    ready[slot] = value.first;
    pendingDone[slot] = value.second;
  }
}

/// Length of the union of two lists of disjoint intervals, each sorted.
template <typename Interval>
static double unionLength(const std::vector<Interval> &a,
                          const std::vector<Interval> &b) {
  double total = 0;
  for (const Interval &i : a)
    total += i.end - i.begin;
  for (const Interval &i : b)
    total += i.end - i.begin;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    double lo = std::max(a[i].begin, b[j].begin);
    double hi = std::min(a[i].end, b[j].end);
    if (hi > lo)
      total -= hi - lo;
    if (a[i].end < b[j].end)
      ++i;
    else
      ++j;
  }
  return total;
}

void DeviceClock::endProgram() {
  // Results still in flight are awaited before the program returns.
  for (int32_t index : openCollectives)
    if (isOpen[index])
      done(index, /*scope=*/-1);
  double stepEnd = std::max(computeFree, queueFree);
  steps.push_back({stepBegin, stepEnd});
  stats.span += stepEnd - stepBegin;
  stats.busy += unionLength(computeBusy, transfers);
  computeFree = queueFree = stepEnd;
}

} // namespace xspmd::timeline
