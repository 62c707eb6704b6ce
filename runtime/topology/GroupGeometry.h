//===- GroupGeometry.h - where a device group sits on a topology -*- C++
//-*-===//
//
// The shape of one collective group (a replica group: a list of device ids)
// on the physical topology: which slices it touches, and inside each slice
// whether its chips form a sub-grid of the torus (a Cartesian product of runs
// of consecutive chips along some axes), in which case ring algorithms run
// along those axes. Groups that are not sub-grids (strided, scattered) are
// "irregular" and costed by routing (runtime/cost).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TOPOLOGY_GROUPGEOMETRY_H
#define XSPMD_RUNTIME_TOPOLOGY_GROUPGEOMETRY_H

#include "runtime/topology/Topology.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace xspmd::topology {

/// The chips a group covers along one torus axis: `length` chips spaced
/// `stride` apart (1: consecutive), starting at `first`.
struct AxisSpan {
  int axis;
  /// Chips in the run.
  int64_t length;
  /// Coordinate of the run's first chip; on a wraparound axis a run may
  /// cross the wraparound link (coordinates taken modulo the axis length).
  int64_t first;
  /// Distance between neighbouring members along the axis.
  int64_t stride;
  /// The members close a ring through the wraparound link (they are spread
  /// evenly round a wraparound axis: stride x length = axis length).
  /// Otherwise the run is a line: its ends are not linked.
  bool ring;
};

/// The members of a group that live in one slice.
struct SliceMembers {
  int64_t slice;
  /// In group order.
  llvm::SmallVector<int64_t> devices;
  /// When the members form a sub-grid: its runs, by ascending axis (empty for
  /// a single chip). std::nullopt for an irregular set.
  std::optional<llvm::SmallVector<AxisSpan, 3>> grid;
};

/// Which network a group (or a set of groups) needs.
enum class LinkClass {
  /// All members of each group share a slice.
  Ici,
  /// Each group has at most one member per slice and spans several slices.
  Dcn,
  /// Both: several members in some slice and several slices.
  Mixed,
};

llvm::StringRef stringifyLinkClass(LinkClass linkClass);

struct GroupGeometry {
  /// Slices in order of their first member in the group.
  llvm::SmallVector<SliceMembers, 2> slices;

  bool crossesSlices() const { return slices.size() > 1; }
  /// Every slice holds the same number of members.
  bool isBalancedAcrossSlices() const;
  int64_t membersPerSlice() const { return slices.front().devices.size(); }
  LinkClass getLinkClass() const;
};

/// Analyses one group. Errors on an empty group, an id outside the topology
/// or a repeated id.
llvm::Expected<GroupGeometry> analyzeGroup(const Topology &topology,
                                           llvm::ArrayRef<int64_t> devices);

/// The sub-grid formed by `devices` (distinct, all in one slice), or
/// std::nullopt when they do not form one.
std::optional<llvm::SmallVector<AxisSpan, 3>>
findSubgrid(const Topology &topology, llvm::ArrayRef<int64_t> devices);

/// The link class of a set of groups (e.g. all groups of one mesh axis):
/// the widest one any group needs.
llvm::Expected<LinkClass>
classifyGroups(const Topology &topology,
               llvm::ArrayRef<llvm::SmallVector<int64_t>> groups);

} // namespace xspmd::topology

#endif // XSPMD_RUNTIME_TOPOLOGY_GROUPGEOMETRY_H
