//===- ReduceTest.cpp - reductions vs naive loops -------------------------===//

#include "runtime/kernels/Reduce.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/Random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace xspmd::runtime;

namespace {

/// Naive: visit the input row-major, fold into the output in that order.
std::vector<double> naiveReduce(ReduceKind kind, const Tensor &in,
                                llvm::ArrayRef<int64_t> dims) {
  int64_t rank = in.getRank();
  std::vector<bool> reduced(rank, false);
  for (int64_t d : dims)
    reduced[d] = true;
  Shape outShape;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      outShape.push_back(in.getDimSize(d));
  std::vector<double> acc(numElementsOf(outShape), 0.0);
  std::vector<bool> seen(acc.size(), false);
  std::vector<int64_t> count(acc.size(), 0);
  for (int64_t i = 0; i < in.getNumElements(); ++i) {
    int64_t rest = i, o = 0, scale = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t idx = rest % in.getDimSize(d);
      rest /= in.getDimSize(d);
      if (!reduced[d]) {
        o += idx * scale;
        scale *= in.getDimSize(d);
      }
    }
    double x = loadAsDouble(in.data(), in.getElementType(), i);
    ++count[o];
    if (!seen[o]) {
      acc[o] = x;
      seen[o] = true;
      continue;
    }
    switch (kind) {
    case ReduceKind::sum:
    case ReduceKind::mean:
      acc[o] += x;
      break;
    case ReduceKind::prod:
      acc[o] *= x;
      break;
    case ReduceKind::max:
      acc[o] = std::max(acc[o], x);
      break;
    case ReduceKind::min:
      acc[o] = std::min(acc[o], x);
      break;
    default:
      break;
    }
  }
  if (kind == ReduceKind::mean)
    for (size_t o = 0; o < acc.size(); ++o)
      acc[o] /= count[o];
  return acc;
}

TEST(Reduce, MatchesNaiveOverDimSubsets) {
  Shape shape = {3, 4, 1, 5};
  Tensor in = Tensor::allocate(ElementType::f64, shape);
  for (int64_t i = 0; i < in.getNumElements(); ++i)
    in.data<double>()[i] = static_cast<double>(randomBits(9, i, 0) % 11) - 5;
  for (ReduceKind kind : {ReduceKind::sum, ReduceKind::prod, ReduceKind::max,
                          ReduceKind::min, ReduceKind::mean}) {
    for (unsigned mask = 1; mask < 16; ++mask) {
      Shape dims, outShape;
      for (int64_t d = 0; d < 4; ++d)
        if (mask & (1u << d))
          dims.push_back(d);
        else
          outShape.push_back(shape[d]);
      Tensor out = Tensor::allocate(ElementType::f64, outShape);
      reduce(kind, in, dims, out);
      std::vector<double> expected = naiveReduce(kind, in, dims);
      for (int64_t i = 0; i < out.getNumElements(); ++i)
        ASSERT_DOUBLE_EQ(out.data<double>()[i], expected[i])
            << "mask " << mask << " kind " << static_cast<int>(kind);
    }
  }
}

TEST(Reduce, FoldOrderIsRowMajorWhateverTheLayout) {
  // Values whose f32 sum depends on the order: reducing dims {0, 2} goes
  // through a transpose, reducing dim 1 of the transposed copy does not;
  // both must fold in row-major order of the reduced indices.
  Shape shape = {4, 3, 5};
  Tensor in = Tensor::allocate(ElementType::f32, shape);
  for (int64_t i = 0; i < in.getNumElements(); ++i)
    in.data<float>()[i] =
        std::ldexp(1.0f, static_cast<int>(randomBits(2, i, 0) % 40) - 20);
  Tensor out = Tensor::allocate(ElementType::f32, {3});
  reduce(ReduceKind::sum, in, {0, 2}, out);
  for (int64_t b = 0; b < 3; ++b) {
    float acc = 0;
    bool first = true;
    for (int64_t a = 0; a < 4; ++a)
      for (int64_t c = 0; c < 5; ++c) {
        float x = in.data<float>()[(a * 3 + b) * 5 + c];
        acc = first ? x : acc + x;
        first = false;
      }
    EXPECT_EQ(out.data<float>()[b], acc);
  }
}

TEST(Reduce, IntegersWrapAndBitwise) {
  Tensor in = Tensor::allocate(ElementType::i8, {4});
  int8_t values[] = {100, 100, 100, -7};
  std::copy(values, values + 4, in.data<int8_t>());
  Tensor out = Tensor::allocate(ElementType::i8, {});
  reduce(ReduceKind::sum, in, {0}, out);
  EXPECT_EQ(out.data<int8_t>()[0], static_cast<int8_t>(293 & 0xff));
  reduce(ReduceKind::and_, in, {0}, out);
  EXPECT_EQ(out.data<int8_t>()[0], static_cast<int8_t>(100 & -7));
  reduce(ReduceKind::or_, in, {0}, out);
  EXPECT_EQ(out.data<int8_t>()[0], static_cast<int8_t>(100 | -7));
}

TEST(Softmax, RowsSumToOneAndMatchDefinition) {
  Tensor in = Tensor::allocate(ElementType::f64, {2, 3, 4});
  for (int64_t i = 0; i < in.getNumElements(); ++i)
    in.data<double>()[i] = 0.25 * i - 3;
  Tensor out = Tensor::allocate(ElementType::f64, {2, 3, 4});
  softmax(in, 1, out);
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t c = 0; c < 4; ++c) {
      double total = 0;
      for (int64_t b = 0; b < 3; ++b)
        total += std::exp(in.data<double>()[(a * 3 + b) * 4 + c]);
      for (int64_t b = 0; b < 3; ++b) {
        int64_t i = (a * 3 + b) * 4 + c;
        EXPECT_NEAR(out.data<double>()[i],
                    std::exp(in.data<double>()[i]) / total, 1e-15);
      }
    }
}

} // namespace
