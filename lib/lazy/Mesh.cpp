//===- Mesh.cpp - torch_xla's Mesh and HybridMesh -------------------------===//

#include "lib/lazy/Mesh.h"

#include "dialects/xla/XlaMesh.h"
#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

using namespace mlir;

namespace xspmd::lazy {

static llvm::Error meshError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Checks what torch_xla's Mesh constructor asserts and names the axes.
static llvm::Error checkAxes(llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<std::string> axisNames,
                             std::vector<std::string> &names, bool &named) {
  if (shape.empty())
    return meshError("a mesh needs at least one axis");
  for (int64_t size : shape)
    if (size <= 0)
      return meshError(fmt::format("mesh shape ({}) has a non-positive axis",
                                   fmt::join(shape, ", ")));
  named = !axisNames.empty();
  if (named && axisNames.size() != shape.size())
    return meshError(fmt::format(
        "{} axis names for a mesh of {} axes: give one name per axis",
        axisNames.size(), shape.size()));
  llvm::StringSet<> seen;
  for (const std::string &name : axisNames) {
    if (name.empty())
      return meshError("mesh axis names must not be empty");
    if (!seen.insert(name).second)
      return meshError(fmt::format("mesh axis name '{}' appears twice", name));
  }
  names.assign(axisNames.begin(), axisNames.end());
  if (!named)
    for (size_t i = 0; i < shape.size(); ++i)
      names.push_back(fmt::format("axis{}", i));
  return llvm::Error::success();
}

llvm::Expected<Mesh> Mesh::create(llvm::ArrayRef<int64_t> deviceIds,
                                  llvm::ArrayRef<int64_t> shape,
                                  llvm::ArrayRef<std::string> axisNames) {
  Mesh mesh;
  if (llvm::Error err = checkAxes(shape, axisNames, mesh.axisNames, mesh.named))
    return std::move(err);
  mesh.shape.assign(shape.begin(), shape.end());
  if (static_cast<int64_t>(deviceIds.size()) != mesh.size())
    return meshError(fmt::format(
        "{} device ids for a mesh of shape ({}) that holds {} devices",
        deviceIds.size(), fmt::join(shape, ", "), mesh.size()));
  llvm::SmallVector<bool> seen(deviceIds.size(), false);
  for (int64_t id : deviceIds) {
    if (id < 0 || id >= mesh.size() || seen[id])
      return meshError(
          fmt::format("device ids ({}) are not a permutation of 0..{}",
                      fmt::join(deviceIds, ", "), mesh.size() - 1));
    seen[id] = true;
  }
  mesh.deviceIds.assign(deviceIds.begin(), deviceIds.end());
  return mesh;
}

llvm::Expected<Mesh> Mesh::hybrid(llvm::ArrayRef<int64_t> iciShape,
                                  llvm::ArrayRef<int64_t> dcnShape,
                                  llvm::ArrayRef<std::string> axisNames) {
  if (iciShape.size() != dcnShape.size())
    return meshError(fmt::format(
        "ici_mesh_shape ({}) and dcn_mesh_shape ({}) have different ranks",
        fmt::join(iciShape, ", "), fmt::join(dcnShape, ", ")));
  Mesh mesh;
  llvm::SmallVector<int64_t> shape;
  for (auto [ici, dcn] : llvm::zip(iciShape, dcnShape))
    shape.push_back(ici * dcn);
  if (llvm::any_of(iciShape, [](int64_t s) { return s <= 0; }) ||
      llvm::any_of(dcnShape, [](int64_t s) { return s <= 0; }))
    return meshError(
        fmt::format("hybrid mesh shapes ({}) x ({}) must be positive",
                    fmt::join(iciShape, ", "), fmt::join(dcnShape, ", ")));
  if (llvm::Error err = checkAxes(shape, axisNames, mesh.axisNames, mesh.named))
    return std::move(err);
  mesh.shape = shape;
  mesh.iciShape.assign(iciShape.begin(), iciShape.end());
  mesh.dcnShape.assign(dcnShape.begin(), dcnShape.end());
  mesh.deviceIds = xla::hybridDeviceArray(iciShape, dcnShape);
  return mesh;
}

llvm::Expected<Mesh> Mesh::get1d(int64_t numDevices, llvm::StringRef axisName) {
  llvm::SmallVector<int64_t> ids =
      llvm::to_vector(llvm::seq<int64_t>(0, numDevices));
  return create(ids, {numDevices}, {axisName.str()});
}

int64_t Mesh::size() const {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

llvm::SmallVector<int64_t> Mesh::getDeviceIds() const { return deviceIds; }

llvm::Expected<std::string> Mesh::resolveAxis(llvm::StringRef axis) const {
  for (const std::string &name : axisNames)
    if (name == axis)
      return name;
  int64_t index;
  if (!named && !axis.getAsInteger(10, index))
    return resolveAxis(index);
  return meshError(fmt::format("mesh has no axis '{}' (axes: {})", axis.str(),
                               fmt::join(axisNames, ", ")));
}

llvm::Expected<std::string> Mesh::resolveAxis(int64_t index) const {
  if (index < 0 || index >= static_cast<int64_t>(axisNames.size()))
    return meshError(fmt::format("mesh axis index {} is out of range for a "
                                 "mesh of {} axes",
                                 index, axisNames.size()));
  return axisNames[index];
}

xla::MeshAttr Mesh::toAttr(MLIRContext *context) const {
  SmallVector<xla::MeshAxisAttr> axes;
  for (auto [name, size] : llvm::zip(axisNames, shape))
    axes.push_back(
        xla::MeshAxisAttr::get(context, StringAttr::get(context, name), size));
  if (isHybrid())
    return xla::MeshAttr::get(context, axes, {}, dcnShape);
  bool identity = llvm::equal(deviceIds, llvm::seq<int64_t>(0, size()));
  return xla::MeshAttr::get(context, axes,
                            identity ? ArrayRef<int64_t>() : deviceIds, {});
}

std::string Mesh::describe() const {
  std::vector<std::string> quoted;
  for (const std::string &name : axisNames)
    quoted.push_back("'" + name + "'");
  std::string names = named ? fmt::format("({}{})", fmt::join(quoted, ", "),
                                          quoted.size() == 1 ? "," : "")
                            : "None";
  if (isHybrid())
    return fmt::format("HybridMesh(ici_mesh_shape=({}), dcn_mesh_shape=({}), "
                       "axis_names={})",
                       fmt::join(iciShape, ", "), fmt::join(dcnShape, ", "),
                       names);
  return fmt::format("Mesh(shape=({}{}), axis_names={})",
                     fmt::join(shape, ", "), shape.size() == 1 ? "," : "",
                     names);
}

bool Mesh::operator==(const Mesh &other) const {
  return shape == other.shape && deviceIds == other.deviceIds &&
         iciShape == other.iciShape && dcnShape == other.dcnShape &&
         axisNames == other.axisNames;
}

} // namespace xspmd::lazy
