//===- MeshFit.h - does a logical mesh fit a topology -----------*- C++ -*-===//
//
// A logical device mesh (axis sizes, a row-major array of device ids, and for
// a hybrid mesh the DCN factor of each axis) fits a topology when it names
// every device exactly once and, if hybrid, its DCN shape has one entry per
// slice. Plain C++ so the simulator can use it without MLIR;
// XlaMeshPlacement.h adapts an xla MeshAttr.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TOPOLOGY_MESHFIT_H
#define XSPMD_RUNTIME_TOPOLOGY_MESHFIT_H

#include "runtime/topology/Topology.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

namespace xspmd::topology {

struct MeshShape {
  /// Total size of each axis (ICI x DCN factor for a hybrid mesh).
  llvm::SmallVector<int64_t> axisSizes;
  /// DCN factor of each axis; empty for a plain mesh.
  llvm::SmallVector<int64_t> dcnSizes;
  /// Device ids, row-major over the axes.
  llvm::SmallVector<int64_t> deviceArray;

  bool isHybrid() const { return !dcnSizes.empty(); }
  int64_t getNumDevices() const;
};

/// Success, or an error that says what does not match: the device count
/// against chips x slices, a device id outside the topology or repeated, the
/// DCN shape against the slice count.
llvm::Error checkMeshFits(const Topology &topology, const MeshShape &mesh);

} // namespace xspmd::topology

#endif // XSPMD_RUNTIME_TOPOLOGY_MESHFIT_H
