//===- ShardLayout.h - global tensors as per-device blocks ------*- C++ -*-===//
//
// How a sharding (`#xla.sharding<@mesh, [{"x"}, {"y", "z"}]>`) lays a global
// tensor out over the devices of a mesh, and the two directions of that
// mapping the runner needs: splitting global inputs into per-device blocks,
// and assembling per-device results into global ones.
//
// Dimension i, split over axes (a1..ak) (major to minor) into S shards, has
// blocks of ceil(dim / S) elements: the device whose mixed-radix shard index
// is s holds [s*b, s*b + b) clipped to the dimension, padded at the end, as
// the partitioner pads. Axes no dimension uses replicate; partial axes hold
// pending reductions (see docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_SHARDLAYOUT_H
#define XSPMD_RUNTIME_EXEC_SHARDLAYOUT_H

#include "runtime/collectives/CollectiveCall.h"
#include "runtime/kernels/Tensor.h"

#include "dialects/xla/XlaDialect.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace xspmd::runtime {

struct MeshLayout {
  std::vector<std::string> axisNames;
  Shape axisSizes;
  /// Device ids, row-major over the axes.
  std::vector<int64_t> deviceArray;

  static MeshLayout fromAttr(xla::MeshAttr mesh);
  int64_t getNumDevices() const { return deviceArray.size(); }
  /// Coordinates of `device` along every axis.
  Shape coordinatesOf(int64_t device) const;
};

struct ShardLayout {
  /// Per tensor dimension, the mesh axes (indices) it is split over.
  std::vector<Shape> dimAxes;
  Shape partialAxes;
  ReductionKind partialKind = ReductionKind::sum;

  static ShardLayout fromAttr(xla::ShardingAttr sharding, xla::MeshAttr mesh);
  /// Every dimension whole, nothing pending.
  static ShardLayout replicated(int64_t rank);

  int64_t numShards(const MeshLayout &mesh, int64_t dim) const;
  /// The per-device (padded) shape of a `global` tensor.
  Shape localShape(const MeshLayout &mesh,
                   llvm::ArrayRef<int64_t> global) const;
  /// `device`'s position in its partial group (0 without partial axes).
  int64_t partialPosition(const MeshLayout &mesh, int64_t device) const;
  /// Offsets of `device`'s block in the global tensor.
  Shape blockOffsets(const MeshLayout &mesh, llvm::ArrayRef<int64_t> global,
                     int64_t device) const;
};

/// Device `device`'s block of `global`, zero padded. For partial layouts
/// the value sits on the first member of each partial group and the others
/// hold the identity (sum: 0, mul: 1); idempotent reductions (min, max, and,
/// or) give the value to every member.
Tensor extractBlock(const Tensor &global, const ShardLayout &layout,
                    const MeshLayout &mesh, int64_t device);

/// The global tensor from every device's block (locals[d] for device d):
/// partial groups are folded in group order, padding is dropped, and
/// devices that replicate a block must hold bitwise the same values.
llvm::Expected<Tensor> assembleGlobal(llvm::ArrayRef<Tensor> locals,
                                      const ShardLayout &layout,
                                      const MeshLayout &mesh,
                                      llvm::ArrayRef<int64_t> globalShape);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_SHARDLAYOUT_H
