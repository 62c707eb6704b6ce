//===- Fusion.h - HBM traffic once elementwise ops are fused ----*- C++ -*-===//
//
// XLA fuses chains of elementwise ops (loop fusion) and elementwise
// producers of reductions (input fusion): the intermediate values stay in
// vector registers and VMEM instead of going through HBM. The timing model
// follows that rule, conservatively:
//
//   a Loop op (elementwise, broadcast_in_dim) is fused into its consumers
//   when every consumer, looking through views (reshape, mark_sharding), is
//   a Loop or Input op (reduce, softmax) and the value is not returned; its
//   result is then neither written nor read back.
//
// Contractions, convolutions, data movement and collectives never fuse
// (XLA's output fusion into a matmul is not modelled). FLOPs do not change;
// Instruction::fusedBytes is Instruction::work.bytes minus the traffic that
// fusion removes. Memory liveness keeps every value (conservative).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_FUSION_H
#define XSPMD_RUNTIME_EXEC_FUSION_H

#include "runtime/exec/Program.h"

namespace xspmd::runtime {

/// Sets Instruction::fusedBytes of every instruction of `program`.
void computeFusedBytes(Program &program);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_FUSION_H
