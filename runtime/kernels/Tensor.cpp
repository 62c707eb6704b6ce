//===- Tensor.cpp - dense tensors of the simulator ------------------------===//

#include "runtime/kernels/Tensor.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>
#include <cstdlib>
#include <cstring>

namespace xspmd::runtime {

// Cache-line alignment keeps BLAS and vector loops on their fast paths.
static constexpr size_t kAlignment = 64;

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

Tensor Tensor::allocate(ElementType type, llvm::ArrayRef<int64_t> shape) {
  Tensor t;
  t.type = type;
  t.shape.assign(shape.begin(), shape.end());
  t.numElements = numElementsOf(shape);
  size_t bytes = t.getByteSize();
  size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  void *raw = std::aligned_alloc(kAlignment, rounded ? rounded : kAlignment);
  if (!raw)
    llvm::report_fatal_error("xspmd: out of memory allocating a tensor of " +
                             llvm::Twine(bytes) + " bytes");
  t.storage = std::shared_ptr<uint8_t>(static_cast<uint8_t *>(raw),
                                       [](uint8_t *p) { std::free(p); });
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
