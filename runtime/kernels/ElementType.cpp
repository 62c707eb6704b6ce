//===- ElementType.cpp - element types of runtime tensors -----------------===//

#include "runtime/kernels/ElementType.h"

#include "llvm/Support/ErrorHandling.h"

namespace xspmd::runtime {

size_t byteWidth(ElementType type) {
  switch (type) {
  case ElementType::f64:
  case ElementType::i64:
    return 8;
  case ElementType::f32:
  case ElementType::i32:
    return 4;
  case ElementType::bf16:
  case ElementType::f16:
    return 2;
  case ElementType::i1:
  case ElementType::i8:
    return 1;
  }
  llvm_unreachable("unknown element type");
}

llvm::StringRef toString(ElementType type) {
  switch (type) {
  case ElementType::f32:
    return "f32";
  case ElementType::f64:
    return "f64";
  case ElementType::bf16:
    return "bf16";
  case ElementType::f16:
    return "f16";
  case ElementType::i1:
    return "i1";
  case ElementType::i8:
    return "i8";
  case ElementType::i32:
    return "i32";
  case ElementType::i64:
    return "i64";
  }
  llvm_unreachable("unknown element type");
}

std::optional<ElementType> parseElementType(llvm::StringRef name) {
  for (ElementType type : kAllElementTypes)
    if (toString(type) == name)
      return type;
  return std::nullopt;
}

} // namespace xspmd::runtime
