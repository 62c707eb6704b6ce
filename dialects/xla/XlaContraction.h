//===- XlaContraction.h - dot_general/matmul/einsum as labels ---*- C++ -*-===//
//
// Every contraction op of the dialect (dot_general, matmul, einsum) is
// described the same way: one integer label per dimension of lhs, rhs and
// result, as in an einsum. A label missing from the result is summed over.
// Sharding rules and the simulator's kernel both read this one description.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLACONTRACTION_H
#define XSPMD_DIALECTS_XLA_XLACONTRACTION_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

namespace xspmd::xla {

struct ContractionLabels {
  llvm::SmallVector<int64_t> lhs, rhs, result;
  /// Size of each label (indexed by label).
  llvm::SmallVector<int64_t> sizes;
};

/// Parses a two-operand einsum equation such as "bsd,df->bsf" against the
/// operand shapes. Emits at `loc` (when given) and fails on a malformed
/// equation, a rank mismatch, a repeated letter within one operand or the
/// output, an output letter missing from the inputs, or inconsistent sizes.
mlir::FailureOr<ContractionLabels>
parseEinsum(llvm::StringRef equation, llvm::ArrayRef<int64_t> lhsShape,
            llvm::ArrayRef<int64_t> rhsShape,
            std::optional<mlir::Location> loc);

/// dot_general dimension numbers as labels (batch, then lhs free, then rhs
/// free in the result). Fails (emitting at `loc`) on invalid dimensions.
mlir::FailureOr<ContractionLabels> dotGeneralLabels(
    llvm::ArrayRef<int64_t> lhsShape, llvm::ArrayRef<int64_t> rhsShape,
    llvm::ArrayRef<int64_t> lhsBatch, llvm::ArrayRef<int64_t> rhsBatch,
    llvm::ArrayRef<int64_t> lhsContract, llvm::ArrayRef<int64_t> rhsContract,
    std::optional<mlir::Location> loc);

/// torch.matmul (rank >= 2) as labels.
mlir::FailureOr<ContractionLabels>
matmulLabels(llvm::ArrayRef<int64_t> lhsShape, llvm::ArrayRef<int64_t> rhsShape,
             std::optional<mlir::Location> loc);

/// Labels of a dot_general, matmul or einsum op (which must verify).
ContractionLabels getContractionLabels(mlir::Operation *op);

/// Result shape of a contraction.
llvm::SmallVector<int64_t> contractionResultShape(const ContractionLabels &c);

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLACONTRACTION_H
