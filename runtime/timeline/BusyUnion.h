//===- BusyUnion.h - length of a union of intervals, online -----*- C++ -*-===//
//
// A device is busy while it computes or transfers: the busy time of a step
// is the length of the union of its compute intervals and its transfers.
// Both come in as the clock runs, each stream in nondecreasing order but
// interleaved arbitrarily (an async transfer may start long before the
// compute op appended just before it). Keeping every interval until the
// step ends costs 16 B per instruction and device; this keeps only the
// union's segments that a later interval could still extend, given a
// horizon before which no later interval begins, and sums the others as
// they become final.
//
// The result is a function of the intervals alone: touching or overlapping
// intervals form one segment, and the segments' lengths are summed in time
// order, however often settle() is called.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TIMELINE_BUSYUNION_H
#define XSPMD_RUNTIME_TIMELINE_BUSYUNION_H

#include "llvm/ADT/SmallVector.h"

#include <cstddef>
#include <limits>

namespace xspmd::timeline {

class BusyUnion {
public:
  /// Adds [begin, end] (nothing when it is empty).
  void add(double begin, double end);
  /// No interval added from now on begins before `horizon`: the segments
  /// that end before it are final.
  void settle(double horizon);
  /// The union's length since the last finish(); starts over.
  double finish();
  /// Segments kept (for tests: bounded by the horizon, not the count).
  size_t getOpenSegments() const { return open.size(); }

private:
  struct Segment {
    double begin, end;
  };
  /// Disjoint, not touching, in time order; inline, as a device's clock
  /// is visited briefly and each miss counts over thousands of devices.
  llvm::SmallVector<Segment, 4> open;
  double settled = 0;
#ifndef NDEBUG
  double horizon = -std::numeric_limits<double>::infinity();
#endif
};

} // namespace xspmd::timeline

#endif // XSPMD_RUNTIME_TIMELINE_BUSYUNION_H
