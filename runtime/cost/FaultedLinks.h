//===- FaultedLinks.h - injected faults on a collective's links -*- C++ -*-===//
//
// What injected faults (runtime/topology/Faults.h) do to the links a
// collective uses: the slowest link of each sub-grid run, failed links a
// ring can avoid by running as a line, and the checks that turn a failed
// link no route avoids, or a failed device, into an error naming it
// (CollectiveCostModel::checkFaults, docs/topology.md 7).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COST_FAULTEDLINKS_H
#define XSPMD_RUNTIME_COST_FAULTEDLINKS_H

#include "runtime/topology/Faults.h"
#include "runtime/topology/GroupGeometry.h"

#include <string>

namespace xspmd::cost {

/// What injected faults do to one run of a sub-grid group.
struct RunHealth {
  /// The slowest link's slowdown.
  double slowdown = 1;
  /// Failed cables on the worst of the run's parallel rings or lines, and
  /// the first one's description.
  int64_t failedPerLine = 0;
  const std::string *failure = nullptr;
};

/// The links `span` uses in `group` (a sub-grid inside one slice): from each
/// member to the next along the run (every link in between for strided
/// runs; round the wraparound for rings).
RunHealth runHealth(const topology::Topology &topology,
                    const topology::FaultSet &faults,
                    const topology::AxisSpan &span,
                    llvm::ArrayRef<int64_t> group);

} // namespace xspmd::cost

#endif // XSPMD_RUNTIME_COST_FAULTEDLINKS_H
