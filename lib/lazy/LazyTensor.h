//===- LazyTensor.h - tensors that record xla ops ---------------*- C++ -*-===//
//
// The lazy-tensor frontend, as PyTorch/XLA works: an op on a Tensor does not
// compute, it records an `xla` op in the pending graph of its Runtime.
// Runtime::markStep() cuts the graph: the tensors still alive become its
// outputs, the graph is hashed and compiled once through the SPMD pipeline
// (the same graph again is a cache hit; a new shape or sharding is a new
// graph, counted and explained), run on the simulator, and its outputs
// become device data that later graphs read as arguments.
//
// Errors (a shape that does not fit an op, an axis the mesh lacks) come back
// as llvm::Error when the op is recorded, with the verifier's message.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_LAZY_LAZYTENSOR_H
#define XSPMD_LIB_LAZY_LAZYTENSOR_H

#include "lib/lazy/Mesh.h"
#include "runtime/kernels/Tensor.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace xspmd::lazy {

class Runtime;
struct TensorData;

class Tensor {
public:
  /// An empty handle.
  Tensor() = default;

  bool isValid() const { return static_cast<bool>(data); }
  llvm::ArrayRef<int64_t> getShape() const;
  int64_t getRank() const { return getShape().size(); }
  runtime::ElementType getElementType() const;
  /// "tensor<8x16xf32>".
  std::string getTypeString() const;
  /// Whether the tensor is an op of the pending graph (not yet computed).
  bool isPending() const;

  /// The value, computing the pending graph first if needed (as `.cpu()`
  /// does in PyTorch/XLA: it syncs every live tensor).
  llvm::Expected<runtime::Tensor> toHost() const;

  /// Identity of the underlying data (two handles to one tensor compare
  /// equal).
  bool sameAs(const Tensor &other) const { return data == other.data; }

private:
  friend class Runtime;
  explicit Tensor(std::shared_ptr<TensorData> data) : data(std::move(data)) {}
  std::shared_ptr<TensorData> data;
};

/// Elementwise ops with numpy/torch broadcasting of the two shapes. fmod is
/// C's (torch.fmod, XLA's remainder); torch.remainder is Runtime::remainder.
enum class BinaryOp { add, sub, mul, div, max, min, pow, fmod, atan2 };
/// round is torch.round: halves to even.
enum class UnaryOp {
  neg,
  abs,
  exp,
  log,
  tanh,
  sqrt,
  rsqrt,
  sigmoid,
  relu,
  gelu,
  floor,
  ceil,
  round,
  sign,
  erf,
  cos,
  sin,
  tan,
  log1p,
  expm1
};
enum class ReduceOp { sum, mean, max, min, prod };
/// In the order of the dialect's CompareDirection.
enum class CompareOp { eq, ne, lt, le, gt, ge };

} // namespace xspmd::lazy

#endif // XSPMD_LIB_LAZY_LAZYTENSOR_H
