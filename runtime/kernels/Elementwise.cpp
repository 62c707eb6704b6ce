//===- Elementwise.cpp - elementwise kernels ------------------------------===//

#include "runtime/kernels/Elementwise.h"
#include "runtime/kernels/ScalarOps.h"

#include <cmath>
#include <cstring>

namespace xspmd::runtime {

namespace {

// Loops over storage type T: load into the compute type, apply, store (which
// rounds bf16/f16 to nearest even).
template <typename T, typename Fn>
void unaryLoop(const void *in, void *out, int64_t n) {
  using Tr = ElementTraits<T>;
  const T *a = static_cast<const T *>(in);
  T *o = static_cast<T *>(out);
  for (int64_t i = 0; i < n; ++i)
    o[i] = Tr::store(Fn::apply(Tr::load(a[i])));
}

template <typename T, typename Fn>
void binaryLoop(const void *lhs, const void *rhs, void *out, int64_t n) {
  using Tr = ElementTraits<T>;
  const T *a = static_cast<const T *>(lhs);
  const T *b = static_cast<const T *>(rhs);
  T *o = static_cast<T *>(out);
  for (int64_t i = 0; i < n; ++i)
    o[i] = Tr::store(Fn::apply(Tr::load(a[i]), Tr::load(b[i])));
}

template <typename T, typename Fn>
void compareLoop(const void *lhs, const void *rhs, uint8_t *out, int64_t n) {
  using Tr = ElementTraits<T>;
  const T *a = static_cast<const T *>(lhs);
  const T *b = static_cast<const T *>(rhs);
  for (int64_t i = 0; i < n; ++i)
    out[i] = Fn::apply(Tr::load(a[i]), Tr::load(b[i])) ? 1 : 0;
}

#define XSPMD_UNARY_FN(NAME, EXPR)                                             \
  struct NAME {                                                                \
    template <typename C>                                                      \
    static C apply(C x) {                                                      \
      return EXPR;                                                             \
    }                                                                          \
  };
XSPMD_UNARY_FN(NegFn, scalar::neg(x))
XSPMD_UNARY_FN(AbsFn, scalar::abs(x))
XSPMD_UNARY_FN(ExpFn, std::exp(x))
XSPMD_UNARY_FN(LogFn, std::log(x))
XSPMD_UNARY_FN(TanhFn, std::tanh(x))
XSPMD_UNARY_FN(SqrtFn, std::sqrt(x))
XSPMD_UNARY_FN(RsqrtFn, scalar::rsqrt(x))
XSPMD_UNARY_FN(SigmoidFn, scalar::sigmoid(x))
XSPMD_UNARY_FN(ReluFn, scalar::relu(x))
XSPMD_UNARY_FN(GeluFn, scalar::gelu(x))
XSPMD_UNARY_FN(NotFn, static_cast<C>(~x))
XSPMD_UNARY_FN(FloorFn, std::floor(x))
XSPMD_UNARY_FN(CeilFn, std::ceil(x))
XSPMD_UNARY_FN(RoundAfzFn, std::round(x))
XSPMD_UNARY_FN(RoundEvenFn, scalar::roundNearestEven(x))
XSPMD_UNARY_FN(SignFn, scalar::sign(x))
XSPMD_UNARY_FN(ErfFn, std::erf(x))
XSPMD_UNARY_FN(CosFn, std::cos(x))
XSPMD_UNARY_FN(SinFn, std::sin(x))
XSPMD_UNARY_FN(TanFn, std::tan(x))
XSPMD_UNARY_FN(Log1pFn, std::log1p(x))
XSPMD_UNARY_FN(Expm1Fn, std::expm1(x))
XSPMD_UNARY_FN(CbrtFn, std::cbrt(x))
XSPMD_UNARY_FN(LogicalNotFn, static_cast<C>(x ^ 1))
#undef XSPMD_UNARY_FN

#define XSPMD_BINARY_FN(NAME, EXPR)                                            \
  struct NAME {                                                                \
    template <typename C>                                                      \
    static auto apply(C a, C b) {                                              \
      return EXPR;                                                             \
    }                                                                          \
  };
XSPMD_BINARY_FN(AddFn, scalar::add(a, b))
XSPMD_BINARY_FN(SubFn, scalar::sub(a, b))
XSPMD_BINARY_FN(MulFn, scalar::mul(a, b))
XSPMD_BINARY_FN(DivFn, scalar::div(a, b))
XSPMD_BINARY_FN(MaxFn, scalar::max(a, b))
XSPMD_BINARY_FN(MinFn, scalar::min(a, b))
XSPMD_BINARY_FN(PowFn, std::pow(a, b))
XSPMD_BINARY_FN(AndFn, scalar::bitAnd(a, b))
XSPMD_BINARY_FN(OrFn, scalar::bitOr(a, b))
XSPMD_BINARY_FN(XorFn, scalar::bitXor(a, b))
XSPMD_BINARY_FN(Atan2Fn, std::atan2(a, b))
XSPMD_BINARY_FN(RemFn, scalar::rem(a, b))
XSPMD_BINARY_FN(ShiftLeftFn, scalar::shiftLeft(a, b))
XSPMD_BINARY_FN(ShiftRightArithmeticFn, scalar::shiftRightArithmetic(a, b))
XSPMD_BINARY_FN(ShiftRightLogicalFn, scalar::shiftRightLogical(a, b))
XSPMD_BINARY_FN(EqFn, a == b)
XSPMD_BINARY_FN(NeFn, a != b)
XSPMD_BINARY_FN(LtFn, a < b)
XSPMD_BINARY_FN(LeFn, a <= b)
XSPMD_BINARY_FN(GtFn, a > b)
XSPMD_BINARY_FN(GeFn, a >= b)
#undef XSPMD_BINARY_FN

template <typename T>
UnaryKernel unaryKernelFor(UnaryOp op) {
  if constexpr (kIsFloatStorage<T>) {
    switch (op) {
    case UnaryOp::neg:
      return unaryLoop<T, NegFn>;
    case UnaryOp::abs:
      return unaryLoop<T, AbsFn>;
    case UnaryOp::exp:
      return unaryLoop<T, ExpFn>;
    case UnaryOp::log:
      return unaryLoop<T, LogFn>;
    case UnaryOp::tanh:
      return unaryLoop<T, TanhFn>;
    case UnaryOp::sqrt:
      return unaryLoop<T, SqrtFn>;
    case UnaryOp::rsqrt:
      return unaryLoop<T, RsqrtFn>;
    case UnaryOp::sigmoid:
      return unaryLoop<T, SigmoidFn>;
    case UnaryOp::relu:
      return unaryLoop<T, ReluFn>;
    case UnaryOp::gelu:
      return unaryLoop<T, GeluFn>;
    case UnaryOp::not_:
      return nullptr;
    case UnaryOp::floor:
      return unaryLoop<T, FloorFn>;
    case UnaryOp::ceil:
      return unaryLoop<T, CeilFn>;
    case UnaryOp::roundNearestAfz:
      return unaryLoop<T, RoundAfzFn>;
    case UnaryOp::roundNearestEven:
      return unaryLoop<T, RoundEvenFn>;
    case UnaryOp::sign:
      return unaryLoop<T, SignFn>;
    case UnaryOp::erf:
      return unaryLoop<T, ErfFn>;
    case UnaryOp::cos:
      return unaryLoop<T, CosFn>;
    case UnaryOp::sin:
      return unaryLoop<T, SinFn>;
    case UnaryOp::tan:
      return unaryLoop<T, TanFn>;
    case UnaryOp::log1p:
      return unaryLoop<T, Log1pFn>;
    case UnaryOp::expm1:
      return unaryLoop<T, Expm1Fn>;
    case UnaryOp::cbrt:
      return unaryLoop<T, CbrtFn>;
    }
  } else if constexpr (kIsBoolStorage<T>) {
    return op == UnaryOp::not_ ? unaryLoop<T, LogicalNotFn> : nullptr;
  } else {
    switch (op) {
    case UnaryOp::neg:
      return unaryLoop<T, NegFn>;
    case UnaryOp::abs:
      return unaryLoop<T, AbsFn>;
    case UnaryOp::relu:
      return unaryLoop<T, ReluFn>;
    case UnaryOp::not_:
      return unaryLoop<T, NotFn>;
    case UnaryOp::sign:
      return unaryLoop<T, SignFn>;
    default:
      return nullptr;
    }
  }
  return nullptr;
}

template <typename T>
BinaryKernel binaryKernelFor(BinaryOp op) {
  constexpr bool isFloat = kIsFloatStorage<T>;
  constexpr bool isBool = kIsBoolStorage<T>;
  switch (op) {
  case BinaryOp::add:
    return isBool ? nullptr : binaryLoop<T, AddFn>;
  case BinaryOp::sub:
    return isBool ? nullptr : binaryLoop<T, SubFn>;
  case BinaryOp::mul:
    return isBool ? nullptr : binaryLoop<T, MulFn>;
  case BinaryOp::div:
    return isBool ? nullptr : binaryLoop<T, DivFn>;
  case BinaryOp::max:
    return isBool ? nullptr : binaryLoop<T, MaxFn>;
  case BinaryOp::min:
    return isBool ? nullptr : binaryLoop<T, MinFn>;
  case BinaryOp::pow:
    if constexpr (isFloat)
      return binaryLoop<T, PowFn>;
    return nullptr;
  case BinaryOp::and_:
    if constexpr (!isFloat)
      return binaryLoop<T, AndFn>;
    return nullptr;
  case BinaryOp::or_:
    if constexpr (!isFloat)
      return binaryLoop<T, OrFn>;
    return nullptr;
  case BinaryOp::xor_:
    if constexpr (!isFloat)
      return binaryLoop<T, XorFn>;
    return nullptr;
  case BinaryOp::atan2:
    if constexpr (isFloat)
      return binaryLoop<T, Atan2Fn>;
    return nullptr;
  case BinaryOp::rem:
    return isBool ? nullptr : binaryLoop<T, RemFn>;
  case BinaryOp::shiftLeft:
    if constexpr (!isFloat && !isBool)
      return binaryLoop<T, ShiftLeftFn>;
    return nullptr;
  case BinaryOp::shiftRightArithmetic:
    if constexpr (!isFloat && !isBool)
      return binaryLoop<T, ShiftRightArithmeticFn>;
    return nullptr;
  case BinaryOp::shiftRightLogical:
    if constexpr (!isFloat && !isBool)
      return binaryLoop<T, ShiftRightLogicalFn>;
    return nullptr;
  }
  return nullptr;
}

template <typename T>
void isFiniteLoop(const void *in, uint8_t *out, int64_t n) {
  using Tr = ElementTraits<T>;
  const T *a = static_cast<const T *>(in);
  for (int64_t i = 0; i < n; ++i)
    out[i] = std::isfinite(Tr::load(a[i])) ? 1 : 0;
}

/// min(max(x, lo), hi) with the dialect's max and min (NaN wins).
template <typename T>
void clampLoop(const void *lo, const void *x, const void *hi, void *out,
               int64_t n) {
  using Tr = ElementTraits<T>;
  const T *l = static_cast<const T *>(lo);
  const T *v = static_cast<const T *>(x);
  const T *h = static_cast<const T *>(hi);
  T *o = static_cast<T *>(out);
  for (int64_t i = 0; i < n; ++i)
    o[i] = Tr::store(scalar::min(scalar::max(Tr::load(v[i]), Tr::load(l[i])),
                                 Tr::load(h[i])));
}

template <typename T>
CompareKernel compareKernelFor(CompareOp op) {
  switch (op) {
  case CompareOp::eq:
    return compareLoop<T, EqFn>;
  case CompareOp::ne:
    return compareLoop<T, NeFn>;
  case CompareOp::lt:
    return compareLoop<T, LtFn>;
  case CompareOp::le:
    return compareLoop<T, LeFn>;
  case CompareOp::gt:
    return compareLoop<T, GtFn>;
  case CompareOp::ge:
    return compareLoop<T, GeFn>;
  }
  return nullptr;
}

template <typename W>
void selectLoop(const uint8_t *pred, const void *onTrue, const void *onFalse,
                void *out, int64_t n) {
  const W *t = static_cast<const W *>(onTrue);
  const W *f = static_cast<const W *>(onFalse);
  W *o = static_cast<W *>(out);
  for (int64_t i = 0; i < n; ++i)
    o[i] = pred[i] ? t[i] : f[i];
}

} // namespace

UnaryKernel getUnaryKernel(UnaryOp op, ElementType type) {
  return dispatchElementType(
      type, [&](auto tag) { return unaryKernelFor<decltype(tag)>(op); });
}

BinaryKernel getBinaryKernel(BinaryOp op, ElementType type) {
  return dispatchElementType(
      type, [&](auto tag) { return binaryKernelFor<decltype(tag)>(op); });
}

CompareKernel getCompareKernel(CompareOp op, ElementType type) {
  return dispatchElementType(
      type, [&](auto tag) { return compareKernelFor<decltype(tag)>(op); });
}

PredicateKernel getIsFiniteKernel(ElementType type) {
  return dispatchElementType(type, [](auto tag) -> PredicateKernel {
    using T = decltype(tag);
    if constexpr (kIsFloatStorage<T>)
      return isFiniteLoop<T>;
    return nullptr;
  });
}

ClampKernel getClampKernel(ElementType type) {
  return dispatchElementType(type, [](auto tag) -> ClampKernel {
    using T = decltype(tag);
    if constexpr (!kIsBoolStorage<T>)
      return clampLoop<T>;
    return nullptr;
  });
}

void selectElements(const uint8_t *pred, const void *onTrue,
                    const void *onFalse, void *out, int64_t n, size_t width) {
  switch (width) {
  case 1:
    return selectLoop<uint8_t>(pred, onTrue, onFalse, out, n);
  case 2:
    return selectLoop<uint16_t>(pred, onTrue, onFalse, out, n);
  case 4:
    return selectLoop<uint32_t>(pred, onTrue, onFalse, out, n);
  case 8:
    return selectLoop<uint64_t>(pred, onTrue, onFalse, out, n);
  }
  llvm_unreachable("unsupported element width");
}

} // namespace xspmd::runtime
