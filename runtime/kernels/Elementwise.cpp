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
  }
  return nullptr;
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
