//===- GemmTest.cpp - gemm and contraction plans vs naive loops -----------===//

#include "runtime/kernels/Gemm.h"
#include "runtime/kernels/Contraction.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/Random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

using namespace xspmd::runtime;

namespace {

Tensor randomTensor(ElementType type, llvm::ArrayRef<int64_t> shape,
                    uint64_t seed) {
  Tensor t = Tensor::allocate(type, shape);
  size_t width = byteWidth(type);
  for (int64_t i = 0; i < t.getNumElements(); ++i) {
    // Small integers: exact in every type, so only summation order matters.
    double v = static_cast<double>(randomBits(seed, i, 0) % 7) - 3.0;
    storeDoubleAs(v, type, t.data<uint8_t>() + i * width);
  }
  return t;
}

double at(const Tensor &t, int64_t i) {
  return loadAsDouble(t.data(), t.getElementType(), i);
}

/// Naive einsum over all label assignments.
std::vector<double> naiveContraction(const ContractionDims &dims,
                                     const Tensor &lhs, const Tensor &rhs) {
  int64_t numLabels = dims.sizes.size();
  std::vector<int64_t> index(numLabels, 0);
  // Labels of neither operand do not exist in this contraction.
  std::vector<int64_t> extent(numLabels, 1);
  for (int64_t l : dims.lhs)
    extent[l] = dims.sizes[l];
  for (int64_t l : dims.rhs)
    extent[l] = dims.sizes[l];
  auto offsetOf = [&](llvm::ArrayRef<int64_t> labels) {
    int64_t off = 0;
    for (int64_t l : labels)
      off = off * dims.sizes[l] + index[l];
    return off;
  };
  int64_t resultSize = 1;
  for (int64_t l : dims.result)
    resultSize *= dims.sizes[l];
  std::vector<double> out(resultSize, 0.0);
  int64_t total = 1;
  for (int64_t e : extent)
    total *= e;
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat;
    for (int64_t l = numLabels - 1; l >= 0; --l) {
      index[l] = rest % extent[l];
      rest /= extent[l];
    }
    out[offsetOf(dims.result)] +=
        at(lhs, offsetOf(dims.lhs)) * at(rhs, offsetOf(dims.rhs));
  }
  return out;
}

Shape shapeOf(const ContractionDims &dims, llvm::ArrayRef<int64_t> labels) {
  Shape s;
  for (int64_t l : labels)
    s.push_back(dims.sizes[l]);
  return s;
}

void checkPlan(const ContractionDims &dims, ElementType type) {
  Tensor lhs = randomTensor(type, shapeOf(dims, dims.lhs), 1);
  Tensor rhs = randomTensor(type, shapeOf(dims, dims.rhs), 2);
  Tensor out = Tensor::allocate(type, shapeOf(dims, dims.result));
  ContractionPlan(dims).run(lhs, rhs, out);
  std::vector<double> expected = naiveContraction(dims, lhs, rhs);
  for (int64_t i = 0; i < out.getNumElements(); ++i) {
    double e = expected[i];
    if (type == ElementType::i8) // wraps
      e = static_cast<double>(static_cast<int8_t>(static_cast<int64_t>(e)));
    ASSERT_EQ(at(out, i), e)
        << "element " << i << " type " << toString(type).str();
  }
}

TEST(Contraction, MatchesNaiveEinsumForManyLayouts) {
  // Labels: 0 = b, 1 = m, 2 = k, 3 = n, 4 = only in lhs, 5 = second k.
  llvm::SmallVector<int64_t> sizes = {3, 5, 7, 4, 2, 3};
  auto dims = [&](llvm::SmallVector<int64_t> lhs,
                  llvm::SmallVector<int64_t> rhs,
                  llvm::SmallVector<int64_t> result) {
    return ContractionDims{lhs, rhs, result, sizes};
  };
  std::vector<ContractionDims> cases = {
      dims({1, 2}, {2, 3}, {1, 3}),          // plain matmul
      dims({2, 1}, {2, 3}, {1, 3}),          // lhs stored [k, m]
      dims({1, 2}, {3, 2}, {1, 3}),          // rhs stored [n, k]
      dims({0, 1, 2}, {0, 2, 3}, {0, 1, 3}), // batched
      dims({1, 0, 2}, {2, 3, 0}, {3, 0, 1}), // every permutation
      dims({4, 1, 2}, {2, 3}, {1, 3}),       // summed-only lhs label
      dims({1, 2, 5}, {5, 3, 2}, {3, 1}),    // two contracted labels
      dims({1}, {3}, {1, 3}),                // outer product
      dims({0, 2}, {0, 2}, {0}),             // batched dot
      dims({2}, {2}, {}),                    // scalar dot
  };
  for (const ContractionDims &c : cases)
    for (ElementType type :
         {ElementType::f32, ElementType::f64, ElementType::bf16,
          ElementType::f16, ElementType::i8, ElementType::i32,
          ElementType::i64})
      checkPlan(c, type);
}

TEST(Gemm, LargeF32MatchesNaiveWithinRounding) {
  int64_t m = 67, n = 45, k = 129;
  std::vector<float> a(m * k), b(k * n), c(m * n);
  for (int64_t i = 0; i < m * k; ++i)
    a[i] = static_cast<float>(std::sin(0.37 * i));
  for (int64_t i = 0; i < k * n; ++i)
    b[i] = static_cast<float>(std::cos(0.11 * i));
  gemm(ElementType::f32, m, n, k, GemmOperand{a.data(), k, false},
       GemmOperand{b.data(), n, false}, c.data(), n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t p = 0; p < k; ++p) {
        sum += static_cast<double>(a[i * k + p]) * b[p * n + j];
        magnitude +=
            std::fabs(static_cast<double>(a[i * k + p]) * b[p * n + j]);
      }
      ASSERT_NEAR(c[i * n + j], sum, 1e-6 * magnitude + 1e-6);
    }
}

TEST(Gemm, SubmatrixLeadingDimensions) {
  // C[1:3, 1:3] = A[0:2, 0:3] x B[0:3, 1:3] inside larger buffers.
  std::vector<int32_t> a = {1, 2, 3, 9, 4, 5, 6, 9};    // 2x4, ld 4
  std::vector<int32_t> b = {9, 1, 0, 9, 0, 1, 9, 1, 1}; // 3x3, ld 3
  std::vector<int32_t> c(4 * 4, -1);
  gemm(ElementType::i32, 2, 2, 3, GemmOperand{a.data(), 4, false},
       GemmOperand{b.data() + 1, 3, false}, c.data() + 4 + 1, 4);
  EXPECT_EQ(c[5], 4);
  EXPECT_EQ(c[6], 5);
  EXPECT_EQ(c[9], 10);
  EXPECT_EQ(c[10], 11);
  EXPECT_EQ(c[0], -1); // untouched
  EXPECT_EQ(c[7], -1);
}

} // namespace
