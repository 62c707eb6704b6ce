//===- Convert.cpp - element type conversion ------------------------------===//

#include "runtime/kernels/Convert.h"
#include "runtime/kernels/TypeDispatch.h"

#include <cmath>
#include <limits>

namespace xspmd::runtime {

namespace {

/// Truncates toward zero and saturates; NaN gives 0.
template <typename I, typename F>
I floatToInt(F x) {
  if (std::isnan(x))
    return 0;
  // 2^(bits-1) is exact in every float type we convert from.
  const F limit = std::ldexp(F{1}, std::numeric_limits<I>::digits);
  if (x >= limit)
    return std::numeric_limits<I>::max();
  if (x <= -limit)
    return std::numeric_limits<I>::min();
  return static_cast<I>(x);
}

template <typename From, typename To>
To convertValue(From v) {
  using FromC = ComputeType<From>;
  FromC x = ElementTraits<From>::load(v);
  if constexpr (kIsBoolStorage<To>) {
    return x != FromC{0} ? 1 : 0; // NaN != 0 holds, so NaN gives 1
  } else if constexpr (std::is_same_v<To, BF16> || std::is_same_v<To, F16>) {
    // Narrow in one rounding step from the widest exact representation.
    double wide;
    if constexpr (std::is_same_v<FromC, int64_t>)
      wide = int64ToDoubleRoundToOdd(x);
    else
      wide = static_cast<double>(x);
    if constexpr (std::is_same_v<To, BF16>) {
      if constexpr (std::is_same_v<FromC, float>)
        return BF16{floatToBf16(x)};
      return BF16{doubleToBf16(wide)};
    } else {
      return F16{doubleToF16(wide)};
    }
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(x);
  } else if constexpr (std::is_floating_point_v<FromC>) {
    return floatToInt<To>(x);
  } else {
    // Integer to integer: keep the low bits (two's complement).
    using U = std::make_unsigned_t<To>;
    return static_cast<To>(static_cast<U>(x));
  }
}

template <typename From, typename To>
void convertLoop(const void *in, void *out, int64_t n) {
  const From *a = static_cast<const From *>(in);
  To *o = static_cast<To *>(out);
  for (int64_t i = 0; i < n; ++i)
    o[i] = convertValue<From, To>(a[i]);
}

} // namespace

ConvertKernel getConvertKernel(ElementType from, ElementType to) {
  return dispatchElementType(from, [&](auto fromTag) -> ConvertKernel {
    return dispatchElementType(to, [&](auto toTag) -> ConvertKernel {
      return convertLoop<decltype(fromTag), decltype(toTag)>;
    });
  });
}

void storeDoubleAs(double value, ElementType to, void *out) {
  dispatchElementType(to, [&](auto tag) {
    using T = decltype(tag);
    *static_cast<T *>(out) = convertValue<double, T>(value);
  });
}

double loadAsDouble(const void *data, ElementType type, int64_t index) {
  return dispatchElementType(type, [&](auto tag) -> double {
    using T = decltype(tag);
    return static_cast<double>(
        ElementTraits<T>::load(static_cast<const T *>(data)[index]));
  });
}

} // namespace xspmd::runtime
