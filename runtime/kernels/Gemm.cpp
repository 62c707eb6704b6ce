//===- Gemm.cpp - matrix multiplication for every element type ------------===//

#include "runtime/kernels/Gemm.h"
#include "runtime/kernels/Tensor.h"
#include "runtime/kernels/TypeDispatch.h"

#include <cblas.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <vector>

namespace xspmd::runtime {

namespace {

CBLAS_TRANSPOSE blasTrans(bool trans) {
  return trans ? CblasTrans : CblasNoTrans;
}

/// BLAS wants ld >= max(1, stored row length).
int64_t validLd(int64_t ld) { return std::max<int64_t>(ld, 1); }

template <typename T>
void widenMatrix(const T *src, int64_t rows, int64_t cols, int64_t ld,
                 float *dst) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      dst[r * cols + c] = ElementTraits<T>::load(src[r * ld + c]);
}

/// bf16/f16: widen the stored blocks to f32, sgemm, round on store.
template <typename T>
void gemmHalf(int64_t m, int64_t n, int64_t k, GemmOperand a, GemmOperand b,
              void *c, int64_t ldc) {
  int64_t aRows = a.trans ? k : m, aCols = a.trans ? m : k;
  int64_t bRows = b.trans ? n : k, bCols = b.trans ? k : n;
  Tensor wa = Tensor::allocate(ElementType::f32, {aRows, aCols});
  Tensor wb = Tensor::allocate(ElementType::f32, {bRows, bCols});
  Tensor wc = Tensor::allocate(ElementType::f32, {m, n});
  widenMatrix(static_cast<const T *>(a.data), aRows, aCols, a.ld,
              wa.data<float>());
  widenMatrix(static_cast<const T *>(b.data), bRows, bCols, b.ld,
              wb.data<float>());
  cblas_sgemm(CblasRowMajor, blasTrans(a.trans), blasTrans(b.trans), m, n, k,
              1.0f, wa.data<float>(), validLd(aCols), wb.data<float>(),
              validLd(bCols), 0.0f, wc.data<float>(), validLd(n));
  T *out = static_cast<T *>(c);
  const float *wide = wc.data<float>();
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      out[i * ldc + j] = ElementTraits<T>::store(wide[i * n + j]);
}

/// Integers: accumulate in the unsigned type of the same width (wraparound
/// is the same whatever the width of the accumulator).
template <typename T>
void gemmInt(int64_t m, int64_t n, int64_t k, GemmOperand a, GemmOperand b,
             void *c, int64_t ldc) {
  using U = std::make_unsigned_t<T>;
  using Acc = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U>;
  const T *pa = static_cast<const T *>(a.data);
  const T *pb = static_cast<const T *>(b.data);
  std::vector<Acc> row(n);
  T *out = static_cast<T *>(c);
  for (int64_t i = 0; i < m; ++i) {
    std::fill(row.begin(), row.end(), Acc{0});
    for (int64_t p = 0; p < k; ++p) {
      Acc x = static_cast<Acc>(
          static_cast<U>(a.trans ? pa[p * a.ld + i] : pa[i * a.ld + p]));
      if (b.trans) {
        for (int64_t j = 0; j < n; ++j)
          row[j] += x * static_cast<Acc>(static_cast<U>(pb[j * b.ld + p]));
      } else {
        const T *brow = pb + p * b.ld;
        for (int64_t j = 0; j < n; ++j)
          row[j] += x * static_cast<Acc>(static_cast<U>(brow[j]));
      }
    }
    for (int64_t j = 0; j < n; ++j)
      out[i * ldc + j] = static_cast<T>(static_cast<U>(row[j]));
  }
}

/// At most `limit` products at once (0: no limit). OpenBLAS gives every
/// concurrent call its own packing buffer: device threads beyond the cores
/// would each touch one, and time-slice the cores in the middle of a
/// product.
class BlasGate {
public:
  void setLimit(int newLimit) {
    std::lock_guard<std::mutex> lock(mutex);
    limit = newLimit;
    freed.notify_all();
  }
  void enter() {
    std::unique_lock<std::mutex> lock(mutex);
    freed.wait(lock, [&] { return limit <= 0 || running < limit; });
    ++running;
  }
  void exit() {
    std::lock_guard<std::mutex> lock(mutex);
    --running;
    freed.notify_one();
  }

private:
  std::mutex mutex;
  std::condition_variable freed;
  int limit = 0, running = 0;
};

BlasGate &blasGate() {
  static BlasGate gate;
  return gate;
}

struct GateGuard {
  GateGuard() { blasGate().enter(); }
  ~GateGuard() { blasGate().exit(); }
};

} // namespace

void setConcurrentGemms(int limit) { blasGate().setLimit(limit); }

void gemm(ElementType type, int64_t m, int64_t n, int64_t k, GemmOperand a,
          GemmOperand b, void *c, int64_t ldc) {
  if (m == 0 || n == 0)
    return;
  GateGuard guard;
  switch (type) {
  case ElementType::f32:
    cblas_sgemm(CblasRowMajor, blasTrans(a.trans), blasTrans(b.trans), m, n, k,
                1.0f, static_cast<const float *>(a.data), validLd(a.ld),
                static_cast<const float *>(b.data), validLd(b.ld), 0.0f,
                static_cast<float *>(c), validLd(ldc));
    return;
  case ElementType::f64:
    cblas_dgemm(CblasRowMajor, blasTrans(a.trans), blasTrans(b.trans), m, n, k,
                1.0, static_cast<const double *>(a.data), validLd(a.ld),
                static_cast<const double *>(b.data), validLd(b.ld), 0.0,
                static_cast<double *>(c), validLd(ldc));
    return;
  case ElementType::bf16:
    return gemmHalf<BF16>(m, n, k, a, b, c, ldc);
  case ElementType::f16:
    return gemmHalf<F16>(m, n, k, a, b, c, ldc);
  case ElementType::i8:
    return gemmInt<int8_t>(m, n, k, a, b, c, ldc);
  case ElementType::i32:
    return gemmInt<int32_t>(m, n, k, a, b, c, ldc);
  case ElementType::i64:
    return gemmInt<int64_t>(m, n, k, a, b, c, ldc);
  case ElementType::i1:
    break;
  }
  llvm_unreachable("gemm on an unsupported element type");
}

void batchedGemm(ElementType type, int64_t batch, int64_t m, int64_t n,
                 int64_t k, const void *a, bool transA, const void *b,
                 bool transB, void *c) {
  size_t width = byteWidth(type);
  const uint8_t *pa = static_cast<const uint8_t *>(a);
  const uint8_t *pb = static_cast<const uint8_t *>(b);
  uint8_t *pc = static_cast<uint8_t *>(c);
  for (int64_t i = 0; i < batch; ++i)
    gemm(type, m, n, k,
         GemmOperand{pa + i * m * k * width, transA ? m : k, transA},
         GemmOperand{pb + i * k * n * width, transB ? k : n, transB},
         pc + i * m * n * width, n);
}

void setBlasThreads(int threads) {
  // Setting the count wakes OpenBLAS's idle pool threads, which then spin
  // (sched_yield) for a while: only call it when the count changes.
  if (openblas_get_num_threads() != threads)
    openblas_set_num_threads(threads);
}
int getBlasThreads() { return openblas_get_num_threads(); }

} // namespace xspmd::runtime
