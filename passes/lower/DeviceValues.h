//===- DeviceValues.h - device-dependent values as tables -------*- C++ -*-===//
//
// The first step of --xla-lower-to-device: every value that depends on the
// running device becomes data that every device reads in the same code.
//
//  * `axis_index` and `partition_id` become `xla.device_table`s (the value of
//    each device, by device id);
//  * `all_slice` becomes a `dynamic_slice` at a per-device offset table;
//  * scalar integer arithmetic on tables and constants (the offsets and
//    predicates the partitioner computes from mesh coordinates) is evaluated
//    for every device into a new table, or a constant when all devices
//    agree.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_LOWER_DEVICEVALUES_H
#define XSPMD_PASSES_LOWER_DEVICEVALUES_H

#include "passes/lower/DeviceTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace xspmd::lower {

struct DeviceValueStats {
  /// Device tables in the rewritten functions.
  int64_t tables = 0;
  /// Scalar ops evaluated for every device.
  int64_t folded = 0;
};

/// Rewrites the device-dependent values of `func` as described above. Emits
/// a located error and fails when a mesh does not span the target's devices.
mlir::LogicalResult
materializeDeviceValues(mlir::func::FuncOp func, const DeviceTarget &target,
                        mlir::SymbolTableCollection &symbols,
                        DeviceValueStats &stats);

/// A `type` (a 0-d integer tensor) value holding values[d] on device d: a
/// constant when every device holds the same value, else an
/// xla.device_table.
mlir::Value buildDeviceValue(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::RankedTensorType type,
                             llvm::ArrayRef<int64_t> values);

} // namespace xspmd::lower

#endif // XSPMD_PASSES_LOWER_DEVICEVALUES_H
