//===- Float16Test.cpp - bf16/f16 conversions -----------------------------===//

#include "runtime/kernels/Float16.h"
#include "runtime/kernels/Convert.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace xspmd::runtime;

namespace {

float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// Reference: round |x| to `mantBits` fractional bits at its own binade
/// (clamped to the minimum exponent) with exact long double arithmetic.
double referenceRound(double x, int mantBits, int minExp, double maxFinite) {
  if (std::isnan(x) || std::isinf(x) || x == 0)
    return x;
  int exp;
  std::frexp(std::fabs(x), &exp);
  exp = std::max(exp - 1, minExp);
  long double ulp = std::ldexp(1.0L, exp - mantBits);
  long double q = std::fabs(static_cast<long double>(x)) / ulp;
  long double r = std::floor(q);
  long double frac = q - r;
  if (frac > 0.5L || (frac == 0.5L && std::fmod(r, 2.0L) == 1.0L))
    r += 1;
  long double v = r * ulp;
  double out = v > maxFinite ? std::numeric_limits<double>::infinity()
                             : static_cast<double>(v);
  return std::copysign(out, x);
}

TEST(Float16, Bf16RoundsToNearestEven) {
  // 1 + 2^-8 is a tie between 1 (even) and 1 + 2^-7 (odd): 1.
  EXPECT_EQ(floatToBf16(1.00390625f), 0x3f80);
  // 1 + 3 * 2^-8 ties between 1 + 2^-7 (odd) and 1 + 2^-6 (even).
  EXPECT_EQ(floatToBf16(1.01171875f), 0x3f82);
  // Truncation would keep 0x3f80 here; nearest rounds up.
  EXPECT_EQ(floatToBf16(1.005859375f), 0x3f81);
  EXPECT_EQ(floatToBf16(-1.01171875f), 0xbf82);
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::infinity()), 0x7f80);
  EXPECT_EQ(floatToBf16(std::numeric_limits<float>::max()), 0x7f80);
  uint16_t nan = floatToBf16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(bf16ToFloat(nan)));
  // A signalling NaN whose payload sits in the dropped bits stays NaN.
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(floatOf(0x7f800001u)))));
}

TEST(Float16, Bf16MatchesReferenceOnManyFloats) {
  // Walk the float bit patterns with a stride that visits every binade.
  for (uint64_t u = 0; u < 0xffffffffull; u += 0x10001) {
    float f = floatOf(static_cast<uint32_t>(u));
    if (std::isnan(f))
      continue;
    double expected = referenceRound(f, 7, -126, 3.3895313892515355e38);
    EXPECT_EQ(bf16ToFloat(floatToBf16(f)), static_cast<float>(expected))
        << "bits " << std::hex << u;
    EXPECT_EQ(bf16ToFloat(doubleToBf16(f)), static_cast<float>(expected));
  }
}

TEST(Float16, F16MatchesReference) {
  for (uint64_t u = 0; u < 0xffffffffull; u += 0x10001) {
    float f = floatOf(static_cast<uint32_t>(u));
    if (std::isnan(f))
      continue;
    double expected = referenceRound(f, 10, -14, 65504.0);
    EXPECT_EQ(f16ToFloat(floatToF16(f)), static_cast<float>(expected))
        << "bits " << std::hex << u;
  }
  EXPECT_EQ(floatToF16(65520.0f), 0x7c00); // tie with infinity
  EXPECT_EQ(floatToF16(65519.0f), 0x7bff);
  EXPECT_EQ(floatToF16(5.9604645e-08f), 0x0001); // smallest subnormal
}

TEST(Float16, EveryHalfValueRoundTrips) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float h = f16ToFloat(static_cast<uint16_t>(bits));
    float b = bf16ToFloat(static_cast<uint16_t>(bits));
    if (!std::isnan(h)) {
      EXPECT_EQ(floatToF16(h), bits);
    }
    if (!std::isnan(b)) {
      EXPECT_EQ(floatToBf16(b), bits);
    }
  }
}

TEST(Float16, DoubleNarrowsInOneStep) {
  // 1 + 2^-8 + 2^-30 is just above the bf16 tie: it must round up, but
  // rounding to f32 first (1 + 2^-8, a tie) and then to bf16 gives 1.
  double x = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30);
  EXPECT_EQ(doubleToBf16(x), 0x3f81);
  EXPECT_EQ(floatToBf16(static_cast<float>(x)), 0x3f80);
}

TEST(Float16, LargeIntegersRoundOnce) {
  // 2^60 + 2^52 + 1: just above the bf16 tie between 2^60 and 2^60 + 2^53.
  int64_t v = (int64_t{1} << 60) + (int64_t{1} << 52) + 1;
  uint16_t out;
  void (*kernel)(const void *, void *, int64_t) =
      getConvertKernel(ElementType::i64, ElementType::bf16);
  kernel(&v, &out, 1);
  EXPECT_EQ(bf16ToFloat(out), std::ldexp(1.0f, 60) + std::ldexp(1.0f, 53));
  // A plain conversion to double would round to 2^60 + 2^52 (a tie) first.
  EXPECT_EQ(doubleToBf16(static_cast<double>(v)),
            floatToBf16(std::ldexp(1.0f, 60)));
}

} // namespace
