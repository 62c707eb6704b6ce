//===- Reduce.cpp - reductions and softmax --------------------------------===//

#include "runtime/kernels/Reduce.h"
#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/ScalarOps.h"

#include <cmath>
#include <limits>
#include <vector>

namespace xspmd::runtime {

namespace {

template <typename C>
C identityOf(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
  case ReduceKind::or_:
    return C{0};
  case ReduceKind::prod:
    return C{1};
  case ReduceKind::and_:
    return static_cast<C>(std::is_same_v<C, uint8_t> ? 1 : -1);
  case ReduceKind::max:
    if constexpr (std::is_floating_point_v<C>)
      return -std::numeric_limits<C>::infinity();
    return std::numeric_limits<C>::lowest();
  case ReduceKind::min:
    if constexpr (std::is_floating_point_v<C>)
      return std::numeric_limits<C>::infinity();
    else if constexpr (std::is_same_v<C, uint8_t>)
      return C{1}; // i1
    else
      return std::numeric_limits<C>::max();
  case ReduceKind::mean:
    if constexpr (std::is_floating_point_v<C>)
      return std::numeric_limits<C>::quiet_NaN();
    return C{0};
  }
  return C{0};
}

template <typename C>
C combine(ReduceKind kind, C a, C b) {
  switch (kind) {
  case ReduceKind::sum:
  case ReduceKind::mean:
    return scalar::add(a, b);
  case ReduceKind::prod:
    return scalar::mul(a, b);
  case ReduceKind::max:
    return scalar::max(a, b);
  case ReduceKind::min:
    return scalar::min(a, b);
  case ReduceKind::and_:
    if constexpr (std::is_integral_v<C>)
      return scalar::bitAnd(a, b);
    break;
  case ReduceKind::or_:
    if constexpr (std::is_integral_v<C>)
      return scalar::bitOr(a, b);
    break;
  }
  return a;
}

/// in viewed as [outer, r, inner]; out as [outer, inner].
template <typename T, ReduceKind Kind>
void reduceBlocks(const T *in, T *out, int64_t outer, int64_t r,
                  int64_t inner) {
  using Tr = ElementTraits<T>;
  using C = ComputeType<T>;
  std::vector<C> acc(inner);
  for (int64_t o = 0; o < outer; ++o) {
    const T *base = in + o * r * inner;
    if (r == 0) {
      for (int64_t j = 0; j < inner; ++j)
        acc[j] = identityOf<C>(Kind);
    } else {
      for (int64_t j = 0; j < inner; ++j)
        acc[j] = Tr::load(base[j]);
    }
    if (inner == 1) {
      C a = acc[0];
      for (int64_t k = 1; k < r; ++k)
        a = combine<C>(Kind, a, Tr::load(base[k]));
      acc[0] = a;
    } else {
      for (int64_t k = 1; k < r; ++k) {
        const T *row = base + k * inner;
        for (int64_t j = 0; j < inner; ++j)
          acc[j] = combine<C>(Kind, acc[j], Tr::load(row[j]));
      }
    }
    for (int64_t j = 0; j < inner; ++j) {
      C v = acc[j];
      if constexpr (std::is_floating_point_v<C>)
        if (Kind == ReduceKind::mean && r > 0)
          v = v / static_cast<C>(r);
      out[o * inner + j] = Tr::store(v);
    }
  }
}

template <typename T>
void reduceBlocksOfKind(ReduceKind kind, const T *in, T *out, int64_t outer,
                        int64_t r, int64_t inner) {
  switch (kind) {
  case ReduceKind::sum:
    return reduceBlocks<T, ReduceKind::sum>(in, out, outer, r, inner);
  case ReduceKind::prod:
    return reduceBlocks<T, ReduceKind::prod>(in, out, outer, r, inner);
  case ReduceKind::max:
    return reduceBlocks<T, ReduceKind::max>(in, out, outer, r, inner);
  case ReduceKind::min:
    return reduceBlocks<T, ReduceKind::min>(in, out, outer, r, inner);
  case ReduceKind::mean:
    return reduceBlocks<T, ReduceKind::mean>(in, out, outer, r, inner);
  case ReduceKind::and_:
    return reduceBlocks<T, ReduceKind::and_>(in, out, outer, r, inner);
  case ReduceKind::or_:
    return reduceBlocks<T, ReduceKind::or_>(in, out, outer, r, inner);
  }
}

} // namespace

void reduce(ReduceKind kind, const Tensor &in, llvm::ArrayRef<int64_t> dims,
            Tensor &out) {
  int64_t rank = in.getRank();
  llvm::SmallVector<bool> reduced(rank, false);
  for (int64_t d : dims)
    reduced[d] = true;
  // Reduced dims of size > 1 in one contiguous run: view as [outer, r, inner]
  // without copying. Otherwise move them last first.
  int64_t first = -1, last = -1;
  bool contiguous = true;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d] || in.getDimSize(d) == 1)
      continue;
    if (first < 0)
      first = d;
    else if (last != d - 1) {
      for (int64_t k = last + 1; k < d; ++k)
        if (in.getDimSize(k) != 1)
          contiguous = false;
    }
    last = d;
  }
  Tensor source = in;
  int64_t outer = 1, r = 1, inner = 1;
  if (first < 0) {
    outer = in.getNumElements();
  } else if (contiguous) {
    for (int64_t d = 0; d < rank; ++d) {
      if (d < first)
        outer *= in.getDimSize(d);
      else if (d > last)
        inner *= in.getDimSize(d);
      else
        r *= in.getDimSize(d);
    }
  } else {
    Shape perm, permuted;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced[d])
        perm.push_back(d);
    for (int64_t d = 0; d < rank; ++d)
      if (reduced[d])
        perm.push_back(d);
    for (int64_t p : perm) {
      permuted.push_back(in.getDimSize(p));
      (reduced[p] ? r : outer) *= in.getDimSize(p);
    }
    source = Tensor::allocate(in.getElementType(), permuted);
    transpose(in, perm, source);
  }
  dispatchElementType(in.getElementType(), [&](auto tag) {
    using T = decltype(tag);
    reduceBlocksOfKind<T>(kind, source.data<T>(), out.data<T>(), outer, r,
                          inner);
  });
}

namespace {

template <typename T>
void softmaxBlocks(const T *in, T *out, int64_t outer, int64_t n,
                   int64_t inner) {
  using Tr = ElementTraits<T>;
  using C = ComputeType<T>;
  std::vector<C> peak(inner), total(inner), values(n * inner);
  for (int64_t o = 0; o < outer; ++o) {
    const T *base = in + o * n * inner;
    for (int64_t k = 0; k < n * inner; ++k)
      values[k] = Tr::load(base[k]);
    for (int64_t j = 0; j < inner; ++j)
      peak[j] = -std::numeric_limits<C>::infinity();
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < inner; ++j)
        peak[j] = scalar::max(peak[j], values[k * inner + j]);
    for (int64_t j = 0; j < inner; ++j)
      total[j] = C{0};
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < inner; ++j) {
        C e = std::exp(values[k * inner + j] - peak[j]);
        values[k * inner + j] = e;
        total[j] += e;
      }
    T *dst = out + o * n * inner;
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < inner; ++j)
        dst[k * inner + j] = Tr::store(values[k * inner + j] / total[j]);
  }
}

} // namespace

void softmax(const Tensor &in, int64_t dim, Tensor &out) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= in.getDimSize(d);
  for (int64_t d = dim + 1; d < in.getRank(); ++d)
    inner *= in.getDimSize(d);
  int64_t n = in.getDimSize(dim);
  dispatchElementType(in.getElementType(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (kIsFloatStorage<T>)
      softmaxBlocks<T>(in.data<T>(), out.data<T>(), outer, n, inner);
  });
}

} // namespace xspmd::runtime
