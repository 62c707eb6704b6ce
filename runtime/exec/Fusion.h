//===- Fusion.h - HBM traffic once XLA's fusions are formed -----*- C++ -*-===//
//
// XLA fuses ops so that intermediate values stay in vector registers and
// VMEM instead of going through HBM (docs/simulator.md 3). The timing model
// forms the fusions XLA's instruction fusion forms on TPU, conservatively:
//
//   loop fusion     an elementwise op or broadcast (Loop) whose every
//                   consumer, looking through views (reshape,
//                   mark_sharding), is a Loop op, a reduction or softmax
//                   (input fusion) or a contraction (producer fusion into
//                   the MXU operand, as TPU's convolution fusions take
//                   converts, broadcasts and elementwise producers), and
//                   which is not returned, is neither written nor read back.
//   output fusion   a contraction or convolution whose only consumer is an
//                   elementwise op that is itself written (the root of its
//                   fusion: a bias add, an activation, a scaling) and which
//                   is not returned writes nothing; the consumer does not
//                   read it. At most one MXU op or reduction per fusion: a
//                   consumer fused into a reduction or another contraction
//                   keeps its producer's result in HBM.
//   softmax         its normalization, exp(x - max) / sum, is elementwise:
//                   when every reader of the probabilities takes fused
//                   producers, they are not written (the readers read the
//                   softmax's operand instead, as many bytes).
//   kernel          the body of an `xla.trace ... kernel` (a hand-written
//                   kernel such as Pallas flash attention) keeps on chip
//                   every value it makes and reads only itself; its ops
//                   read a value the kernel made from VMEM and a value from
//                   outside once (the first reader pays).
//
// Data movement (transpose, slice, ...) and collectives never fuse, and no
// XLA fusion keeps a reduction's input on chip for a later op: attention
// scores go through HBM unless a kernel holds them. FLOPs do not change; Instruction::fusedBytes is
// Instruction::work.bytes minus the traffic fusion removes; a fused
// producer's own operands are charged once even when several consumers take
// it. Memory liveness keeps every value (conservative). `--no-fusion` turns
// all of it off (kernels too: every op through HBM).
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
