//===- GlobalBlocks.h - global tensors as per-device blocks -----*- C++ -*-===//
//
// The two directions of a sharding's layout (xla::ShardLayout, shared with
// the partitioner) the runner needs: splitting global inputs into
// per-device blocks, and assembling per-device results into global ones.
// Blocks are padded at the end, as the partitioner pads; axes no dimension
// uses replicate; partial axes hold pending reductions (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_GLOBALBLOCKS_H
#define XSPMD_RUNTIME_EXEC_GLOBALBLOCKS_H

#include "runtime/collectives/CollectiveCall.h"
#include "runtime/kernels/Tensor.h"

#include "dialects/xla/XlaShardLayout.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace xspmd::runtime {

using xla::MeshModel;
using xla::ShardLayout;

/// Device `device`'s block of `global`, zero padded. For partial layouts
/// the value sits on the first member of each partial group and the others
/// hold the identity (sum: 0, mul: 1); idempotent reductions (min, max, and,
/// or) give the value to every member.
Tensor extractBlock(const Tensor &global, const ShardLayout &layout,
                    const MeshModel &mesh, int64_t device);

/// The global tensor from every device's block (locals[d] for device d):
/// partial groups are folded in group order, padding is dropped, and
/// devices that replicate a block must hold bitwise the same values.
llvm::Expected<Tensor> assembleGlobal(llvm::ArrayRef<Tensor> locals,
                                      const ShardLayout &layout,
                                      const MeshModel &mesh,
                                      llvm::ArrayRef<int64_t> globalShape);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_GLOBALBLOCKS_H
