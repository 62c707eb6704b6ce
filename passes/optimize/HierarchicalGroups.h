//===- HierarchicalGroups.h - ICI and DCN parts of replica groups -*- C++
//-*-===//
//
// Splits the groups of a collective on a hybrid mesh into the devices of
// each group that share a slice (ICI subgroups) and those at the same rank
// within their slice (DCN subgroups).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_OPTIMIZE_HIERARCHICALGROUPS_H
#define XSPMD_PASSES_OPTIMIZE_HIERARCHICALGROUPS_H

#include "dialects/xla/XlaOps.h"

#include <optional>

namespace xspmd::optimize {

/// How a group's positions map to (slice rank a, rank in slice b), with d
/// slices per group and i devices of a group per slice.
enum class GroupLayout {
  DcnMajor,    // position = a * i + b
  IciMajor,    // position = b * d + a
  Interleaved, // neither
};

struct LinkSplit {
  /// One per group and slice: the group's members in that slice, in group
  /// order (rank in slice b = index here).
  xla::DeviceGroups ici;
  /// One per group and rank in slice b: the members of rank b, one per
  /// slice, slices in order of their first member in the group (slice rank
  /// a = index here).
  xla::DeviceGroups dcn;
  int64_t iciSize = 0, dcnSize = 0;
  GroupLayout layout = GroupLayout::Interleaved;
};

/// Splits `groups` (device ids; slice s holds ids s*sliceSize ..
/// (s+1)*sliceSize-1). Fails when some group has a different number of
/// members in two slices, or groups differ in their shape.
std::optional<LinkSplit> splitByLinks(const xla::DeviceGroups &groups,
                                      int64_t sliceSize);

/// Whether two lists of groups are the same partition with the same member
/// order inside each group (the order of the groups is irrelevant).
bool sameGroupSets(xla::DeviceGroups a, xla::DeviceGroups b);

} // namespace xspmd::optimize

#endif // XSPMD_PASSES_OPTIMIZE_HIERARCHICALGROUPS_H
