//===- IndexingKernelsTest.cpp - hlo gather, scatter and sort kernels -----===//
//
// The kernels against hand-computed results (StableHLO's gather example,
// out-of-bounds starts) and against naive versions (sorting by a comparator
// with std::stable_sort on every row).

#include "runtime/kernels/Indexing.h"
#include "runtime/kernels/Sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

using namespace xspmd::runtime;

namespace {

template <typename T>
Tensor tensorOf(ElementType type, llvm::ArrayRef<int64_t> shape,
                const std::vector<T> &values) {
  Tensor t = Tensor::allocate(type, shape);
  EXPECT_EQ(static_cast<int64_t>(values.size()), t.getNumElements());
  std::copy(values.begin(), values.end(), t.data<T>());
  return t;
}

template <typename T>
std::vector<T> valuesOf(const Tensor &t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.getNumElements());
}

/// `yield op(arg0, arg1)` over `type`.
ScalarComputation binaryBody(BinaryOp op, ElementType type) {
  ScalarComputation::Builder b({type, type});
  auto r = b.binary(op, b.argument(0), b.argument(1));
  EXPECT_TRUE(r.has_value());
  return std::move(b).finish({*r});
}

/// `yield compare DIR arg0, arg1` over N inputs of `types`.
ScalarComputation comparatorOf(CompareOp dir,
                               llvm::ArrayRef<ElementType> types) {
  std::vector<ElementType> args;
  for (ElementType t : types)
    args.insert(args.end(), {t, t});
  ScalarComputation::Builder b(args);
  return std::move(b).finish({b.compare(dir, b.argument(0), b.argument(1))});
}

TEST(HloGatherTest, StableHloExampleWithBatchingDims) {
  std::vector<int32_t> operand(2 * 3 * 4 * 2);
  std::iota(operand.begin(), operand.end(), 1);
  Tensor x = tensorOf(ElementType::i32, {2, 3, 4, 2}, operand);
  Tensor idx = tensorOf<int64_t>(
      ElementType::i64, {2, 2, 3, 2},
      {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9, 0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0});
  GatherDimensions dims;
  dims.mapping.indexVectorDim = 3;
  dims.mapping.indexToOperandDims = {2, 1};
  dims.mapping.operandBatchingDims = {0};
  dims.mapping.indicesBatchingDims = {1};
  dims.offsetDims = {3, 4};
  dims.collapsedSliceDims = {1};
  dims.sliceSizes = {1, 1, 2, 2};
  Tensor out = Tensor::allocate(ElementType::i32, {2, 2, 3, 2, 2});
  hloGather(x, idx, dims, out);
  EXPECT_EQ(
      valuesOf<int32_t>(out),
      (std::vector<int32_t>{1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                            33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44,
                            1,  2,  3,  4,  13, 14, 15, 16, 21, 22, 23, 24,
                            43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30}));
}

TEST(HloGatherTest, ClampsStartsAndTakesImplicitVectors) {
  // Rows of 2 columns at starts clamped into [0, 4 - 2].
  Tensor x = tensorOf<float>(ElementType::f32, {3, 4},
                             {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
  Tensor idx = tensorOf<int32_t>(ElementType::i32, {3}, {-5, 1, 7});
  GatherDimensions dims;
  dims.mapping.indexVectorDim = 1;
  dims.mapping.indexToOperandDims = {1};
  dims.offsetDims = {1, 2};
  dims.sliceSizes = {3, 2};
  Tensor out = Tensor::allocate(ElementType::f32, {3, 3, 2});
  hloGather(x, idx, dims, out);
  EXPECT_EQ(valuesOf<float>(out),
            (std::vector<float>{0, 1, 10, 11, 20, 21, 1, 2, 11, 12, 21, 22, 2,
                                3, 12, 13, 22, 23}));
}

ScatterDimensions rowScatter() {
  ScatterDimensions dims;
  dims.mapping.indexVectorDim = 1;
  dims.mapping.indexToOperandDims = {0};
  dims.updateWindowDims = {1};
  dims.insertedWindowDims = {0};
  return dims;
}

TEST(ScatterTest, AddsRowsAndSkipsOutOfBounds) {
  Tensor x =
      tensorOf<float>(ElementType::f32, {4, 2}, {0, 0, 1, 1, 2, 2, 3, 3});
  Tensor idx = tensorOf<int32_t>(ElementType::i32, {5, 1}, {1, 3, 1, -1, 4});
  Tensor u = tensorOf<float>(ElementType::f32, {5, 2},
                             {10, 20, 30, 40, 50, 60, 70, 80, 90, 100});
  ScalarComputation add = binaryBody(BinaryOp::add, ElementType::f32);
  Tensor out = Tensor::allocate(ElementType::f32, {4, 2});
  const Tensor *inputs[] = {&x}, *updates[] = {&u};
  scatter(inputs, idx, updates, rowScatter(), {&add, false}, out);
  EXPECT_EQ(valuesOf<float>(out),
            (std::vector<float>{0, 0, 61, 81, 2, 2, 33, 43}));
}

TEST(ScatterTest, SkipsWindowsThatDoNotFit) {
  // Windows of 2 along the indexed dimension: starts 0..2 fit in 4.
  Tensor x = tensorOf<int32_t>(ElementType::i32, {4}, {0, 0, 0, 0});
  Tensor idx = tensorOf<int32_t>(ElementType::i32, {3}, {2, 3, 0});
  Tensor u = tensorOf<int32_t>(ElementType::i32, {3, 2}, {1, 2, 3, 4, 5, 6});
  ScatterDimensions dims;
  dims.mapping.indexVectorDim = 1;
  dims.mapping.indexToOperandDims = {0};
  dims.updateWindowDims = {1};
  ScalarComputation add = binaryBody(BinaryOp::add, ElementType::i32);
  Tensor out = Tensor::allocate(ElementType::i32, {4});
  const Tensor *inputs[] = {&x}, *updates[] = {&u};
  scatter(inputs, idx, updates, dims, {&add, false}, out);
  EXPECT_EQ(valuesOf<int32_t>(out), (std::vector<int32_t>{5, 6, 1, 2}));
}

TEST(ScatterTest, OverwriteKeepsTheLastUpdate) {
  Tensor x = tensorOf<int8_t>(ElementType::i8, {3, 1}, {7, 7, 7});
  Tensor idx = tensorOf<int64_t>(ElementType::i64, {3, 1}, {2, 0, 2});
  Tensor u = tensorOf<int8_t>(ElementType::i8, {3, 1}, {1, 2, 3});
  ScalarComputation::Builder b({ElementType::i8, ElementType::i8});
  ScalarComputation second = std::move(b).finish({b.argument(1)});
  Tensor out = Tensor::allocate(ElementType::i8, {3, 1});
  const Tensor *inputs[] = {&x}, *updates[] = {&u};
  scatter(inputs, idx, updates, rowScatter(), {&second, true}, out);
  EXPECT_EQ(valuesOf<int8_t>(out), (std::vector<int8_t>{2, 7, 3}));
  // The general path (no overwrite flag) agrees.
  scatter(inputs, idx, updates, rowScatter(), {&second, false}, out);
  EXPECT_EQ(valuesOf<int8_t>(out), (std::vector<int8_t>{2, 7, 3}));
}

TEST(ScatterTest, BatchingDimsAndTwoInputs) {
  // scatter_(1, idx, src) per row, on a value/count pair: the body adds the
  // values and counts the updates.
  Tensor v = tensorOf<float>(ElementType::f32, {2, 3}, {0, 0, 0, 0, 0, 0});
  Tensor c = tensorOf<int32_t>(ElementType::i32, {2, 3}, {0, 0, 0, 0, 0, 0});
  Tensor idx = tensorOf<int32_t>(ElementType::i32, {2, 2}, {2, 2, 0, 5});
  Tensor uv = tensorOf<float>(ElementType::f32, {2, 2}, {1, 2, 3, 4});
  Tensor uc = tensorOf<int32_t>(ElementType::i32, {2, 2}, {1, 1, 1, 1});
  ScatterDimensions dims;
  dims.mapping.indexVectorDim = 2;
  dims.mapping.indexToOperandDims = {1};
  dims.mapping.operandBatchingDims = {0};
  dims.mapping.indicesBatchingDims = {0};
  dims.insertedWindowDims = {1};
  ScalarComputation::Builder b(
      {ElementType::f32, ElementType::i32, ElementType::f32, ElementType::i32});
  auto sum = b.binary(BinaryOp::add, b.argument(0), b.argument(2));
  auto count = b.binary(BinaryOp::add, b.argument(1), b.argument(3));
  ScalarComputation body = std::move(b).finish({*sum, *count});
  Tensor out[] = {Tensor::allocate(ElementType::f32, {2, 3}),
                  Tensor::allocate(ElementType::i32, {2, 3})};
  const Tensor *inputs[] = {&v, &c}, *updates[] = {&uv, &uc};
  scatter(inputs, idx, updates, dims, {&body, false}, out);
  EXPECT_EQ(valuesOf<float>(out[0]), (std::vector<float>{0, 0, 3, 3, 0, 0}));
  EXPECT_EQ(valuesOf<int32_t>(out[1]),
            (std::vector<int32_t>{0, 0, 2, 1, 0, 0}));
}

TEST(SortTest, FastPathOrdersNaNAboveNumbers) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = tensorOf<float>(ElementType::f32, {2, 4},
                             {3, nan, -1, 2, nan, 0.5f, nan, -2});
  Tensor pos =
      tensorOf<int32_t>(ElementType::i32, {2, 4}, {0, 1, 2, 3, 0, 1, 2, 3});
  for (CompareOp dir : {CompareOp::lt, CompareOp::gt}) {
    ScalarComputation cmp =
        comparatorOf(dir, {ElementType::f32, ElementType::i32});
    Tensor out[] = {Tensor::allocate(ElementType::f32, {2, 4}),
                    Tensor::allocate(ElementType::i32, {2, 4})};
    const Tensor *inputs[] = {&x, &pos};
    sort(inputs, 1, /*stable=*/true, cmp, out);
    std::vector<int32_t> order = valuesOf<int32_t>(out[1]);
    if (dir == CompareOp::lt)
      EXPECT_EQ(order, (std::vector<int32_t>{2, 3, 0, 1, 3, 1, 0, 2}));
    else
      EXPECT_EQ(order, (std::vector<int32_t>{1, 0, 3, 2, 0, 2, 1, 3}));
    std::vector<float> keys = valuesOf<float>(out[0]);
    for (int j = 0; j < 8; ++j) {
      float want = x.data<float>()[(j / 4) * 4 + order[j]];
      EXPECT_TRUE(keys[j] == want || (std::isnan(keys[j]) && std::isnan(want)));
    }
  }
}

TEST(SortTest, StableKeepsTiesInOrderOnEveryType) {
  for (ElementType type : kAllElementTypes) {
    // Keys 1 0 1 0 1 0 along dim 0 of a 6x2 tensor (ties everywhere).
    Tensor keys = Tensor::allocate(type, {6, 2});
    for (int64_t i = 0; i < 12; ++i)
      storeScalar(isFloat(type) ? Scalar::ofFloat((i / 2) % 2 ? 0.0 : 1.0)
                                : Scalar::ofInt((i / 2) % 2 ? 0 : 1),
                  type, keys.data(), i);
    std::vector<int32_t> ids(12);
    std::iota(ids.begin(), ids.end(), 0);
    Tensor pos = tensorOf<int32_t>(ElementType::i32, {6, 2}, ids);
    ScalarComputation cmp =
        comparatorOf(CompareOp::lt, {type, ElementType::i32});
    Tensor out[] = {Tensor::allocate(type, {6, 2}),
                    Tensor::allocate(ElementType::i32, {6, 2})};
    const Tensor *inputs[] = {&keys, &pos};
    sort(inputs, 0, /*stable=*/true, cmp, out);
    EXPECT_EQ(valuesOf<int32_t>(out[1]),
              (std::vector<int32_t>{2, 3, 6, 7, 10, 11, 0, 1, 4, 5, 8, 9}))
        << toString(type).str();
  }
}

TEST(SortTest, GeneralComparatorMatchesNaiveStableSort) {
  // Lexicographic on (i32 key, f32 value): a0 < b0 || (a0 == b0 && a1 < b1).
  ScalarComputation::Builder b(
      {ElementType::i32, ElementType::i32, ElementType::f32, ElementType::f32});
  auto lt0 = b.compare(CompareOp::lt, b.argument(0), b.argument(1));
  auto eq0 = b.compare(CompareOp::eq, b.argument(0), b.argument(1));
  auto lt1 = b.compare(CompareOp::lt, b.argument(2), b.argument(3));
  auto tie = b.binary(BinaryOp::and_, eq0, lt1);
  auto before = b.binary(BinaryOp::or_, lt0, *tie);
  ScalarComputation cmp = std::move(b).finish({*before});
  ASSERT_FALSE(cmp.asComparison().has_value());
  int64_t rows = 3, n = 9;
  std::vector<int32_t> k(rows * n);
  std::vector<float> v(rows * n);
  for (int64_t i = 0; i < rows * n; ++i) {
    k[i] = static_cast<int32_t>((i * 7) % 4);
    v[i] = static_cast<float>((i * 13) % 11) - 5;
  }
  Tensor keys = tensorOf(ElementType::i32, {rows, n}, k);
  Tensor vals = tensorOf(ElementType::f32, {rows, n}, v);
  Tensor out[] = {Tensor::allocate(ElementType::i32, {rows, n}),
                  Tensor::allocate(ElementType::f32, {rows, n})};
  const Tensor *inputs[] = {&keys, &vals};
  sort(inputs, 1, /*stable=*/false, cmp, out);
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<std::pair<int32_t, float>> row;
    for (int64_t j = 0; j < n; ++j)
      row.push_back({k[r * n + j], v[r * n + j]});
    std::stable_sort(row.begin(), row.end());
    for (int64_t j = 0; j < n; ++j) {
      EXPECT_EQ(out[0].data<int32_t>()[r * n + j], row[j].first);
      EXPECT_EQ(out[1].data<float>()[r * n + j], row[j].second);
    }
  }
}

} // namespace
