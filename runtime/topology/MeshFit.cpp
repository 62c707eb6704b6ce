//===- MeshFit.cpp - does a logical mesh fit a topology -------------------===//

#include "runtime/topology/MeshFit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using llvm::createStringError;
using llvm::formatv;

namespace xspmd::topology {

int64_t MeshShape::getNumDevices() const {
  int64_t count = 1;
  for (int64_t size : axisSizes)
    count *= size;
  return count;
}

static std::string joinSizes(llvm::ArrayRef<int64_t> sizes) {
  return "[" +
         llvm::join(llvm::map_range(
                        sizes, [](int64_t n) { return std::to_string(n); }),
                    ",") +
         "]";
}

llvm::Error checkMeshFits(const Topology &topology, const MeshShape &mesh) {
  int64_t meshDevices = mesh.getNumDevices();
  int64_t chips = topology.getNumDevices();
  if (meshDevices != chips)
    return createStringError(formatv(
        "the mesh {0} has {1} devices but the topology {2} has {3} ({4} "
        "chips per slice x {5} slice{6})",
        joinSizes(mesh.axisSizes), meshDevices, topology.describe(), chips,
        topology.getChipsPerSlice(), topology.getNumSlices(),
        topology.getNumSlices() == 1 ? "" : "s"));
  if (static_cast<int64_t>(mesh.deviceArray.size()) != meshDevices)
    return createStringError(formatv("the mesh lists {0} device ids for {1} "
                                     "positions",
                                     mesh.deviceArray.size(), meshDevices));
  llvm::SmallVector<bool> seen(chips, false);
  for (int64_t device : mesh.deviceArray) {
    if (!topology.isValidDevice(device))
      return createStringError(formatv("mesh device {0} is outside the "
                                       "topology (devices 0..{1})",
                                       device, chips - 1));
    if (seen[device])
      return createStringError(
          formatv("mesh device {0} appears more than once", device));
    seen[device] = true;
  }
  if (!mesh.isHybrid())
    return llvm::Error::success();
  if (mesh.dcnSizes.size() != mesh.axisSizes.size())
    return createStringError(formatv("the hybrid mesh has {0} axes but {1} "
                                     "DCN factors",
                                     mesh.axisSizes.size(),
                                     mesh.dcnSizes.size()));
  int64_t dcnSlices = 1;
  for (int64_t dcn : mesh.dcnSizes)
    dcnSlices *= dcn;
  if (dcnSlices != topology.getNumSlices())
    return createStringError(
        formatv("the hybrid mesh's DCN shape {0} lays out {1} slice{2} but the "
                "topology has {3} (--slices={3})",
                joinSizes(mesh.dcnSizes), dcnSlices, dcnSlices == 1 ? "" : "s",
                topology.getNumSlices()));
  // Device count and slice count agree, so the ICI shape is one slice.
  return llvm::Error::success();
}

} // namespace xspmd::topology
