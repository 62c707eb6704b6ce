//===- XlaMeshPlacement.cpp - an xla mesh on a topology -------------------===//

#include "runtime/topology/XlaMeshPlacement.h"

#include "dialects/xla/XlaMesh.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using llvm::formatv;

namespace xspmd::topology {

MeshShape getMeshShape(xla::MeshAttr mesh) {
  MeshShape shape;
  for (int64_t i = 0, e = mesh.getRank(); i < e; ++i) {
    shape.axisSizes.push_back(mesh.getAxes()[i].getSize());
    if (mesh.isHybrid())
      shape.dcnSizes.push_back(mesh.getDcnSize(i));
  }
  shape.deviceArray = mesh.getDeviceArray();
  return shape;
}

static std::string describeRuns(llvm::ArrayRef<AxisSpan> runs) {
  if (runs.empty())
    return "one chip per slice";
  llvm::SmallVector<std::string, 3> parts;
  for (const AxisSpan &run : runs)
    parts.push_back(formatv("{0} ({1} of {2}{3})", axisName(run.axis),
                            run.ring ? "ring" : "line", run.length,
                            run.stride == 1
                                ? std::string()
                                : formatv(", every {0}th", run.stride).str()));
  return "torus " + llvm::join(parts, " x ");
}

std::string MeshAxisPlacement::describe() const {
  std::string text =
      formatv("{0}={1}: {2}", name, size, stringifyLinkClass(linkClass));
  if (slicesSpanned > 1)
    text += formatv(" across {0} slices", slicesSpanned).str();
  if (size == 1)
    return text;
  if (!torusRuns)
    return text + ", irregular chips within a slice";
  if (linkClass == LinkClass::Dcn)
    return text;
  return text + ", " + describeRuns(*torusRuns);
}

llvm::Expected<llvm::SmallVector<MeshAxisPlacement>>
placeMesh(const Topology &topology, xla::MeshAttr mesh) {
  MeshShape shape = getMeshShape(mesh);
  if (llvm::Error error = checkMeshFits(topology, shape))
    return std::move(error);
  llvm::SmallVector<MeshAxisPlacement> placements;
  for (int64_t i = 0, e = mesh.getRank(); i < e; ++i) {
    MeshAxisPlacement placement;
    placement.name = mesh.getAxes()[i].getName().getValue().str();
    placement.size = shape.axisSizes[i];
    auto groups = xla::meshAxisGroups(shape.axisSizes, shape.deviceArray,
                                      {static_cast<int64_t>(i)});
    llvm::Expected<LinkClass> linkClass = classifyGroups(topology, groups);
    if (!linkClass)
      return linkClass.takeError();
    placement.linkClass = *linkClass;
    bool regular = true;
    for (const auto &group : groups) {
      llvm::Expected<GroupGeometry> geometry = analyzeGroup(topology, group);
      if (!geometry)
        return geometry.takeError();
      placement.slicesSpanned =
          std::max<int64_t>(placement.slicesSpanned, geometry->slices.size());
      regular &= llvm::all_of(geometry->slices, [](const SliceMembers &m) {
        return m.grid.has_value();
      });
      if (&group == &groups.front())
        placement.torusRuns = geometry->slices.front().grid;
    }
    if (!regular)
      placement.torusRuns.reset();
    placements.push_back(std::move(placement));
  }
  return placements;
}

} // namespace xspmd::topology
