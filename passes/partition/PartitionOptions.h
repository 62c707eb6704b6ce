//===- PartitionOptions.h - choices --xla-partition exposes -----*- C++ -*-===//
//
// Choices of the partitioner that a user may force instead of leaving them
// to its cost model.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_PARTITIONOPTIONS_H
#define XSPMD_PASSES_PARTITION_PARTITIONOPTIONS_H

namespace xspmd::partition {

/// How ops whose output blocks read a neighbour's input (windowed slice,
/// pad, convolution, reduce_window, concatenate, reverse) treat a split
/// dimension.
enum class HaloMode {
  /// Exchange halos or gather the dimension, whichever costs less.
  automatic,
  /// Exchange halos whenever the window fits in the neighbours' blocks.
  always,
  /// Always gather the dimension.
  never,
};

struct PartitionOptions {
  HaloMode halo = HaloMode::automatic;
};

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_PARTITIONOPTIONS_H
