//===- Compare.h - comparing results with tolerances ------------*- C++ -*-===//
//
// Two comparisons: against values the user expects (iree-run-module's
// --expected_output, an absolute threshold per float type) and against the
// single-device reference (--check, |x - ref| <= atol + rtol * |ref|).
// Integers and i1 compare exactly; NaN matches NaN, infinities match
// infinities of the same sign.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_COMPARE_H
#define XSPMD_LIB_COMPARE_H

#include "runtime/kernels/Tensor.h"

#include <optional>
#include <string>

namespace xspmd {

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

/// iree-run-module's --expected_*_threshold flags.
struct ExpectedThresholds {
  double f32 = 1e-4;
  double f64 = 1e-4;
  double f16 = 1e-3;
  double bf16 = 1e-2;
  Tolerance forType(runtime::ElementType type) const;
};

/// Default --check tolerances per element type (docs/runtime.md).
Tolerance defaultCheckTolerance(runtime::ElementType type);

/// The --check tolerance for comparing with `reference`: the type's default
/// with atol scaled by the reference's largest magnitude (at least 1). A
/// partitioned reduction rounds its partial sums before adding them, so its
/// error is a few ulps of the magnitudes summed, not of each (possibly
/// cancelled) output element.
Tolerance checkTolerance(const runtime::Tensor &reference);

struct Comparison {
  bool matches = true;
  /// Why not: "metadata is ...; expected ..." or "element at index 3 (2.5)
  /// does not match the expected (3)".
  std::string failure;
  double maxAbsError = 0;
  double maxRelError = 0;
  int64_t mismatches = 0;
};

Comparison compareTensors(const runtime::Tensor &actual,
                          const runtime::Tensor &expected, Tolerance tolerance);

} // namespace xspmd

#endif // XSPMD_LIB_COMPARE_H
