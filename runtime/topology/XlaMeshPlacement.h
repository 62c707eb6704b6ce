//===- XlaMeshPlacement.h - an xla mesh on a topology -----------*- C++ -*-===//
//
// Adapter from the `xla` dialect's MeshAttr (plain, explicit device order or
// hybrid ICI x DCN) to the topology: checks that the mesh fits and reports,
// per mesh axis, which links its groups travel on and which torus axes they
// cover. Kept out of the core topology library so that library needs no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TOPOLOGY_XLAMESHPLACEMENT_H
#define XSPMD_RUNTIME_TOPOLOGY_XLAMESHPLACEMENT_H

#include "dialects/xla/XlaDialect.h"
#include "runtime/topology/GroupGeometry.h"
#include "runtime/topology/MeshFit.h"

#include <optional>
#include <string>

namespace xspmd::topology {

/// The plain description of `mesh`.
MeshShape getMeshShape(xla::MeshAttr mesh);

/// Where the groups of one mesh axis sit.
struct MeshAxisPlacement {
  std::string name;
  int64_t size = 1;
  /// From the physical placement (agrees with MeshAttr::getLinkClass for a
  /// hybrid mesh; a plain mesh over several slices gets DCN or mixed axes).
  LinkClass linkClass = LinkClass::Ici;
  /// Slices one group of the axis spans.
  int64_t slicesSpanned = 1;
  /// The torus runs the axis's first group covers in its first slice, when
  /// every group is a sub-grid in each of its slices; std::nullopt when some
  /// group is irregular.
  std::optional<llvm::SmallVector<AxisSpan, 3>> torusRuns;

  /// e.g. "fsdp=4: ici, torus x (ring)" or "data=2: dcn across 2 slices".
  std::string describe() const;
};

/// Checks that `mesh` fits `topology` (checkMeshFits) and places each axis.
llvm::Expected<llvm::SmallVector<MeshAxisPlacement>>
placeMesh(const Topology &topology, xla::MeshAttr mesh);

} // namespace xspmd::topology

#endif // XSPMD_RUNTIME_TOPOLOGY_XLAMESHPLACEMENT_H
