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
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using llvm::createStringError;
using llvm::formatv;
using xspmd::topology::LinkClass;

namespace xspmd::cost {
namespace {

/// The messages of one step of an algorithm, remembered per group so that
/// each group can be costed on its own links.
class StepTraffic {
public:
  StepTraffic(const topology::Topology &topology,
              const topology::FaultSet *faults, size_t numGroups)
      : topology(topology), ici(topology, faults), dcn(topology, faults),
        iciMessages(numGroups), dcnMembers(numGroups) {}

  void send(size_t group, int64_t source, int64_t target, double bytes) {
    if (source == target)
      return;
    if (topology.getSlice(source) == topology.getSlice(target)) {
      auto [hops, ports] = ici.addRoute(source, target, bytes);
      maxHops = std::max(maxHops, hops);
      maxPorts = std::max(maxPorts, ports);
      iciSent[source] += bytes;
      iciMessages[group].push_back({source, target});
    } else {
      dcn.add(source, target, bytes);
      dcnSent[source] += bytes;
      dcnMembers[group].push_back(source);
      dcnMembers[group].push_back(target);
    }
  }

  /// `device` of `group` sends and receives `bytes` over the DCN in total.
  void exchangeOverDcn(size_t group, int64_t device, double bytes) {
    dcn.addOutgoing(device, bytes);
    dcn.addIncoming(device, bytes);
    dcnSent[device] += bytes;
    dcnMembers[group].push_back(device);
  }

  const topology::Topology &topology;
  IciLinkLoads ici;
  DcnLoads dcn;
  int64_t maxHops = 0;
  int maxPorts = 0;
  llvm::DenseMap<int64_t, double> iciSent, dcnSent;
  /// Per group: its ICI messages and the devices of its DCN messages.
  std::vector<llvm::SmallVector<std::pair<int64_t, int64_t>>> iciMessages;
  std::vector<llvm::SmallVector<int64_t>> dcnMembers;
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

/// How the steps of a ring or an all-to-all combine: pipelined (the larger
/// term) in the closed forms, latency plus bandwidth when calibrated.
StepCombine pipelinedSteps(const CollectiveCostOptions &options) {
  return options.calibrated ? StepCombine::Additive : StepCombine::Overlapped;
}

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
    // The calibrated model adds the generation's per-step synchronisation.
    double stepLatency =
        combine == StepCombine::Overlapped ? 0 : spec.collectiveStepLatency;
    double latency = traffic.maxHops * spec.iciHopLatency + stepLatency;
    double bandwidth = traffic.ici.maxLoad() / iciBandwidth;
    phase.latencySeconds = steps * latency;
    phase.bandwidthSeconds = steps * bandwidth;
    phase.seconds = steps * combined(latency, bandwidth);
    phase.sequentialHops = steps * traffic.maxHops;
    phase.bytesSentPerDevice = steps * maxValue(traffic.iciSent);
    phase.linkBytes = steps * traffic.ici.totalLoad();
    // A group waits for its own messages: its longest route and the busiest
    // link its routes cross (shared links carry every group's bytes).
    for (const auto &messages : traffic.iciMessages) {
      int64_t hops = 0;
      double load = 0;
      for (auto [source, target] : messages) {
        hops = std::max(hops, traffic.ici.routeShape(source, target).first);
        load = std::max(load, traffic.ici.maxLoadOnRoute(source, target));
      }
      phase.groupSeconds.push_back(
          messages.empty()
              ? 0
              : steps * combined(hops * spec.iciHopLatency + stepLatency,
                                 load / iciBandwidth));
    }
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
    for (const auto &members : traffic.dcnMembers) {
      double own = 0;
      for (int64_t device : members)
        own = std::max(own,
                       traffic.dcn.bandwidthSecondsAt(device, dcnEfficiency));
      phase.groupSeconds.push_back(
          members.empty() ? 0 : steps * combined(spec.dcnLatency, own));
    }
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
  StepTraffic traffic(topology, options.faults, groups.size());
  int64_t n = groups.front().size();
  double chunk = volume / n;
  for (auto [g, group] : llvm::enumerate(groups))
    for (int64_t i = 0; i < n; ++i) {
      int64_t next = group[(i + 1) % n], previous = group[(i + n - 1) % n];
      if (bidirectional) {
        traffic.send(g, group[i], next, chunk / 2);
        traffic.send(g, group[i], previous, chunk / 2);
      } else {
        traffic.send(g, group[i], next, chunk);
      }
    }
  int64_t steps = (n - 1) * (kind == CollectiveKind::AllReduce ? 2 : 1);
  std::string algorithm =
      formatv("{0} ring over the group order ({1} members, routed hops)",
              bidirectional ? "bidirectional" : "unidirectional", n);
  return phasesOf(traffic, steps, pipelinedSteps(options),
                  iciParams().linkBandwidth, options.dcnEfficiency,
                  stringifyCollectiveKind(kind), algorithm);
}

llvm::SmallVector<CollectivePhase, 2>
CollectiveCostModel::routedAllToAll(llvm::ArrayRef<Group> groups,
                                    double bytesPerDevice) const {
  StepTraffic traffic(topology, options.faults, groups.size());
  double chunk = bytesPerDevice / groups.front().size();
  for (auto [g, group] : llvm::enumerate(groups))
    for (int64_t source : group)
      for (int64_t target : group)
        traffic.send(g, source, target, chunk);
  return phasesOf(traffic, 1, pipelinedSteps(options),
                  iciParams().linkBandwidth, options.dcnEfficiency,
                  "all-to-all", "direct, every chunk routed to its target");
}

CollectivePhase CollectiveCostModel::dcnDirect(llvm::ArrayRef<Group> groups,
                                               double bytesPerDevice) const {
  // Each member sends a chunk to, and receives one from, every member in
  // another slice: summed per chip, linear in the group size.
  StepTraffic traffic(topology, options.faults, groups.size());
  double chunk = bytesPerDevice / groups.front().size();
  for (auto [g, group] : llvm::enumerate(groups)) {
    llvm::DenseMap<int64_t, int64_t> membersInSlice;
    for (int64_t device : group)
      ++membersInSlice[topology.getSlice(device)];
    for (int64_t device : group)
      traffic.exchangeOverDcn(
          g, device,
          chunk * (group.size() - membersInSlice[topology.getSlice(device)]));
  }
  // Only DCN traffic here: a single (DCN) phase.
  return phasesOf(traffic, 1, pipelinedSteps(options),
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
  // Each pair is a group of its own: its time is its own route's.
  StepTraffic traffic(topology, options.faults, op.pairs.size());
  for (auto [pair, endpoints] : llvm::enumerate(op.pairs)) {
    auto [source, target] = endpoints;
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
    if (const topology::FaultSet *faults = options.faults) {
      for (int64_t device : {source, target})
        if (const std::string *failure = faults->failedDevice(device))
          return createStringError(formatv("collective-permute {0} -> {1}: "
                                           "needs {2}",
                                           source, target, *failure));
      if (topology.getSlice(source) == topology.getSlice(target))
        for (int64_t link : traffic.ici.routeLinks(source, target))
          if (const std::string *failure = faults->failedLink(link))
            return createStringError(
                formatv("collective-permute {0} -> {1}: needs {2} (no "
                        "re-route is modelled for point-to-point)",
                        source, target, *failure));
    }
    traffic.send(pair, source, target, op.bytesPerDevice);
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
  addLaunchCost(estimate);
  estimate.algorithm = estimate.phases.empty()
                           ? std::string("local (no data moves)")
                           : estimate.phases.front().algorithm;
  return estimate;
}

} // namespace xspmd::cost
