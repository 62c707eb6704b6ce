//===- XlaCombiner.h - recognising associative scalar bodies ----*- C++ -*-===//
//
// Scalar bodies that combine two sets of N values pairwise (a scatter's
// update computation: N current values then N updates; a reduction's body:
// N accumulators then N elements) are often one associative op applied to
// each pair. Recognising them lets sharding rules treat the op like a
// reduction of that kind (a pending sum, max, ...).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLACOMBINER_H
#define XSPMD_DIALECTS_XLA_XLACOMBINER_H

#include "dialects/xla/XlaDialect.h"

#include "mlir/IR/Region.h"

#include <optional>

namespace xspmd::xla {

/// The reduction `body` performs when, with 2N arguments and N yielded
/// values, value i is `op(arg i, arg N+i)` (either operand order) for one
/// op shared by every i: add (sum), mul, max, min, and, or. Nothing for any
/// other body.
std::optional<ReductionKind> matchPairwiseCombiner(mlir::Region &body);

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLACOMBINER_H
