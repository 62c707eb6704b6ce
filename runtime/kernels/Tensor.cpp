//===- Tensor.cpp - dense tensors of the simulator ------------------------===//

#include "runtime/kernels/Tensor.h"
#include "runtime/kernels/BufferPool.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>
#include <cstring>
#include <limits>
#include <unistd.h>

namespace xspmd::runtime {

int64_t numElementsOf(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string formatTensorType(llvm::ArrayRef<int64_t> shape, ElementType type) {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + toString(type).str();
}

std::optional<int64_t> checkedByteSize(llvm::ArrayRef<int64_t> shape,
                                       ElementType type) {
  static const int64_t hostBytes = [] {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page
                                 : std::numeric_limits<int64_t>::max();
  }();
  int64_t bytes = static_cast<int64_t>(byteWidth(type));
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    if (d != 0 && bytes > hostBytes / d)
      return std::nullopt;
    bytes *= d;
  }
  if (bytes > hostBytes)
    return std::nullopt;
  return bytes;
}

Tensor Tensor::allocate(ElementType type, llvm::ArrayRef<int64_t> shape) {
  Tensor t;
  t.type = type;
  t.shape.assign(shape.begin(), shape.end());
  t.numElements = numElementsOf(shape);
  size_t bytes = t.getByteSize();
  // 64-byte aligned (BLAS and vector loops stay on their fast paths), and
  // recycled by size.
  t.storage = std::shared_ptr<uint8_t>(
      static_cast<uint8_t *>(acquireBuffer(bytes)),
      [bytes](uint8_t *p) { releaseBuffer(p, bytes); });
  return t;
}

Tensor Tensor::zeros(ElementType type, llvm::ArrayRef<int64_t> shape) {
  Tensor t = allocate(type, shape);
  std::memset(t.data(), 0, t.getByteSize());
  return t;
}

Tensor Tensor::reshaped(llvm::ArrayRef<int64_t> newShape) const {
  assert(numElementsOf(newShape) == numElements && "reshape changes size");
  Tensor t = *this;
  t.shape.assign(newShape.begin(), newShape.end());
  return t;
}

Tensor Tensor::bitcast(ElementType newType) const {
  assert(byteWidth(newType) == byteWidth(type) && "bitcast changes width");
  Tensor t = *this;
  t.type = newType;
  return t;
}

Tensor Tensor::view(int64_t offset, llvm::ArrayRef<int64_t> newShape) const {
  assert(offset + numElementsOf(newShape) <= numElements && "view too large");
  Tensor t = *this;
  t.shape.assign(newShape.begin(), newShape.end());
  t.numElements = numElementsOf(newShape);
  // Aliasing constructor: shares ownership, points into the middle.
  t.storage = std::shared_ptr<uint8_t>(storage, storage.get() +
                                                    offset * byteWidth(type));
  return t;
}

Tensor Tensor::clone() const {
  Tensor t = allocate(type, shape);
  std::memcpy(t.data(), data(), getByteSize());
  return t;
}

bool Tensor::bitwiseEquals(const Tensor &other) const {
  return type == other.type && llvm::equal(shape, other.shape) &&
         std::memcmp(data(), other.data(), getByteSize()) == 0;
}

} // namespace xspmd::runtime
