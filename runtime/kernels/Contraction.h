//===- Contraction.h - einsum-style contractions ----------------*- C++ -*-===//
//
// dot_general, matmul and einsum all arrive here as einsum labels (one label
// per dimension, as dialects/xla/XlaContraction.h describes them). A plan
// made once per op classifies the labels into batch (B), lhs-free (M),
// rhs-free (N) and contracted (K), lays the operands out as [B, M, K] and
// [B, K, N] (reusing the stored layout through BLAS transpose flags when it
// already fits, copying otherwise) and runs a batched gemm.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_CONTRACTION_H
#define XSPMD_RUNTIME_KERNELS_CONTRACTION_H

#include "runtime/kernels/Tensor.h"

#include <optional>

namespace xspmd::runtime {

struct ContractionDims {
  llvm::SmallVector<int64_t> lhs, rhs, result;
  /// Size of each label.
  llvm::SmallVector<int64_t> sizes;
};

class ContractionPlan {
public:
  /// Labels must be consistent (the dialect verifies them).
  explicit ContractionPlan(const ContractionDims &dims);

  /// `out` is allocated with the result shape and the operands' type.
  void run(const Tensor &lhs, const Tensor &rhs, Tensor &out) const;

  int64_t getBatch() const { return batch; }
  int64_t getM() const { return m; }
  int64_t getN() const { return n; }
  int64_t getK() const { return k; }

private:
  /// How one operand becomes the gemm's matrix stack.
  struct OperandLayout {
    /// Dims summed before the product (labels in this operand only).
    Shape reduceDims;
    /// Shape after that reduction.
    Shape reducedShape;
    /// Permutation into the gemm layout, when the stored one does not fit.
    std::optional<Shape> permutation;
    bool trans = false;
  };

  Tensor prepare(const Tensor &operand, const OperandLayout &layout) const;

  OperandLayout lhsLayout, rhsLayout;
  int64_t batch = 1, m = 1, n = 1, k = 1;
  /// [B, M, N] shape and the permutation into the result's order, if any.
  Shape productShape;
  std::optional<Shape> resultPermutation;
};

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_CONTRACTION_H
