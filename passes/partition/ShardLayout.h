//===- ShardLayout.h - how a sharded tensor lies on the devices -*- C++ -*-===//
//
// The partitioner's view of a sharding: for every tensor dimension, the mesh
// axes it is split over (major to minor) and the padded global size the
// split applies to; plus the axes the value is a pending reduction over.
//
// Padding: a dimension of size S split into n shards is padded at the end to
// P = n * ceil(S / n) (as GSPMD does); device with shard index i holds global
// indices [i*P/n, (i+1)*P/n). Indices >= S are padding and hold unspecified
// values: operations that would read them (reductions, softmax, ...) mask
// them. While resharding, P may temporarily be any multiple of n that is
// >= S, which keeps gathers and all-to-alls exact concatenations.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_SHARDLAYOUT_H
#define XSPMD_PASSES_PARTITION_SHARDLAYOUT_H

#include "dialects/xla/XlaDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <string>

namespace xspmd::partition {

/// The parts of a mesh the partitioner needs, with axes as indices.
struct MeshModel {
  llvm::SmallVector<int64_t> axisSizes;
  llvm::SmallVector<xla::LinkClass> axisLinks;
  llvm::SmallVector<llvm::StringRef> axisNames;
  /// Device ids in row-major order of the logical mesh.
  llvm::SmallVector<int64_t> deviceArray;

  static MeshModel fromAttr(xla::MeshAttr mesh);
  int64_t numDevices() const { return deviceArray.size(); }
  int64_t rank() const { return axisSizes.size(); }
  int64_t axisIndex(llvm::StringRef name) const;
  /// Coordinates of the device at row-major position `position`.
  llvm::SmallVector<int64_t> coordsOfPosition(int64_t position) const;
  /// Row-major position of device `id` (inverse of deviceArray).
  llvm::SmallVector<int64_t> positionsOfDevices() const;
  /// Worst link class of a set of axes (an empty set is ICI).
  xla::LinkClass linkOf(llvm::ArrayRef<int> axes) const;
};

struct ShardLayout {
  /// Mesh axis indices each dimension is split over, major to minor.
  llvm::SmallVector<llvm::SmallVector<int, 2>> dimAxes;
  /// Padded global size of each dimension (a multiple of its shard count).
  llvm::SmallVector<int64_t> paddedSize;
  /// Axes of a pending reduction, ascending.
  llvm::SmallVector<int, 2> partialAxes;
  xla::ReductionKind partialKind = xla::ReductionKind::sum;

  /// The canonical layout of `sharding` for a tensor of `shape`.
  static ShardLayout fromSharding(xla::ShardingAttr sharding,
                                  const MeshModel &mesh,
                                  llvm::ArrayRef<int64_t> shape);
  /// The fully replicated layout of a tensor of `shape`.
  static ShardLayout replicated(llvm::ArrayRef<int64_t> shape);

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
  /// A key identifying the layout (for hashing and caching).
  std::string key() const;
  bool operator==(const ShardLayout &other) const {
    return dimAxes == other.dimAxes && paddedSize == other.paddedSize &&
           partialAxes == other.partialAxes &&
           (partialAxes.empty() || partialKind == other.partialKind);
  }
};

/// The canonical padded size of a dimension of size `size` in `shards`.
inline int64_t paddedDimSize(int64_t size, int64_t shards) {
  return shards * ((size + shards - 1) / shards);
}

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_SHARDLAYOUT_H
