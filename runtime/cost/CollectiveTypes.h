//===- CollectiveTypes.h - collective requests and estimates ----*- C++ -*-===//
//
// What the executor asks (a collective kind, its participant groups or
// permute pairs, and the bytes of each participant's buffer) and what the
// cost model answers (time, algorithm, phases, bytes per link class).
//
// Byte conventions: `bytesPerDevice` is the size of each participant's input
// buffer, the number the executor has at hand.
//   all-gather      the shard each device contributes (result: N x that)
//   reduce-scatter  the full unreduced buffer (result: 1/N of it)
//   all-reduce      the buffer
//   all-to-all      the buffer, split into N chunks
//   permute         the buffer each source sends
// The research notes' V (SB-shard) is N x bytesPerDevice for all-gather and
// all-to-all, and bytesPerDevice for reduce-scatter and all-reduce.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COST_COLLECTIVETYPES_H
#define XSPMD_RUNTIME_COST_COLLECTIVETYPES_H

#include "runtime/topology/Faults.h"
#include "runtime/topology/GroupGeometry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace xspmd::cost {

enum class CollectiveKind {
  AllGather,
  ReduceScatter,
  AllReduce,
  AllToAll,
  CollectivePermute,
};

/// "all-gather", "reduce-scatter", ... (XLA's op names).
llvm::StringRef stringifyCollectiveKind(CollectiveKind kind);

struct CollectiveOp {
  CollectiveKind kind = CollectiveKind::AllReduce;
  /// Participant groups, device ids in rank order; the groups of one
  /// collective are disjoint. Unused by collective-permute.
  llvm::SmallVector<llvm::SmallVector<int64_t>> groups;
  /// collective-permute: (source, target) device pairs.
  llvm::SmallVector<std::pair<int64_t, int64_t>> pairs;
  /// See the byte conventions above.
  double bytesPerDevice = 0;
};

/// Bytes on each link class.
struct LinkBytes {
  double ici = 0;
  double dcn = 0;
};

/// One step of an algorithm on one link class (a hierarchical all-reduce has
/// three: ICI reduce-scatter, DCN all-reduce, ICI all-gather).
struct CollectivePhase {
  /// "reduce-scatter", "all-gather", ...
  std::string operation;
  /// e.g. "bidirectional ring over x", "DCN ring over 2 slices".
  std::string algorithm;
  topology::LinkClass link = topology::LinkClass::Ici;
  double seconds = 0;
  /// The latency term (hops x per-hop latency, or DCN messages x DCN
  /// latency) and the bandwidth term, before they combine into `seconds`.
  double latencySeconds = 0;
  double bandwidthSeconds = 0;
  /// ICI hops (or DCN messages) one after another on the critical path.
  int64_t sequentialHops = 0;
  /// Bytes the busiest participant transmits in this phase.
  double bytesSentPerDevice = 0;
  /// Bytes carried summed over every link (ICI: directed links, a byte
  /// counted once per hop; DCN: bytes leaving chips for the DCN).
  double linkBytes = 0;
  /// Runs at the same time as the previous phase (other links).
  bool concurrentWithPrevious = false;
  /// Each group's own time in this phase (its links, its algorithm), indexed
  /// like the request's groups (permute: its pairs); `seconds` is the
  /// slowest. Empty: every group takes `seconds`.
  std::vector<double> groupSeconds;

  /// The time of group `group` in this phase.
  double secondsOfGroup(size_t group) const {
    return groupSeconds.empty() ? seconds : groupSeconds[group];
  }
};

struct CollectiveEstimate {
  CollectiveKind kind = CollectiveKind::AllReduce;
  double seconds = 0;
  /// The whole algorithm in one phrase.
  std::string algorithm;
  /// Links the collective uses.
  topology::LinkClass linkClass = topology::LinkClass::Ici;
  /// Bytes the busiest participant transmits, per link class.
  LinkBytes bytesSentPerDevice;
  /// Bytes carried summed over all links, per link class.
  LinkBytes linkBytes;
  /// ICI hops and DCN messages one after another on the critical path,
  /// summed over the phases.
  int64_t iciHops = 0;
  int64_t dcnSteps = 0;
  llvm::SmallVector<CollectivePhase, 3> phases;
  /// The fixed launch cost included in `seconds` (calibrated model).
  double launchSeconds = 0;
  /// Each group's own duration (permute: each pair's), indexed like the
  /// request; `seconds` is the slowest. Empty when every group takes
  /// `seconds`: a device waits only for its own group, so groups on fast
  /// links are not charged the slowest group's time.
  std::vector<double> groupSeconds;

  /// The duration of group `group` (permute: pair).
  double secondsOfGroup(size_t group) const {
    return groupSeconds.empty() ? seconds : groupSeconds[group];
  }

  /// One line for reports: kind, algorithm, time, bytes.
  std::string describe() const;
};

struct CollectiveCostOptions {
  /// The calibrated alpha-beta model (default): every collective pays the
  /// generation's launch cost, each step's latency adds to its bandwidth
  /// time, and ICI links achieve the generation's `iciEfficiency`. false:
  /// the research notes' closed forms as written (a step costs the larger of
  /// its latency and bandwidth terms, no launch cost, full link bandwidth).
  bool calibrated = true;
  /// Further scaling of the ICI link bandwidth (on top of the generation's
  /// efficiency when calibrated).
  double iciEfficiency = 1.0;
  /// Fraction of the DCN NIC and PCIe bandwidth achieved.
  double dcnEfficiency = 1.0;
  /// Injected faults (slow or failed links, failed devices, degraded DCN);
  /// not owned, may be null.
  const topology::FaultSet *faults = nullptr;

  /// The uncalibrated closed forms (what the closed-form tests check).
  static CollectiveCostOptions closedForms() {
    CollectiveCostOptions options;
    options.calibrated = false;
    return options;
  }
};

} // namespace xspmd::cost

#endif // XSPMD_RUNTIME_COST_COLLECTIVETYPES_H
