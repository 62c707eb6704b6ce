//===- RoutedTraffic.h - bytes on each link of a traffic pattern -*- C++
//-*-===//
//
// For patterns without a closed form (irregular groups, permutes), the cost
// model routes every message and sums the bytes each link carries.
//
// ICI: minimal dimension-order routes on the torus. A message uses every
// shortest first hop it has (one per axis it must cross, two on a wraparound
// axis crossed halfway round), as SB-tpus Q5 does ("use all available
// ports"); each such sub-flow carries an equal share, first along its own
// axis, then along the remaining axes in x, y, z order.
//
// DCN: traffic leaves a chip over PCIe to its host and the host's NIC, and
// arrives the same way (GC-multislice); the busiest NIC (per direction,
// shared by the host's chips) or the busiest chip's PCIe link sets the time.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COST_ROUTEDTRAFFIC_H
#define XSPMD_RUNTIME_COST_ROUTEDTRAFFIC_H

#include "runtime/topology/Faults.h"
#include "runtime/topology/Topology.h"

#include "llvm/ADT/DenseMap.h"

namespace xspmd::cost {

/// Bytes per directed ICI link.
class IciLinkLoads {
public:
  /// Slow links in `faults` (optional) count their bytes times their
  /// slowdown.
  explicit IciLinkLoads(const topology::Topology &topology,
                        const topology::FaultSet *faults = nullptr)
      : topology(topology), faults(faults) {}

  /// Routes `bytes` from `source` to `target` (same slice, distinct); returns
  /// the route's hop count and the number of ports it spreads over.
  std::pair<int64_t, int> addRoute(int64_t source, int64_t target,
                                   double bytes);

  /// Hop count and number of first-hop ports of the route `source` ->
  /// `target`, without adding it.
  std::pair<int64_t, int> routeShape(int64_t source, int64_t target) const;
  /// Bytes on the busiest link the route `source` -> `target` uses (the
  /// links it shares with other messages count their whole load).
  double maxLoadOnRoute(int64_t source, int64_t target) const;

  bool empty() const { return loads.empty(); }
  /// The directed links (topology::directedLinkKey) of the route `source`
  /// -> `target`.
  llvm::SmallVector<int64_t, 8> routeLinks(int64_t source,
                                           int64_t target) const;

  /// Bytes on the busiest directed link (a slow link's bytes count times its
  /// slowdown: the time it needs at full bandwidth).
  double maxLoad() const;
  /// Bytes summed over all directed links.
  double totalLoad() const;

private:
  /// Calls `visit(link, share)` for every directed link of the route, with
  /// the share of the message's bytes that crosses it.
  template <typename Visit>
  void forEachLink(int64_t source, int64_t target, Visit visit) const;

  /// The load of `key` weighted by its slowdown.
  double effectiveLoad(int64_t key, double bytes) const {
    return faults ? bytes * faults->linkSlowdown(key) : bytes;
  }

  const topology::Topology &topology;
  const topology::FaultSet *faults;
  /// Key: topology::directedLinkKey.
  llvm::DenseMap<int64_t, double> loads;
};

/// Bytes through each host NIC and chip PCIe link, per direction.
class DcnLoads {
public:
  /// Degraded DCN in `faults` (optional) divides the bandwidth of the
  /// affected hosts' NICs and PCIe links.
  explicit DcnLoads(const topology::Topology &topology,
                    const topology::FaultSet *faults = nullptr)
      : topology(topology), faults(faults) {}

  /// `bytes` from `source` to `target` in different slices.
  void add(int64_t source, int64_t target, double bytes) {
    addOutgoing(source, bytes);
    addIncoming(target, bytes);
  }
  /// One side of DCN messages, for patterns summed per chip: `source` sends
  /// `bytes` in total to other slices / `target` receives `bytes` from them.
  void addOutgoing(int64_t source, double bytes);
  void addIncoming(int64_t target, double bytes);

  bool empty() const { return messages == 0; }
  double total() const { return totalBytes; }
  /// Time to move the loads at `efficiency` of the NIC and PCIe bandwidth.
  double bandwidthSeconds(double efficiency) const;
  /// The time `device`'s own DCN traffic takes: its PCIe link and its
  /// host's NIC (shared with the host's other chips); 0 if it has none.
  double bandwidthSecondsAt(int64_t device, double efficiency) const;
  /// Most chips of one host sending at once.
  int64_t maxSendersPerHost() const;

private:
  /// The DCN slowdown of the host or chip `key` (`isHost`).
  double slowdown(int64_t key, bool isHost) const;

  const topology::Topology &topology;
  const topology::FaultSet *faults;
  double totalBytes = 0;
  int64_t messages = 0;
  llvm::DenseMap<int64_t, double> hostOut, hostIn, chipOut, chipIn;
  llvm::DenseMap<int64_t, int64_t> sendersPerHost;
};

} // namespace xspmd::cost

#endif // XSPMD_RUNTIME_COST_ROUTEDTRAFFIC_H
