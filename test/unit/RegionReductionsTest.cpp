//===- RegionReductionsTest.cpp - reductions with a computation -----------===//
//
// The kernels of reduce_region, reduce_window and select_and_scatter, on
// their fast paths and through the scalar evaluator, against naive loops.
//
//===----------------------------------------------------------------------===//

#include "runtime/kernels/RegionReductions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

using namespace xspmd::runtime;

namespace {

using Reg = ScalarComputation::Reg;
using Builder = ScalarComputation::Builder;

Tensor randomTensor(ElementType type, llvm::ArrayRef<int64_t> shape,
                    unsigned seed) {
  Tensor t = Tensor::allocate(type, shape);
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-50, 50);
  for (int64_t i = 0; i < t.getNumElements(); ++i)
    storeScalar(isFloat(type) ? Scalar::ofFloat(dist(gen) / 8.0)
                              : Scalar::ofInt(dist(gen)),
                type, t.data(), i);
  return t;
}

Tensor scalarTensor(ElementType type, Scalar value) {
  Tensor t = Tensor::allocate(type, {});
  storeScalar(value, type, t.data(), 0);
  return t;
}

double at(const Tensor &t, int64_t i) {
  Scalar s = loadScalar(t.data(), t.getElementType(), i);
  return isFloat(t.getElementType()) ? s.f : static_cast<double>(s.i);
}

ScalarComputation binaryBody(BinaryOp op, ElementType type) {
  Builder b(llvm::ArrayRef<ElementType>({type, type}));
  Reg r = *b.binary(op, b.argument(0), b.argument(1));
  return std::move(b).finish({r});
}

/// max written so that no fast path recognises it: select(a >= b, a, b).
ScalarComputation opaqueMax(ElementType type) {
  Builder b(llvm::ArrayRef<ElementType>({type, type}));
  Reg ge = b.compare(CompareOp::ge, b.argument(0), b.argument(1));
  Reg r = b.select(ge, b.argument(0), b.argument(1));
  return std::move(b).finish({r});
}

/// argmax's combiner over (value f32, index i32), first maximum on ties.
ScalarComputation argmaxBody() {
  Builder b(llvm::ArrayRef<ElementType>({ElementType::f32, ElementType::i32,
                                         ElementType::f32, ElementType::i32}));
  Reg gt = b.compare(CompareOp::gt, b.argument(0), b.argument(2));
  Reg eq = b.compare(CompareOp::eq, b.argument(0), b.argument(2));
  Reg v = b.select(gt, b.argument(0), b.argument(2));
  Reg lo = *b.binary(BinaryOp::min, b.argument(1), b.argument(3));
  Reg tie = b.select(eq, lo, b.argument(3));
  Reg i = b.select(gt, b.argument(1), tie);
  return std::move(b).finish({v, i});
}

TEST(RegionReductions, ArgmaxOverColumns) {
  Tensor x = randomTensor(ElementType::f32, {5, 7}, 1);
  Tensor iota = Tensor::allocate(ElementType::i32, {5, 7});
  for (int64_t i = 0; i < 35; ++i)
    iota.data<int32_t>()[i] = static_cast<int32_t>(i % 7);
  Tensor ninf =
      scalarTensor(ElementType::f32,
                   Scalar::ofFloat(-std::numeric_limits<double>::infinity()));
  Tensor zero = scalarTensor(ElementType::i32, Scalar::ofInt(0));
  Tensor results[2] = {Tensor::allocate(ElementType::f32, {5}),
                       Tensor::allocate(ElementType::i32, {5})};
  ScalarComputation body = argmaxBody();
  reduceWithComputation(body, {&x, &iota}, {&ninf, &zero}, {1}, results);
  for (int64_t r = 0; r < 5; ++r) {
    int64_t best = 0;
    for (int64_t c = 1; c < 7; ++c)
      if (at(x, r * 7 + c) > at(x, r * 7 + best))
        best = c;
    EXPECT_EQ(at(results[0], r), at(x, r * 7 + best)) << "row " << r;
    EXPECT_EQ(at(results[1], r), best) << "row " << r;
  }
}

TEST(RegionReductions, FastSumCombinesTheInit) {
  // A recognised add folds the init in once, whatever it is.
  Tensor x = randomTensor(ElementType::f32, {3, 4, 5}, 2);
  Tensor ten = scalarTensor(ElementType::f32, Scalar::ofFloat(10));
  Tensor out = Tensor::allocate(ElementType::f32, {4});
  ScalarComputation add = binaryBody(BinaryOp::add, ElementType::f32);
  reduceWithComputation(add, {&x}, {&ten}, {0, 2}, out);
  for (int64_t j = 0; j < 4; ++j) {
    double sum = 10;
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t k = 0; k < 5; ++k)
        sum += at(x, (i * 4 + j) * 5 + k);
    EXPECT_NEAR(at(out, j), sum, 1e-4);
  }
}

TEST(RegionReductions, FastAndGenericPathsAgree) {
  for (ElementType type : {ElementType::f32, ElementType::i32,
                           ElementType::bf16, ElementType::i8}) {
    Tensor x = randomTensor(type, {6, 9}, 3);
    Tensor init = scalarTensor(
        type, isFloat(type)
                  ? Scalar::ofFloat(-std::numeric_limits<double>::infinity())
                  : Scalar::ofInt(type == ElementType::i8 ? -128 : INT32_MIN));
    Tensor fast = Tensor::allocate(type, {9}),
           slow = Tensor::allocate(type, {9});
    reduceWithComputation(binaryBody(BinaryOp::max, type), {&x}, {&init}, {0},
                          fast);
    reduceWithComputation(opaqueMax(type), {&x}, {&init}, {0}, slow);
    EXPECT_TRUE(fast.bitwiseEquals(slow)) << toString(type).str();
  }
}

/// Naive reduce-window of one f32 input with `op` (max or sum).
std::vector<double> naiveWindow(const Tensor &x, double init,
                                const WindowParams &w,
                                llvm::ArrayRef<int64_t> outShape, bool max) {
  int64_t rank = x.getRank();
  std::vector<double> out(numElementsOf(outShape));
  for (int64_t o = 0; o < static_cast<int64_t>(out.size()); ++o) {
    Shape oi(rank);
    for (int64_t d = rank - 1, rest = o; d >= 0; --d) {
      oi[d] = rest % outShape[d];
      rest /= outShape[d];
    }
    double acc = init;
    Shape k(rank, 0);
    for (int64_t e = 0; e < numElementsOf(w.dimensions); ++e) {
      for (int64_t d = rank - 1, rest = e; d >= 0; --d) {
        k[d] = rest % w.dimensions[d];
        rest /= w.dimensions[d];
      }
      double v = init;
      int64_t offset = 0;
      bool inside = true;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t p = oi[d] * w.strides[d] + k[d] * w.windowDilations[d] -
                    w.padding[2 * d];
        if (p < 0 || p % w.baseDilations[d] != 0 ||
            p / w.baseDilations[d] >= x.getDimSize(d)) {
          inside = false;
          break;
        }
        offset = offset * x.getDimSize(d) + p / w.baseDilations[d];
      }
      if (inside)
        v = at(x, offset);
      acc = max ? std::max(acc, v) : acc + v;
    }
    out[o] = acc;
  }
  return out;
}

TEST(RegionReductions, WindowsWithStridesDilationsAndPadding) {
  Tensor x = randomTensor(ElementType::f32, {7, 6}, 4);
  // dim 0: base dilation 2 (13 dilated), padding [1, 2], window 3 dilated by
  // 2 (extent 5), stride 2: (16 - 5) / 2 + 1 = 6; dim 1: window 2, stride
  // 1, padding [0, 1]: 6.
  WindowParams w{{3, 2}, {2, 1}, {2, 1}, {2, 1}, {1, 2, 0, 1}};
  Shape outShape{6, 6};
  for (bool max : {true, false}) {
    double init = max ? -1e9 : 0.5;
    Tensor initT = scalarTensor(ElementType::f32, Scalar::ofFloat(init));
    std::vector<double> expected = naiveWindow(x, init, w, outShape, max);
    ScalarComputation fastBody =
        binaryBody(max ? BinaryOp::max : BinaryOp::add, ElementType::f32);
    Tensor fast = Tensor::allocate(ElementType::f32, outShape);
    reduceWindow(fastBody, {&x}, {&initT}, w, fast);
    // The generic path: the same fold as one of two inputs.
    Builder b(
        llvm::ArrayRef<ElementType>({ElementType::f32, ElementType::f32,
                                     ElementType::f32, ElementType::f32}));
    BinaryOp op = max ? BinaryOp::max : BinaryOp::add;
    Reg r0 = *b.binary(op, b.argument(0), b.argument(2));
    Reg r1 = *b.binary(BinaryOp::max, b.argument(1), b.argument(3));
    ScalarComputation pairBody = std::move(b).finish({r0, r1});
    Tensor pair[2] = {Tensor::allocate(ElementType::f32, outShape),
                      Tensor::allocate(ElementType::f32, outShape)};
    reduceWindow(pairBody, {&x, &x}, {&initT, &initT}, w, pair);
    for (int64_t o = 0; o < 36; ++o) {
      EXPECT_NEAR(at(fast, o), expected[o], 1e-4)
          << o << (max ? " max" : " sum");
      EXPECT_NEAR(at(pair[0], o), expected[o], 1e-4) << o;
    }
  }
}

TEST(RegionReductions, Cumsum) {
  Tensor x = randomTensor(ElementType::i32, {2, 5}, 5);
  Tensor zero = scalarTensor(ElementType::i32, Scalar::ofInt(0));
  WindowParams w{{1, 5}, {1, 1}, {1, 1}, {1, 1}, {0, 0, 4, 0}};
  Tensor out = Tensor::allocate(ElementType::i32, {2, 5});
  reduceWindow(binaryBody(BinaryOp::add, ElementType::i32), {&x}, {&zero}, w,
               out);
  for (int64_t r = 0; r < 2; ++r) {
    double running = 0;
    for (int64_t c = 0; c < 5; ++c) {
      running += at(x, r * 5 + c);
      EXPECT_EQ(at(out, r * 5 + c), running);
    }
  }
}

/// Naive select-and-scatter with a `>=` select and an add scatter.
std::vector<double> naiveMaxPoolGrad(const Tensor &x, const Tensor &dy,
                                     const WindowParams &w, double init) {
  std::vector<double> out(x.getNumElements(), init);
  int64_t rows = x.getDimSize(0), cols = x.getDimSize(1);
  for (int64_t i = 0; i < dy.getDimSize(0); ++i)
    for (int64_t j = 0; j < dy.getDimSize(1); ++j) {
      int64_t best = -1;
      for (int64_t a = 0; a < w.dimensions[0]; ++a)
        for (int64_t b = 0; b < w.dimensions[1]; ++b) {
          int64_t r = i * w.strides[0] + a - w.padding[0];
          int64_t c = j * w.strides[1] + b - w.padding[2];
          if (r < 0 || r >= rows || c < 0 || c >= cols)
            continue;
          if (best < 0 || !(at(x, best) >= at(x, r * cols + c)))
            best = r * cols + c;
        }
      if (best >= 0)
        out[best] += at(dy, i * dy.getDimSize(1) + j);
    }
  return out;
}

TEST(RegionReductions, SelectAndScatterOverlappingPaddedWindows) {
  // 3x3 windows at stride 2 with padding overlap and reach past the edge.
  Tensor x = randomTensor(ElementType::f32, {7, 8}, 6);
  Tensor dy = randomTensor(ElementType::f32, {4, 4}, 7);
  Tensor zero = scalarTensor(ElementType::f32, Scalar::ofFloat(0.25));
  WindowParams w{{3, 3}, {2, 2}, {}, {}, {1, 1, 1, 0}};
  std::vector<double> expected = naiveMaxPoolGrad(x, dy, w, 0.25);
  ScalarComputation ge = [] {
    Builder b(
        llvm::ArrayRef<ElementType>({ElementType::f32, ElementType::f32}));
    return std::move(b).finish(
        {b.compare(CompareOp::ge, b.argument(0), b.argument(1))});
  }();
  // The same select hidden from the fast path: not(a < b).
  ScalarComputation notLt = [] {
    Builder b(
        llvm::ArrayRef<ElementType>({ElementType::f32, ElementType::f32}));
    Reg lt = b.compare(CompareOp::lt, b.argument(0), b.argument(1));
    Reg t = b.constant(Scalar::ofBool(true), ElementType::i1);
    return std::move(b).finish({*b.binary(BinaryOp::xor_, lt, t)});
  }();
  ScalarComputation add = binaryBody(BinaryOp::add, ElementType::f32);
  Tensor fast = Tensor::allocate(ElementType::f32, {7, 8});
  Tensor slow = Tensor::allocate(ElementType::f32, {7, 8});
  selectAndScatter(ge, add, x, dy, zero, w, fast);
  selectAndScatter(notLt, add, x, dy, zero, w, slow);
  for (int64_t i = 0; i < 56; ++i) {
    EXPECT_NEAR(at(fast, i), expected[i], 1e-5) << i;
    EXPECT_NEAR(at(slow, i), expected[i], 1e-5) << i;
  }
}

TEST(RegionReductions, WindowsOfPaddingOnlyScatterNothing) {
  // Padding of 3 in front: the first window holds padding only.
  Tensor x = randomTensor(ElementType::f32, {1, 4}, 8);
  Tensor dys = Tensor::allocate(ElementType::f32, {1, 3});
  for (int64_t i = 0; i < 3; ++i)
    dys.data<float>()[i] = 1.0f + static_cast<float>(i);
  Tensor zero = scalarTensor(ElementType::f32, Scalar::ofFloat(0));
  WindowParams w{{1, 2}, {1, 2}, {}, {}, {0, 0, 3, 0}};
  ScalarComputation ge = [] {
    Builder b(
        llvm::ArrayRef<ElementType>({ElementType::f32, ElementType::f32}));
    return std::move(b).finish(
        {b.compare(CompareOp::ge, b.argument(0), b.argument(1))});
  }();
  Tensor out = Tensor::allocate(ElementType::f32, {1, 4});
  selectAndScatter(ge, binaryBody(BinaryOp::add, ElementType::f32), x, dys,
                   zero, w, out);
  // Window 0 covers [-3, -1): padding only; window 1 covers [-1, 1):
  // element 0; window 2 covers [1, 3): the larger of elements 1 and 2.
  double total = 0;
  for (int64_t i = 0; i < 4; ++i)
    total += at(out, i);
  EXPECT_EQ(total, 2.0 + 3.0);
  EXPECT_EQ(at(out, 0), 2.0);
  EXPECT_EQ(at(out, 3), 0.0);
}

} // namespace
