//===- TypeDispatch.h - element types as C++ types --------------*- C++ -*-===//
//
// Maps each ElementType to its storage type and the type it is computed in
// (f32 for bf16 and f16), and dispatches a generic lambda on a run-time
// element type. Kernels are instantiated once per type; the dispatch happens
// once per op, never per element.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_TYPEDISPATCH_H
#define XSPMD_RUNTIME_KERNELS_TYPEDISPATCH_H

#include "runtime/kernels/ElementType.h"
#include "runtime/kernels/Float16.h"

#include "llvm/Support/ErrorHandling.h"

#include <cstdint>
#include <type_traits>

namespace xspmd::runtime {

template <typename T>
struct ElementTraits {
  // float, double, int8_t, int32_t, int64_t and uint8_t (i1) compute as
  // themselves.
  using Compute = T;
  static Compute load(T v) { return v; }
  static T store(Compute v) { return v; }
};

template <>
struct ElementTraits<BF16> {
  using Compute = float;
  static float load(BF16 v) { return bf16ToFloat(v.bits); }
  static BF16 store(float v) { return BF16{floatToBf16(v)}; }
};

template <>
struct ElementTraits<F16> {
  using Compute = float;
  static float load(F16 v) { return f16ToFloat(v.bits); }
  static F16 store(float v) { return F16{floatToF16(v)}; }
};

template <typename T>
using ComputeType = typename ElementTraits<T>::Compute;

template <typename T>
inline constexpr bool kIsFloatStorage =
    std::is_floating_point_v<T> || std::is_same_v<T, BF16> ||
    std::is_same_v<T, F16>;

/// i1 is the only unsigned storage type.
template <typename T>
inline constexpr bool kIsBoolStorage = std::is_same_v<T, uint8_t>;

/// Calls `fn(T{})` with T the storage type of `type`.
template <typename Fn>
decltype(auto) dispatchElementType(ElementType type, Fn &&fn) {
  switch (type) {
  case ElementType::f32:
    return fn(float{});
  case ElementType::f64:
    return fn(double{});
  case ElementType::bf16:
    return fn(BF16{});
  case ElementType::f16:
    return fn(F16{});
  case ElementType::i1:
    return fn(uint8_t{});
  case ElementType::i8:
    return fn(int8_t{});
  case ElementType::i32:
    return fn(int32_t{});
  case ElementType::i64:
    return fn(int64_t{});
  }
  llvm_unreachable("unknown element type");
}

/// Two's complement wraparound arithmetic without signed-overflow UB.
template <typename T>
T wrapAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
}
template <typename T>
T wrapSub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
}
template <typename T>
T wrapMul(T a, T b) {
  // uint32 * uint32 stays unsigned; uint8 promotes to int without overflow.
  using U = std::make_unsigned_t<T>;
  using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U>;
  return static_cast<T>(static_cast<U>(static_cast<Wide>(static_cast<U>(a)) *
                                       static_cast<Wide>(static_cast<U>(b))));
}

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_TYPEDISPATCH_H
