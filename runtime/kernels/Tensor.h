//===- Tensor.h - dense tensors of the simulator ----------------*- C++ -*-===//
//
// A row-major dense tensor: element type, static shape and 64-byte aligned
// storage shared by copies. Tensors are values: a kernel writes only the
// tensors it allocated, so sharing storage (reshape, passing a buffer to
// several devices) is safe.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_TENSOR_H
#define XSPMD_RUNTIME_KERNELS_TENSOR_H

#include "runtime/kernels/ElementType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <memory>
#include <optional>
#include <string>

namespace xspmd::runtime {

using Shape = llvm::SmallVector<int64_t, 4>;

int64_t numElementsOf(llvm::ArrayRef<int64_t> shape);

/// "2x3xf32" (iree-run-module's spelling; a scalar is "f32").
std::string formatTensorType(llvm::ArrayRef<int64_t> shape, ElementType type);

/// Bytes a tensor of `shape` and `type` needs, or nullopt when that does
/// not fit the host: a negative dim, an overflow, or more than the host's
/// physical memory. Check before allocating sizes that come from input.
std::optional<int64_t> checkedByteSize(llvm::ArrayRef<int64_t> shape,
                                       ElementType type);

class Tensor {
public:
  /// An empty handle (no storage); isValid() is false.
  Tensor() = default;

  /// Uninitialized storage.
  static Tensor allocate(ElementType type, llvm::ArrayRef<int64_t> shape);
  /// Storage filled with zero bytes (0, 0.0, false).
  static Tensor zeros(ElementType type, llvm::ArrayRef<int64_t> shape);

  bool isValid() const { return static_cast<bool>(storage); }
  ElementType getElementType() const { return type; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  int64_t getDimSize(int64_t dim) const { return shape[dim]; }
  int64_t getNumElements() const { return numElements; }
  size_t getByteSize() const { return numElements * byteWidth(type); }
  std::string getTypeString() const { return formatTensorType(shape, type); }

  void *data() { return storage.get(); }
  const void *data() const { return storage.get(); }
  template <typename T>
  T *data() {
    return static_cast<T *>(data());
  }
  template <typename T>
  const T *data() const {
    return static_cast<const T *>(data());
  }

  /// The same storage seen with another shape of as many elements.
  Tensor reshaped(llvm::ArrayRef<int64_t> newShape) const;
  /// The same storage seen as elements of `newType`, of the same width.
  Tensor bitcast(ElementType newType) const;
  /// The `shape` elements starting at element `offset`, sharing storage.
  Tensor view(int64_t offset, llvm::ArrayRef<int64_t> shape) const;
  /// A copy with its own storage.
  Tensor clone() const;
  /// Same type, shape and bytes.
  bool bitwiseEquals(const Tensor &other) const;

private:
  ElementType type = ElementType::f32;
  Shape shape;
  int64_t numElements = 0;
  std::shared_ptr<uint8_t> storage;
};

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_TENSOR_H
