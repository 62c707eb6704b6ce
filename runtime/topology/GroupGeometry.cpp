//===- GroupGeometry.cpp - where a device group sits on a topology --------===//

#include "runtime/topology/GroupGeometry.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using llvm::createStringError;
using llvm::formatv;

namespace xspmd::topology {

llvm::StringRef stringifyLinkClass(LinkClass linkClass) {
  switch (linkClass) {
  case LinkClass::Ici:
    return "ici";
  case LinkClass::Dcn:
    return "dcn";
  case LinkClass::Mixed:
    return "mixed";
  }
  return "?";
}

bool GroupGeometry::isBalancedAcrossSlices() const {
  return llvm::all_of(slices, [&](const SliceMembers &members) {
    return members.devices.size() == slices.front().devices.size();
  });
}

LinkClass GroupGeometry::getLinkClass() const {
  if (!crossesSlices())
    return LinkClass::Ici;
  bool onePerSlice = llvm::all_of(slices, [](const SliceMembers &members) {
    return members.devices.size() == 1;
  });
  return onePerSlice ? LinkClass::Dcn : LinkClass::Mixed;
}

/// The evenly spaced run formed by the sorted distinct coordinates `values`
/// on `axis`, or std::nullopt when their spacing is uneven.
static std::optional<AxisSpan> findRun(const Topology &topology, int axis,
                                       llvm::ArrayRef<int64_t> values) {
  int64_t n = topology.getAxisLength(axis);
  int64_t count = values.size();
  bool wraps = topology.hasWraparound(axis);
  if (count == n)
    return AxisSpan{axis, count, 0, 1, wraps};
  llvm::SmallVector<int64_t> gaps;
  for (int64_t i = 0; i + 1 < count; ++i)
    gaps.push_back(values[i + 1] - values[i]);
  if (!wraps) {
    if (llvm::all_equal(gaps))
      return AxisSpan{axis, count, values.front(), gaps.front(), false};
    return std::nullopt;
  }
  // Round a ring: the gap closing through the wraparound link counts too.
  gaps.push_back(values.front() + n - values.back());
  if (llvm::all_equal(gaps))
    return AxisSpan{axis, count, values.front(), gaps.front(), true};
  // One longer gap, the others equal: a line that starts after that gap.
  int64_t stride = *llvm::min_element(gaps);
  int64_t longer = 0, longIndex = 0;
  for (auto [i, gap] : llvm::enumerate(gaps))
    if (gap != stride) {
      ++longer;
      longIndex = i;
    }
  if (longer != 1)
    return std::nullopt;
  return AxisSpan{axis, count, values[(longIndex + 1) % count], stride, false};
}

std::optional<llvm::SmallVector<AxisSpan, 3>>
findSubgrid(const Topology &topology, llvm::ArrayRef<int64_t> devices) {
  std::array<llvm::SmallVector<int64_t>, 3> values;
  for (int64_t device : devices) {
    ChipCoords coords = topology.getCoords(device);
    for (int axis = 0; axis < 3; ++axis)
      values[axis].push_back(coords[axis]);
  }
  int64_t product = 1;
  for (auto &axisValues : values) {
    llvm::sort(axisValues);
    axisValues.erase(std::unique(axisValues.begin(), axisValues.end()),
                     axisValues.end());
    product *= axisValues.size();
  }
  // Distinct members, each inside the product of the per-axis values: the
  // counts match iff the members are exactly that product.
  if (product != static_cast<int64_t>(devices.size()))
    return std::nullopt;
  llvm::SmallVector<AxisSpan, 3> spans;
  for (int axis = 0; axis < 3; ++axis) {
    if (values[axis].size() < 2)
      continue;
    std::optional<AxisSpan> run = findRun(topology, axis, values[axis]);
    if (!run)
      return std::nullopt;
    spans.push_back(*run);
  }
  return spans;
}

llvm::Expected<GroupGeometry> analyzeGroup(const Topology &topology,
                                           llvm::ArrayRef<int64_t> devices) {
  if (devices.empty())
    return createStringError("a collective group must not be empty");
  GroupGeometry geometry;
  llvm::DenseSet<int64_t> seen;
  for (int64_t device : devices) {
    if (!topology.isValidDevice(device))
      return createStringError(formatv("device {0} is outside the topology "
                                       "({1} has devices 0..{2})",
                                       device, topology.describe(),
                                       topology.getNumDevices() - 1));
    if (!seen.insert(device).second)
      return createStringError(
          formatv("device {0} appears twice in a collective group", device));
    int64_t slice = topology.getSlice(device);
    auto *members = llvm::find_if(geometry.slices, [&](const SliceMembers &m) {
      return m.slice == slice;
    });
    if (members == geometry.slices.end()) {
      geometry.slices.push_back({slice, {}, std::nullopt});
      members = &geometry.slices.back();
    }
    members->devices.push_back(device);
  }
  for (SliceMembers &members : geometry.slices)
    members.grid = findSubgrid(topology, members.devices);
  return geometry;
}

llvm::Expected<LinkClass>
classifyGroups(const Topology &topology,
               llvm::ArrayRef<llvm::SmallVector<int64_t>> groups) {
  bool anyDcn = false, anyMixed = false, anyIci = false;
  for (const auto &group : groups) {
    llvm::Expected<GroupGeometry> geometry = analyzeGroup(topology, group);
    if (!geometry)
      return geometry.takeError();
    LinkClass linkClass = geometry->getLinkClass();
    anyDcn |= linkClass == LinkClass::Dcn;
    anyMixed |= linkClass == LinkClass::Mixed;
    anyIci |= linkClass == LinkClass::Ici && group.size() > 1;
  }
  if (anyMixed || (anyDcn && anyIci))
    return LinkClass::Mixed;
  return anyDcn ? LinkClass::Dcn : LinkClass::Ici;
}

} // namespace xspmd::topology
