//===- ComputeCostTest.cpp - per-op roofline ------------------------------===//
//
// Expected values use the research notes' figures (section 1.1 / 7: peak
// FLOP/s, HBM bandwidth; 5.1: the amb GEMM curve) written out here.
//
//===----------------------------------------------------------------------===//

#include "runtime/cost/ComputeCost.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace xspmd::cost;
using xspmd::topology::Generation;
using xspmd::topology::getGenerationSpec;

namespace {

// amb Ironwood GEMM per-device peak (notes 5.1): 2307 / 2 TFLOP/s.
constexpr double ambPeak = 2307.0 / 2;

TEST(MatmulEfficiency, FollowsTheMeasuredCurve) {
  EXPECT_DOUBLE_EQ(matmulEfficiency({1, 1024, 1024, 1024}), 350 / ambPeak);
  EXPECT_DOUBLE_EQ(matmulEfficiency({1, 4096, 4096, 4096}), 893 / ambPeak);
  // Halfway (in log2) between 4096 and 16384: the mean of 893 and 950.
  EXPECT_NEAR(matmulEfficiency({1, 8192, 8192, 8192}),
              (893 + 950) / 2.0 / ambPeak, 1e-12);
  // The cube root of the volume: 8 x 512^3 = 1024^3.
  EXPECT_NEAR(matmulEfficiency({8, 512, 512, 512}), 350 / ambPeak, 1e-12);
  // Clamped at both ends.
  EXPECT_DOUBLE_EQ(matmulEfficiency({1, 8, 8, 8}), 2.6 / ambPeak);
  EXPECT_DOUBLE_EQ(matmulEfficiency({1, 65536, 65536, 65536}), 956 / ambPeak);
}

TEST(ComputeCost, LargeBf16MatmulIsComputeBound) {
  // v5p: 4.59e14 bf16 FLOP/s, 2.765e12 B/s HBM (notes 1.1).
  const auto &v5p = getGenerationSpec(Generation::V5p);
  double n = 8192;
  OpWork work;
  work.flops = 2 * n * n * n;
  work.bytes = 3 * n * n * 2;
  work.type = NumericType::BF16;
  work.unit = ComputeUnit::Matrix;
  work.matmul = MatmulShape{1, 8192, 8192, 8192};
  ComputeEstimate e = estimateCompute(v5p, work);
  double efficiency = (893 + 950) / 2.0 / ambPeak;
  EXPECT_NEAR(e.seconds, work.flops / (4.59e14 * efficiency), 1e-9 * e.seconds);
  EXPECT_FALSE(e.isMemoryBound());
  EXPECT_NEAR(e.memorySeconds, work.bytes / (2.765e12 * 0.9),
              1e-9 * e.memorySeconds);
}

TEST(ComputeCost, F32MatmulPrecisionPasses) {
  const auto &v4 = getGenerationSpec(Generation::V4);
  OpWork work;
  work.flops = 1e12;
  work.bytes = 1;
  work.type = NumericType::F32;
  work.unit = ComputeUnit::Matrix;
  ComputeOptions options;
  options.sizeDependentMatmulEfficiency = false;
  options.largeMatmulEfficiency = 1;
  // Default: one bf16 pass, the bf16 peak 2.75e14.
  EXPECT_NEAR(estimateCompute(v4, work, options).seconds, 1e12 / 2.75e14,
              1e-15);
  options.f32Precision = MatmulPrecision::High; // bf16_3x
  EXPECT_NEAR(estimateCompute(v4, work, options).seconds, 3e12 / 2.75e14,
              1e-15);
  options.f32Precision = MatmulPrecision::Highest; // bf16_6x
  EXPECT_NEAR(estimateCompute(v4, work, options).seconds, 6e12 / 2.75e14,
              1e-15);
  // int8 uses the int8 peak (v5e: 3.94e14 vs 1.97e14 bf16).
  const auto &v5e = getGenerationSpec(Generation::V5e);
  work.type = NumericType::I8;
  EXPECT_NEAR(estimateCompute(v5e, work, options).seconds, 1e12 / 3.94e14,
              1e-15);
}

TEST(ComputeCost, ElementwiseIsMemoryBound) {
  // f32 add of 2^20 elements on v4: 1 FLOP and 12 bytes per element;
  // 1.2e12 B/s HBM at 0.9.
  const auto &v4 = getGenerationSpec(Generation::V4);
  double elements = 1 << 20;
  OpWork work;
  work.flops = elements;
  work.bytes = 12 * elements;
  work.type = NumericType::F32;
  work.unit = ComputeUnit::Vector;
  ComputeEstimate e = estimateCompute(v4, work);
  EXPECT_TRUE(e.isMemoryBound());
  EXPECT_NEAR(e.seconds, 12 * elements / (1.2e12 * 0.9), 1e-15);
  // The VPU peak: 2048 ALU ops per cycle against 131072 MXU FLOPs.
  EXPECT_DOUBLE_EQ(e.peakFlops, 2.75e14 / 64);
}

TEST(ComputeCost, SmallMatmulIsInefficient) {
  // A 256^3 bf16 matmul reaches 18.3 of 1153.5 TFLOP/s on the amb curve.
  const auto &v6e = getGenerationSpec(Generation::V6e);
  OpWork work;
  work.flops = 2.0 * 256 * 256 * 256;
  work.bytes = 3 * 256 * 256 * 2;
  work.type = NumericType::BF16;
  work.unit = ComputeUnit::Matrix;
  work.matmul = MatmulShape{1, 256, 256, 256};
  ComputeEstimate e = estimateCompute(v6e, work);
  EXPECT_NEAR(e.computeSeconds, work.flops / (9.18e14 * 18.3 / ambPeak), 1e-15);
  EXPECT_DOUBLE_EQ(e.seconds, std::max(e.computeSeconds, e.memorySeconds));
}

} // namespace
