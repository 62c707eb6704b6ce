//===- HloExporter.h - the xla dialect to HloModule text --------*- C++ -*-===//
//
// Prints an `xla` module as an HloModule that the importer (and XLA's
// parser) reads: the entry function becomes the ENTRY computation, regions
// and called functions become computations, shardings become
// `sharding={...}` over the mesh's devices, collectives get explicit
// replica groups, channel ids and use_global_device_ids. Ops without an
// HLO opcode are expanded (matmul and einsum into dot and transposes,
// relu, gelu, softmax, mean, sigmoid, axis_index, all_slice) or reported
// as a located error naming the op. docs/hlo.md.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOEXPORTER_H
#define XSPMD_LIB_HLO_HLOEXPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace xspmd::hlo {

/// Writes `module` as HLO text. `function` names the entry (default:
/// @main, or the only public function). Nothing is written on failure.
mlir::LogicalResult exportHloModule(mlir::ModuleOp module,
                                    llvm::raw_ostream &os,
                                    llvm::StringRef function = "");

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOEXPORTER_H
