//===- CollectiveCost.h - time of a collective on a topology ----*- C++ -*-===//
//
// How long a collective over given device groups takes on a topology, by
// which algorithm, and how many bytes it puts on ICI and DCN links.
//
// Algorithm choice, per collective (all groups together):
//  1. Every group inside one slice and a sub-grid of the torus: closed forms
//     (SubgridCollectives.h): bidirectional rings on wraparound axes, lines
//     without wraparound, several axes at once for multi-axis groups.
//     all-reduce = reduce-scatter + all-gather.
//  2. Every group spread evenly over several slices: hierarchical. ICI
//     phases run inside each slice (as in 1, or routed), the DCN phase is a
//     ring over the slices between corresponding chips, its bytes going
//     through each host's NIC, shared by the host's chips (research notes
//     8.9):
//       all-reduce:     ICI reduce-scatter, DCN all-reduce of V/k, ICI
//                       all-gather
//       reduce-scatter: ICI reduce-scatter, DCN reduce-scatter of V/k
//       all-gather:     DCN all-gather to V/k, ICI all-gather
//       all-to-all:     ICI all-to-all of the local chunks while the remote
//                       chunks cross the DCN directly
//     (k members per slice; a DCN ring step costs max(DCN latency, the
//     busiest NIC's or PCIe link's bytes / bandwidth)).
//  3. Anything else (strided or scattered groups, uneven slices): routed
//     fallback. Rings (all-gather, reduce-scatter, all-reduce) run over the
//     group in its given order, each hop routed over the torus (or the DCN),
//     all groups' traffic summed per link; the cheaper of a unidirectional
//     ring and a bidirectional one (half of each chunk each way) wins.
//     all-to-all sends every chunk directly. Each step costs
//     max(hops x T_min, busiest link / W) on ICI, and the DCN step as above.
// collective-permute: every pair routed at once; per the notes' point-to-
// point form, k x T_min + busiest link / W on ICI, DCN latency + busiest
// NIC or PCIe link / bandwidth on DCN.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COST_COLLECTIVECOST_H
#define XSPMD_RUNTIME_COST_COLLECTIVECOST_H

#include "runtime/cost/CollectiveTypes.h"
#include "runtime/cost/SubgridCollectives.h"
#include "runtime/topology/GroupGeometry.h"
#include "runtime/topology/Topology.h"

#include "llvm/Support/Error.h"

namespace xspmd::cost {

class CollectiveCostModel {
public:
  explicit CollectiveCostModel(const topology::Topology &topology,
                               CollectiveCostOptions options = {});

  const topology::Topology &getTopology() const { return topology; }
  const CollectiveCostOptions &getOptions() const { return options; }

  /// Estimates `op`. Errors on malformed requests: no groups, an empty
  /// group, groups of different sizes, a device outside the topology or in
  /// two groups, a permute source or target used twice, negative bytes.
  llvm::Expected<CollectiveEstimate> estimate(const CollectiveOp &op) const;

private:
  using Group = llvm::ArrayRef<int64_t>;

  IciLinkParams iciParams() const;
  /// Errors when a group needs a failed device, or a failed link it cannot
  /// avoid (docs/topology.md 7).
  llvm::Error checkFaults(CollectiveKind kind,
                          llvm::ArrayRef<Group> groups) const;
  /// One step's time from its latency and bandwidth terms: their sum when
  /// calibrated, else the larger.
  double combine(double latency, double bandwidth) const;
  /// Adds the generation's per-collective launch cost (calibrated model).
  void addLaunchCost(CollectiveEstimate &estimate) const;

  /// Phases of `kind` over groups that each stay in one slice; `volume` is
  /// V for gathers and reductions, the per-device bytes for all-to-all.
  llvm::SmallVector<CollectivePhase, 2>
  intraSlicePhases(CollectiveKind kind, llvm::ArrayRef<Group> groups,
                   double volume) const;
  /// Closed forms over sub-grid groups; std::nullopt if some group is not a
  /// sub-grid.
  std::optional<CollectivePhase> subgridPhase(CollectiveKind kind,
                                              llvm::ArrayRef<Group> groups,
                                              double volume) const;
  /// The routed fallback: one ICI phase and, if any hop leaves a slice, a
  /// concurrent DCN phase.
  llvm::SmallVector<CollectivePhase, 2>
  routedPhases(CollectiveKind kind, llvm::ArrayRef<Group> groups,
               double volume) const;
  llvm::SmallVector<CollectivePhase, 2> routedRing(CollectiveKind kind,
                                                   llvm::ArrayRef<Group> groups,
                                                   double volume,
                                                   bool bidirectional) const;
  llvm::SmallVector<CollectivePhase, 2>
  routedAllToAll(llvm::ArrayRef<Group> groups, double bytesPerDevice) const;
  /// The DCN part of an all-to-all: every member sends its chunks for
  /// members in other slices straight over the DCN.
  CollectivePhase dcnDirect(llvm::ArrayRef<Group> groups,
                            double bytesPerDevice) const;

  /// Hierarchical phases for groups spread evenly over slices.
  llvm::SmallVector<CollectivePhase, 3>
  hierarchicalPhases(CollectiveKind kind, llvm::ArrayRef<Group> groups,
                     llvm::ArrayRef<topology::GroupGeometry> geometries,
                     double volume) const;
  /// A DCN ring over the slices of each group, between the i-th members of
  /// each slice, moving `ringVolume` per ring, `passes` times round.
  CollectivePhase dcnRing(llvm::ArrayRef<topology::GroupGeometry> geometries,
                          double ringVolume, int passes,
                          llvm::StringRef operation) const;

  llvm::Expected<CollectiveEstimate>
  estimatePermute(const CollectiveOp &op) const;

  const topology::Topology &topology;
  CollectiveCostOptions options;
};

/// Sums phases into an estimate: sequential phases add, a phase concurrent
/// with the previous one overlaps it.
void accumulatePhases(CollectiveEstimate &estimate);

} // namespace xspmd::cost

#endif // XSPMD_RUNTIME_COST_COLLECTIVECOST_H
