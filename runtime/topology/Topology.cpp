//===- Topology.cpp - TPU slices, hosts and chip coordinates --------------===//

#include "runtime/topology/Topology.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <cstdlib>

using llvm::createStringError;
using llvm::formatv;

namespace xspmd::topology {

llvm::StringRef axisName(int axis) {
  static const char *const names[] = {"x", "y", "z"};
  assert(axis >= 0 && axis < 3 && "torus axes are x, y, z");
  return names[axis];
}

bool sliceAxisWraps(const GenerationSpec &spec, const ChipCoords &shape,
                    int axis) {
  switch (spec.wraparound) {
  case WraparoundRule::WholeCubes:
    return llvm::all_of(shape, [](int64_t n) { return n % 4 == 0; });
  case WraparoundRule::FullPodAxis:
    return shape[axis] == spec.maxAxisLength;
  }
  return false;
}

static std::string joinShape(llvm::ArrayRef<int64_t> dims) {
  std::string text;
  for (auto [i, n] : llvm::enumerate(dims))
    text += (i ? "x" : "") + std::to_string(n);
  return text;
}

/// The generation's rules for a slice shape; an empty string when it is
/// acceptable.
static std::string checkSliceShape(const GenerationSpec &spec,
                                   const ChipCoords &shape) {
  int64_t chips = shape[0] * shape[1] * shape[2];
  std::string name =
      joinShape(llvm::ArrayRef(shape).take_front(spec.torusRank));
  for (int axis = 0; axis < spec.torusRank; ++axis)
    if (shape[axis] > spec.maxAxisLength)
      return formatv("{0} slice {1}: axis {2} has {3} chips; a {0} pod axis "
                     "has at most {4}",
                     spec.name, name, axisName(axis), shape[axis],
                     spec.maxAxisLength);
  if (chips > spec.maxSliceChips)
    return formatv("{0} slice {1} has {2} chips; the largest {0} slice has "
                   "{3}",
                   spec.name, name, chips, spec.maxSliceChips);
  if (spec.wraparound == WraparoundRule::WholeCubes) {
    // Larger than one cube: whole 4x4x4 cubes. Within a cube: 1, 2 or 4
    // chips per axis, in whole hosts (2x2x1).
    bool beyondCube = llvm::any_of(shape, [](int64_t n) { return n > 4; });
    for (int axis = 0; axis < 3; ++axis) {
      int64_t n = shape[axis];
      if (beyondCube && n % 4 != 0)
        return formatv("{0} slice {1}: slices larger than a 4x4x4 cube are "
                       "made of whole cubes, so every axis must be a "
                       "multiple of 4",
                       spec.name, name);
      if (!beyondCube && n != 1 && n != 2 && n != 4)
        return formatv("{0} slice {1}: axis {2} must have 1, 2 or 4 chips "
                       "within a cube",
                       spec.name, name, axisName(axis));
      if (n % spec.hostBlock[axis] != 0)
        return formatv("{0} slice {1}: hosts hold {2}x{3}x{4} chips, so axis "
                       "{5} must be a multiple of {6}",
                       spec.name, name, spec.hostBlock[0], spec.hostBlock[1],
                       spec.hostBlock[2], axisName(axis), spec.hostBlock[axis]);
    }
    return "";
  }
  // 2D generations: power-of-two axes; whole hosts unless the slice fits in
  // one host (the 1- and 4-chip VMs).
  for (int axis = 0; axis < 2; ++axis)
    if (!llvm::isPowerOf2_64(shape[axis]))
      return formatv("{0} slice {1}: axis {2} must be a power of two "
                     "(1, 2, 4, ..., {3})",
                     spec.name, name, axisName(axis), spec.maxAxisLength);
  bool withinOneHost =
      shape[0] <= spec.hostBlock[0] && shape[1] <= spec.hostBlock[1];
  if (!withinOneHost &&
      (shape[0] % spec.hostBlock[0] != 0 || shape[1] % spec.hostBlock[1] != 0))
    return formatv("{0} slice {1}: hosts hold {2}x{3} chips, so a slice "
                   "larger than one host must be a multiple of {2}x{3}",
                   spec.name, name, spec.hostBlock[0], spec.hostBlock[1]);
  return "";
}

llvm::Expected<Topology> Topology::create(const GenerationSpec &spec,
                                          llvm::ArrayRef<int64_t> sliceShape,
                                          int64_t numSlices) {
  if (static_cast<int>(sliceShape.size()) != spec.torusRank)
    return createStringError(formatv(
        "{0} slices are {1}D ({2}); got '{3}'", spec.name, spec.torusRank,
        spec.torusRank == 3 ? "AxBxC" : "AxB", joinShape(sliceShape)));
  for (int64_t n : sliceShape)
    if (n < 1)
      return createStringError(formatv("slice shape '{0}' has an axis of "
                                       "length {1}; lengths must be positive",
                                       joinShape(sliceShape), n));
  if (numSlices < 1)
    return createStringError(
        formatv("the slice count must be at least 1; got {0}", numSlices));
  ChipCoords shape = {1, 1, 1};
  llvm::copy(sliceShape, shape.begin());
  std::string problem = checkSliceShape(spec, shape);
  if (!problem.empty())
    return createStringError(problem);
  return Topology(spec, shape, numSlices);
}

Topology::Topology(const GenerationSpec &spec, ChipCoords shape,
                   int64_t numSlices)
    : spec(spec), shape(shape), numSlices(numSlices) {
  for (int axis = 0; axis < 3; ++axis) {
    wraparound[axis] = axis < spec.torusRank && shape[axis] > 2 &&
                       sliceAxisWraps(spec, shape, axis);
    hostBlock[axis] = std::min(spec.hostBlock[axis], shape[axis]);
    hostGrid[axis] = shape[axis] / hostBlock[axis];
  }
}

ChipCoords Topology::getCoords(int64_t device) const {
  assert(isValidDevice(device) && "device outside the topology");
  int64_t local = device % getChipsPerSlice();
  return {local % shape[0], (local / shape[0]) % shape[1],
          local / (shape[0] * shape[1])};
}

DeviceLocation Topology::locate(int64_t device) const {
  DeviceLocation loc;
  loc.slice = getSlice(device);
  loc.coords = getCoords(device);
  ChipCoords hostCoords, onHost;
  for (int axis = 0; axis < 3; ++axis) {
    hostCoords[axis] = loc.coords[axis] / hostBlock[axis];
    onHost[axis] = loc.coords[axis] % hostBlock[axis];
  }
  loc.hostInSlice = hostCoords[0] +
                    hostGrid[0] * (hostCoords[1] + hostGrid[1] * hostCoords[2]);
  loc.host = loc.slice * getHostsPerSlice() + loc.hostInSlice;
  loc.chipOnHost =
      onHost[0] + hostBlock[0] * (onHost[1] + hostBlock[1] * onHost[2]);
  return loc;
}

int64_t Topology::getDevice(int64_t slice, const ChipCoords &coords) const {
  assert(slice >= 0 && slice < numSlices && "slice outside the topology");
  for (int axis = 0; axis < 3; ++axis)
    assert(coords[axis] >= 0 && coords[axis] < shape[axis] &&
           "coordinates outside the slice");
  return slice * getChipsPerSlice() + coords[0] +
         shape[0] * (coords[1] + shape[1] * coords[2]);
}

llvm::SmallVector<IciLink, 6> Topology::getIciLinks(int64_t device) const {
  llvm::SmallVector<IciLink, 6> links;
  int64_t slice = getSlice(device);
  ChipCoords coords = getCoords(device);
  for (int axis = 0; axis < 3; ++axis) {
    int64_t n = shape[axis];
    if (n == 1)
      continue;
    for (int direction : {-1, +1}) {
      int64_t next = coords[axis] + direction;
      bool wraps = next < 0 || next >= n;
      if (wraps && !wraparound[axis])
        continue;
      ChipCoords to = coords;
      to[axis] = (next + n) % n;
      links.push_back({getDevice(slice, to), axis, direction, wraps});
    }
  }
  return links;
}

int64_t Topology::axisOffset(int axis, int64_t from, int64_t to) const {
  int64_t n = shape[axis];
  int64_t forward = ((to - from) % n + n) % n; // 0..n-1, positive way
  if (!wraparound[axis])
    return to - from;
  return forward <= n - forward ? forward : forward - n;
}

bool Topology::isAxisTie(int axis, int64_t from, int64_t to) const {
  int64_t n = shape[axis];
  if (!wraparound[axis] || n % 2 != 0)
    return false;
  return std::llabs(to - from) == n / 2;
}

std::optional<int64_t> Topology::iciHopDistance(int64_t a, int64_t b) const {
  if (getSlice(a) != getSlice(b))
    return std::nullopt;
  ChipCoords ca = getCoords(a), cb = getCoords(b);
  int64_t hops = 0;
  for (int axis = 0; axis < 3; ++axis)
    hops += std::llabs(axisOffset(axis, ca[axis], cb[axis]));
  return hops;
}

std::string Topology::shapeString() const {
  return joinShape(llvm::ArrayRef(shape).take_front(spec.torusRank));
}

std::string Topology::describe() const {
  llvm::SmallVector<std::string, 3> wrapped;
  for (int axis = 0; axis < spec.torusRank; ++axis)
    if (wraparound[axis])
      wrapped.push_back(axisName(axis).str());
  std::string wrapText = wrapped.empty()
                             ? "no wraparound"
                             : "wraparound on " + llvm::join(wrapped, ",");
  std::string text = formatv(
      "{0} {1} ({2}), {3} host{4} of {5} chip{6}", spec.name, shapeString(),
      wrapText, getHostsPerSlice(), getHostsPerSlice() == 1 ? "" : "s",
      getChipsPerHost(), getChipsPerHost() == 1 ? "" : "s");
  if (numSlices > 1)
    text += formatv(", {0} slices over DCN", numSlices).str();
  return text;
}

} // namespace xspmd::topology
