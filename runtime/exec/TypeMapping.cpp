//===- TypeMapping.cpp - MLIR types and attributes as runtime data --------===//

#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/Float16.h"

#include "mlir/IR/Location.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace xspmd::runtime {

std::optional<ElementType> toElementType(Type type) {
  if (type.isF32())
    return ElementType::f32;
  if (type.isF64())
    return ElementType::f64;
  if (type.isBF16())
    return ElementType::bf16;
  if (type.isF16())
    return ElementType::f16;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer || integer.isUnsigned())
    return std::nullopt;
  switch (integer.getWidth()) {
  case 1:
    return ElementType::i1;
  case 8:
    return ElementType::i8;
  case 32:
    return ElementType::i32;
  case 64:
    return ElementType::i64;
  default:
    return std::nullopt;
  }
}

std::optional<TensorSpec> toTensorSpec(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return std::nullopt;
  std::optional<ElementType> elem = toElementType(tensor.getElementType());
  if (!elem)
    return std::nullopt;
  return TensorSpec{*elem, Shape(tensor.getShape())};
}

TensorSpec specOf(Value value) {
  std::optional<TensorSpec> spec = toTensorSpec(value.getType());
  assert(spec && "value of an unsupported type");
  return *spec;
}

std::optional<Tensor> tensorFromAttr(ElementsAttr attr) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  std::optional<TensorSpec> spec = toTensorSpec(attr.getType());
  if (!dense || !spec)
    return std::nullopt;
  Tensor t = spec->allocate();
  int64_t i = 0;
  switch (spec->type) {
  case ElementType::f32:
    for (float v : dense.getValues<float>())
      t.data<float>()[i++] = v;
    break;
  case ElementType::f64:
    for (double v : dense.getValues<double>())
      t.data<double>()[i++] = v;
    break;
  case ElementType::bf16:
  case ElementType::f16:
    for (const APFloat &v : dense.getValues<APFloat>())
      t.data<uint16_t>()[i++] =
          static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
    break;
  case ElementType::i1:
    for (bool v : dense.getValues<bool>())
      t.data<uint8_t>()[i++] = v ? 1 : 0;
    break;
  case ElementType::i8:
    for (const APInt &v : dense.getValues<APInt>())
      t.data<int8_t>()[i++] = static_cast<int8_t>(v.getSExtValue());
    break;
  case ElementType::i32:
    for (const APInt &v : dense.getValues<APInt>())
      t.data<int32_t>()[i++] = static_cast<int32_t>(v.getSExtValue());
    break;
  case ElementType::i64:
    for (const APInt &v : dense.getValues<APInt>())
      t.data<int64_t>()[i++] = v.getSExtValue();
    break;
  }
  return t;
}

std::string formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (isa<FileLineColLoc>(inner))
        return formatLocation(inner);
  if (auto named = dyn_cast<NameLoc>(loc))
    return formatLocation(named.getChildLoc());
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

} // namespace xspmd::runtime
