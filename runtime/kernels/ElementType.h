//===- ElementType.h - element types of runtime tensors ---------*- C++ -*-===//
//
// The element types the simulator stores. The runtime does not depend on
// MLIR: runtime/exec maps builtin types onto these.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_ELEMENTTYPE_H
#define XSPMD_RUNTIME_KERNELS_ELEMENTTYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace xspmd::runtime {

/// Storage: f32 float, f64 double, bf16/f16 uint16_t bit patterns, i1 uint8_t
/// holding 0 or 1, i8/i32/i64 two's complement.
enum class ElementType : uint8_t { f32, f64, bf16, f16, i1, i8, i32, i64 };

inline constexpr ElementType kAllElementTypes[] = {
    ElementType::f32, ElementType::f64, ElementType::bf16, ElementType::f16,
    ElementType::i1,  ElementType::i8,  ElementType::i32,  ElementType::i64};

/// Bytes per element.
size_t byteWidth(ElementType type);

/// "f32", "bf16", "i1", ... (the MLIR and iree-run-module spelling).
llvm::StringRef toString(ElementType type);

/// Inverse of toString.
std::optional<ElementType> parseElementType(llvm::StringRef name);

inline bool isFloat(ElementType type) {
  return type == ElementType::f32 || type == ElementType::f64 ||
         type == ElementType::bf16 || type == ElementType::f16;
}

inline bool isInteger(ElementType type) { return !isFloat(type); }

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_ELEMENTTYPE_H
