//===- Compare.cpp - comparing results with tolerances --------------------===//

#include "lib/Compare.h"
#include "lib/io/TensorText.h"
#include "runtime/kernels/Convert.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <cmath>

using namespace xspmd::runtime;

namespace xspmd {

Tolerance ExpectedThresholds::forType(ElementType type) const {
  switch (type) {
  case ElementType::f32:
    return {f32, 0};
  case ElementType::f64:
    return {f64, 0};
  case ElementType::f16:
    return {f16, 0};
  case ElementType::bf16:
    return {bf16, 0};
  default:
    return {0, 0};
  }
}

Tolerance defaultCheckTolerance(ElementType type) {
  // A sharded contraction sums in another order than the reference: allow a
  // few ulps of the accumulated magnitude, more for 16-bit results that may
  // round to a neighbouring value.
  switch (type) {
  case ElementType::f64:
    return {1e-12, 1e-10};
  case ElementType::f32:
    return {1e-5, 1e-4};
  case ElementType::f16:
    return {1e-3, 4e-3};
  case ElementType::bf16:
    return {1e-2, 1.6e-2};
  default:
    return {0, 0};
  }
}

Tolerance checkTolerance(const Tensor &reference) {
  Tolerance tol = defaultCheckTolerance(reference.getElementType());
  if (tol.atol == 0)
    return tol; // exact types
  double scale = 1.0;
  for (int64_t i = 0, e = reference.getNumElements(); i < e; ++i) {
    double v = std::fabs(
        loadAsDouble(reference.data(), reference.getElementType(), i));
    if (std::isfinite(v))
      scale = std::max(scale, v);
  }
  tol.atol *= scale;
  return tol;
}

Comparison compareTensors(const Tensor &actual, const Tensor &expected,
                          Tolerance tolerance) {
  Comparison c;
  if (actual.getElementType() != expected.getElementType() ||
      !llvm::equal(actual.getShape(), expected.getShape())) {
    c.matches = false;
    c.failure = fmt::format("metadata is {}; expected {}",
                            actual.getTypeString(), expected.getTypeString());
    return c;
  }
  ElementType type = actual.getElementType();
  bool exact = isInteger(type);
  for (int64_t i = 0, n = actual.getNumElements(); i < n; ++i) {
    double a = loadAsDouble(actual.data(), type, i);
    double e = loadAsDouble(expected.data(), type, i);
    bool ok;
    if (exact) {
      // Through double: exact for |x| <= 2^53, enough to detect a mismatch.
      ok = a == e;
      if (type == ElementType::i64)
        ok = actual.data<int64_t>()[i] == expected.data<int64_t>()[i];
    } else if (std::isnan(a) || std::isnan(e)) {
      ok = std::isnan(a) && std::isnan(e);
    } else if (std::isinf(a) || std::isinf(e)) {
      ok = a == e;
    } else {
      double diff = std::fabs(a - e);
      c.maxAbsError = std::max(c.maxAbsError, diff);
      if (e != 0)
        c.maxRelError = std::max(c.maxRelError, diff / std::fabs(e));
      else if (diff != 0)
        c.maxRelError = std::max(c.maxRelError, diff / std::fabs(a));
      ok = diff <= tolerance.atol + tolerance.rtol * std::fabs(e);
    }
    if (exact && !ok)
      c.maxAbsError = std::max(c.maxAbsError, std::fabs(a - e));
    if (!ok) {
      if (c.matches)
        c.failure = fmt::format(
            "element at index {} ({}) does not match the expected ({})", i,
            io::formatElement(actual, i), io::formatElement(expected, i));
      c.matches = false;
      ++c.mismatches;
    }
  }
  return c;
}

} // namespace xspmd
