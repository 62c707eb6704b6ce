//===- ScalarOps.h - scalar semantics of the dialect's ops ------*- C++ -*-===//
//
// One definition of each scalar operation on a compute type (float, double
// or an integer type), shared by the elementwise kernels, the reductions and
// the collectives so that e.g. `max` treats NaN the same everywhere.
// Integers wrap around; see docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_SCALAROPS_H
#define XSPMD_RUNTIME_KERNELS_SCALAROPS_H

#include "runtime/kernels/TypeDispatch.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace xspmd::runtime::scalar {

template <typename C>
C add(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return wrapAdd(a, b);
  else
    return a + b;
}

template <typename C>
C sub(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return wrapSub(a, b);
  else
    return a - b;
}

template <typename C>
C mul(C a, C b) {
  if constexpr (std::is_integral_v<C>)
    return wrapMul(a, b);
  else
    return a * b;
}

/// Integers: x / 0 = -1 and MIN / -1 = MIN, as XLA defines them; otherwise
/// rounds toward zero.
template <typename C>
C div(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    if (b == 0)
      return static_cast<C>(-1);
    if (std::is_signed_v<C> && b == static_cast<C>(-1) &&
        a == std::numeric_limits<C>::min())
      return a;
    return static_cast<C>(a / b);
  } else {
    return a / b;
  }
}

/// NaN wins; +0 is larger than -0.
template <typename C>
C max(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b))
      return a + b;
    if (a == b)
      return std::signbit(a) ? b : a;
  }
  return a > b ? a : b;
}

/// NaN wins; -0 is smaller than +0.
template <typename C>
C min(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || std::isnan(b))
      return a + b;
    if (a == b)
      return std::signbit(a) ? a : b;
  }
  return a < b ? a : b;
}

template <typename C>
C bitAnd(C a, C b) {
  return static_cast<C>(a & b);
}
template <typename C>
C bitOr(C a, C b) {
  return static_cast<C>(a | b);
}
template <typename C>
C bitXor(C a, C b) {
  return static_cast<C>(a ^ b);
}

template <typename C>
C neg(C a) {
  if constexpr (std::is_integral_v<C>)
    return wrapSub(C{0}, a);
  else
    return -a;
}

/// abs(MIN) wraps to MIN for integers.
template <typename C>
C abs(C a) {
  if constexpr (std::is_integral_v<C>)
    return a < 0 ? wrapSub(C{0}, a) : a;
  else
    return std::fabs(a);
}

/// max(x, 0): NaN stays NaN, -0 gives +0.
template <typename C>
C relu(C a) {
  return a <= C{0} ? C{0} : a;
}

template <typename C>
C sigmoid(C a) {
  return C{1} / (C{1} + std::exp(-a));
}

/// torch.nn.functional.gelu(approximate='tanh'):
/// 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), computed as the
/// equal x / (1 + exp(-2u)): one exp instead of a tanh, and no cancellation
/// for large negative u.
template <typename C>
C gelu(C a) {
  const C k = static_cast<C>(2 * 0.7978845608028654); // 2 sqrt(2 / pi)
  C twoU = k * (a + static_cast<C>(0.044715) * a * a * a);
  return a / (C{1} + std::exp(-twoU));
}

template <typename C>
C rsqrt(C a) {
  return C{1} / std::sqrt(a);
}

/// Floats: -1 or 1, or the operand itself for +-0 and NaN (XLA's sign keeps
/// -0.0). Integers: -1, 0 or 1.
template <typename C>
C sign(C a) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(a) || a == C{0})
      return a;
    return std::copysign(C{1}, a);
  } else {
    return static_cast<C>((a > 0) - (a < 0));
  }
}

/// Halves to even, whatever the floating-point environment's rounding mode.
template <typename C>
C roundNearestEven(C a) {
  C r = std::round(a); // halves away from zero
  if (std::fabs(a - std::trunc(a)) == static_cast<C>(0.5))
    r = static_cast<C>(2) * std::round(a / static_cast<C>(2));
  return r;
}

/// The sign of the dividend: fmod for floats; for integers, as XLA defines
/// them, x rem 0 = x and MIN rem -1 = 0 (any x rem -1 is 0).
template <typename C>
C rem(C a, C b) {
  if constexpr (std::is_integral_v<C>) {
    if (b == 0)
      return a;
    if (std::is_signed_v<C> && b == static_cast<C>(-1))
      return C{0};
    return static_cast<C>(a % b);
  } else {
    return std::fmod(a, b);
  }
}

/// Shifts read the amount as unsigned; an amount of at least the bit width
/// shifts every bit out, as XLA defines it.
template <typename C>
bool shiftsOut(C amount) {
  using U = std::make_unsigned_t<C>;
  return static_cast<U>(amount) >= sizeof(C) * 8;
}

template <typename C>
C shiftLeft(C a, C b) {
  using U = std::make_unsigned_t<C>;
  if (shiftsOut(b))
    return C{0};
  return static_cast<C>(static_cast<U>(static_cast<U>(a) << b));
}

/// Copies the sign bit (written without right-shifting a negative value,
/// which C++17 leaves implementation-defined).
template <typename C>
C shiftRightArithmetic(C a, C b) {
  if (shiftsOut(b))
    return a < 0 ? static_cast<C>(-1) : C{0};
  return a < 0 ? static_cast<C>(~(static_cast<C>(~a) >> b))
               : static_cast<C>(a >> b);
}

template <typename C>
C shiftRightLogical(C a, C b) {
  using U = std::make_unsigned_t<C>;
  if (shiftsOut(b))
    return C{0};
  return static_cast<C>(static_cast<U>(static_cast<U>(a) >> b));
}

} // namespace xspmd::runtime::scalar

#endif // XSPMD_RUNTIME_KERNELS_SCALAROPS_H
