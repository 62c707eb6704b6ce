//===- Fusion.cpp - HBM traffic once elementwise ops are fused ------------===//

#include "runtime/exec/Fusion.h"

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
  // A buffer must be materialized when it is returned or read by an op that
  // does not fuse.
  std::vector<bool> materialized(program.numSlots, false);
  for (int32_t s : program.resultSlots)
    materialized[root[s]] = true;
  for (const Instruction &inst : insts) {
    if (inst.kind == InstructionKind::View)
      continue;
    bool consumer = inst.kind == InstructionKind::Compute &&
                    inst.fusion != FusionRole::None;
    if (!consumer)
      for (int32_t s : inst.operands)
        materialized[root[s]] = true;
  }
  auto fusedAway = [&](int32_t slot) {
    int32_t p = producer[root[slot]];
    return p >= 0 && insts[p].fusion == FusionRole::Loop &&
           !materialized[root[slot]];
  };
  for (Instruction &inst : insts) {
    if (inst.kind != InstructionKind::Compute)
      continue;
    double saved = 0;
    if (inst.fusion != FusionRole::None)
      for (int32_t s : inst.operands)
        if (fusedAway(s))
          saved += slotBytes(program, s);
    if (inst.fusion == FusionRole::Loop)
      for (int32_t r : inst.results)
        if (fusedAway(r))
          saved += slotBytes(program, r);
    inst.fusedBytes = std::max(0.0, inst.work.bytes - saved);
  }
}

} // namespace xspmd::runtime
