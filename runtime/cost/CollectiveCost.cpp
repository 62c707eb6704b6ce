//===- CollectiveCost.cpp - time of a collective on a topology ------------===//
//
// Request checking, the choice between closed forms, hierarchical ICI+DCN
// and the routed fallback, and the hierarchical phases. The routed fallback
// and collective-permute live in RoutedCollectives.cpp.
//
//===----------------------------------------------------------------------===//

#include "runtime/cost/CollectiveCost.h"

#include "runtime/cost/FaultedLinks.h"
#include "runtime/cost/RoutedTraffic.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using llvm::createStringError;
using llvm::formatv;
using xspmd::topology::GroupGeometry;
using xspmd::topology::LinkClass;

namespace xspmd::cost {

CollectiveCostModel::CollectiveCostModel(const topology::Topology &topology,
                                         CollectiveCostOptions options)
    : topology(topology), options(options) {}

IciLinkParams CollectiveCostModel::iciParams() const {
  const topology::GenerationSpec &spec = topology.getSpec();
  double efficiency = options.iciEfficiency;
  if (options.calibrated)
    efficiency *= spec.iciEfficiency;
  return {spec.iciLinkBandwidth * efficiency, spec.iciHopLatency,
          /*stepLatency=*/options.calibrated ? spec.collectiveStepLatency : 0,
          /*additive=*/options.calibrated};
}

double CollectiveCostModel::combine(double latency, double bandwidth) const {
  return options.calibrated ? latency + bandwidth
                            : std::max(latency, bandwidth);
}

void CollectiveCostModel::addLaunchCost(CollectiveEstimate &estimate) const {
  if (!options.calibrated || estimate.phases.empty())
    return;
  estimate.launchSeconds = topology.getSpec().collectiveLaunchLatency;
  estimate.seconds += estimate.launchSeconds;
  for (double &seconds : estimate.groupSeconds)
    seconds += estimate.launchSeconds;
}

/// Sequential phases add, a concurrent phase overlaps the previous one.
template <typename SecondsOf>
static double stagedSeconds(llvm::ArrayRef<CollectivePhase> phases,
                            SecondsOf secondsOf) {
  double total = 0, stage = 0;
  for (const CollectivePhase &phase : phases) {
    if (phase.concurrentWithPrevious) {
      stage = std::max(stage, secondsOf(phase));
    } else {
      total += stage;
      stage = secondsOf(phase);
    }
  }
  return total + stage;
}

void accumulatePhases(CollectiveEstimate &estimate) {
  estimate.bytesSentPerDevice = {};
  estimate.linkBytes = {};
  estimate.iciHops = estimate.dcnSteps = 0;
  for (const CollectivePhase &phase : estimate.phases) {
    bool dcn = phase.link == LinkClass::Dcn;
    (dcn ? estimate.bytesSentPerDevice.dcn : estimate.bytesSentPerDevice.ici) +=
        phase.bytesSentPerDevice;
    (dcn ? estimate.linkBytes.dcn : estimate.linkBytes.ici) += phase.linkBytes;
    (dcn ? estimate.dcnSteps : estimate.iciHops) += phase.sequentialHops;
  }
  size_t numGroups = 0;
  for (const CollectivePhase &phase : estimate.phases)
    numGroups = std::max(numGroups, phase.groupSeconds.size());
  estimate.groupSeconds.clear();
  if (numGroups == 0) {
    estimate.seconds = stagedSeconds(
        estimate.phases, [](const CollectivePhase &p) { return p.seconds; });
    return;
  }
  // Each group runs its own phases; the collective lasts as long as the
  // slowest group.
  estimate.groupSeconds.resize(numGroups);
  for (size_t g = 0; g < numGroups; ++g)
    estimate.groupSeconds[g] =
        stagedSeconds(estimate.phases, [g](const CollectivePhase &p) {
          return p.secondsOfGroup(g);
        });
  estimate.seconds = *llvm::max_element(estimate.groupSeconds);
  if (llvm::all_equal(estimate.groupSeconds))
    estimate.groupSeconds.clear();
}

/// How many groups of the collective (`groupOf`: device -> group) have chips
/// on the links a strided run of the group holding `member` uses; those
/// groups share the links' bandwidth. At most the stride.
static int64_t linkSharing(const topology::Topology &topology,
                           const topology::AxisSpan &span, int64_t member,
                           const llvm::DenseMap<int64_t, int64_t> &groupOf) {
  if (span.stride == 1)
    return 1;
  int64_t n = topology.getAxisLength(span.axis);
  int64_t extent = span.ring ? n : (span.length - 1) * span.stride + 1;
  int64_t slice = topology.getSlice(member);
  topology::ChipCoords coords = topology.getCoords(member);
  llvm::SmallDenseSet<int64_t, 8> sharing;
  for (int64_t j = 0; j < extent; ++j) {
    coords[span.axis] = (span.first + j) % n;
    auto it = groupOf.find(topology.getDevice(slice, coords));
    if (it != groupOf.end())
      sharing.insert(it->second);
  }
  return std::min<int64_t>(sharing.size(), span.stride);
}

std::optional<CollectivePhase> CollectiveCostModel::subgridPhase(
    CollectiveKind kind, llvm::ArrayRef<Group> groups, double volume) const {
  llvm::SmallVector<llvm::SmallVector<topology::AxisSpan, 3>> grids;
  for (Group group : groups) {
    std::optional<llvm::SmallVector<topology::AxisSpan, 3>> grid =
        topology::findSubgrid(topology, group);
    if (!grid)
      return std::nullopt;
    grids.push_back(std::move(*grid));
  }
  llvm::DenseMap<int64_t, int64_t> groupOf;
  for (auto [index, group] : llvm::enumerate(groups))
    for (int64_t device : group)
      groupOf[device] = index;
  std::optional<CollectivePhase> slowest;
  double linkBytes = 0, sent = 0;
  std::vector<double> groupSeconds;
  groupSeconds.reserve(groups.size());
  for (auto [group, grid] : llvm::zip(groups, grids)) {
    llvm::SmallVector<GridAxis, 3> axes;
    for (const topology::AxisSpan &span : grid) {
      GridAxis axis{span, linkSharing(topology, span, group.front(), groupOf)};
      if (options.faults) {
        RunHealth health = runHealth(topology, *options.faults, span, group);
        axis.slowdown = health.slowdown;
        // checkFaults let through only rings with one failed link each:
        // they run as lines that start past it.
        if (health.failedPerLine > 0) {
          axis.span.ring = false;
          axis.rerouted = true;
        }
      }
      axes.push_back(axis);
    }
    CollectivePhase phase =
        kind == CollectiveKind::AllToAll
            ? subgridAllToAll(axes, volume, iciParams())
            : subgridAllGather(axes, volume, iciParams(),
                               stringifyCollectiveKind(kind));
    linkBytes += phase.linkBytes;
    sent = std::max(sent, phase.bytesSentPerDevice);
    groupSeconds.push_back(phase.seconds);
    if (!slowest || phase.seconds > slowest->seconds)
      slowest = std::move(phase);
  }
  // Groups of one collective are disjoint; strided ones that share links
  // are accounted for by linkSharing.
  slowest->linkBytes = linkBytes;
  slowest->bytesSentPerDevice = sent;
  slowest->groupSeconds = std::move(groupSeconds);
  return slowest;
}

llvm::SmallVector<CollectivePhase, 2> CollectiveCostModel::intraSlicePhases(
    CollectiveKind kind, llvm::ArrayRef<Group> groups, double volume) const {
  if (kind == CollectiveKind::AllReduce) {
    std::optional<CollectivePhase> scatter =
        subgridPhase(CollectiveKind::ReduceScatter, groups, volume);
    if (!scatter)
      return routedPhases(kind, groups, volume);
    CollectivePhase gather = *scatter;
    gather.operation = stringifyCollectiveKind(CollectiveKind::AllGather);
    return {*scatter, gather};
  }
  if (std::optional<CollectivePhase> phase = subgridPhase(kind, groups, volume))
    return {*phase};
  return routedPhases(kind, groups, volume);
}

CollectivePhase
CollectiveCostModel::dcnRing(llvm::ArrayRef<GroupGeometry> geometries,
                             double ringVolume, int passes,
                             llvm::StringRef operation) const {
  DcnLoads step(topology, options.faults);
  int64_t slices = geometries.front().slices.size();
  double chunk = ringVolume / slices;
  for (const GroupGeometry &geometry : geometries) {
    int64_t k = geometry.membersPerSlice();
    for (int64_t i = 0; i < k; ++i)
      for (int64_t s = 0; s < slices; ++s)
        step.add(geometry.slices[s].devices[i],
                 geometry.slices[(s + 1) % slices].devices[i], chunk);
  }
  const topology::GenerationSpec &spec = topology.getSpec();
  int64_t steps = passes * (slices - 1);
  double stepBandwidth = step.bandwidthSeconds(options.dcnEfficiency);
  CollectivePhase phase;
  // Each group's ring is limited by its own chips' PCIe links and hosts.
  for (const GroupGeometry &geometry : geometries) {
    double own = 0;
    for (const topology::SliceMembers &members : geometry.slices)
      for (int64_t device : members.devices)
        own = std::max(own,
                       step.bandwidthSecondsAt(device, options.dcnEfficiency));
    phase.groupSeconds.push_back(steps * combine(spec.dcnLatency, own));
  }
  phase.operation = operation.str();
  int64_t sharing = step.maxSendersPerHost();
  phase.algorithm =
      formatv("DCN ring over {0} slices, {1} chip{2} per host sharing the NIC",
              slices, sharing, sharing == 1 ? "" : "s");
  phase.link = LinkClass::Dcn;
  phase.latencySeconds = steps * spec.dcnLatency;
  phase.bandwidthSeconds = steps * stepBandwidth;
  phase.seconds = steps * combine(spec.dcnLatency, stepBandwidth);
  phase.sequentialHops = steps;
  phase.bytesSentPerDevice = steps * chunk;
  phase.linkBytes = steps * step.total();
  return phase;
}

llvm::SmallVector<CollectivePhase, 3> CollectiveCostModel::hierarchicalPhases(
    CollectiveKind kind, llvm::ArrayRef<Group> groups,
    llvm::ArrayRef<GroupGeometry> geometries, double volume) const {
  int64_t k = geometries.front().membersPerSlice();
  int64_t slices = geometries.front().slices.size();
  llvm::SmallVector<Group> sliceGroups;
  for (const GroupGeometry &geometry : geometries)
    for (const topology::SliceMembers &members : geometry.slices)
      sliceGroups.push_back(members.devices);
  auto ici = [&](CollectiveKind phaseKind, double phaseVolume) {
    llvm::SmallVector<CollectivePhase, 2> phases;
    if (k > 1)
      phases = intraSlicePhases(phaseKind, sliceGroups, phaseVolume);
    // A group's ICI phase lasts as long as its slowest slice's part.
    for (CollectivePhase &phase : phases) {
      if (phase.groupSeconds.empty())
        continue;
      std::vector<double> perGroup(geometries.size(), 0);
      for (auto [index, seconds] : llvm::enumerate(phase.groupSeconds))
        perGroup[index / slices] = std::max(perGroup[index / slices], seconds);
      phase.groupSeconds = std::move(perGroup);
    }
    return phases;
  };
  llvm::SmallVector<CollectivePhase, 3> phases;
  switch (kind) {
  case CollectiveKind::AllGather:
    phases.push_back(dcnRing(geometries, volume / k, 1, "all-gather"));
    llvm::append_range(phases, ici(CollectiveKind::AllGather, volume));
    break;
  case CollectiveKind::ReduceScatter:
    phases = ici(CollectiveKind::ReduceScatter, volume);
    phases.push_back(dcnRing(geometries, volume / k, 1, "reduce-scatter"));
    break;
  case CollectiveKind::AllReduce:
    phases = ici(CollectiveKind::ReduceScatter, volume);
    phases.push_back(dcnRing(geometries, volume / k, 2, "all-reduce"));
    llvm::append_range(phases, ici(CollectiveKind::AllGather, volume));
    break;
  case CollectiveKind::AllToAll: {
    // Local chunks over ICI while the remote ones cross the DCN.
    phases = ici(CollectiveKind::AllToAll, volume / slices);
    CollectivePhase remote = dcnDirect(groups, volume);
    remote.concurrentWithPrevious = !phases.empty();
    phases.push_back(std::move(remote));
    break;
  }
  case CollectiveKind::CollectivePermute:
    break;
  }
  return phases;
}

/// The phrase for a whole estimate.
static std::string summarize(const CollectiveEstimate &estimate,
                             bool hierarchical) {
  const auto &phases = estimate.phases;
  if (phases.empty())
    return "local (no data moves)";
  if (phases.size() == 1)
    return phases.front().algorithm;
  if (hierarchical) {
    std::string text = "hierarchical: ";
    for (const CollectivePhase &phase : phases) {
      if (&phase != &phases.front())
        text += phase.concurrentWithPrevious ? " alongside " : ", then ";
      text +=
          (phase.link == LinkClass::Dcn ? "DCN " : "ICI ") + phase.operation;
    }
    return text;
  }
  if (estimate.kind == CollectiveKind::AllReduce &&
      phases.front().link == LinkClass::Ici && phases.size() == 2 &&
      !phases[1].concurrentWithPrevious)
    return "reduce-scatter + all-gather, " + phases.front().algorithm;
  return phases.front().algorithm + " with DCN hops";
}

llvm::Expected<CollectiveEstimate>
CollectiveCostModel::estimate(const CollectiveOp &op) const {
  if (!std::isfinite(op.bytesPerDevice) || op.bytesPerDevice < 0)
    return createStringError(formatv("{0}: bytes per device must be a "
                                     "non-negative number; got {1}",
                                     stringifyCollectiveKind(op.kind),
                                     op.bytesPerDevice));
  if (op.kind == CollectiveKind::CollectivePermute)
    return estimatePermute(op);
  if (op.groups.empty())
    return createStringError(formatv("{0} has no participant groups",
                                     stringifyCollectiveKind(op.kind)));
  size_t groupSize = op.groups.front().size();
  llvm::SmallVector<GroupGeometry, 4> geometries;
  llvm::DenseSet<int64_t> used;
  for (const auto &group : op.groups) {
    if (group.size() != groupSize)
      return createStringError(formatv("{0}: groups must have the same size; "
                                       "got {1} and {2}",
                                       stringifyCollectiveKind(op.kind),
                                       groupSize, group.size()));
    llvm::Expected<GroupGeometry> geometry = analyzeGroup(topology, group);
    if (!geometry)
      return geometry.takeError();
    for (int64_t device : group)
      if (!used.insert(device).second)
        return createStringError(formatv("{0}: device {1} is in two groups",
                                         stringifyCollectiveKind(op.kind),
                                         device));
    geometries.push_back(std::move(*geometry));
  }

  llvm::SmallVector<Group> groups(op.groups.begin(), op.groups.end());
  if (llvm::Error err = checkFaults(op.kind, groups))
    return std::move(err);

  CollectiveEstimate estimate;
  estimate.kind = op.kind;
  bool anyCross = false, allCross = true, allDcn = true;
  for (const GroupGeometry &geometry : geometries) {
    anyCross |= geometry.crossesSlices();
    allCross &= geometry.crossesSlices();
    allDcn &= geometry.getLinkClass() == LinkClass::Dcn;
  }
  estimate.linkClass = !anyCross ? LinkClass::Ici
                       : allDcn  ? LinkClass::Dcn
                                 : LinkClass::Mixed;
  if (groupSize == 1) {
    estimate.algorithm = "local (groups of one device)";
    return estimate;
  }

  double volume = op.kind == CollectiveKind::AllGather
                      ? op.bytesPerDevice * groupSize
                      : op.bytesPerDevice;
  bool hierarchical = false;
  if (!anyCross) {
    estimate.phases = intraSlicePhases(op.kind, groups, volume);
  } else if (allCross && llvm::all_of(geometries, [&](const GroupGeometry &g) {
               return g.isBalancedAcrossSlices() &&
                      g.slices.size() == geometries.front().slices.size();
             })) {
    hierarchical = true;
    estimate.phases = hierarchicalPhases(op.kind, groups, geometries, volume);
  } else {
    estimate.phases = routedPhases(op.kind, groups, volume);
  }
  accumulatePhases(estimate);
  addLaunchCost(estimate);
  estimate.algorithm = summarize(estimate, hierarchical);
  return estimate;
}

} // namespace xspmd::cost
