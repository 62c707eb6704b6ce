//===- Sort.cpp - HLO sort ------------------------------------------------===//

#include "runtime/kernels/Sort.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <optional>
#include <vector>

namespace xspmd::runtime {

using llvm::ArrayRef;
using llvm::MutableArrayRef;
using llvm::SmallVector;

namespace {

/// Sorts `perm` (positions 0..n-1 of one row) with `less`.
template <typename Less>
void sortPositions(std::vector<int64_t> &perm, bool stable, Less less) {
  if (stable)
    std::stable_sort(perm.begin(), perm.end(), less);
  else
    std::sort(perm.begin(), perm.end(), less);
}

/// A strict weak order on keys of type C: `<` (or `>` when descending) on
/// numbers, NaN above every number and equal to itself.
template <typename C>
bool keyBefore(C a, C b, bool descending) {
  if constexpr (std::is_floating_point_v<C>) {
    bool nanA = std::isnan(a), nanB = std::isnan(b);
    if (nanA || nanB)
      return descending ? nanA && !nanB : nanB && !nanA;
  }
  return descending ? b < a : a < b;
}

/// The permutation of every row, one after another: rows are indexed by
/// (outer, inner) and hold `n` elements `inner` apart.
class RowPermutations {
public:
  RowPermutations(ArrayRef<int64_t> shape, int64_t dim) {
    n = shape[dim];
    for (int64_t d = 0; d < dim; ++d)
      outer *= shape[d];
    for (int64_t d = dim + 1, e = shape.size(); d < e; ++d)
      inner *= shape[d];
  }

  /// Calls `sortRow(base, perm)` for every row, with `perm` the identity,
  /// to be sorted, then moves every input's row by it.
  template <typename SortRow>
  void apply(ArrayRef<const Tensor *> inputs, MutableArrayRef<Tensor> out,
             SortRow sortRow) const {
    std::vector<int64_t> perm(n);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        int64_t base = o * n * inner + i;
        std::iota(perm.begin(), perm.end(), 0);
        sortRow(base, perm);
        for (size_t t = 0; t < inputs.size(); ++t) {
          size_t width = byteWidth(inputs[t]->getElementType());
          const auto *src = static_cast<const uint8_t *>(inputs[t]->data());
          auto *dst = static_cast<uint8_t *>(out[t].data());
          for (int64_t j = 0; j < n; ++j)
            std::memcpy(dst + (base + j * inner) * width,
                        src + (base + perm[j] * inner) * width, width);
        }
      }
  }

  int64_t rowLength() const { return n; }
  int64_t stride() const { return inner; }

private:
  int64_t n = 0, outer = 1, inner = 1;
};

} // namespace

void sort(ArrayRef<const Tensor *> inputs, int64_t dim, bool stable,
          const ScalarComputation &comparator, MutableArrayRef<Tensor> out) {
  const Tensor &keys = *inputs.front();
  if (keys.getNumElements() == 0)
    return;
  RowPermutations rows(keys.getShape(), dim);
  int64_t n = rows.rowLength(), stride = rows.stride();
  std::optional<CompareOp> direction = comparator.asComparison();
  if (direction == CompareOp::lt || direction == CompareOp::gt) {
    bool descending = *direction == CompareOp::gt;
    dispatchElementType(keys.getElementType(), [&](auto tag) {
      using T = decltype(tag);
      using C = ComputeType<T>;
      const T *data = keys.data<T>();
      std::vector<C> row(n);
      rows.apply(inputs, out, [&](int64_t base, std::vector<int64_t> &perm) {
        for (int64_t j = 0; j < n; ++j)
          row[j] = ElementTraits<T>::load(data[base + j * stride]);
        sortPositions(perm, stable, [&](int64_t a, int64_t b) {
          return keyBefore<C>(row[a], row[b], descending);
        });
      });
    });
    return;
  }
  // Any comparator: every input's row as scalars, the comparator run per
  // comparison.
  int64_t numInputs = inputs.size();
  std::vector<Scalar> row(numInputs * n);
  SmallVector<Scalar> args(2 * numInputs);
  SmallVector<ScalarLoader> loads;
  for (const Tensor *input : inputs)
    loads.push_back(getScalarLoader(input->getElementType()));
  Scalar result;
  rows.apply(inputs, out, [&](int64_t base, std::vector<int64_t> &perm) {
    for (int64_t t = 0; t < numInputs; ++t)
      for (int64_t j = 0; j < n; ++j)
        row[t * n + j] = loads[t](inputs[t]->data(), base + j * stride);
    std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
      for (int64_t t = 0; t < numInputs; ++t) {
        args[2 * t] = row[t * n + a];
        args[2 * t + 1] = row[t * n + b];
      }
      comparator.run(args, MutableArrayRef<Scalar>(result));
      return result.i != 0;
    });
  });
}

} // namespace xspmd::runtime
