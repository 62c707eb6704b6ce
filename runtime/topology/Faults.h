//===- Faults.h - injected hardware faults ----------------------*- C++ -*-===//
//
// Slow or failed ICI links, failed devices and degraded DCN, as `xla-run
// --fault=` spells them:
//
//   link:DEVICE:AXIS(+|-):slow=F   the ICI cable between DEVICE and its
//                                  neighbour along AXIS (x, y, z) carries
//                                  1/F of its bandwidth, both directions
//   link:DEVICE:AXIS(+|-):fail     that cable is down
//   device:DEVICE:fail             the chip is down
//   dcn:slow=F                     every host's NIC and PCIe link at 1/F
//   dcn:SLICE:slow=F               the hosts of one slice only
//
// The cost model applies them (runtime/cost): a slow link slows exactly the
// collectives routed over it; a failed link is routed around when the
// group's ring can run as a line without it, and is otherwise an error
// naming it; a failed device is an error for any run or collective using
// it. docs/topology.md 7.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TOPOLOGY_FAULTS_H
#define XSPMD_RUNTIME_TOPOLOGY_FAULTS_H

#include "runtime/topology/Topology.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace xspmd::topology {

/// Identifies the directed ICI link leaving `device` along `axis` in
/// `direction` (+1 / -1); the key the routed cost model sums loads under.
inline int64_t directedLinkKey(int64_t device, int axis, int direction) {
  return device * 6 + axis * 2 + (direction > 0);
}

class FaultSet {
public:
  /// Parses one `--fault=` value against `topology` and adds it. Errors name
  /// the text and say what was expected or what does not exist.
  llvm::Error add(const Topology &topology, llvm::StringRef spec);

  bool empty() const { return specs.empty(); }
  /// The `--fault=` values, as given.
  llvm::ArrayRef<std::string> getSpecs() const { return specs; }

  /// Bandwidth divisor of a directed link (1: healthy).
  double linkSlowdown(int64_t key) const {
    auto it = slowLinks.find(key);
    return it == slowLinks.end() ? 1.0 : it->second;
  }
  /// The fault that took a directed link down, or nullptr.
  const std::string *failedLink(int64_t key) const {
    auto it = failedLinks.find(key);
    return it == failedLinks.end() ? nullptr : &it->second;
  }
  const std::string *failedDevice(int64_t device) const {
    auto it = failedDevices.find(device);
    return it == failedDevices.end() ? nullptr : &it->second;
  }
  /// Bandwidth divisor of the DCN path (NIC and PCIe) of `slice`'s hosts.
  double dcnSlowdown(int64_t slice) const {
    auto it = slowSlices.find(slice);
    return dcnSlowdownAll * (it == slowSlices.end() ? 1.0 : it->second);
  }
  bool hasFailedLinks() const { return !failedLinks.empty(); }
  bool hasFailedDevices() const { return !failedDevices.empty(); }

private:
  llvm::DenseMap<int64_t, double> slowLinks;
  /// Key -> "link 5 x+ (device 5 -> device 6, --fault=...)".
  llvm::DenseMap<int64_t, std::string> failedLinks;
  llvm::DenseMap<int64_t, std::string> failedDevices;
  double dcnSlowdownAll = 1;
  llvm::DenseMap<int64_t, double> slowSlices;
  std::vector<std::string> specs;
};

} // namespace xspmd::topology

#endif // XSPMD_RUNTIME_TOPOLOGY_FAULTS_H
