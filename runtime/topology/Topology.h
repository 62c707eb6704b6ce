//===- Topology.h - TPU slices, hosts and chip coordinates ------*- C++ -*-===//
//
// A topology is `numSlices` identical ICI slices of one TPU generation, joined
// by the data-centre network (DCN). Inside a slice chips sit on a 2D or 3D
// torus (a mesh along axes without wraparound); hosts own fixed blocks of
// chips.
//
// Device numbering (one device per chip; v4/v5p megacore):
//   device = slice * chipsPerSlice + x + X * (y + Y * z)
// i.e. slice-major, then row-major over the torus coordinates with x the
// fastest-varying. This is the order JAX sorts TPU devices in (by coords,
// z-major / x-minor) and it makes slice s hold the ids [s*S, (s+1)*S), as
// xspmd's hybrid meshes (torch_xla HybridMesh) assume. Hosts and the chips of
// a host are numbered the same way (x fastest) over the host grid and within
// a host block.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TOPOLOGY_TOPOLOGY_H
#define XSPMD_RUNTIME_TOPOLOGY_TOPOLOGY_H

#include "runtime/topology/Generation.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace xspmd::topology {

/// Torus coordinates (x, y, z) of a chip inside its slice; z is 0 on 2D tori.
using ChipCoords = std::array<int64_t, 3>;

/// Where a device lives.
struct DeviceLocation {
  int64_t slice = 0;
  ChipCoords coords = {0, 0, 0};
  /// Host within the slice and across the topology
  /// (host = slice * hostsPerSlice + hostInSlice).
  int64_t hostInSlice = 0;
  int64_t host = 0;
  /// Index of the chip within its host block (x fastest).
  int64_t chipOnHost = 0;
};

/// One ICI port of a chip that is wired to a neighbour.
struct IciLink {
  int64_t neighbor;
  int axis;
  /// +1 towards higher coordinates, -1 towards lower ones.
  int direction;
  /// Whether this link is the wraparound link closing the axis.
  bool wraparound;
};

class Topology {
public:
  /// Checks `sliceShape` against the generation's slice rules (rank, host
  /// tiling, whole cubes, maximum size) and `numSlices >= 1`.
  static llvm::Expected<Topology> create(const GenerationSpec &spec,
                                         llvm::ArrayRef<int64_t> sliceShape,
                                         int64_t numSlices = 1);

  const GenerationSpec &getSpec() const { return spec; }
  /// 2 or 3 (the generation's torus rank).
  int getRank() const { return spec.torusRank; }
  /// Length of torus axis `axis` (1 for the unused z axis of a 2D torus).
  int64_t getAxisLength(int axis) const { return shape[axis]; }
  const ChipCoords &getShape() const { return shape; }
  bool hasWraparound(int axis) const { return wraparound[axis]; }

  int64_t getNumSlices() const { return numSlices; }
  int64_t getChipsPerSlice() const { return shape[0] * shape[1] * shape[2]; }
  int64_t getNumDevices() const { return getChipsPerSlice() * numSlices; }
  /// Chips per host in this slice (a slice smaller than one host block has a
  /// single, partly populated host).
  int64_t getChipsPerHost() const {
    return hostBlock[0] * hostBlock[1] * hostBlock[2];
  }
  int64_t getHostsPerSlice() const {
    return getChipsPerSlice() / getChipsPerHost();
  }
  int64_t getNumHosts() const { return getHostsPerSlice() * numSlices; }
  const ChipCoords &getHostBlock() const { return hostBlock; }

  bool isValidDevice(int64_t device) const {
    return device >= 0 && device < getNumDevices();
  }
  /// Requires a valid device.
  DeviceLocation locate(int64_t device) const;
  int64_t getSlice(int64_t device) const { return device / getChipsPerSlice(); }
  ChipCoords getCoords(int64_t device) const;
  int64_t getHost(int64_t device) const { return locate(device).host; }
  /// The device at `coords` of `slice`.
  int64_t getDevice(int64_t slice, const ChipCoords &coords) const;

  /// The wired ICI ports of `device` (2 per axis of length > 2 with
  /// wraparound; fewer at the edges of axes without it).
  llvm::SmallVector<IciLink, 6> getIciLinks(int64_t device) const;

  /// Shortest signed offset from coordinate `from` to `to` along `axis`
  /// (through the wraparound link when that is shorter; a tie goes the
  /// positive way).
  int64_t axisOffset(int axis, int64_t from, int64_t to) const;
  /// Whether both directions along `axis` are shortest (wraparound axis of
  /// even length, offset half of it).
  bool isAxisTie(int axis, int64_t from, int64_t to) const;

  /// ICI hops between two devices of the same slice (sum over axes of the
  /// shortest distance); std::nullopt for devices in different slices, which
  /// only DCN connects.
  std::optional<int64_t> iciHopDistance(int64_t a, int64_t b) const;

  /// "4x4x4" (or "16x16" for a 2D torus).
  std::string shapeString() const;
  /// One line for reports, e.g. "v5p 4x4x4 (wraparound on x,y,z), 16 hosts
  /// of 4 chips, 2 slices over DCN".
  std::string describe() const;

private:
  Topology(const GenerationSpec &spec, ChipCoords shape, int64_t numSlices);

  GenerationSpec spec;
  ChipCoords shape;
  int64_t numSlices;
  std::array<bool, 3> wraparound;
  ChipCoords hostBlock;
  ChipCoords hostGrid;
};

/// Whether a slice of `shape` has a wraparound link along `axis` under the
/// rule of `spec` (research notes 1.2 "Wraparound rules"; docs/topology.md 1).
bool sliceAxisWraps(const GenerationSpec &spec, const ChipCoords &shape,
                    int axis);

/// Name of torus axis `axis` ("x", "y", "z").
llvm::StringRef axisName(int axis);

} // namespace xspmd::topology

#endif // XSPMD_RUNTIME_TOPOLOGY_TOPOLOGY_H
