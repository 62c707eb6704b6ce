//===- HloImporter.h - HloModule text to the xla dialect --------*- C++ -*-===//
//
// Imports an XLA HloModule (text) into an `xla` module: one meshes
// declaration inferred from the shardings, the entry computation as a
// public `func.func @main` (tuple parameters and results flattened),
// computations reached through `call` as private functions, and the other
// computations (reductions, comparators, loop bodies, branches) as regions.
// Instruction shardings become `xla.sharding` attributes and
// `xla.mark_sharding` ops; metadata becomes locations. docs/hlo.md.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOIMPORTER_H
#define XSPMD_LIB_HLO_HLOIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace xspmd::hlo {

/// Imports the main buffer of `sourceMgr`. Errors are reported as
/// diagnostics located in the HLO text (line:col); returns null on error.
mlir::OwningOpRef<mlir::ModuleOp> importHloModule(llvm::SourceMgr &sourceMgr,
                                                  mlir::MLIRContext *ctx);

/// Whether `buffer` is HLO text: its first word (after comments) is
/// `HloModule`.
bool looksLikeHlo(llvm::StringRef buffer);

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOIMPORTER_H
