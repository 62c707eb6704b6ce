//===- ComputeCost.h - per-op roofline time ---------------------*- C++ -*-===//
//
// The time of one op on one chip: the larger of its compute time and its HBM
// time (the roofline; research notes 1.1 and SB-tpus Q4):
//
//   T = max( FLOPs / (peak(unit, type) x computeEfficiency),
//            bytes / (HBM bandwidth x hbmEfficiency) )
//
// Matrix work (dot, convolution) runs on the MXUs at the bf16 peak, the int8
// peak, or the f32 peak of the chosen matmul precision (a number of bf16
// passes). Vector work (elementwise, reductions) runs on the VPU. The
// efficiency factors are documented in docs/topology.md.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COST_COMPUTECOST_H
#define XSPMD_RUNTIME_COST_COMPUTECOST_H

#include "runtime/topology/Generation.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace xspmd::cost {

/// Element types of the xla dialect.
enum class NumericType { BF16, F16, F32, F64, I1, I8, I32, I64 };

llvm::StringRef stringifyNumericType(NumericType type);
/// Bytes of one element (i1 is stored as one byte).
int64_t numericTypeBytes(NumericType type);

enum class ComputeUnit {
  /// MXU: dot_general, matmul, einsum, convolution.
  Matrix,
  /// VPU: elementwise arithmetic and math, compare/select, reductions.
  Vector,
};

/// How an f32 matmul uses the bf16 MXU: 1, 3 or 6 bf16 passes (JAX/XLA
/// DEFAULT, HIGH = bf16_3x, HIGHEST = bf16_6x).
enum class MatmulPrecision { Default, High, Highest };

/// bf16 passes of `precision`.
int matmulPasses(MatmulPrecision precision);

/// The problem size of a matmul, for the size-dependent MXU efficiency.
struct MatmulShape {
  int64_t batch = 1;
  int64_t m = 1;
  int64_t n = 1;
  int64_t k = 1;
};

/// What an op does on one device.
struct OpWork {
  /// Floating-point (or integer) operations; a multiply-add counts 2.
  double flops = 0;
  /// Bytes read from and written to HBM.
  double bytes = 0;
  NumericType type = NumericType::F32;
  ComputeUnit unit = ComputeUnit::Vector;
  /// For matrix work: the shape, when known, selects the efficiency.
  std::optional<MatmulShape> matmul;
};

struct ComputeOptions {
  /// Precision of f32 matmuls. TPUs multiply f32 matrices in one bf16 pass
  /// with f32 accumulation by default (GC bfloat16 page).
  MatmulPrecision f32Precision = MatmulPrecision::Default;
  /// Use the measured size curve (matmulEfficiency) for matrix work with a
  /// known shape; otherwise, and for matrix work without a shape,
  /// `largeMatmulEfficiency`.
  bool sizeDependentMatmulEfficiency = true;
  /// Efficiency of large matmuls: 956 of 1153.5 TFLOP/s per device on TPU7x
  /// (amb GEMM, research notes 5.1).
  double largeMatmulEfficiency = 956.0 / 1153.5;
  /// Fraction of the VPU peak vector work reaches.
  double vectorEfficiency = 1.0;
  /// Fraction of the HBM bandwidth streaming ops reach (assumption; no TPU
  /// measurement in the research notes).
  double hbmEfficiency = 0.9;
};

struct ComputeEstimate {
  double seconds = 0;
  double computeSeconds = 0;
  double memorySeconds = 0;
  /// Peak of the unit for the op's type, before efficiency.
  double peakFlops = 0;
  double computeEfficiency = 1;
  double memoryEfficiency = 1;
  bool isMemoryBound() const { return memorySeconds > computeSeconds; }
};

/// Peak of the VPU: the bf16 MXU peak / 64 (SB-tpus appendices B and C: a
/// TensorCore has 4 MXUs of 128x128 multiply-adds and an 8x128 VPU with 2
/// ALUs per lane; derived for v4, assumed for the other generations).
double vectorPeakFlops(const topology::GenerationSpec &spec);

/// Peak FLOP/s of `unit` for `type`.
double peakFlops(const topology::GenerationSpec &spec, NumericType type,
                 ComputeUnit unit, MatmulPrecision f32Precision);

/// Fraction of the MXU peak a matmul of `shape` reaches: the amb TPU7x GEMM
/// curve (m = n = k from 128 to 32768) interpolated in log2 of the cube root
/// of batch x m x n x k, clamped at both ends.
double matmulEfficiency(const MatmulShape &shape);

/// Roofline time of `work` on one chip of `spec`.
ComputeEstimate estimateCompute(const topology::GenerationSpec &spec,
                                const OpWork &work,
                                const ComputeOptions &options = {});

} // namespace xspmd::cost

#endif // XSPMD_RUNTIME_COST_COMPUTECOST_H
