//===- Fusion.cpp - HBM traffic once XLA's fusions are formed -------------===//

#include "runtime/exec/Fusion.h"

#include "llvm/ADT/DenseSet.h"

namespace xspmd::runtime {

static double slotBytes(const Program &program, int32_t slot) {
  const TensorSpec &spec = program.slotSpecs[slot];
  double bytes = static_cast<double>(byteWidth(spec.type));
  for (int64_t d : spec.shape)
    bytes *= static_cast<double>(d);
  return bytes;
}

void computeFusedBytes(Program &program) {
  std::vector<Instruction> &insts = program.instructions;
  // The buffer each slot holds: views share their operand's.
  std::vector<int32_t> root(program.numSlots);
  for (int32_t s = 0; s < program.numSlots; ++s)
    root[s] = s;
  std::vector<int32_t> producer(program.numSlots, -1);
  for (auto [i, inst] : llvm::enumerate(insts)) {
    inst.fusedBytes = inst.work.bytes;
    for (int32_t r : inst.results) {
      producer[r] = static_cast<int32_t>(i);
      if (inst.kind == InstructionKind::View)
        root[r] = root[inst.operands[0]];
    }
  }
  auto roleOf = [&](int32_t inst) {
    return insts[inst].kind == InstructionKind::Compute ? insts[inst].fusion
                                                        : FusionRole::None;
  };
  // Who reads each buffer (one entry per reading instruction), and whether
  // it is returned.
  std::vector<llvm::SmallVector<int32_t, 2>> readers(program.numSlots);
  std::vector<bool> returned(program.numSlots, false);
  for (int32_t s : program.resultSlots)
    returned[root[s]] = true;
  for (auto [i, inst] : llvm::enumerate(insts)) {
    if (inst.kind == InstructionKind::View)
      continue;
    for (int32_t s : inst.operands) {
      llvm::SmallVector<int32_t, 2> &list = readers[root[s]];
      if (list.empty() || list.back() != static_cast<int32_t>(i))
        list.push_back(static_cast<int32_t>(i));
    }
  }
  auto producedBy = [&](int32_t slot, FusionRole role) {
    int32_t p = producer[slot];
    return p >= 0 && root[slot] == slot && roleOf(p) == role;
  };
  // Loop fusion: a Loop result whose readers all take fused producers.
  std::vector<bool> fusedAway(program.numSlots, false);
  for (int32_t s = 0; s < program.numSlots; ++s) {
    if (!producedBy(s, FusionRole::Loop) || returned[s] || readers[s].empty())
      continue;
    fusedAway[s] = llvm::all_of(readers[s], [&](int32_t reader) {
      return roleOf(reader) != FusionRole::None;
    });
  }
  // Output fusion: a contraction read only by a Loop op that is written.
  for (int32_t s = 0; s < program.numSlots; ++s) {
    if (!producedBy(s, FusionRole::Matrix) || returned[s] ||
        readers[s].size() != 1)
      continue;
    const Instruction &consumer = insts[readers[s].front()];
    if (roleOf(readers[s].front()) != FusionRole::Loop)
      continue;
    fusedAway[s] = llvm::none_of(consumer.results,
                                 [&](int32_t r) { return fusedAway[root[r]]; });
  }
  // A kernel (`xla.trace ... kernel`, a hand-written kernel such as flash
  // attention) keeps in VMEM every value it makes and reads only itself.
  auto kernelOf = [&](int32_t inst) {
    return insts[inst].kind == InstructionKind::View ? -1
                                                     : insts[inst].kernelIndex;
  };
  for (int32_t s = 0; s < program.numSlots; ++s) {
    int32_t p = producer[s];
    if (p < 0 || root[s] != s || kernelOf(p) < 0 || returned[s] ||
        readers[s].empty())
      continue;
    if (llvm::all_of(readers[s], [&](int32_t reader) {
          return kernelOf(reader) == kernelOf(p);
        }))
      fusedAway[s] = true;
  }
  // A softmax is reductions (max, sum) and an elementwise normalization,
  // exp(x - max) / sum: when every reader takes fused producers, XLA fuses
  // the normalization into them and the probabilities are not written; the
  // readers read the softmax's operand instead (as many bytes).
  std::vector<bool> normalizedInReaders(program.numSlots, false);
  for (auto [i, inst] : llvm::enumerate(insts)) {
    if (inst.kind != InstructionKind::Compute || inst.opName != "xla.softmax")
      continue;
    int32_t s = root[inst.results.front()];
    normalizedInReaders[s] = !fusedAway[s] && !returned[s] &&
                             !readers[s].empty() &&
                             llvm::all_of(readers[s], [&](int32_t reader) {
                               return roleOf(reader) != FusionRole::None;
                             });
  }
  // Inside a kernel, a value the kernel made is on chip (written only for
  // readers outside it), and a value from outside is read once: its first
  // reader in the kernel pays.
  llvm::DenseSet<std::pair<int32_t, int32_t>> readByKernel;
  for (Instruction &inst : insts) {
    if (inst.kind != InstructionKind::Compute)
      continue;
    double saved = 0;
    if (inst.kernelIndex >= 0)
      for (int32_t s : inst.operands) {
        int32_t r = root[s];
        if (fusedAway[r])
          continue; // saved below
        bool madeHere =
            producer[r] >= 0 && kernelOf(producer[r]) == inst.kernelIndex;
        if (madeHere || !readByKernel.insert({inst.kernelIndex, r}).second)
          saved += slotBytes(program, s);
      }
    for (int32_t r : inst.results)
      if (normalizedInReaders[root[r]])
        saved += slotBytes(program, r);
    for (int32_t s : inst.operands)
      if (fusedAway[root[s]])
        saved += slotBytes(program, s);
    for (int32_t r : inst.results)
      if (fusedAway[root[r]])
        saved += slotBytes(program, r);
    inst.fusedBytes = std::max(0.0, inst.work.bytes - saved);
  }
}

} // namespace xspmd::runtime
