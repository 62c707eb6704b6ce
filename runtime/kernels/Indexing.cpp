//===- Indexing.cpp - HLO gather and scatter ------------------------------===//

#include "runtime/kernels/Indexing.h"
#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/Elementwise.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace xspmd::runtime {

using llvm::ArrayRef;
using llvm::MutableArrayRef;
using llvm::SmallVector;

namespace {

int64_t readIndexElement(const Tensor &t, int64_t i) {
  return t.getElementType() == ElementType::i64
             ? t.data<int64_t>()[i]
             : static_cast<int64_t>(t.data<int32_t>()[i]);
}

/// Advances the row-major multi-index `pos` within `shape`; false once it
/// wraps around.
bool advance(MutableArrayRef<int64_t> pos, ArrayRef<int64_t> shape) {
  for (int64_t d = static_cast<int64_t>(pos.size()) - 1; d >= 0; --d) {
    if (++pos[d] < shape[d])
      return true;
    pos[d] = 0;
  }
  return false;
}

/// The positions of a gather's or scatter's indices (every dimension but
/// the index vector's, in order) and the window start each gives.
class StartIndices {
public:
  StartIndices(const Tensor &indices, const IndexMapping &mapping,
               int64_t operandRank)
      : indices(indices), mapping(mapping), operandRank(operandRank) {
    Shape strides = stridesOf(indices.getShape());
    for (int64_t d = 0, e = indices.getRank(); d < e; ++d) {
      if (d == mapping.indexVectorDim)
        continue;
      shape.push_back(indices.getDimSize(d));
      positionStrides.push_back(strides[d]);
    }
    componentStride = mapping.indexVectorDim < indices.getRank()
                          ? strides[mapping.indexVectorDim]
                          : 0;
    for (int64_t d : mapping.indicesBatchingDims)
      batchingPositions.push_back(
          d < mapping.indexVectorDim ? d : d - 1); // skip the vector dim
  }

  /// Sizes of the positions (the indices' shape without the vector dim).
  ArrayRef<int64_t> getShape() const { return shape; }
  bool empty() const { return numElementsOf(shape) == 0; }

  /// The window start along every operand dimension at `pos`.
  void startAt(ArrayRef<int64_t> pos, MutableArrayRef<int64_t> start) const {
    std::fill(start.begin(), start.end(), 0);
    int64_t base = 0;
    for (auto [p, stride] : llvm::zip(pos, positionStrides))
      base += p * stride;
    for (auto [k, d] : llvm::enumerate(mapping.indexToOperandDims))
      start[d] = readIndexElement(indices, base + k * componentStride);
    for (auto [d, p] :
         llvm::zip(mapping.operandBatchingDims, batchingPositions))
      start[d] = pos[p];
  }

  int64_t getOperandRank() const { return operandRank; }

private:
  const Tensor &indices;
  const IndexMapping &mapping;
  int64_t operandRank;
  Shape shape, positionStrides, batchingPositions;
  int64_t componentStride = 0;
};

/// Per operand dimension, the dimension of the other tensor (the gather's
/// result, the scatter's updates) its window lies along, or -1 for the
/// dimensions listed in `skipped` (window size 1).
Shape windowDimsOf(int64_t rank, ArrayRef<int64_t> windowDims,
                   ArrayRef<int64_t> skippedA, ArrayRef<int64_t> skippedB) {
  Shape result(rank, -1);
  size_t next = 0;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(skippedA, d) && !llvm::is_contained(skippedB, d))
      result[d] = windowDims[next++];
  return result;
}

/// The dimensions of a tensor of `rank` not in `windowDims`, in order.
Shape positionDimsOf(int64_t rank, ArrayRef<int64_t> windowDims) {
  Shape dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(windowDims, d))
      dims.push_back(d);
  return dims;
}

/// The strided block a window covers: for every operand dimension with a
/// window dimension in the other tensor (the gather's result, the
/// scatter's updates), in order, its extent and its strides in both.
struct WindowBlock {
  Shape extents, operandStrides, otherStrides;

  WindowBlock(ArrayRef<int64_t> windowOf, ArrayRef<int64_t> sizes,
              ArrayRef<int64_t> operandShape, ArrayRef<int64_t> otherShape) {
    Shape operand = stridesOf(operandShape), other = stridesOf(otherShape);
    for (auto [d, w] : llvm::enumerate(windowOf))
      if (w >= 0) {
        extents.push_back(sizes[d]);
        operandStrides.push_back(operand[d]);
        otherStrides.push_back(other[w]);
      }
  }
};

/// Calls `fn(dstOffset, srcOffset, run)` for every run of a block of
/// `extents` (at least one element), where `run` consecutive elements are
/// contiguous in both buffers (the innermost dimension when both strides
/// are 1, else single elements).
template <typename Fn>
void forEachRun(ArrayRef<int64_t> extents, ArrayRef<int64_t> dstStrides,
                ArrayRef<int64_t> srcStrides, Fn fn) {
  int64_t rank = extents.size();
  if (rank == 0) {
    fn(0, 0, 1);
    return;
  }
  if (numElementsOf(extents) == 0)
    return;
  bool contiguous = dstStrides.back() == 1 && srcStrides.back() == 1;
  int64_t run = contiguous ? extents.back() : 1;
  Shape outer(extents);
  if (contiguous)
    outer.back() = 1;
  Shape pos(rank, 0);
  do {
    int64_t dst = 0, src = 0;
    for (int64_t d = 0; d < rank; ++d) {
      dst += pos[d] * dstStrides[d];
      src += pos[d] * srcStrides[d];
    }
    fn(dst, src, run);
  } while (advance(pos, outer));
}

} // namespace

void hloGather(const Tensor &operand, const Tensor &indices,
               const GatherDimensions &dims, Tensor &out) {
  int64_t rank = operand.getRank();
  size_t width = byteWidth(operand.getElementType());
  if (out.getNumElements() == 0)
    return;
  if (numElementsOf(dims.sliceSizes) == 0) {
    std::memset(out.data(), 0, out.getByteSize());
    return;
  }
  Shape offsetDimOf =
      windowDimsOf(rank, dims.offsetDims, dims.collapsedSliceDims,
                   dims.mapping.operandBatchingDims);
  Shape batchDims = positionDimsOf(out.getRank(), dims.offsetDims);
  Shape operandStrides = stridesOf(operand.getShape());
  Shape outStrides = stridesOf(out.getShape());
  WindowBlock slice(offsetDimOf, dims.sliceSizes, operand.getShape(),
                    out.getShape());
  StartIndices starts(indices, dims.mapping, rank);
  Shape pos(starts.getShape().size(), 0), start(rank, 0);
  const uint8_t *src = operand.data<uint8_t>();
  uint8_t *dst = out.data<uint8_t>();
  do {
    starts.startAt(pos, start);
    int64_t srcOffset = 0, dstOffset = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t s = std::clamp<int64_t>(
          start[d], 0, operand.getDimSize(d) - dims.sliceSizes[d]);
      srcOffset += s * operandStrides[d];
    }
    for (auto [p, d] : llvm::zip(pos, batchDims))
      dstOffset += p * outStrides[d];
    copyStrided(src + srcOffset * width, slice.operandStrides,
                dst + dstOffset * width, slice.otherStrides, slice.extents,
                width);
  } while (advance(pos, starts.getShape()));
}

void scatter(ArrayRef<const Tensor *> inputs, const Tensor &indices,
             ArrayRef<const Tensor *> updates, const ScatterDimensions &dims,
             const ScatterCombiner &combiner, MutableArrayRef<Tensor> out) {
  int64_t n = inputs.size();
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(out[i].data(), inputs[i]->data(), inputs[i]->getByteSize());
  const Tensor &input = *inputs.front();
  const Tensor &update = *updates.front();
  int64_t rank = input.getRank();
  StartIndices starts(indices, dims.mapping, rank);
  if (starts.empty() || update.getNumElements() == 0)
    return;
  Shape windowOf =
      windowDimsOf(rank, dims.updateWindowDims, dims.insertedWindowDims,
                   dims.mapping.operandBatchingDims);
  Shape scatterDims = positionDimsOf(update.getRank(), dims.updateWindowDims);
  Shape inputStrides = stridesOf(input.getShape());
  Shape updateStrides = stridesOf(update.getShape());
  Shape windowSizes(rank, 1);
  for (int64_t d = 0; d < rank; ++d)
    if (windowOf[d] >= 0)
      windowSizes[d] = update.getDimSize(windowOf[d]);
  WindowBlock window(windowOf, windowSizes, input.getShape(),
                     update.getShape());

  // How one run of `count` elements is combined, from offsets in elements.
  std::function<void(int64_t, int64_t, int64_t)> combine;
  std::optional<BinaryOp> binary =
      n == 1 && combiner.body ? combiner.body->asBinaryOp() : std::nullopt;
  if (combiner.overwrite) {
    combine = [&](int64_t dst, int64_t src, int64_t count) {
      for (int64_t i = 0; i < n; ++i) {
        size_t width = byteWidth(out[i].getElementType());
        std::memcpy(out[i].data<uint8_t>() + dst * width,
                    updates[i]->data<uint8_t>() + src * width, count * width);
      }
    };
  } else if (BinaryKernel kernel =
                 binary ? getBinaryKernel(*binary, input.getElementType())
                        : nullptr) {
    size_t width = byteWidth(input.getElementType());
    combine = [&, kernel, width](int64_t dst, int64_t src, int64_t count) {
      uint8_t *target = out[0].data<uint8_t>() + dst * width;
      kernel(target, update.data<uint8_t>() + src * width, target, count);
    };
  } else {
    SmallVector<Scalar> args(2 * n), results(n);
    SmallVector<ScalarLoader> loads;
    SmallVector<ScalarStorer> stores;
    for (int64_t i = 0; i < n; ++i) {
      loads.push_back(getScalarLoader(out[i].getElementType()));
      stores.push_back(getScalarStorer(out[i].getElementType()));
    }
    combine = [&, args, results, loads, stores](int64_t dst, int64_t src,
                                                int64_t count) mutable {
      for (int64_t e = 0; e < count; ++e) {
        for (int64_t i = 0; i < n; ++i) {
          args[i] = loads[i](out[i].data(), dst + e);
          args[n + i] = loads[i](updates[i]->data(), src + e);
        }
        combiner.body->run(args, results);
        for (int64_t i = 0; i < n; ++i)
          stores[i](results[i], out[i].data(), dst + e);
      }
    };
  }

  Shape pos(starts.getShape().size(), 0), start(rank, 0);
  do {
    starts.startAt(pos, start);
    // XLA skips an update whose window does not fit.
    bool fits = true;
    for (int64_t d = 0; d < rank; ++d)
      fits &= start[d] >= 0 && start[d] <= input.getDimSize(d) - windowSizes[d];
    if (!fits)
      continue;
    int64_t dstBase = 0, srcBase = 0;
    for (int64_t d = 0; d < rank; ++d)
      dstBase += start[d] * inputStrides[d];
    for (auto [p, d] : llvm::zip(pos, scatterDims))
      srcBase += p * updateStrides[d];
    forEachRun(window.extents, window.operandStrides, window.otherStrides,
               [&](int64_t dst, int64_t src, int64_t count) {
                 combine(dstBase + dst, srcBase + src, count);
               });
  } while (advance(pos, starts.getShape()));
}

} // namespace xspmd::runtime
