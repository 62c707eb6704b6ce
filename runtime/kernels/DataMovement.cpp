//===- DataMovement.cpp - copies, layouts and indexing --------------------===//

#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/Convert.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace xspmd::runtime {

namespace {

template <typename W>
void copyRun(const uint8_t *src, int64_t srcStride, uint8_t *dst,
             int64_t dstStride, int64_t n) {
  const W *s = reinterpret_cast<const W *>(src);
  W *d = reinterpret_cast<W *>(dst);
  for (int64_t i = 0; i < n; ++i)
    d[i * dstStride] = s[i * srcStride];
}

void copyRunOfWidth(const uint8_t *src, int64_t srcStride, uint8_t *dst,
                    int64_t dstStride, int64_t n, size_t width) {
  if (srcStride == 1 && dstStride == 1) {
    std::memcpy(dst, src, n * width);
    return;
  }
  switch (width) {
  case 1:
    return copyRun<uint8_t>(src, srcStride, dst, dstStride, n);
  case 2:
    return copyRun<uint16_t>(src, srcStride, dst, dstStride, n);
  case 4:
    return copyRun<uint32_t>(src, srcStride, dst, dstStride, n);
  case 8:
    return copyRun<uint64_t>(src, srcStride, dst, dstStride, n);
  }
  llvm_unreachable("unsupported element width");
}

} // namespace

Shape stridesOf(llvm::ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

void copyStrided(const void *src, llvm::ArrayRef<int64_t> srcStrides, void *dst,
                 llvm::ArrayRef<int64_t> dstStrides,
                 llvm::ArrayRef<int64_t> extents, size_t width) {
  // Drop size-1 dims and merge dims that are contiguous in both buffers.
  Shape ext, ss, ds;
  for (size_t i = 0; i < extents.size(); ++i) {
    if (extents[i] == 0)
      return;
    if (extents[i] == 1)
      continue;
    if (!ext.empty() && ss.back() == srcStrides[i] * extents[i] &&
        ds.back() == dstStrides[i] * extents[i]) {
      ext.back() *= extents[i];
      ss.back() = srcStrides[i];
      ds.back() = dstStrides[i];
      continue;
    }
    ext.push_back(extents[i]);
    ss.push_back(srcStrides[i]);
    ds.push_back(dstStrides[i]);
  }
  const uint8_t *s = static_cast<const uint8_t *>(src);
  uint8_t *d = static_cast<uint8_t *>(dst);
  if (ext.empty()) {
    std::memcpy(d, s, width);
    return;
  }
  int64_t rank = ext.size(), inner = ext.back();
  int64_t innerSrc = ss.back(), innerDst = ds.back();
  Shape index(rank - 1, 0);
  int64_t outer = numElementsOf(llvm::ArrayRef<int64_t>(ext).drop_back());
  int64_t srcOff = 0, dstOff = 0;
  for (int64_t o = 0; o < outer; ++o) {
    copyRunOfWidth(s + srcOff * width, innerSrc, d + dstOff * width, innerDst,
                   inner, width);
    // Odometer over the outer dims, updating offsets incrementally.
    for (int64_t i = rank - 2; i >= 0; --i) {
      srcOff += ss[i];
      dstOff += ds[i];
      if (++index[i] < ext[i])
        break;
      srcOff -= ss[i] * ext[i];
      dstOff -= ds[i] * ext[i];
      index[i] = 0;
    }
  }
}

void fillWith(Tensor &out, double value) {
  size_t width = byteWidth(out.getElementType());
  uint8_t pattern[8];
  storeDoubleAs(value, out.getElementType(), pattern);
  uint8_t *d = out.data<uint8_t>();
  int64_t n = out.getNumElements();
  if (std::all_of(pattern, pattern + width, [](uint8_t b) { return !b; })) {
    std::memset(d, 0, n * width);
    return;
  }
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(d + i * width, pattern, width);
}

void broadcastInDim(const Tensor &in, llvm::ArrayRef<int64_t> dims,
                    Tensor &out) {
  Shape srcStrides(out.getRank(), 0);
  Shape inStrides = stridesOf(in.getShape());
  for (auto [i, d] : llvm::enumerate(dims))
    if (in.getDimSize(i) != 1)
      srcStrides[d] = inStrides[i];
  copyStrided(in.data(), srcStrides, out.data(), stridesOf(out.getShape()),
              out.getShape(), byteWidth(out.getElementType()));
}

void transpose(const Tensor &in, llvm::ArrayRef<int64_t> perm, Tensor &out) {
  Shape inStrides = stridesOf(in.getShape());
  Shape srcStrides;
  for (int64_t p : perm)
    srcStrides.push_back(inStrides[p]);
  copyStrided(in.data(), srcStrides, out.data(), stridesOf(out.getShape()),
              out.getShape(), byteWidth(out.getElementType()));
}

void reverse(const Tensor &in, llvm::ArrayRef<int64_t> dims, Tensor &out) {
  if (in.getNumElements() == 0)
    return;
  // Read each reversed dimension from its last element with a negative
  // stride.
  Shape srcStrides = stridesOf(in.getShape());
  int64_t start = 0;
  for (int64_t d : dims) {
    start += (in.getDimSize(d) - 1) * srcStrides[d];
    srcStrides[d] = -srcStrides[d];
  }
  size_t width = byteWidth(in.getElementType());
  copyStrided(in.data<uint8_t>() + start * width, srcStrides, out.data(),
              stridesOf(out.getShape()), out.getShape(), width);
}

void slice(const Tensor &in, llvm::ArrayRef<int64_t> start,
           llvm::ArrayRef<int64_t> strides, Tensor &out) {
  Shape inStrides = stridesOf(in.getShape());
  Shape srcStrides;
  int64_t offset = 0;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    offset += start[d] * inStrides[d];
    srcStrides.push_back(inStrides[d] * strides[d]);
  }
  size_t width = byteWidth(in.getElementType());
  copyStrided(in.data<uint8_t>() + offset * width, srcStrides, out.data(),
              stridesOf(out.getShape()), out.getShape(), width);
}

static Shape clampOffsets(llvm::ArrayRef<int64_t> offsets,
                          llvm::ArrayRef<int64_t> full,
                          llvm::ArrayRef<int64_t> block) {
  Shape clamped;
  for (size_t d = 0; d < offsets.size(); ++d)
    clamped.push_back(std::clamp<int64_t>(offsets[d], 0, full[d] - block[d]));
  return clamped;
}

void dynamicSlice(const Tensor &in, llvm::ArrayRef<int64_t> offsets,
                  Tensor &out) {
  Shape start = clampOffsets(offsets, in.getShape(), out.getShape());
  Shape ones(in.getRank(), 1);
  slice(in, start, ones, out);
}

void insertBlock(const Tensor &block, llvm::ArrayRef<int64_t> offsets,
                 Tensor &out) {
  Shape outStrides = stridesOf(out.getShape());
  int64_t offset = 0;
  for (int64_t d = 0; d < out.getRank(); ++d)
    offset += offsets[d] * outStrides[d];
  size_t width = byteWidth(out.getElementType());
  copyStrided(block.data(), stridesOf(block.getShape()),
              out.data<uint8_t>() + offset * width, outStrides,
              block.getShape(), width);
}

void dynamicUpdateSlice(const Tensor &in, const Tensor &update,
                        llvm::ArrayRef<int64_t> offsets, Tensor &out) {
  std::memcpy(out.data(), in.data(), in.getByteSize());
  insertBlock(update, clampOffsets(offsets, in.getShape(), update.getShape()),
              out);
}

void concatenate(llvm::ArrayRef<const Tensor *> inputs, int64_t dim,
                 Tensor &out) {
  Shape offsets(out.getRank(), 0);
  for (const Tensor *in : inputs) {
    insertBlock(*in, offsets, out);
    offsets[dim] += in->getDimSize(dim);
  }
}

void pad(const Tensor &in, llvm::ArrayRef<int64_t> low,
         llvm::ArrayRef<int64_t> interior, double value, Tensor &out) {
  fillWith(out, value);
  Shape inStrides = stridesOf(in.getShape());
  Shape outStrides = stridesOf(out.getShape());
  Shape extents, srcStrides, dstStrides;
  int64_t srcOff = 0, dstOff = 0;
  for (int64_t d = 0; d < in.getRank(); ++d) {
    // Source element i lands at low + i * step; keep those inside the result.
    int64_t step = interior[d] + 1, size = in.getDimSize(d);
    int64_t first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step;
    int64_t limit = out.getDimSize(d) - low[d]; // positions < limit fit
    int64_t last = limit <= 0 ? -1 : std::min(size - 1, (limit - 1) / step);
    if (last < first)
      return;
    extents.push_back(last - first + 1);
    srcOff += first * inStrides[d];
    dstOff += (low[d] + first * step) * outStrides[d];
    srcStrides.push_back(inStrides[d]);
    dstStrides.push_back(outStrides[d] * step);
  }
  size_t width = byteWidth(in.getElementType());
  copyStrided(in.data<uint8_t>() + srcOff * width, srcStrides,
              out.data<uint8_t>() + dstOff * width, dstStrides, extents, width);
}

void gather(const Tensor &table, const Tensor &indices, Tensor &out) {
  int64_t rows = table.getDimSize(0);
  size_t rowBytes = (rows ? table.getByteSize() / rows : 0);
  int64_t n = indices.getNumElements();
  if (rows == 0) {
    std::memset(out.data(), 0, out.getByteSize());
    return;
  }
  const uint8_t *src = table.data<uint8_t>();
  uint8_t *dst = out.data<uint8_t>();
  bool wide = indices.getElementType() == ElementType::i64;
  for (int64_t i = 0; i < n; ++i) {
    int64_t index = wide ? indices.data<int64_t>()[i]
                         : static_cast<int64_t>(indices.data<int32_t>()[i]);
    index = std::clamp<int64_t>(index, 0, rows - 1);
    std::memcpy(dst + i * rowBytes, src + index * rowBytes, rowBytes);
  }
}

void iota(int64_t dim, Tensor &out) {
  Shape strides = stridesOf(out.getShape());
  int64_t size = out.getDimSize(dim), stride = strides[dim];
  size_t width = byteWidth(out.getElementType());
  uint8_t *d = out.data<uint8_t>();
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i)
    storeDoubleAs(static_cast<double>((i / stride) % size),
                  out.getElementType(), d + i * width);
}

} // namespace xspmd::runtime
