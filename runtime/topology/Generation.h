//===- Generation.h - TPU generation presets --------------------*- C++ -*-===//
//
// The hardware constants of one TPU generation: chip, host, HBM, compute,
// ICI and DCN figures. Every number is cited in docs/topology.md (source and
// section of shared/research/tpu-and-collectives.md); numbers without a
// primary source are marked there as unverified.
//
// Units: bytes, seconds, bytes/second, FLOP/second. Link bandwidths are one
// direction of one link ("uni"); a full-duplex link carries that much in each
// direction at once.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TOPOLOGY_GENERATION_H
#define XSPMD_RUNTIME_TOPOLOGY_GENERATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>

namespace xspmd::topology {

enum class Generation { V3, V4, V5e, V5p, V6e, Tpu7x };

/// When an ICI axis of a slice closes into a ring.
enum class WraparoundRule {
  /// v4/v5p: wraparound links come from the optical switches, which exist only
  /// for whole 4x4x4 cubes: every axis wraps iff every dimension is a
  /// multiple of 4; smaller slices (2x2x1, 2x2x4, ...) have none.
  WholeCubes,
  /// v3/v5e/v6e (2D pods): an axis wraps iff it spans the pod's whole axis
  /// (`maxAxisLength`: 32 chips on v3, 16 on v5e/v6e).
  FullPodAxis,
};

/// A standard slice offered under an accelerator-type name (`v5p-128`).
struct StandardSlice {
  int64_t chips;
  std::array<int64_t, 3> shape;
};

struct GenerationSpec {
  Generation generation;
  /// Preset name used in `--topology=<name>:AxBxC` ("v4", "v5e", ...).
  llvm::StringRef name;
  /// Accelerator-type prefix (`v5litepod` for v5e).
  llvm::StringRef acceleratorPrefix;

  // Chip and host.
  /// Torus dimensions: 3 (v4, v5p, TPU7x) or 2 (v3, v5e, v6e).
  int torusRank;
  /// TensorCores per chip; v3/v4/v5p accelerator types count TensorCores.
  int tensorCoresPerChip;
  /// Chips attached to one host, as a block of the torus (x, y, z).
  std::array<int64_t, 3> hostBlock;
  /// Largest single ICI slice (chips) and the longest axis of a pod.
  int64_t maxSliceChips;
  int64_t maxAxisLength;
  WraparoundRule wraparound;

  // Memory and compute (per chip).
  double hbmBytes;
  double hbmBandwidth;
  double peakBf16Flops;
  double peakInt8Ops;

  // ICI.
  int iciPortsPerChip;
  /// One direction of one link.
  double iciLinkBandwidth;
  /// Minimum time of one hop (T_min).
  double iciHopLatency;

  // Host I/O and DCN.
  /// Host <-> chip PCIe, per chip, each direction.
  double pcieBandwidth;
  /// Host NIC bandwidth towards the data-centre network, per host, each
  /// direction; shared by the host's chips.
  double dcnHostBandwidth;
  /// Latency of one DCN message (unverified: no primary source found).
  double dcnLatency;

  // Calibration of the collective model (docs/topology.md 4.6).
  /// Fixed cost of every collective (launch and synchronisation), paid once
  /// besides the per-hop latencies.
  double collectiveLaunchLatency;
  /// Fraction of the ICI link bandwidth large collectives achieve.
  double iciEfficiency;
  /// Synchronisation cost of every step of a collective's ring or line
  /// (each step waits for its neighbour's data), besides the hop latency.
  double collectiveStepLatency = 0;

  int64_t chipsPerHost() const {
    return hostBlock[0] * hostBlock[1] * hostBlock[2];
  }
  /// The standard slices of this generation, by chip count.
  llvm::ArrayRef<StandardSlice> standardSlices() const;
};

/// The preset of `generation`.
const GenerationSpec &getGenerationSpec(Generation generation);

/// All presets, in release order.
llvm::ArrayRef<GenerationSpec> allGenerationSpecs();

/// Looks a preset up by its name or accelerator-type prefix ("v5e",
/// "v5litepod"), case-insensitively.
std::optional<Generation> lookupGeneration(llvm::StringRef name);

} // namespace xspmd::topology

#endif // XSPMD_RUNTIME_TOPOLOGY_GENERATION_H
