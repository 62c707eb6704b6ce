//===- ScalarComputationTest.cpp - compiled scalar computations -----------===//

#include "runtime/kernels/ScalarComputation.h"
#include "runtime/kernels/Elementwise.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace xspmd::runtime;

namespace {

using Reg = ScalarComputation::Reg;

Scalar runOne(const ScalarComputation &c, llvm::ArrayRef<Scalar> args) {
  Scalar out;
  c.run(args, out);
  return out;
}

ScalarComputation binaryBody(BinaryOp op, ElementType type, bool swapped) {
  ScalarComputation::Builder b({type, type});
  Reg r =
      *b.binary(op, b.argument(swapped ? 1 : 0), b.argument(swapped ? 0 : 1));
  return std::move(b).finish({r});
}

TEST(ScalarComputation, AddOfEveryIntegerWidthWraps) {
  for (auto [type, a, b, expected] :
       {std::tuple{ElementType::i8, int64_t{100}, int64_t{100}, int64_t{-56}},
        std::tuple{ElementType::i32, int64_t{INT32_MAX}, int64_t{1},
                   int64_t{INT32_MIN}},
        std::tuple{ElementType::i64, INT64_MAX, int64_t{1}, INT64_MIN}}) {
    ScalarComputation c = binaryBody(BinaryOp::add, type, false);
    EXPECT_EQ(runOne(c, {Scalar::ofInt(a), Scalar::ofInt(b)}).i, expected)
        << toString(type).str();
  }
}

TEST(ScalarComputation, IntegerDivisionAsXla) {
  ScalarComputation c = binaryBody(BinaryOp::div, ElementType::i32, false);
  EXPECT_EQ(runOne(c, {Scalar::ofInt(7), Scalar::ofInt(0)}).i, -1);
  EXPECT_EQ(runOne(c, {Scalar::ofInt(INT32_MIN), Scalar::ofInt(-1)}).i,
            INT32_MIN);
  EXPECT_EQ(runOne(c, {Scalar::ofInt(-7), Scalar::ofInt(2)}).i, -3);
}

TEST(ScalarComputation, Bf16RoundsAfterEachOp) {
  // 1 + 2^-9 is not a bf16: each add rounds back to 1 (ties to even), so
  // adding it twice keeps 1, while f32 keeps both increments.
  for (auto [type, expected] : {std::pair{ElementType::bf16, 1.0},
                                std::pair{ElementType::f32, 1.0 + 0x1p-8}}) {
    ScalarComputation::Builder b({type, type});
    Reg once = *b.binary(BinaryOp::add, b.argument(0), b.argument(1));
    Reg twice = *b.binary(BinaryOp::add, once, b.argument(1));
    ScalarComputation c = std::move(b).finish({twice});
    EXPECT_EQ(runOne(c, {Scalar::ofFloat(1.0), Scalar::ofFloat(0x1p-9)}).f,
              expected)
        << toString(type).str();
  }
}

TEST(ScalarComputation, F32MatchesTheTensorKernelBitForBit) {
  // Every unary op of the tensor kernels on f32, through the computation
  // and through the kernel on a one-element buffer.
  for (UnaryOp op : {UnaryOp::neg, UnaryOp::abs, UnaryOp::exp, UnaryOp::log,
                     UnaryOp::tanh, UnaryOp::sqrt, UnaryOp::rsqrt,
                     UnaryOp::sigmoid, UnaryOp::relu, UnaryOp::gelu}) {
    ScalarComputation::Builder b(llvm::ArrayRef<ElementType>(ElementType::f32));
    Reg r = *b.unary(op, b.argument(0));
    ScalarComputation c = std::move(b).finish({r});
    for (float x : {0.3f, 1.7f, -2.5f, 11.0f}) {
      float expected;
      getUnaryKernel(op, ElementType::f32)(&x, &expected, 1);
      float got = fromScalar<float>(runOne(c, {toScalar(x)}));
      EXPECT_EQ(std::memcmp(&got, &expected, sizeof got), 0)
          << static_cast<int>(op) << " of " << x;
    }
  }
}

TEST(ScalarComputation, InlineOpsMatchTheTensorKernels) {
  // The ops computed inline (not through a kernel) against the kernels, on
  // values whose results need rounding in the narrow types.
  const double values[] = {0.1, -3.7, 1e-3, 250.5, -0.0, 7.0, 1.0 / 3};
  for (ElementType type :
       {ElementType::f32, ElementType::bf16, ElementType::f16, ElementType::i8,
        ElementType::i32}) {
    for (BinaryOp op : {BinaryOp::add, BinaryOp::sub, BinaryOp::mul,
                        BinaryOp::div, BinaryOp::max, BinaryOp::min}) {
      ScalarComputation c = binaryBody(op, type, false);
      BinaryKernel kernel = getBinaryKernel(op, type);
      for (double x : values)
        for (double y : values) {
          alignas(8) unsigned char in[16], out[8];
          auto scalarOf = [&](double v) {
            return isFloat(type) ? Scalar::ofFloat(v)
                                 : Scalar::ofInt(static_cast<int64_t>(v * 9));
          };
          storeScalar(scalarOf(x), type, in, 0);
          storeScalar(scalarOf(y), type, in, 1);
          Scalar a = loadScalar(in, type, 0), b = loadScalar(in, type, 1);
          kernel(in, in + byteWidth(type), out, 1);
          Scalar expected = loadScalar(out, type, 0);
          Scalar got = runOne(c, {a, b});
          if (isFloat(type))
            EXPECT_TRUE(got.f == expected.f ||
                        (std::isnan(got.f) && std::isnan(expected.f)))
                << toString(type).str() << " op " << static_cast<int>(op)
                << ": " << got.f << " vs " << expected.f;
          else
            EXPECT_EQ(got.i, expected.i) << toString(type).str();
        }
    }
  }
}

TEST(ScalarComputation, MaxLetsNaNWin) {
  ScalarComputation c = binaryBody(BinaryOp::max, ElementType::f32, false);
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(
      std::isnan(runOne(c, {Scalar::ofFloat(1), Scalar::ofFloat(nan)}).f));
  EXPECT_TRUE(
      std::isnan(runOne(c, {Scalar::ofFloat(nan), Scalar::ofFloat(1)}).f));
}

TEST(ScalarComputation, UndefinedOpsAreRefused) {
  ScalarComputation::Builder b({ElementType::i32, ElementType::i1});
  EXPECT_FALSE(b.unary(UnaryOp::exp, b.argument(0)));
  EXPECT_FALSE(b.binary(BinaryOp::add, b.argument(1), b.argument(1)));
  EXPECT_TRUE(b.binary(BinaryOp::xor_, b.argument(1), b.argument(1)));
}

/// argmax's combiner: (v0, i0, v1, i1) -> the larger value and its index,
/// the smaller index on ties.
ScalarComputation argmaxBody() {
  ScalarComputation::Builder b(
      {ElementType::f32, ElementType::i32, ElementType::f32, ElementType::i32});
  Reg v0 = b.argument(0), i0 = b.argument(1), v1 = b.argument(2),
      i1 = b.argument(3);
  Reg gt = b.compare(CompareOp::gt, v0, v1);
  Reg eq = b.compare(CompareOp::eq, v0, v1);
  Reg v = b.select(gt, v0, v1);
  Reg smaller = *b.binary(BinaryOp::min, i0, i1);
  Reg tie = b.select(eq, smaller, i1);
  Reg i = b.select(gt, i0, tie);
  return std::move(b).finish({v, i});
}

TEST(ScalarComputation, ArgmaxCombinerKeepsTheFirstMaximum) {
  ScalarComputation c = argmaxBody();
  EXPECT_EQ(c.getNumOps(), 6);
  Scalar out[2];
  c.run({Scalar::ofFloat(2), Scalar::ofInt(5), Scalar::ofFloat(3),
         Scalar::ofInt(1)},
        out);
  EXPECT_EQ(out[0].f, 3);
  EXPECT_EQ(out[1].i, 1);
  c.run({Scalar::ofFloat(3), Scalar::ofInt(4), Scalar::ofFloat(3),
         Scalar::ofInt(7)},
        out);
  EXPECT_EQ(out[1].i, 4);
  EXPECT_FALSE(c.asBinaryOp());
  EXPECT_FALSE(c.asComparison());
}

TEST(ScalarComputation, ConstantsConvertAndSelect) {
  // (x: i32) -> x > 2 ? f32(x) * 0.5 : -1
  ScalarComputation::Builder b(llvm::ArrayRef<ElementType>(ElementType::i32));
  Reg two = b.constant(Scalar::ofInt(2), ElementType::i32);
  Reg half = b.constant(Scalar::ofFloat(0.5), ElementType::f32);
  Reg minusOne = b.constant(Scalar::ofFloat(-1), ElementType::f32);
  Reg big = b.compare(CompareOp::gt, b.argument(0), two);
  Reg asFloat = b.convert(b.argument(0), ElementType::f32);
  Reg scaled = *b.binary(BinaryOp::mul, asFloat, half);
  Reg r = b.select(big, scaled, minusOne);
  ScalarComputation c = std::move(b).finish({r});
  EXPECT_EQ(runOne(c, {Scalar::ofInt(7)}).f, 3.5);
  EXPECT_EQ(runOne(c, {Scalar::ofInt(1)}).f, -1);
  EXPECT_EQ(c.getResultTypes().front(), ElementType::f32);
}

TEST(ScalarComputation, ConvertSaturatesAndRounds) {
  ScalarComputation::Builder b(llvm::ArrayRef<ElementType>(ElementType::f32));
  Reg toI8 = b.convert(b.argument(0), ElementType::i8);
  Reg toBf16 = b.convert(b.argument(0), ElementType::bf16);
  Reg toI1 = b.convert(b.argument(0), ElementType::i1);
  ScalarComputation c = std::move(b).finish({toI8, toBf16, toI1});
  Scalar out[3];
  c.run({Scalar::ofFloat(1000.0)}, out);
  EXPECT_EQ(out[0].i, 127);
  EXPECT_EQ(out[1].f, 1000.0);
  EXPECT_EQ(out[2].i, 1);
  c.run({Scalar::ofFloat(1.00390625)}, out); // 1 + 2^-8: a bf16 tie
  EXPECT_EQ(out[1].f, 1.0);
}

TEST(ScalarComputation, RecognisesReducers) {
  for (BinaryOp op :
       {BinaryOp::add, BinaryOp::mul, BinaryOp::max, BinaryOp::min}) {
    EXPECT_EQ(binaryBody(op, ElementType::f32, false).asBinaryOp(), op);
    EXPECT_EQ(binaryBody(op, ElementType::bf16, true).asBinaryOp(), op);
  }
  for (BinaryOp op : {BinaryOp::and_, BinaryOp::or_, BinaryOp::xor_})
    EXPECT_EQ(binaryBody(op, ElementType::i1, false).asBinaryOp(), op);
  // Not associative, or not of both arguments.
  EXPECT_FALSE(binaryBody(BinaryOp::sub, ElementType::f32, false).asBinaryOp());
  ScalarComputation::Builder b({ElementType::f32, ElementType::f32});
  Reg twice = *b.binary(BinaryOp::add, b.argument(0), b.argument(0));
  EXPECT_FALSE(std::move(b).finish({twice}).asBinaryOp());
}

TEST(ScalarComputation, RecognisesComparators) {
  // A sort comparator of two operands: only the keys (args 0 and 1) count.
  ScalarComputation::Builder b(
      {ElementType::f32, ElementType::f32, ElementType::i32, ElementType::i32});
  Reg gt = b.compare(CompareOp::lt, b.argument(1), b.argument(0));
  ScalarComputation c = std::move(b).finish({gt});
  EXPECT_EQ(c.asComparison(), CompareOp::gt);
  EXPECT_FALSE(c.asBinaryOp());
  ScalarComputation::Builder other({ElementType::f32, ElementType::f32});
  Reg self = other.compare(CompareOp::lt, other.argument(0), other.argument(0));
  EXPECT_FALSE(std::move(other).finish({self}).asComparison());
}

TEST(ScalarComputation, LoadAndStoreEveryType) {
  for (ElementType type : kAllElementTypes) {
    alignas(8) unsigned char buffer[16] = {};
    Scalar one = isFloat(type) ? Scalar::ofFloat(1.5) : Scalar::ofInt(1);
    storeScalar(one, type, buffer, 1);
    Scalar back = loadScalar(buffer, type, 1);
    if (isFloat(type))
      EXPECT_EQ(back.f, 1.5) << toString(type).str();
    else
      EXPECT_EQ(back.i, 1) << toString(type).str();
  }
}

} // namespace
