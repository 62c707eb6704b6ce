//===- XlaShardLayout.h - how a sharded tensor lies on devices --*- C++ -*-===//
//
// A sharding as the partitioner and the simulator use it: for every tensor
// dimension, the mesh axes it is split over (major to minor, as indices) and
// the padded global size the split applies to; plus the axes the value is a
// pending reduction over. The partitioner plans reshards with it and the
// simulator splits global inputs and assembles global results by it.
//
// Padding: a dimension of size S split into n shards is padded at the end to
// P = n * ceil(S / n) (as GSPMD does); device with shard index i holds global
// indices [i*P/n, (i+1)*P/n). Indices >= S are padding and hold unspecified
// values: operations that would read them (reductions, softmax, ...) mask
// them. While resharding, P may temporarily be any multiple of n that is
// >= S, which keeps gathers and all-to-alls exact concatenations.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLASHARDLAYOUT_H
#define XSPMD_DIALECTS_XLA_XLASHARDLAYOUT_H

#include "dialects/xla/XlaDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace xspmd::xla {

/// The parts of a mesh the partitioner needs, with axes as indices.
struct MeshModel {
  llvm::SmallVector<int64_t> axisSizes;
  llvm::SmallVector<LinkClass> axisLinks;
  llvm::SmallVector<std::string> axisNames;
  /// Device ids in row-major order of the logical mesh.
  llvm::SmallVector<int64_t> deviceArray;

  static MeshModel fromAttr(MeshAttr mesh);
  /// One axis "devices" over `numDevices` devices in id order (the layout of
  /// values that name no mesh).
  static MeshModel flat(int64_t numDevices);
  int64_t numDevices() const { return deviceArray.size(); }
  int64_t rank() const { return axisSizes.size(); }
  int64_t axisIndex(llvm::StringRef name) const;
  /// Coordinates of the device at row-major position `position`.
  llvm::SmallVector<int64_t> coordsOfPosition(int64_t position) const;
  /// Row-major position of device `id` (inverse of deviceArray).
  llvm::SmallVector<int64_t> positionsOfDevices() const;
  /// Coordinates of device `id`.
  llvm::SmallVector<int64_t> coordsOfDevice(int64_t id) const;
  /// Worst link class of a set of axes (an empty set is ICI).
  LinkClass linkOf(llvm::ArrayRef<int> axes) const;
};

struct ShardLayout {
  /// Mesh axis indices each dimension is split over, major to minor.
  llvm::SmallVector<llvm::SmallVector<int, 2>> dimAxes;
  /// Padded global size of each dimension (a multiple of its shard count).
  llvm::SmallVector<int64_t> paddedSize;
  /// Axes of a pending reduction, ascending.
  llvm::SmallVector<int, 2> partialAxes;
  ReductionKind partialKind = ReductionKind::sum;
  /// The device of a value on a maximal mesh (it is whole there and nowhere
  /// else: every device holds a block of the global shape, only this one's
  /// is the value); -1 otherwise.
  int64_t maximalDevice = -1;

  /// The canonical layout of `sharding` for a tensor of `shape`.
  static ShardLayout fromSharding(ShardingAttr sharding, const MeshModel &mesh,
                                  llvm::ArrayRef<int64_t> shape);
  /// The fully replicated layout of a tensor of `shape`.
  static ShardLayout replicated(llvm::ArrayRef<int64_t> shape);
  /// The layout of a tensor of `shape` on device `device` only.
  static ShardLayout maximal(llvm::ArrayRef<int64_t> shape, int64_t device);
  bool isMaximal() const { return maximalDevice >= 0; }

  int64_t rank() const { return dimAxes.size(); }
  int64_t numShards(const MeshModel &mesh, int64_t dim) const;
  llvm::SmallVector<int64_t> localShape(const MeshModel &mesh) const;
  int64_t localElements(const MeshModel &mesh) const;
  /// True if `axis` splits a dimension or is partial.
  bool usesAxis(int axis) const;
  /// Shard index of dimension `dim` on a device with mesh coordinates
  /// `coords`.
  int64_t shardIndex(const MeshModel &mesh, int64_t dim,
                     llvm::ArrayRef<int64_t> coords) const;
  /// Global offsets of the block a device with `coords` holds.
  llvm::SmallVector<int64_t> blockOffsets(const MeshModel &mesh,
                                          llvm::ArrayRef<int64_t> coords) const;
  /// Position of a device with `coords` among the members of its partial
  /// group (0 when nothing is pending).
  int64_t partialIndex(const MeshModel &mesh,
                       llvm::ArrayRef<int64_t> coords) const;
  /// A key identifying the layout (for hashing and caching).
  std::string key() const;
  bool operator==(const ShardLayout &other) const {
    return dimAxes == other.dimAxes && paddedSize == other.paddedSize &&
           partialAxes == other.partialAxes &&
           maximalDevice == other.maximalDevice &&
           (partialAxes.empty() || partialKind == other.partialKind);
  }
};

/// The canonical padded size of a dimension of size `size` in `shards`.
inline int64_t paddedDimSize(int64_t size, int64_t shards) {
  return shards * ((size + shards - 1) / shards);
}

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLASHARDLAYOUT_H
