//===- MemoryAnalysis.cpp - peak live bytes of a program ------------------===//

#include "runtime/report/MemoryAnalysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace xspmd::report {

llvm::StringRef stringifyMemoryCategory(MemoryCategory category) {
  switch (category) {
  case MemoryCategory::Argument:
    return "argument";
  case MemoryCategory::Constant:
    return "constant";
  case MemoryCategory::Output:
    return "output";
  case MemoryCategory::CollectiveBuffer:
    return "collective buffer";
  case MemoryCategory::Temporary:
    return "temporary";
  }
  llvm_unreachable("unknown memory category");
}

std::string formatMemoryBytes(double bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (unit < 5 && bytes >= 1024.0) {
    bytes /= 1024.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes)
                   : fmt::format("{:.2f} {}", bytes, units[unit]);
}

namespace {

/// A buffer: what one or more slots (a value and its views) hold.
struct Buffer {
  int32_t slot = 0; ///< The slot that allocated it.
  double bytes = 0;
  MemoryCategory category = MemoryCategory::Temporary;
  /// Allocated at this instruction (-1: before the program) and freed after
  /// `lastUse` (kEnd: lives to the end).
  int32_t allocated = -1, lastUse = -1;
};

constexpr int32_t kEnd = std::numeric_limits<int32_t>::max();

double slotBytes(const runtime::Program &program, int32_t slot) {
  const runtime::TensorSpec &spec = program.slotSpecs[slot];
  double bytes = static_cast<double>(runtime::byteWidth(spec.type));
  for (int64_t d : spec.shape)
    bytes *= static_cast<double>(d);
  return bytes;
}

} // namespace

MemoryProfile analyzeMemory(const runtime::Program &program, size_t topN) {
  MemoryProfile profile;
  std::vector<int32_t> bufferOf(program.numSlots, -1);
  std::vector<Buffer> buffers;
  auto addBuffer = [&](int32_t slot, MemoryCategory category,
                       int32_t allocated) {
    bufferOf[slot] = static_cast<int32_t>(buffers.size());
    buffers.push_back(
        Buffer{slot, slotBytes(program, slot), category, allocated, -1});
  };
  for (int32_t slot : program.argSlots)
    if (bufferOf[slot] < 0)
      addBuffer(slot, MemoryCategory::Argument, -1);
  for (const auto &[slot, value] : program.constants)
    addBuffer(slot, MemoryCategory::Constant, -1);
  std::vector<bool> returned(program.numSlots, false);
  for (int32_t slot : program.resultSlots)
    returned[slot] = true;

  for (auto [index, inst] : llvm::enumerate(program.instructions)) {
    int32_t i = static_cast<int32_t>(index);
    // A buffer from outside a loop is read by every iteration: it lives
    // until the loop ends.
    for (int32_t s : inst.operands) {
      Buffer &b = buffers[bufferOf[s]];
      int32_t use = useInDefinitionScope(program, i, b.allocated);
      if (use != i)
        use = program.instructions[use].regionsEnd() - 1;
      b.lastUse = std::max(b.lastUse, use);
    }
    for (int32_t r : inst.results) {
      if (inst.kind == runtime::InstructionKind::View) {
        bufferOf[r] = bufferOf[inst.operands[0]];
        continue;
      }
      addBuffer(r,
                inst.kind == runtime::InstructionKind::Collective
                    ? MemoryCategory::CollectiveBuffer
                    : MemoryCategory::Temporary,
                i);
      buffers.back().lastUse = i;
    }
  }
  // A loop's carried buffers, and the values its regions yield, live until
  // its last instruction (the next iteration reads them).
  for (const runtime::Instruction &inst : program.instructions) {
    if (inst.branches) {
      // A case's results are written when its branch ends.
      for (int32_t s : inst.results) {
        Buffer &b = buffers[bufferOf[s]];
        b.lastUse = std::max(b.lastUse, inst.branches->end - 1);
      }
      for (const std::vector<int32_t> &yields : inst.branches->yields)
        for (int32_t s : yields) {
          Buffer &b = buffers[bufferOf[s]];
          b.lastUse = std::max(b.lastUse, inst.branches->end - 1);
        }
    }
    if (!inst.loop)
      continue;
    int32_t end = inst.loop->bodyEnd - 1;
    auto liveToEnd = [&](int32_t s) {
      Buffer &b = buffers[bufferOf[s]];
      b.lastUse = std::max(b.lastUse, end);
    };
    for (int32_t s : inst.results)
      liveToEnd(s);
    for (int32_t s : inst.loop->yields)
      liveToEnd(s);
    liveToEnd(inst.loop->condition);
  }
  // Returned values live to the end and count as outputs; arguments and
  // constants live throughout.
  for (Buffer &b : buffers)
    if (b.category == MemoryCategory::Argument ||
        b.category == MemoryCategory::Constant)
      b.lastUse = kEnd;
  std::vector<bool> aliased(program.resultSlots.size(), false);
  for (auto [arg, result] : llvm::enumerate(program.argAliases))
    if (result >= 0 && result < static_cast<int32_t>(aliased.size())) {
      aliased[result] = true;
      profile.aliasedBytes += slotBytes(program, program.argSlots[arg]);
    }
  for (auto [r, slot] : llvm::enumerate(program.resultSlots)) {
    Buffer &b = buffers[bufferOf[slot]];
    b.lastUse = kEnd;
    profile.outputBytes += slotBytes(program, slot);
    if (b.category == MemoryCategory::Argument ||
        b.category == MemoryCategory::Constant)
      continue;
    b.category = MemoryCategory::Output;
    // Written into the donated argument's buffer.
    if (aliased[r])
      b.bytes = 0;
  }
  for (int32_t slot : program.argSlots)
    profile.argumentBytes += slotBytes(program, slot);
  for (const auto &[slot, value] : program.constants)
    profile.constantBytes += slotBytes(program, slot);

  // Sweep: allocate at `allocated`, free after `lastUse`.
  std::vector<std::vector<int32_t>> allocatedAt(program.instructions.size()),
      freedAfter(program.instructions.size());
  std::array<double, kNumMemoryCategories> live{};
  for (auto [id, b] : llvm::enumerate(buffers)) {
    if (b.allocated < 0)
      live[static_cast<int>(b.category)] += b.bytes;
    else
      allocatedAt[b.allocated].push_back(static_cast<int32_t>(id));
    if (b.lastUse != kEnd && b.lastUse >= 0)
      freedAfter[b.lastUse].push_back(static_cast<int32_t>(id));
  }
  auto total = [](const std::array<double, kNumMemoryCategories> &by) {
    double sum = 0;
    for (double v : by)
      sum += v;
    return sum;
  };
  auto intermediate = [](const std::array<double, kNumMemoryCategories> &by) {
    return by[static_cast<int>(MemoryCategory::CollectiveBuffer)] +
           by[static_cast<int>(MemoryCategory::Temporary)];
  };
  profile.peakBytes = total(live);
  profile.peakByCategory = live;
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    for (int32_t id : allocatedAt[i])
      live[static_cast<int>(buffers[id].category)] += buffers[id].bytes;
    double now = total(live);
    if (now > profile.peakBytes) {
      profile.peakBytes = now;
      profile.peakByCategory = live;
      profile.peakInstruction = static_cast<int32_t>(i);
    }
    profile.intermediateBytes =
        std::max(profile.intermediateBytes, intermediate(live));
    for (int32_t id : freedAfter[i])
      live[static_cast<int>(buffers[id].category)] -= buffers[id].bytes;
  }

  // The buffers live at the peak.
  int32_t at = profile.peakInstruction;
  std::vector<const Buffer *> atPeak;
  for (const Buffer &b : buffers)
    if (b.allocated <= at && (b.lastUse == kEnd || b.lastUse >= at) &&
        b.bytes > 0)
      atPeak.push_back(&b);
  std::stable_sort(
      atPeak.begin(), atPeak.end(),
      [](const Buffer *a, const Buffer *b) { return a->bytes > b->bytes; });
  for (const Buffer *b : llvm::ArrayRef(atPeak).take_front(topN))
    profile.largestAtPeak.push_back(LiveTensor{
        b->slot, b->bytes, b->category, program.slotSpecs[b->slot].toString(),
        program.slotOrigins[b->slot]});
  return profile;
}

} // namespace xspmd::report
