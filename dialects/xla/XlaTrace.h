//===- XlaTrace.h - xla.trace scopes in regions and locations ---*- C++ -*-===//
//
// An `xla.trace "name" { ... }` region names the ops of its body in traces.
// Passes that work on flat function bodies (propagation, partitioning) see
// the ops after `inlineTraceOps`, which moves each body in place and records
// the name in the location of every op it held:
//
//   loc("xla.trace:outer"("xla.trace:inner"("file.mlir":3:8)))
//
// Locations survive rewriting (new ops take the location of the op they
// replace), so the names reach the partitioned program; getTraceScopes reads
// them back, outermost first.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLATRACE_H
#define XSPMD_DIALECTS_XLA_XLATRACE_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace xspmd::xla {

/// Prefix of the NameLoc names that record a trace scope.
inline constexpr llvm::StringLiteral kTraceLocPrefix = "xla.trace:";

/// `loc` inside the trace scope `name`.
mlir::Location addTraceScope(mlir::Location loc, llvm::StringRef name);

/// The trace scopes recorded in `loc`, outermost first. A fused location
/// (ops merged by CSE or folding) takes the scopes of its first part that
/// has any.
llvm::SmallVector<llvm::StringRef> getTraceScopes(mlir::Location loc);

/// Inlines every xla.trace nested in `root` (inner ones first), recording
/// each trace's name in the locations of the ops of its body. Returns how
/// many traces were inlined.
size_t inlineTraceOps(mlir::Operation *root);

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLATRACE_H
