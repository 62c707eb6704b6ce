//===- DataMovement.h - copies, layouts and indexing ------------*- C++ -*-===//
//
// Kernels that move elements without arithmetic: transpose, broadcast,
// reverse, slice, concatenate, pad, gather, iota. All of them reduce to one
// strided block copy that merges contiguous dimensions and copies runs with
// memcpy. Outputs are allocated by the caller with the op's result type.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_DATAMOVEMENT_H
#define XSPMD_RUNTIME_KERNELS_DATAMOVEMENT_H

#include "runtime/kernels/Tensor.h"

namespace xspmd::runtime {

/// Copies the block `extents` from `src` to `dst`; strides are in elements of
/// `width` bytes (a source stride of 0 repeats an element).
void copyStrided(const void *src, llvm::ArrayRef<int64_t> srcStrides, void *dst,
                 llvm::ArrayRef<int64_t> dstStrides,
                 llvm::ArrayRef<int64_t> extents, size_t width);

/// Row-major strides (in elements) of `shape`.
Shape stridesOf(llvm::ArrayRef<int64_t> shape);

/// Sets every element to `value` converted with xla.convert's rules.
void fillWith(Tensor &out, double value);

/// out[...] = in[...] with operand dim i at result dim dims[i] (size 1 or
/// equal).
void broadcastInDim(const Tensor &in, llvm::ArrayRef<int64_t> dims,
                    Tensor &out);

/// Result dim i is operand dim perm[i].
void transpose(const Tensor &in, llvm::ArrayRef<int64_t> perm, Tensor &out);

/// Reverses the order of elements along `dims` (distinct).
void reverse(const Tensor &in, llvm::ArrayRef<int64_t> dims, Tensor &out);

/// Static strided slice; `out` has the sliced shape.
void slice(const Tensor &in, llvm::ArrayRef<int64_t> start,
           llvm::ArrayRef<int64_t> strides, Tensor &out);

/// Offsets are clamped to [0, dim - size] first, as XLA does.
void dynamicSlice(const Tensor &in, llvm::ArrayRef<int64_t> offsets,
                  Tensor &out);
void dynamicUpdateSlice(const Tensor &in, const Tensor &update,
                        llvm::ArrayRef<int64_t> offsets, Tensor &out);

/// Copies `block` into `out` at `offsets` (which must fit).
void insertBlock(const Tensor &block, llvm::ArrayRef<int64_t> offsets,
                 Tensor &out);

void concatenate(llvm::ArrayRef<const Tensor *> inputs, int64_t dim,
                 Tensor &out);

/// Edge padding (negative cuts) and interior padding with `value`.
void pad(const Tensor &in, llvm::ArrayRef<int64_t> low,
         llvm::ArrayRef<int64_t> interior, double value, Tensor &out);

/// out[i..., j...] = table[clamp(indices[i...]), j...].
void gather(const Tensor &table, const Tensor &indices, Tensor &out);

/// out[i0, ..., in] = i_dim.
void iota(int64_t dim, Tensor &out);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_DATAMOVEMENT_H
