//===- ClockSlots.cpp - the slots a device clock keeps --------------------===//

#include "runtime/timeline/ClockSlots.h"

#include "llvm/ADT/STLExtras.h"

#include <numeric>

namespace xspmd::timeline {

using runtime::InstructionKind;

/// Every slot its own clock slot.
static ClockSlots identity(const runtime::Program &program, bool hasRegions) {
  ClockSlots plan;
  plan.of.resize(program.numSlots);
  std::iota(plan.of.begin(), plan.of.end(), 0);
  plan.count = std::max<int32_t>(1, program.numSlots);
  plan.hasRegions = hasRegions;
  return plan;
}

/// The slots the clock writes at `inst`.
static llvm::ArrayRef<int32_t> written(const runtime::Instruction &inst) {
  llvm::ArrayRef<int32_t> results = inst.results;
  return inst.kind == InstructionKind::Collective ? results.take_front(1)
                                                  : results;
}

ClockSlots planClockSlots(const runtime::Program &program) {
  for (const runtime::Instruction &inst : program.instructions)
    if (inst.kind == InstructionKind::Loop ||
        inst.kind == InstructionKind::Case)
      return identity(program, /*hasRegions=*/true);
  int32_t numSlots = program.numSlots;
  int32_t end = static_cast<int32_t>(program.instructions.size());
  // Lifetimes: written at def (-1: the step's start), last read at last.
  std::vector<int32_t> def(numSlots, -1), last(numSlots, -1);
  // The async collective whose done a slot waits for (-1: none), and
  // whether that done is still ahead.
  std::vector<int32_t> awaits(numSlots, -1);
  std::vector<bool> open(end, false);
  for (int32_t i = 0; i < end; ++i) {
    const runtime::Instruction &inst = program.instructions[i];
    for (int32_t s : inst.operands) {
      last[s] = i;
      if (inst.kind != InstructionKind::Compute)
        continue;
      int32_t c = awaits[s];
      if (c >= 0 && open[c]) {
        open[c] = false;
        last[program.instructions[c].results[0]] = i;
      }
    }
    for (int32_t r : written(inst)) {
      // Not SSA (a slot written twice, or read before it is written): keep
      // every slot apart.
      if (def[r] >= 0 || last[r] >= 0)
        return identity(program, /*hasRegions=*/false);
      def[r] = i;
      if (inst.kind == InstructionKind::Collective)
        awaits[r] = i;
      else if (inst.kind == InstructionKind::View && !inst.operands.empty())
        awaits[r] = awaits[inst.operands[0]];
    }
    if (inst.kind == InstructionKind::Collective)
      open[i] = true;
  }
  for (int32_t i = 0; i < end; ++i)
    if (open[i])
      last[program.instructions[i].results[0]] = end;

  // Timed slots: written or read by collectives, and the views between
  // them (a view copies its operand's time).
  std::vector<bool> timed(numSlots, false);
  for (const runtime::Instruction &inst : program.instructions)
    if (inst.kind == InstructionKind::Collective) {
      for (int32_t s : inst.operands)
        timed[s] = true;
      for (int32_t r : written(inst))
        timed[r] = true;
    }
  // Backward (a view comes after its operand), then forward.
  auto isView = [](const runtime::Instruction &inst) {
    return inst.kind == InstructionKind::View && !inst.operands.empty();
  };
  for (const runtime::Instruction &inst : llvm::reverse(program.instructions))
    if (isView(inst))
      for (int32_t r : inst.results)
        if (timed[r])
          timed[inst.operands[0]] = true;
  for (const runtime::Instruction &inst : program.instructions)
    if (isView(inst) && timed[inst.operands[0]])
      for (int32_t r : inst.results)
        timed[r] = true;

  // Linear scan over the timed slots that something writes: one takes a
  // free clock slot when written and gives it back after its last read
  // (after the results of that instruction took theirs, so an instruction
  // never overwrites its own operands).
  ClockSlots plan;
  plan.of.assign(numSlots, ClockSlots::kSink);
  plan.count = 2;
  std::vector<int32_t> free;
  // Slots released after each instruction (CSR by instruction).
  std::vector<int32_t> releaseBegin(end + 2, 0), release;
  auto releasedAt = [&](int32_t s) { return std::max(def[s], last[s]); };
  std::vector<int32_t> packed;
  for (int32_t s = 0; s < numSlots; ++s) {
    if (def[s] < 0) {
      plan.of[s] = ClockSlots::kEntry;
      continue;
    }
    if (!timed[s])
      continue;
    packed.push_back(s);
    if (int32_t at = releasedAt(s); at < end)
      ++releaseBegin[at + 1];
  }
  for (int32_t i = 0; i <= end; ++i)
    releaseBegin[i + 1] += releaseBegin[i];
  release.resize(releaseBegin[end]);
  {
    std::vector<int32_t> fill(releaseBegin.begin(), releaseBegin.end() - 1);
    for (int32_t s : packed)
      if (int32_t at = releasedAt(s); at < end)
        release[fill[at]++] = s;
  }
  for (int32_t i = 0; i < end; ++i) {
    for (int32_t r : written(program.instructions[i])) {
      if (!timed[r])
        continue;
      if (free.empty()) {
        plan.of[r] = plan.count++;
      } else {
        plan.of[r] = free.back();
        free.pop_back();
      }
    }
    for (int32_t k = releaseBegin[i]; k < releaseBegin[i + 1]; ++k)
      free.push_back(plan.of[release[k]]);
  }
  return plan;
}

} // namespace xspmd::timeline
