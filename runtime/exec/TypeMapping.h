//===- TypeMapping.h - MLIR types and attributes as runtime data -*- C++
//-*-===//

#ifndef XSPMD_RUNTIME_EXEC_TYPEMAPPING_H
#define XSPMD_RUNTIME_EXEC_TYPEMAPPING_H

#include "runtime/exec/Program.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>

namespace xspmd::runtime {

/// f32, f64, bf16, f16, i1, i8, i32, i64 (signless or signed); nullopt for
/// anything else.
std::optional<ElementType> toElementType(mlir::Type type);

/// A statically shaped ranked tensor of a supported element type.
std::optional<TensorSpec> toTensorSpec(mlir::Type type);

/// The spec of `value`, which the dialect's verifiers guarantee to be a
/// supported tensor type.
TensorSpec specOf(mlir::Value value);

/// The tensor a dense elements attribute holds; nullopt for other
/// ElementsAttr kinds (dense_resource blobs).
std::optional<Tensor> tensorFromAttr(mlir::ElementsAttr attr);

/// "file.mlir:3:10" (or the location as MLIR prints it).
std::string formatLocation(mlir::Location loc);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_TYPEMAPPING_H
