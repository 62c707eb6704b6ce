//===- Gemm.h - matrix multiplication for every element type ----*- C++ -*-===//
//
// Row-major C = A x B. f32 and f64 go to OpenBLAS (sgemm/dgemm); bf16 and
// f16 are widened to f32, multiplied by sgemm (f32 accumulation, as a TPU's
// MXU does) and rounded once to nearest even; integers use loops that wrap
// around like the elementwise ops.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_GEMM_H
#define XSPMD_RUNTIME_KERNELS_GEMM_H

#include "runtime/kernels/ElementType.h"

#include <cstdint>

namespace xspmd::runtime {

/// One operand: `data` with leading dimension `ld` (elements between rows as
/// stored), holding the logical matrix transposed when `trans`.
struct GemmOperand {
  const void *data;
  int64_t ld;
  bool trans;
};

/// C[m, n] (leading dimension ldc) = A[m, k] x B[k, n].
void gemm(ElementType type, int64_t m, int64_t n, int64_t k, GemmOperand a,
          GemmOperand b, void *c, int64_t ldc);

/// `batch` independent dense products: A[i] is m*k elements, B[i] k*n, C[i]
/// m*n, each contiguous (transposed storage when trans).
void batchedGemm(ElementType type, int64_t batch, int64_t m, int64_t n,
                 int64_t k, const void *a, bool transA, const void *b,
                 bool transB, void *c);

/// Caps OpenBLAS's own threads (see docs/runtime.md: device threads already
/// fill the cores).
void setBlasThreads(int threads);
int getBlasThreads();

/// Lets at most `limit` gemm calls run at once (0: no limit). Many device
/// threads on few cores set it to the core count: products then run one per
/// core instead of time-slicing, and OpenBLAS touches one packing buffer per
/// concurrent call, not per device (docs/runtime.md).
void setConcurrentGemms(int limit);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_GEMM_H
