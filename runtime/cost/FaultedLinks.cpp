//===- FaultedLinks.cpp - injected faults on a collective's links ---------===//
//
// runHealth and CollectiveCostModel::checkFaults.
//
//===----------------------------------------------------------------------===//

#include "runtime/cost/FaultedLinks.h"

#include "runtime/cost/CollectiveCost.h"
#include "runtime/cost/RoutedTraffic.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using llvm::createStringError;
using llvm::formatv;

namespace xspmd::cost {

RunHealth runHealth(const topology::Topology &topology,
                    const topology::FaultSet &faults,
                    const topology::AxisSpan &span,
                    llvm::ArrayRef<int64_t> group) {
  RunHealth health;
  int64_t n = topology.getAxisLength(span.axis);
  // Failed cables per parallel line, keyed by the member's other coordinates.
  llvm::DenseMap<int64_t, int64_t> failedOnLine;
  for (int64_t member : group) {
    topology::ChipCoords coords = topology.getCoords(member);
    int64_t c = coords[span.axis];
    int64_t position = ((c - span.first) % n + n) % n / span.stride;
    if (!span.ring && position == span.length - 1)
      continue; // the far end of a line has no link onwards
    topology::ChipCoords line = coords;
    line[span.axis] = 0;
    int64_t lineKey = topology.getDevice(0, line);
    for (int64_t i = 0; i < span.stride; ++i) {
      topology::ChipCoords at = coords;
      at[span.axis] = (c + i) % n;
      int64_t key = topology::directedLinkKey(
          topology.getDevice(topology.getSlice(member), at), span.axis, +1);
      health.slowdown = std::max(health.slowdown, faults.linkSlowdown(key));
      if (const std::string *failure = faults.failedLink(key)) {
        health.failedPerLine =
            std::max(health.failedPerLine, ++failedOnLine[lineKey]);
        if (!health.failure)
          health.failure = failure;
      }
    }
  }
  return health;
}

/// "[0, 1, 2, 3]" or "[0, 1, 2, 3, ...] (64 devices)".
static std::string describeGroup(llvm::ArrayRef<int64_t> group) {
  std::string text = "[";
  for (size_t i = 0; i < group.size() && i < 8; ++i)
    text += (i ? ", " : "") + std::to_string(group[i]);
  if (group.size() > 8)
    return text + formatv(", ...] ({0} devices)", group.size()).str();
  return text + "]";
}

llvm::Error
CollectiveCostModel::checkFaults(CollectiveKind kind,
                                 llvm::ArrayRef<Group> groups) const {
  const topology::FaultSet *faults = options.faults;
  if (!faults)
    return llvm::Error::success();
  auto error = [&](Group group, const std::string &why) {
    return createStringError(formatv("{0} over {1}: {2}",
                                     stringifyCollectiveKind(kind),
                                     describeGroup(group), why)
                                 .str());
  };
  for (Group group : groups) {
    if (faults->hasFailedDevices())
      for (int64_t device : group)
        if (const std::string *failure = faults->failedDevice(device))
          return error(group, "needs " + *failure);
    if (!faults->hasFailedLinks() || group.size() < 2)
      continue;
    // Each slice's part: closed forms on a sub-grid (a ring may run as a
    // line around one failed link), else routed messages.
    llvm::DenseMap<int64_t, llvm::SmallVector<int64_t>> parts;
    for (int64_t device : group)
      parts[topology.getSlice(device)].push_back(device);
    for (auto &[slice, part] : parts) {
      if (part.size() < 2)
        continue;
      if (auto grid = topology::findSubgrid(topology, part)) {
        for (const topology::AxisSpan &span : *grid) {
          RunHealth health = runHealth(topology, *faults, span, part);
          if (health.failedPerLine == 0 ||
              (span.ring && health.failedPerLine == 1))
            continue;
          return error(
              group,
              formatv(span.ring ? "needs {0}; its ring along {1} has another "
                                  "failed link, so no line avoids both"
                                : "needs {0}; its line along {1} (no "
                                  "wraparound) has no other way round",
                      *health.failure, topology::axisName(span.axis))
                  .str());
        }
        continue;
      }
      IciLinkLoads routes(topology, faults);
      size_t n = part.size();
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
          bool ring = j == (i + 1) % n || i == (j + 1) % n;
          if (i == j || (kind != CollectiveKind::AllToAll && !ring))
            continue;
          for (int64_t link : routes.routeLinks(part[i], part[j]))
            if (const std::string *failure = faults->failedLink(link))
              return error(group,
                           formatv("needs {0} (routed from device {1} to "
                                   "device {2}; no re-route is modelled for "
                                   "routed groups)",
                                   *failure, part[i], part[j])
                               .str());
        }
    }
  }
  return llvm::Error::success();
}

} // namespace xspmd::cost
