//===- RandomTest.cpp - counter-based rng ---------------------------------===//

#include "runtime/kernels/Random.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/DataMovement.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace xspmd::runtime;

namespace {

TEST(Random, DeterministicAndSeedDependent) {
  Tensor a = Tensor::allocate(ElementType::f32, {64});
  Tensor b = Tensor::allocate(ElementType::f32, {64});
  Tensor c = Tensor::allocate(ElementType::f32, {64});
  fillRandom(RandomDistribution::uniform, 5, 0, 1, {64}, {0}, a);
  fillRandom(RandomDistribution::uniform, 5, 0, 1, {64}, {0}, b);
  fillRandom(RandomDistribution::uniform, 6, 0, 1, {64}, {0}, c);
  EXPECT_TRUE(a.bitwiseEquals(b));
  EXPECT_FALSE(a.bitwiseEquals(c));
}

TEST(Random, EveryShardingIsASliceOfTheGlobalTensor) {
  for (RandomDistribution dist :
       {RandomDistribution::uniform, RandomDistribution::normal}) {
    for (ElementType type : {ElementType::f32, ElementType::bf16,
                             ElementType::f16, ElementType::f64}) {
      Shape global = {6, 10};
      Tensor whole = Tensor::allocate(type, global);
      fillRandom(dist, 42, -2, 3, global, {0, 0}, whole);
      // Blocks of a 3x2 split with ragged shapes, and a single element.
      for (auto [r0, r1, c0, c1] : std::vector<std::array<int64_t, 4>>{
               {0, 2, 0, 5}, {2, 4, 5, 10}, {4, 6, 3, 7}, {5, 6, 9, 10}}) {
        Tensor block = Tensor::allocate(type, {r1 - r0, c1 - c0});
        fillRandom(dist, 42, -2, 3, global, {r0, c0}, block);
        Tensor expected = Tensor::allocate(type, {r1 - r0, c1 - c0});
        slice(whole, {r0, c0}, {1, 1}, expected);
        EXPECT_TRUE(block.bitwiseEquals(expected));
      }
    }
  }
}

TEST(Random, UniformStaysInHalfOpenRange) {
  // bf16 draws from [0, 1) would round up to 1 about once in 512 draws.
  for (ElementType type : {ElementType::bf16, ElementType::f16,
                           ElementType::f32, ElementType::f64}) {
    Tensor t = Tensor::allocate(type, {20000});
    fillRandom(RandomDistribution::uniform, 1, 0, 1, {20000}, {0}, t);
    double lo = 1, hi = 0;
    for (int64_t i = 0; i < t.getNumElements(); ++i) {
      double v = loadAsDouble(t.data(), type, i);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    EXPECT_GE(lo, 0.0);
    EXPECT_LT(hi, 1.0);
    EXPECT_GT(hi, 0.99) << toString(type).str();
  }
}

TEST(Random, NormalMoments) {
  int64_t n = 100000;
  Tensor t = Tensor::allocate(ElementType::f64, {n});
  fillRandom(RandomDistribution::normal, 3, 2.0, 0.5, {n}, {0}, t);
  double mean = 0, sq = 0;
  for (int64_t i = 0; i < n; ++i)
    mean += t.data<double>()[i];
  mean /= n;
  for (int64_t i = 0; i < n; ++i)
    sq += (t.data<double>()[i] - mean) * (t.data<double>()[i] - mean);
  double stddev = std::sqrt(sq / n);
  EXPECT_NEAR(mean, 2.0, 0.01);
  EXPECT_NEAR(stddev, 0.5, 0.01);
}

} // namespace
