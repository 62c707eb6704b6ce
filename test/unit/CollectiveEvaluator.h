//===- CollectiveEvaluator.h - per-device reference evaluator ---*- C++ -*-===//
//
// Test-only. Runs an SPMD function on every device of its module, in
// lockstep, on concrete values: the collectives (groups resolved with
// xla::resolveParticipantGroups) and the few local ops the collective
// rewrites produce or the tests use (constant, add, sub, mul, reshape,
// concatenate, slice, broadcast_in_dim, axis_index, partition_id). Values
// are doubles; tests use small integers so every result is exact.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_TEST_UNIT_COLLECTIVEEVALUATOR_H
#define XSPMD_TEST_UNIT_COLLECTIVEEVALUATOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace xspmd::testing {

struct Array {
  llvm::SmallVector<int64_t> shape;
  std::vector<double> data;

  bool operator==(const Array &other) const {
    return shape == other.shape && data == other.data;
  }
};

/// Prints `a` as shape and values (for test failure messages).
void PrintTo(const Array &a, std::ostream *os);

/// One array per device, indexed by device id.
using DeviceValues = std::vector<Array>;

/// Number of devices of the module's meshes (0 without a mesh).
int64_t numDevices(mlir::func::FuncOp func);

/// Random small-integer arguments for every device. An argument with an
/// `xla.sharding` holds the same data on devices whose coordinates agree on
/// the axes the sharding uses (dims and partial), as a real sharded input
/// would; arguments without one differ on every device.
std::vector<DeviceValues> makeInputs(mlir::func::FuncOp func, unsigned seed);

/// Runs `func` on every device. On an unsupported op or a malformed program
/// returns an empty vector and sets `error`.
std::vector<DeviceValues> evaluate(mlir::func::FuncOp func,
                                   const std::vector<DeviceValues> &args,
                                   std::string &error);

} // namespace xspmd::testing

#endif // XSPMD_TEST_UNIT_COLLECTIVEEVALUATOR_H
