//===- SubgridCollectives.cpp - closed forms on torus sub-grids -----------===//

#include "runtime/cost/SubgridCollectives.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using llvm::formatv;

namespace xspmd::cost {

/// ", every 4th chip, links shared by 4 groups" or "".
static std::string strideNote(const GridAxis &axis) {
  std::string note;
  if (axis.span.stride > 1)
    note += formatv(", every {0}th chip", axis.span.stride).str();
  if (axis.linkSharing > 1)
    note += formatv(", links shared by {0} groups", axis.linkSharing).str();
  if (axis.slowdown > 1) {
    char factor[32];
    std::snprintf(factor, sizeof(factor), "%g", axis.slowdown);
    note += formatv(", a link {0}x slower", factor).str();
  }
  if (axis.rerouted)
    note += ", re-routed around a failed link";
  return note;
}

int64_t embeddedRings(llvm::ArrayRef<GridAxis> axes) {
  if (axes.size() < 2 ||
      llvm::all_of(axes, [](const GridAxis &a) { return a.span.ring; }))
    return 0;
  int64_t members = 1, cornerLinks = 0;
  for (const GridAxis &axis : axes) {
    members *= axis.span.length;
    cornerLinks += axis.span.ring ? 2 : 1;
  }
  if (members % 2 != 0)
    return 0;
  return std::max<int64_t>(1, cornerLinks / 2);
}

std::string describeSubgridAlgorithm(llvm::ArrayRef<GridAxis> axes) {
  if (axes.empty())
    return "local (one device)";
  if (axes.size() == 1) {
    const topology::AxisSpan &run = axes.front().span;
    return formatv(
        "{0} over {1} ({2} chips{3})", run.ring ? "bidirectional ring" : "line",
        topology::axisName(run.axis), run.length, strideNote(axes.front()));
  }
  llvm::SmallVector<std::string, 3> parts;
  for (const GridAxis &axis : axes)
    parts.push_back(formatv(
        "{0} ({1} of {2}{3})", topology::axisName(axis.span.axis),
        axis.span.ring ? "ring" : "line", axis.span.length, strideNote(axis)));
  if (int64_t rings = embeddedRings(axes))
    return formatv("{0} bidirectional ring{1} embedded in {2}", rings,
                   rings == 1 ? "" : "s", llvm::join(parts, ", "))
        .str();
  return "multi-axis over " + llvm::join(parts, ", ");
}

namespace {
/// One all-gather along one axis, of `ringVolume` bytes in total per ring.
struct AxisGather {
  double latency;
  double bandwidth;
  /// Physical hops on the critical path.
  int64_t hops;
  /// Bytes each device transmits (= receives).
  double sent;
};
} // namespace

static AxisGather gatherAlongAxis(const GridAxis &axis, double ringVolume,
                                  const IciLinkParams &params) {
  const topology::AxisSpan &run = axis.span;
  double n = static_cast<double>(run.length);
  double sent = (n - 1) / n * ringVolume;
  double bandwidth = params.linkBandwidth / axis.linkSharing / axis.slowdown;
  int64_t steps = run.ring ? run.length / 2 : run.length - 1;
  if (run.ring)
    bandwidth *= 2; // both directions of the ring
  int64_t hops = steps * run.stride;
  return {hops * params.hopLatency + steps * params.stepLatency,
          sent / bandwidth, hops, sent};
}

/// All-gather round Hamiltonian cycles of a grid group (embeddedRings):
/// every shard goes half each way round, N - 1 steps of one member hop.
static CollectivePhase embeddedRingGather(llvm::ArrayRef<GridAxis> axes,
                                          int64_t rings, double gatheredBytes,
                                          const IciLinkParams &params,
                                          CollectivePhase phase) {
  double members = 1, bandwidth = params.linkBandwidth;
  int64_t stride = 1;
  for (const GridAxis &axis : axes) {
    members *= axis.span.length;
    // The cycle crosses every axis: its slowest link paces it.
    bandwidth = std::min(bandwidth, params.linkBandwidth / axis.linkSharing /
                                        axis.slowdown);
    stride = std::max(stride, axis.span.stride);
  }
  int64_t steps = static_cast<int64_t>(members) - 1;
  double sent = (members - 1) / members * gatheredBytes;
  phase.bandwidthSeconds = sent / (2 * rings * bandwidth);
  phase.sequentialHops = steps * stride;
  phase.latencySeconds =
      phase.sequentialHops * params.hopLatency + steps * params.stepLatency;
  phase.seconds = params.combine(phase.latencySeconds, phase.bandwidthSeconds);
  phase.bytesSentPerDevice = sent;
  phase.linkBytes = members * sent * stride;
  return phase;
}

CollectivePhase subgridAllGather(llvm::ArrayRef<GridAxis> axes,
                                 double gatheredBytes,
                                 const IciLinkParams &params,
                                 llvm::StringRef operation) {
  CollectivePhase phase;
  phase.operation = operation.str();
  phase.algorithm = describeSubgridAlgorithm(axes);
  phase.link = topology::LinkClass::Ici;
  if (int64_t rings = embeddedRings(axes))
    return embeddedRingGather(axes, rings, gatheredBytes, params,
                              std::move(phase));
  size_t m = axes.size();
  double members = 1;
  for (const GridAxis &axis : axes)
    members *= axis.span.length;
  for (size_t round = 0; round < m; ++round) {
    double roundSeconds = 0, roundLatency = 0, roundBandwidth = 0;
    int64_t roundHops = 0;
    for (size_t part = 0; part < m; ++part) {
      double gathered = 1;
      for (size_t q = 0; q <= round; ++q)
        gathered *= axes[(part + q) % m].span.length;
      double ringVolume = gatheredBytes / m * gathered / members;
      const GridAxis &axis = axes[(part + round) % m];
      AxisGather step = gatherAlongAxis(axis, ringVolume, params);
      roundSeconds =
          std::max(roundSeconds, params.combine(step.latency, step.bandwidth));
      roundLatency = std::max(roundLatency, step.latency);
      roundBandwidth = std::max(roundBandwidth, step.bandwidth);
      roundHops = std::max(roundHops, step.hops);
      phase.bytesSentPerDevice += step.sent;
      // Every transmission crosses `stride` links.
      phase.linkBytes += members * step.sent * axis.span.stride;
    }
    phase.seconds += roundSeconds;
    phase.latencySeconds += roundLatency;
    phase.bandwidthSeconds += roundBandwidth;
    phase.sequentialHops += roundHops;
  }
  return phase;
}

/// Chunks crossing the busiest link between neighbouring members, in an
/// all-to-all over that run alone.
static double busiestLinkChunks(const topology::AxisSpan &run) {
  int64_t n = run.length;
  if (run.ring)
    return n % 2 == 0 ? n * n / 8.0 : (n * n - 1) / 8.0;
  return static_cast<double>(n / 2) * static_cast<double>((n + 1) / 2);
}

/// Sum over ordered pairs of members of their distance in member hops.
static double pairDistanceSum(const topology::AxisSpan &run) {
  int64_t n = run.length;
  double sum = 0;
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = 0; b < n; ++b) {
      int64_t d = std::llabs(a - b);
      sum += run.ring ? std::min(d, n - d) : d;
    }
  return sum;
}

CollectivePhase subgridAllToAll(llvm::ArrayRef<GridAxis> axes,
                                double bytesPerDevice,
                                const IciLinkParams &params) {
  CollectivePhase phase;
  phase.operation = "all-to-all";
  phase.algorithm = describeSubgridAlgorithm(axes);
  phase.link = topology::LinkClass::Ici;
  double members = 1;
  for (const GridAxis &axis : axes)
    members *= axis.span.length;
  if (axes.empty())
    return phase;
  double chunk = bytesPerDevice / members;
  int64_t steps = 0;
  for (const GridAxis &axis : axes) {
    const topology::AxisSpan &run = axis.span;
    double n = static_cast<double>(run.length);
    double bandwidth = params.linkBandwidth / axis.linkSharing / axis.slowdown;
    phase.bandwidthSeconds =
        std::max(phase.bandwidthSeconds,
                 busiestLinkChunks(run) * bytesPerDevice / (n * bandwidth));
    int64_t axisSteps = run.ring ? run.length / 2 : run.length - 1;
    steps += axisSteps;
    phase.sequentialHops += axisSteps * run.stride;
    double lines = members / n;
    phase.linkBytes +=
        chunk * lines * lines * pairDistanceSum(run) * run.stride;
  }
  phase.latencySeconds =
      phase.sequentialHops * params.hopLatency + steps * params.stepLatency;
  phase.seconds = params.combine(phase.latencySeconds, phase.bandwidthSeconds);
  phase.bytesSentPerDevice = (members - 1) / members * bytesPerDevice;
  return phase;
}

} // namespace xspmd::cost
