//===- CollectiveKernels.cpp - what each device receives ------------------===//

#include "runtime/collectives/CollectiveKernels.h"
#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/ScalarOps.h"

#include <cstring>
#include <type_traits>
#include <vector>

namespace xspmd::runtime {

namespace {

template <ReductionKind Kind, typename C>
C combine(C a, C b) {
  if constexpr (Kind == ReductionKind::sum)
    return scalar::add(a, b);
  else if constexpr (Kind == ReductionKind::mul)
    return scalar::mul(a, b);
  else if constexpr (Kind == ReductionKind::min)
    return scalar::min(a, b);
  else if constexpr (Kind == ReductionKind::max)
    return scalar::max(a, b);
  else if constexpr (Kind == ReductionKind::and_ && std::is_integral_v<C>)
    return scalar::bitAnd(a, b);
  else if constexpr (Kind == ReductionKind::or_ && std::is_integral_v<C>)
    return scalar::bitOr(a, b);
  else
    return a;
}

/// The reduction kind is a template parameter so that the per-element loop
/// has no branch and vectorizes.
template <typename T, ReductionKind Kind>
void foldTyped(double scale, llvm::ArrayRef<const void *> buffers, int64_t n,
               void *out) {
  using Tr = ElementTraits<T>;
  using C = ComputeType<T>;
  // Accumulate in the output when it holds the compute type; bf16/f16
  // accumulate in an f32 scratch buffer and round once.
  constexpr bool inPlace = std::is_same_v<T, C>;
  Tensor scratch;
  C *acc = static_cast<C *>(out);
  if constexpr (!inPlace) {
    scratch = Tensor::allocate(ElementType::f32, {n});
    acc = scratch.data<C>();
  }
  const T *first = static_cast<const T *>(buffers[0]);
  for (int64_t i = 0; i < n; ++i)
    acc[i] = Tr::load(first[i]);
  for (const void *buffer : buffers.drop_front()) {
    const T *x = static_cast<const T *>(buffer);
    for (int64_t i = 0; i < n; ++i)
      acc[i] = combine<Kind, C>(acc[i], Tr::load(x[i]));
  }
  if constexpr (std::is_floating_point_v<C>)
    if (scale != 1.0)
      for (int64_t i = 0; i < n; ++i)
        acc[i] *= static_cast<C>(scale);
  if constexpr (!inPlace) {
    T *o = static_cast<T *>(out);
    for (int64_t i = 0; i < n; ++i)
      o[i] = Tr::store(acc[i]);
  }
}

template <typename T>
void foldOfKind(ReductionKind kind, double scale,
                llvm::ArrayRef<const void *> buffers, int64_t n, void *out) {
  switch (kind) {
  case ReductionKind::sum:
    return foldTyped<T, ReductionKind::sum>(scale, buffers, n, out);
  case ReductionKind::mul:
    return foldTyped<T, ReductionKind::mul>(scale, buffers, n, out);
  case ReductionKind::and_:
    return foldTyped<T, ReductionKind::and_>(scale, buffers, n, out);
  case ReductionKind::or_:
    return foldTyped<T, ReductionKind::or_>(scale, buffers, n, out);
  case ReductionKind::min:
    return foldTyped<T, ReductionKind::min>(scale, buffers, n, out);
  case ReductionKind::max:
    return foldTyped<T, ReductionKind::max>(scale, buffers, n, out);
  }
}

/// Device `member`'s input viewed as [outer, blocks * blockRows * inner]:
/// pointer to block `block` of row `o`.
const uint8_t *blockStart(const Tensor &t, int64_t dim, int64_t blocks,
                          int64_t block, int64_t o) {
  llvm::ArrayRef<int64_t> shape = t.getShape();
  int64_t inner = 1;
  for (size_t d = dim + 1; d < shape.size(); ++d)
    inner *= shape[d];
  int64_t rows = shape[dim], blockRows = rows / blocks;
  size_t width = byteWidth(t.getElementType());
  return t.data<uint8_t>() + ((o * rows + block * blockRows) * inner) * width;
}

int64_t outerOf(llvm::ArrayRef<int64_t> shape, int64_t dim) {
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= shape[d];
  return outer;
}

} // namespace

void foldBuffers(ReductionKind kind, ElementType type, double scale,
                 llvm::ArrayRef<const void *> buffers, int64_t n, void *out) {
  dispatchElementType(type, [&](auto tag) {
    foldOfKind<decltype(tag)>(kind, scale, buffers, n, out);
  });
}

Tensor computeCollectiveResult(const CollectiveCall &call, int64_t device,
                               llvm::ArrayRef<const Tensor *> inputs) {
  auto [groupIndex, position] = call.locate(device);
  const std::vector<int64_t> &group = call.groups[groupIndex];
  int64_t size = group.size();
  Tensor out = Tensor::allocate(call.elementType, call.resultShape);
  size_t width = byteWidth(call.elementType);

  switch (call.kind) {
  case CollectiveKind::allReduce: {
    std::vector<const void *> buffers;
    for (int64_t member : group)
      buffers.push_back(inputs[member]->data());
    foldBuffers(call.reduction, call.elementType, call.scale, buffers,
                out.getNumElements(), out.data());
    break;
  }
  case CollectiveKind::reduceScatter: {
    // Row o of the result is the fold of block `position` of row o of every
    // member's input.
    int64_t outer = outerOf(call.inputShape, call.dim);
    int64_t chunk = outer ? out.getNumElements() / outer : 0;
    std::vector<const void *> buffers(size);
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t j = 0; j < size; ++j)
        buffers[j] = blockStart(*inputs[group[j]], call.dim, size, position, o);
      foldBuffers(call.reduction, call.elementType, call.scale, buffers, chunk,
                  out.data<uint8_t>() + o * chunk * width);
    }
    break;
  }
  case CollectiveKind::allGather: {
    Shape offsets(out.getRank(), 0);
    for (int64_t member : group) {
      insertBlock(*inputs[member], offsets, out);
      offsets[call.dim] += call.inputShape[call.dim];
    }
    break;
  }
  case CollectiveKind::allToAll: {
    // Block `position` (along split_dim) of source j lands at block j along
    // concat_dim.
    Shape blockShape(call.inputShape.begin(), call.inputShape.end());
    blockShape[call.splitDim] /= size;
    Shape inStrides = stridesOf(call.inputShape);
    Shape outStrides = stridesOf(call.resultShape);
    for (int64_t j = 0; j < size; ++j) {
      const uint8_t *src = inputs[group[j]]->data<uint8_t>() +
                           position * blockShape[call.splitDim] *
                               inStrides[call.splitDim] * width;
      uint8_t *dst = out.data<uint8_t>() + j * blockShape[call.concatDim] *
                                               outStrides[call.concatDim] *
                                               width;
      copyStrided(src, inStrides, dst, outStrides, blockShape, width);
    }
    break;
  }
  case CollectiveKind::collectivePermute: {
    std::memset(out.data(), 0, out.getByteSize());
    for (auto [source, target] : call.pairs)
      if (target == position)
        std::memcpy(out.data(), inputs[group[source]]->data(),
                    out.getByteSize());
    break;
  }
  }
  return out;
}

} // namespace xspmd::runtime
