//===- XlaShardLayout.cpp - how a sharded tensor lies on devices ----------===//

#include "dialects/xla/XlaShardLayout.h"

#include "dialects/xla/XlaMesh.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace llvm;

namespace xspmd::xla {

MeshModel MeshModel::fromAttr(MeshAttr mesh) {
  MeshModel model;
  for (auto [i, axis] : llvm::enumerate(mesh.getAxes())) {
    model.axisSizes.push_back(axis.getSize());
    model.axisLinks.push_back(mesh.getLinkClass(i));
    model.axisNames.push_back(axis.getName().str());
  }
  model.deviceArray = mesh.getDeviceArray();
  return model;
}

MeshModel MeshModel::flat(int64_t numDevices) {
  MeshModel model;
  model.axisSizes = {numDevices};
  model.axisLinks = {LinkClass::ici};
  model.axisNames = {"devices"};
  for (int64_t d = 0; d < numDevices; ++d)
    model.deviceArray.push_back(d);
  return model;
}

SmallVector<int64_t> MeshModel::coordsOfDevice(int64_t id) const {
  return coordsOfPosition(llvm::find(deviceArray, id) - deviceArray.begin());
}

int64_t MeshModel::axisIndex(StringRef name) const {
  for (auto [i, n] : llvm::enumerate(axisNames))
    if (n == name)
      return i;
  return -1;
}

SmallVector<int64_t> MeshModel::coordsOfPosition(int64_t position) const {
  SmallVector<int64_t> coords(rank());
  for (int64_t a = rank() - 1; a >= 0; --a) {
    coords[a] = position % axisSizes[a];
    position /= axisSizes[a];
  }
  return coords;
}

SmallVector<int64_t> MeshModel::positionsOfDevices() const {
  SmallVector<int64_t> positions(numDevices());
  for (auto [pos, id] : llvm::enumerate(deviceArray))
    positions[id] = pos;
  return positions;
}

LinkClass MeshModel::linkOf(ArrayRef<int> axes) const {
  SmallVector<LinkClass> links;
  for (int a : axes)
    if (axisSizes[a] > 1)
      links.push_back(axisLinks[a]);
  return combineLinkClasses(links);
}

ShardLayout ShardLayout::fromSharding(ShardingAttr sharding,
                                      const MeshModel &mesh,
                                      ArrayRef<int64_t> shape) {
  ShardLayout layout;
  for (auto [d, dim] : llvm::enumerate(sharding.getDims())) {
    auto &axes = layout.dimAxes.emplace_back();
    int64_t shards = 1;
    for (mlir::StringAttr name : dim.getAxes()) {
      int axis = mesh.axisIndex(name.getValue());
      axes.push_back(axis);
      shards *= mesh.axisSizes[axis];
    }
    layout.paddedSize.push_back(paddedDimSize(shape[d], shards));
  }
  for (mlir::StringAttr name : sharding.getPartialAxes())
    layout.partialAxes.push_back(mesh.axisIndex(name.getValue()));
  llvm::sort(layout.partialAxes);
  layout.partialKind = sharding.getPartialKind();
  return layout;
}

ShardLayout ShardLayout::maximal(ArrayRef<int64_t> shape, int64_t device) {
  ShardLayout layout = replicated(shape);
  layout.maximalDevice = device;
  return layout;
}

ShardLayout ShardLayout::replicated(ArrayRef<int64_t> shape) {
  ShardLayout layout;
  layout.dimAxes.resize(shape.size());
  layout.paddedSize.assign(shape.begin(), shape.end());
  return layout;
}

int64_t ShardLayout::numShards(const MeshModel &mesh, int64_t dim) const {
  int64_t n = 1;
  for (int a : dimAxes[dim])
    n *= mesh.axisSizes[a];
  return n;
}

SmallVector<int64_t> ShardLayout::localShape(const MeshModel &mesh) const {
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank(); ++d)
    shape.push_back(paddedSize[d] / numShards(mesh, d));
  return shape;
}

int64_t ShardLayout::localElements(const MeshModel &mesh) const {
  int64_t n = 1;
  for (int64_t s : localShape(mesh))
    n *= s;
  return n;
}

bool ShardLayout::usesAxis(int axis) const {
  if (llvm::is_contained(partialAxes, axis))
    return true;
  return llvm::any_of(dimAxes, [&](const auto &axes) {
    return llvm::is_contained(axes, axis);
  });
}

int64_t ShardLayout::shardIndex(const MeshModel &mesh, int64_t dim,
                                ArrayRef<int64_t> coords) const {
  int64_t index = 0;
  for (int a : dimAxes[dim])
    index = index * mesh.axisSizes[a] + coords[a];
  return index;
}

SmallVector<int64_t> ShardLayout::blockOffsets(const MeshModel &mesh,
                                               ArrayRef<int64_t> coords) const {
  SmallVector<int64_t> local = localShape(mesh), offsets;
  for (int64_t d = 0; d < rank(); ++d)
    offsets.push_back(shardIndex(mesh, d, coords) * local[d]);
  return offsets;
}

int64_t ShardLayout::partialIndex(const MeshModel &mesh,
                                  ArrayRef<int64_t> coords) const {
  int64_t index = 0;
  for (int a : partialAxes)
    index = index * mesh.axisSizes[a] + coords[a];
  return index;
}

std::string ShardLayout::key() const {
  std::string key;
  for (auto [d, axes] : llvm::enumerate(dimAxes)) {
    key += '[';
    for (int a : axes)
      key += std::to_string(a) + ',';
    key += ']' + std::to_string(paddedSize[d]);
  }
  if (!partialAxes.empty()) {
    key += 'p' + std::to_string(static_cast<int>(partialKind)) + ':';
    for (int a : partialAxes)
      key += std::to_string(a) + ',';
  }
  if (isMaximal())
    key += 'm' + std::to_string(maximalDevice);
  return key;
}

} // namespace xspmd::xla
