//===- Lowering.h - from one op to one kernel -------------------*- C++ -*-===//
//
// Each op of the xla dialect becomes an OpKernel with its attributes
// resolved. The entry point dispatches on the op; the families live in
// LowerElementwise.cpp, LowerDataMovement.cpp, LowerNumerics.cpp,
// LowerReductions.cpp, LowerSources.cpp and LowerCollectives.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_LOWERING_H
#define XSPMD_RUNTIME_EXEC_LOWERING_H

#include "runtime/collectives/CollectiveCall.h"
#include "runtime/exec/Program.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/LogicalResult.h"

namespace xspmd::runtime {

struct LoweringContext {
  /// Devices the program will run on (groups of collectives that name no
  /// participants span them all).
  int64_t numDevices = 1;
  mlir::SymbolTableCollection symbols;
};

/// The kernel of `op`. Emits an error at `op` and fails when the simulator
/// cannot execute it.
mlir::FailureOr<OpKernel> lowerOperation(mlir::Operation *op,
                                         LoweringContext &ctx);

/// True for ops whose kernel depends on the device (collectives,
/// partition_id, axis_index, device_table, dispatch).
bool isDeviceDependent(mlir::Operation *op);

// Families: lowerOperation routes each op to the one that handles it; a
// family emits its own diagnostics.
mlir::FailureOr<OpKernel> lowerElementwiseOp(mlir::Operation *op);
mlir::FailureOr<OpKernel> lowerDataMovementOp(mlir::Operation *op);
mlir::FailureOr<OpKernel> lowerNumericOp(mlir::Operation *op);
mlir::FailureOr<OpKernel> lowerIndexingOp(mlir::Operation *op);
/// Ops with scalar computations (reduce_region, reduce_window,
/// select_and_scatter).
mlir::FailureOr<OpKernel> lowerReductionOp(mlir::Operation *op);
mlir::FailureOr<OpKernel> lowerSourceOp(mlir::Operation *op,
                                        LoweringContext &ctx);
mlir::FailureOr<OpKernel> lowerCollectiveOp(mlir::Operation *op,
                                            LoweringContext &ctx);

/// A communicating collective (not all_slice), resolved: its groups as
/// device ids, shapes checked against the run's group size.
mlir::FailureOr<std::shared_ptr<const CollectiveCall>>
describeCollectiveOp(mlir::Operation *op, LoweringContext &ctx);

/// The kernel that executes `call` through the device's communicator.
OpKernel makeCollectiveKernel(std::shared_ptr<const CollectiveCall> call);

/// A collective's participants as written: `@mesh["model"]`, "2 groups of 4
/// [[0, 1, 2, 3], [4, 5, 6, 7]]" or "all devices".
std::string describeParticipants(mlir::Operation *op);

/// Reads a scalar i32/i64 tensor.
int64_t readIndexScalar(const Tensor &t);
/// Reads element i of an i32/i64 tensor.
int64_t readIndex(const Tensor &t, int64_t i);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_LOWERING_H
