//===- RoutedTraffic.cpp - bytes on each link of a traffic pattern --------===//

#include "runtime/cost/RoutedTraffic.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

using xspmd::topology::ChipCoords;

namespace xspmd::cost {

template <typename Visit>
void IciLinkLoads::forEachLink(int64_t source, int64_t target,
                               Visit visit) const {
  int64_t slice = topology.getSlice(source);
  ChipCoords from = topology.getCoords(source), to = topology.getCoords(target);
  ChipCoords offset;
  struct Port {
    int axis;
    int direction;
  };
  llvm::SmallVector<Port, 6> ports;
  for (int axis = 0; axis < 3; ++axis) {
    offset[axis] = topology.axisOffset(axis, from[axis], to[axis]);
    if (offset[axis] == 0)
      continue;
    ports.push_back({axis, offset[axis] > 0 ? +1 : -1});
    if (topology.isAxisTie(axis, from[axis], to[axis]))
      ports.push_back({axis, -ports.back().direction});
  }
  double share = 1.0 / std::max<size_t>(ports.size(), 1);
  // Walks `steps` links along `axis` from `at`, leaving `at` at the end.
  auto walk = [&](ChipCoords &at, int axis, int64_t steps, int direction) {
    int64_t n = topology.getAxisLength(axis);
    for (int64_t i = 0; i < steps; ++i) {
      visit(topology::directedLinkKey(topology.getDevice(slice, at), axis,
                                      direction),
            share);
      at[axis] = (at[axis] + direction + n) % n;
    }
  };
  for (const Port &port : ports) {
    ChipCoords at = from;
    walk(at, port.axis, std::llabs(offset[port.axis]), port.direction);
    for (int axis = 0; axis < 3; ++axis) {
      if (axis == port.axis || offset[axis] == 0)
        continue;
      walk(at, axis, std::llabs(offset[axis]), offset[axis] > 0 ? +1 : -1);
    }
  }
}

std::pair<int64_t, int> IciLinkLoads::routeShape(int64_t source,
                                                 int64_t target) const {
  ChipCoords from = topology.getCoords(source), to = topology.getCoords(target);
  int64_t hops = 0;
  int ports = 0;
  for (int axis = 0; axis < 3; ++axis) {
    int64_t offset = topology.axisOffset(axis, from[axis], to[axis]);
    hops += std::llabs(offset);
    if (offset != 0)
      ports += topology.isAxisTie(axis, from[axis], to[axis]) ? 2 : 1;
  }
  return {hops, ports};
}

std::pair<int64_t, int> IciLinkLoads::addRoute(int64_t source, int64_t target,
                                               double bytes) {
  assert(topology.getSlice(source) == topology.getSlice(target) &&
         "ICI routes stay in one slice");
  forEachLink(source, target, [&](int64_t link, double share) {
    loads[link] += bytes * share;
  });
  return routeShape(source, target);
}

double IciLinkLoads::maxLoadOnRoute(int64_t source, int64_t target) const {
  double most = 0;
  forEachLink(source, target, [&](int64_t link, double) {
    auto it = loads.find(link);
    if (it != loads.end())
      most = std::max(most, effectiveLoad(link, it->second));
  });
  return most;
}

llvm::SmallVector<int64_t, 8> IciLinkLoads::routeLinks(int64_t source,
                                                       int64_t target) const {
  llvm::SmallVector<int64_t, 8> links;
  if (source != target)
    forEachLink(source, target,
                [&](int64_t link, double) { links.push_back(link); });
  return links;
}

double IciLinkLoads::maxLoad() const {
  double most = 0;
  for (const auto &entry : loads)
    most = std::max(most, effectiveLoad(entry.first, entry.second));
  return most;
}

double IciLinkLoads::totalLoad() const {
  double sum = 0;
  for (const auto &entry : loads)
    sum += entry.second;
  return sum;
}

void DcnLoads::addOutgoing(int64_t source, double bytes) {
  int64_t host = topology.getHost(source);
  if (chipOut.find(source) == chipOut.end())
    ++sendersPerHost[host];
  hostOut[host] += bytes;
  chipOut[source] += bytes;
  totalBytes += bytes;
  ++messages;
}

void DcnLoads::addIncoming(int64_t target, double bytes) {
  hostIn[topology.getHost(target)] += bytes;
  chipIn[target] += bytes;
}

double DcnLoads::slowdown(int64_t key, bool isHost) const {
  if (!faults)
    return 1;
  int64_t slice =
      isHost ? key / topology.getHostsPerSlice() : topology.getSlice(key);
  return faults->dcnSlowdown(slice);
}

double DcnLoads::bandwidthSeconds(double efficiency) const {
  const topology::GenerationSpec &spec = topology.getSpec();
  // The busiest NIC or PCIe link, in bytes at full bandwidth.
  auto busiest = [&](const llvm::DenseMap<int64_t, double> &map, bool host) {
    double most = 0;
    for (const auto &entry : map)
      most = std::max(most, entry.second * slowdown(entry.first, host));
    return most;
  };
  double nic = std::max(busiest(hostOut, true), busiest(hostIn, true)) /
               (spec.dcnHostBandwidth * efficiency);
  double pcie = std::max(busiest(chipOut, false), busiest(chipIn, false)) /
                (spec.pcieBandwidth * efficiency);
  return std::max(nic, pcie);
}

double DcnLoads::bandwidthSecondsAt(int64_t device, double efficiency) const {
  auto lookup = [](const llvm::DenseMap<int64_t, double> &map, int64_t key) {
    auto it = map.find(key);
    return it == map.end() ? 0.0 : it->second;
  };
  double chip = std::max(lookup(chipOut, device), lookup(chipIn, device));
  if (chip == 0)
    return 0;
  const topology::GenerationSpec &spec = topology.getSpec();
  int64_t host = topology.getHost(device);
  double factor = slowdown(device, /*isHost=*/false);
  double nic = factor * std::max(lookup(hostOut, host), lookup(hostIn, host)) /
               (spec.dcnHostBandwidth * efficiency);
  return std::max(nic, factor * chip / (spec.pcieBandwidth * efficiency));
}

int64_t DcnLoads::maxSendersPerHost() const {
  int64_t most = 0;
  for (const auto &entry : sendersPerHost)
    most = std::max(most, entry.second);
  return most;
}

} // namespace xspmd::cost
