//===- OpWork.h - what one op costs, for the timing model -------*- C++ -*-===//
//
// At compile time every instruction of a Program also gets a description for
// the timing model: whether it computes (a roofline cost: FLOPs and HBM bytes
// from its local shapes), communicates (a collective, costed on the topology
// by runtime/cost), or is a view that costs nothing (reshape, mark_sharding).
// docs/simulator.md lists the FLOP and byte count of every op.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_OPWORK_H
#define XSPMD_RUNTIME_EXEC_OPWORK_H

#include "runtime/cost/ComputeCost.h"
#include "runtime/kernels/ElementType.h"

#include "mlir/IR/Operation.h"

namespace xspmd::runtime {

enum class InstructionKind : uint8_t {
  /// Runs on the device's compute stream for a roofline time.
  Compute,
  /// Communicates; costed by the collective cost model.
  Collective,
  /// Produces a view of its operand: no time, no new memory.
  View,
  /// An xla.while: runs its nested instructions (Program.h, LoopInfo).
  Loop,
  /// An xla.case: runs one branch of its nested instructions (CaseInfo).
  Case,
};

/// How an op takes part in XLA-style loop fusion (runtime/exec/Fusion.h).
enum class FusionRole : uint8_t {
  /// Neither: reads its operands from and writes its results to HBM.
  None,
  /// Elementwise ops and broadcasts: fuse into their consumers, and take
  /// fused producers as operands.
  Loop,
  /// Reductions and softmax: take fused producers as operands (input
  /// fusion), write their results.
  Input,
  /// Contractions and convolutions (the MXU): take fused producers as
  /// operands, and fuse into a single elementwise consumer (output fusion).
  Matrix,
};

/// The fusion role of `op`.
FusionRole fusionRoleOf(mlir::Operation *op);

/// The cost model's element type of `type`.
cost::NumericType toNumericType(ElementType type);

/// The kind of `op` (a lowered, executable op of the xla dialect).
InstructionKind classifyInstruction(mlir::Operation *op);

/// FLOPs, HBM bytes, unit and type of a compute op, from its local operand
/// and result types. Views and collectives get zero work.
cost::OpWork describeWork(mlir::Operation *op);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_OPWORK_H
