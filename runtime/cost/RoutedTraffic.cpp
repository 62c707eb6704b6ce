//===- RoutedTraffic.cpp - bytes on each link of a traffic pattern --------===//

#include "runtime/cost/RoutedTraffic.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cassert>
#include <cstdlib>

using xspmd::topology::ChipCoords;

namespace xspmd::cost {

void IciLinkLoads::walk(int64_t slice, ChipCoords at, int axis, int64_t steps,
                        int direction, double bytes) {
  int64_t n = topology.getAxisLength(axis);
  for (int64_t i = 0; i < steps; ++i) {
    int64_t device = topology.getDevice(slice, at);
    loads[device * 6 + axis * 2 + (direction > 0)] += bytes;
    at[axis] = (at[axis] + direction + n) % n;
  }
}

std::pair<int64_t, int> IciLinkLoads::addRoute(int64_t source, int64_t target,
                                               double bytes) {
  assert(topology.getSlice(source) == topology.getSlice(target) &&
         "ICI routes stay in one slice");
  int64_t slice = topology.getSlice(source);
  ChipCoords from = topology.getCoords(source), to = topology.getCoords(target);
  ChipCoords offset;
  int64_t hops = 0;
  struct Port {
    int axis;
    int direction;
  };
  llvm::SmallVector<Port, 6> ports;
  for (int axis = 0; axis < 3; ++axis) {
    offset[axis] = topology.axisOffset(axis, from[axis], to[axis]);
    hops += std::llabs(offset[axis]);
    if (offset[axis] == 0)
      continue;
    ports.push_back({axis, offset[axis] > 0 ? +1 : -1});
    if (topology.isAxisTie(axis, from[axis], to[axis]))
      ports.push_back({axis, -ports.back().direction});
  }
  if (ports.empty())
    return {0, 0};
  double share = bytes / ports.size();
  for (const Port &port : ports) {
    ChipCoords at = from;
    int64_t steps = std::llabs(offset[port.axis]);
    walk(slice, at, port.axis, steps, port.direction, share);
    at[port.axis] = to[port.axis];
    for (int axis = 0; axis < 3; ++axis) {
      if (axis == port.axis || offset[axis] == 0)
        continue;
      int direction = offset[axis] > 0 ? +1 : -1;
      walk(slice, at, axis, std::llabs(offset[axis]), direction, share);
      at[axis] = to[axis];
    }
  }
  return {hops, static_cast<int>(ports.size())};
}

double IciLinkLoads::maxLoad() const {
  double most = 0;
  for (const auto &entry : loads)
    most = std::max(most, entry.second);
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

static double maxValue(const llvm::DenseMap<int64_t, double> &map) {
  double most = 0;
  for (const auto &entry : map)
    most = std::max(most, entry.second);
  return most;
}

double DcnLoads::bandwidthSeconds(double efficiency) const {
  const topology::GenerationSpec &spec = topology.getSpec();
  double nic = std::max(maxValue(hostOut), maxValue(hostIn)) /
               (spec.dcnHostBandwidth * efficiency);
  double pcie = std::max(maxValue(chipOut), maxValue(chipIn)) /
                (spec.pcieBandwidth * efficiency);
  return std::max(nic, pcie);
}

int64_t DcnLoads::maxSendersPerHost() const {
  int64_t most = 0;
  for (const auto &entry : sendersPerHost)
    most = std::max(most, entry.second);
  return most;
}

} // namespace xspmd::cost
