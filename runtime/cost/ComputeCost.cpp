//===- ComputeCost.cpp - per-op roofline time -----------------------------===//

#include "runtime/cost/ComputeCost.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace xspmd::cost {

llvm::StringRef stringifyNumericType(NumericType type) {
  switch (type) {
  case NumericType::BF16:
    return "bf16";
  case NumericType::F16:
    return "f16";
  case NumericType::F32:
    return "f32";
  case NumericType::F64:
    return "f64";
  case NumericType::I1:
    return "i1";
  case NumericType::I8:
    return "i8";
  case NumericType::I32:
    return "i32";
  case NumericType::I64:
    return "i64";
  }
  return "?";
}

int64_t numericTypeBytes(NumericType type) {
  switch (type) {
  case NumericType::I1:
  case NumericType::I8:
    return 1;
  case NumericType::BF16:
  case NumericType::F16:
    return 2;
  case NumericType::F32:
  case NumericType::I32:
    return 4;
  case NumericType::F64:
  case NumericType::I64:
    return 8;
  }
  return 4;
}

int matmulPasses(MatmulPrecision precision) {
  switch (precision) {
  case MatmulPrecision::Default:
    return 1;
  case MatmulPrecision::High:
    return 3;
  case MatmulPrecision::Highest:
    return 6;
  }
  return 1;
}

double vectorPeakFlops(const topology::GenerationSpec &spec) {
  // Per TensorCore: 8 x 128 lanes x 2 ALUs = 2048 ops/cycle on the VPU
  // against 4 MXUs x 128 x 128 multiply-adds x 2 = 131072 FLOPs/cycle.
  constexpr double vpuOpsPerCycle = 8 * 128 * 2;
  constexpr double mxuFlopsPerCycle = 4 * 128 * 128 * 2;
  return spec.peakBf16Flops * (vpuOpsPerCycle / mxuFlopsPerCycle);
}

/// Whether matrix work of `type` runs on the MXU; i1, i32 and i64 have no
/// MXU mode and run on the VPU (assumption).
static bool runsOnMxu(NumericType type, ComputeUnit unit) {
  if (unit == ComputeUnit::Vector)
    return false;
  return type != NumericType::I1 && type != NumericType::I32 &&
         type != NumericType::I64;
}

double peakFlops(const topology::GenerationSpec &spec, NumericType type,
                 ComputeUnit unit, MatmulPrecision f32Precision) {
  if (!runsOnMxu(type, unit))
    return vectorPeakFlops(spec);
  switch (type) {
  case NumericType::BF16:
  case NumericType::F16: // assumption: f16 runs at the bf16 rate
    return spec.peakBf16Flops;
  case NumericType::F32:
    return spec.peakBf16Flops / matmulPasses(f32Precision);
  case NumericType::F64: // no f64 MXU: at best the 6-pass f32 rate
    return spec.peakBf16Flops / matmulPasses(MatmulPrecision::Highest);
  case NumericType::I8:
    return spec.peakInt8Ops;
  case NumericType::I1:
  case NumericType::I32:
  case NumericType::I64:
    break;
  }
  return vectorPeakFlops(spec);
}

namespace {
/// amb Ironwood GEMM, bf16, m = n = k: achieved TFLOP/s per JAX device
/// (research notes 5.1); the device peak is 2307 / 2 TFLOP/s.
struct GemmPoint {
  double size;
  double teraflops;
};
constexpr GemmPoint kGemmCurve[] = {
    {128, 2.6},  {256, 18.3}, {512, 105},   {1024, 350},
    {2048, 679}, {4096, 893}, {16384, 950}, {32768, 956},
};
constexpr double kGemmPeakTeraflops = 2307.0 / 2;
} // namespace

double matmulEfficiency(const MatmulShape &shape) {
  double volume = static_cast<double>(std::max<int64_t>(shape.batch, 1)) *
                  std::max<int64_t>(shape.m, 1) *
                  std::max<int64_t>(shape.n, 1) * std::max<int64_t>(shape.k, 1);
  double size = std::cbrt(volume);
  const GemmPoint *first = std::begin(kGemmCurve);
  const GemmPoint *last = std::end(kGemmCurve) - 1;
  if (size <= first->size)
    return first->teraflops / kGemmPeakTeraflops;
  if (size >= last->size)
    return last->teraflops / kGemmPeakTeraflops;
  const GemmPoint *upper = first + 1;
  while (upper->size < size)
    ++upper;
  const GemmPoint *lower = upper - 1;
  double t = (std::log2(size) - std::log2(lower->size)) /
             (std::log2(upper->size) - std::log2(lower->size));
  double teraflops =
      lower->teraflops + t * (upper->teraflops - lower->teraflops);
  return teraflops / kGemmPeakTeraflops;
}

ComputeEstimate estimateCompute(const topology::GenerationSpec &spec,
                                const OpWork &work,
                                const ComputeOptions &options) {
  assert(work.flops >= 0 && work.bytes >= 0 && "negative work");
  ComputeEstimate estimate;
  estimate.peakFlops =
      peakFlops(spec, work.type, work.unit, options.f32Precision);
  if (!runsOnMxu(work.type, work.unit))
    estimate.computeEfficiency = options.vectorEfficiency;
  else if (options.sizeDependentMatmulEfficiency && work.matmul)
    estimate.computeEfficiency = matmulEfficiency(*work.matmul);
  else
    estimate.computeEfficiency = options.largeMatmulEfficiency;
  estimate.memoryEfficiency = options.hbmEfficiency;
  estimate.computeSeconds =
      work.flops / (estimate.peakFlops * estimate.computeEfficiency);
  estimate.memorySeconds =
      work.bytes / (spec.hbmBandwidth * estimate.memoryEfficiency);
  estimate.seconds = std::max(estimate.computeSeconds, estimate.memorySeconds);
  return estimate;
}

} // namespace xspmd::cost
