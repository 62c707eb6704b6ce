//===- RoutedCollectives.cpp - collectives costed by routing --------------===//
//
// The routed fallback of CollectiveCostModel (rings over irregular groups,
// direct all-to-all, the DCN part of all-to-all) and collective-permute:
// route every message of one step, sum bytes per link, and cost the step by
// its busiest link (RoutedTraffic.h).
//
//===----------------------------------------------------------------------===//

#include "runtime/cost/CollectiveCost.h"

#include "runtime/cost/RoutedTraffic.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using llvm::createStringError;
using llvm::formatv;
using xspmd::topology::LinkClass;

namespace xspmd::cost {
namespace {

/// The messages of one step of an algorithm.
class StepTraffic {
public:
  explicit StepTraffic(const topology::Topology &topology)
      : topology(topology), ici(topology), dcn(topology) {}

  void send(int64_t source, int64_t target, double bytes) {
    if (source == target)
      return;
    if (topology.getSlice(source) == topology.getSlice(target)) {
      auto [hops, ports] = ici.addRoute(source, target, bytes);
      maxHops = std::max(maxHops, hops);
      maxPorts = std::max(maxPorts, ports);
      iciSent[source] += bytes;
    } else {
      dcn.add(source, target, bytes);
      dcnSent[source] += bytes;
    }
  }

  const topology::Topology &topology;
  IciLinkLoads ici;
  DcnLoads dcn;
  int64_t maxHops = 0;
  int maxPorts = 0;
  llvm::DenseMap<int64_t, double> iciSent, dcnSent;
};

double maxValue(const llvm::DenseMap<int64_t, double> &map) {
  double most = 0;
  for (const auto &entry : map)
    most = std::max(most, entry.second);
  return most;
}

/// How the latency and bandwidth terms of a step combine.
enum class StepCombine {
  /// Pipelined steps of a collective: max(latency, bandwidth) (SB-shard).
  Overlapped,
  /// One message: latency + bandwidth (SB-tpus Q5, point-to-point).
  Additive,
};

/// `steps` repetitions of `traffic` as an ICI phase and, when some message
/// crosses slices, a concurrent DCN phase.
llvm::SmallVector<CollectivePhase, 2>
phasesOf(const StepTraffic &traffic, int64_t steps, StepCombine combine,
         double iciBandwidth, double dcnEfficiency, llvm::StringRef operation,
         llvm::StringRef iciAlgorithm) {
  const topology::GenerationSpec &spec = traffic.topology.getSpec();
  auto combined = [&](double latency, double bandwidth) {
    return combine == StepCombine::Overlapped ? std::max(latency, bandwidth)
                                              : latency + bandwidth;
  };
  llvm::SmallVector<CollectivePhase, 2> phases;
  if (!traffic.ici.empty()) {
    CollectivePhase phase;
    phase.operation = operation.str();
    phase.algorithm = iciAlgorithm.str();
    phase.link = LinkClass::Ici;
    double latency = traffic.maxHops * spec.iciHopLatency;
    double bandwidth = traffic.ici.maxLoad() / iciBandwidth;
    phase.latencySeconds = steps * latency;
    phase.bandwidthSeconds = steps * bandwidth;
    phase.seconds = steps * combined(latency, bandwidth);
    phase.sequentialHops = steps * traffic.maxHops;
    phase.bytesSentPerDevice = steps * maxValue(traffic.iciSent);
    phase.linkBytes = steps * traffic.ici.totalLoad();
    phases.push_back(std::move(phase));
  }
  if (!traffic.dcn.empty()) {
    CollectivePhase phase;
    phase.operation = operation.str();
    int64_t sharing = traffic.dcn.maxSendersPerHost();
    phase.algorithm = formatv("DCN messages, {0} chip{1} per host sharing the "
                              "NIC",
                              sharing, sharing == 1 ? "" : "s");
    phase.link = LinkClass::Dcn;
    double bandwidth = traffic.dcn.bandwidthSeconds(dcnEfficiency);
    phase.latencySeconds = steps * spec.dcnLatency;
    phase.bandwidthSeconds = steps * bandwidth;
    phase.seconds = steps * combined(spec.dcnLatency, bandwidth);
    phase.sequentialHops = steps;
    phase.bytesSentPerDevice = steps * maxValue(traffic.dcnSent);
    phase.linkBytes = steps * traffic.dcn.total();
    phase.concurrentWithPrevious = !phases.empty();
    phases.push_back(std::move(phase));
  }
  return phases;
}

double totalSeconds(llvm::ArrayRef<CollectivePhase> phases) {
  CollectiveEstimate estimate;
  estimate.phases.assign(phases.begin(), phases.end());
  accumulatePhases(estimate);
  return estimate.seconds;
}

} // namespace

llvm::SmallVector<CollectivePhase, 2>
CollectiveCostModel::routedRing(CollectiveKind kind,
                                llvm::ArrayRef<Group> groups, double volume,
                                bool bidirectional) const {
  StepTraffic traffic(topology);
  int64_t n = groups.front().size();
  double chunk = volume / n;
  for (Group group : groups)
    for (int64_t i = 0; i < n; ++i) {
      int64_t next = group[(i + 1) % n], previous = group[(i + n - 1) % n];
      if (bidirectional) {
        traffic.send(group[i], next, chunk / 2);
        traffic.send(group[i], previous, chunk / 2);
      } else {
        traffic.send(group[i], next, chunk);
      }
    }
  int64_t steps = (n - 1) * (kind == CollectiveKind::AllReduce ? 2 : 1);
  std::string algorithm =
      formatv("{0} ring over the group order ({1} members, routed hops)",
              bidirectional ? "bidirectional" : "unidirectional", n);
  return phasesOf(traffic, steps, StepCombine::Overlapped,
                  iciParams().linkBandwidth, options.dcnEfficiency,
                  stringifyCollectiveKind(kind), algorithm);
}

llvm::SmallVector<CollectivePhase, 2>
CollectiveCostModel::routedAllToAll(llvm::ArrayRef<Group> groups,
                                    double bytesPerDevice) const {
  StepTraffic traffic(topology);
  double chunk = bytesPerDevice / groups.front().size();
  for (Group group : groups)
    for (int64_t source : group)
      for (int64_t target : group)
        traffic.send(source, target, chunk);
  return phasesOf(traffic, 1, StepCombine::Overlapped,
                  iciParams().linkBandwidth, options.dcnEfficiency,
                  "all-to-all", "direct, every chunk routed to its target");
}

CollectivePhase CollectiveCostModel::dcnDirect(llvm::ArrayRef<Group> groups,
                                               double bytesPerDevice) const {
  // Each member sends a chunk to, and receives one from, every member in
  // another slice: summed per chip, linear in the group size.
  StepTraffic traffic(topology);
  double chunk = bytesPerDevice / groups.front().size();
  for (Group group : groups) {
    llvm::DenseMap<int64_t, int64_t> membersInSlice;
    for (int64_t device : group)
      ++membersInSlice[topology.getSlice(device)];
    for (int64_t device : group) {
      double bytes =
          chunk * (group.size() - membersInSlice[topology.getSlice(device)]);
      traffic.dcn.addOutgoing(device, bytes);
      traffic.dcn.addIncoming(device, bytes);
      traffic.dcnSent[device] += bytes;
    }
  }
  // Only DCN traffic here: a single (DCN) phase.
  return phasesOf(traffic, 1, StepCombine::Overlapped,
                  iciParams().linkBandwidth, options.dcnEfficiency,
                  "all-to-all", "")
      .front();
}

llvm::SmallVector<CollectivePhase, 2> CollectiveCostModel::routedPhases(
    CollectiveKind kind, llvm::ArrayRef<Group> groups, double volume) const {
  if (kind == CollectiveKind::AllToAll)
    return routedAllToAll(groups, volume);
  llvm::SmallVector<CollectivePhase, 2> one =
      routedRing(kind, groups, volume, /*bidirectional=*/false);
  if (groups.front().size() < 3)
    return one;
  llvm::SmallVector<CollectivePhase, 2> both =
      routedRing(kind, groups, volume, /*bidirectional=*/true);
  return totalSeconds(both) < totalSeconds(one) ? both : one;
}

llvm::Expected<CollectiveEstimate>
CollectiveCostModel::estimatePermute(const CollectiveOp &op) const {
  llvm::DenseSet<int64_t> sources, targets;
  StepTraffic traffic(topology);
  for (auto [source, target] : op.pairs) {
    for (int64_t device : {source, target})
      if (!topology.isValidDevice(device))
        return createStringError(formatv("collective-permute: device {0} is "
                                         "outside the topology (devices "
                                         "0..{1})",
                                         device, topology.getNumDevices() - 1));
    if (!sources.insert(source).second)
      return createStringError(formatv("collective-permute: device {0} is "
                                       "the source of two pairs",
                                       source));
    if (!targets.insert(target).second)
      return createStringError(formatv("collective-permute: device {0} is "
                                       "the target of two pairs",
                                       target));
    traffic.send(source, target, op.bytesPerDevice);
  }
  CollectiveEstimate estimate;
  estimate.kind = CollectiveKind::CollectivePermute;
  estimate.linkClass = traffic.dcn.empty()   ? LinkClass::Ici
                       : traffic.ici.empty() ? LinkClass::Dcn
                                             : LinkClass::Mixed;
  std::string algorithm =
      formatv("point-to-point, up to {0} hop{1} over {2} "
              "port{3}",
              traffic.maxHops, traffic.maxHops == 1 ? "" : "s",
              traffic.maxPorts, traffic.maxPorts == 1 ? "" : "s");
  estimate.phases =
      phasesOf(traffic, 1, StepCombine::Additive, iciParams().linkBandwidth,
               options.dcnEfficiency, "collective-permute", algorithm);
  accumulatePhases(estimate);
  estimate.algorithm = estimate.phases.empty()
                           ? std::string("local (no data moves)")
                           : estimate.phases.front().algorithm;
  return estimate;
}

} // namespace xspmd::cost
