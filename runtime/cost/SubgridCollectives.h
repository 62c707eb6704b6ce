//===- SubgridCollectives.h - closed forms on torus sub-grids ---*- C++ -*-===//
//
// Collectives over one group whose chips form a sub-grid of the torus (evenly
// spaced runs along one or more axes; topology/GroupGeometry.h). Research
// notes section 2 / 8, with W = one direction of one link and T_min =
// per-hop latency; every phase costs max(latency term, bandwidth term)
// (SB-shard: T_hop = max[T_min, bytes / W]):
//
//   one axis of n chips, gathering a total of U bytes:
//     ring (wraparound), bidirectional, each shard sent half each way:
//       bandwidth (n-1)/n * U / (2 W)       latency floor(n/2) * T_min
//     line (no wraparound):
//       bandwidth (n-1)/n * U / W           latency (n-1) * T_min
//   several axes, every one a ring (AllGather_XY on a torus): the data
//   splits into one part per axis and part j gathers the axes in the rotated
//   order j, j+1, ...; in round r every axis serves one part, so all links
//   work at once. For m equal axes this is exactly (N-1)/N * V / (m * 2W),
//   the notes' V / (W_bidi * n_axes).
//   several axes, some of them lines (a mesh without wraparound, N even):
//   C bidirectional rings embedded in the sub-grid (Hamiltonian cycles
//   through all N members), half of each shard going each way round:
//       bandwidth (N-1)/N * V / (C * 2W)    latency (N-1) steps of one hop
//   C is the number of edge-disjoint cycles the grid holds, at most half
//   the links of its corner chips: floor((2 rings + lines) / 2), at least 1
//   (2x2, 2x2x2 and every grid of lines: 1; a torus of m axes would hold m,
//   the multi-axis bandwidth). This is how XLA runs collectives on TPUs
//   (amb's bus-bandwidth convention counts rings per chip, notes 2) and what
//   amb's TPU7x curves show: a 2x2x2 reaches the 2x2x1's bus bandwidth, two
//   links per chip, not three (docs/topology.md 4.6).
//   reduce-scatter: the same schedule reversed, same time.
//   all-to-all, B bytes per device, dimension-order routing: the busiest
//   link of axis i carries L(n_i) chunks of B / n_i, with
//       L = n^2/8 (ring, n even), (n^2-1)/8 (ring, n odd),
//           floor(n/2) * ceil(n/2) (line);
//   axes work at once: bandwidth max_i L(n_i) B / (n_i W); latency
//   sum_i (hops across axis i). One ring axis gives the notes' V / (4 W_bidi)
//   and grids give amb's bisection bound 4 W link_multiplier (R-1) / R^2.
//
// A run of every s-th chip: each of its hops crosses s links (s x T_min),
// and the other groups of the collective interleaved on those links share
// their bandwidth (W / sharing).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COST_SUBGRIDCOLLECTIVES_H
#define XSPMD_RUNTIME_COST_SUBGRIDCOLLECTIVES_H

#include "runtime/cost/CollectiveTypes.h"
#include "runtime/topology/GroupGeometry.h"

#include <algorithm>

namespace xspmd::cost {

/// ICI figures a closed form needs.
struct IciLinkParams {
  /// One direction of one link, after efficiency.
  double linkBandwidth;
  double hopLatency;
  /// Synchronisation of each ring or line step, besides its hops (the
  /// generation's collectiveStepLatency; 0 in the closed forms).
  double stepLatency = 0;
  /// Latency adds to the bandwidth time (the calibrated alpha-beta model);
  /// false: a step costs the larger of the two (SB-shard's closed forms).
  bool additive = false;

  double combine(double latency, double bandwidth) const {
    return additive ? latency + bandwidth : std::max(latency, bandwidth);
  }
};

/// One axis of a sub-grid group as the closed forms see it.
struct GridAxis {
  topology::AxisSpan span;
  /// Groups of the same collective whose runs use the same links (1 unless
  /// the run is strided and other groups fill the chips in between).
  int64_t linkSharing = 1;
  /// The slowest link the run uses divides its bandwidth (injected faults).
  double slowdown = 1;
  /// The run was a ring whose failed link it now avoids, running as a line.
  bool rerouted = false;
};

/// All-gather of `gatheredBytes` in total (the notes' V) over one sub-grid
/// group with axes `axes`; also the cost of a reduce-scatter of a
/// `gatheredBytes` buffer. `operation` names the phase. No axes (one device)
/// costs nothing.
CollectivePhase subgridAllGather(llvm::ArrayRef<GridAxis> axes,
                                 double gatheredBytes,
                                 const IciLinkParams &params,
                                 llvm::StringRef operation);

/// All-to-all of `bytesPerDevice` per member over one sub-grid group.
CollectivePhase subgridAllToAll(llvm::ArrayRef<GridAxis> axes,
                                double bytesPerDevice,
                                const IciLinkParams &params);

/// "bidirectional ring over x (16 chips)", "line over y (4 chips)",
/// "multi-axis over x (ring of 16), y (ring of 4, every 2nd chip)",
/// "1 bidirectional ring embedded in x (line of 2), y (line of 2)".
std::string describeSubgridAlgorithm(llvm::ArrayRef<GridAxis> axes);

/// Rings embedded in a multi-axis sub-grid group (see above), or 0 when the
/// group runs the multi-axis schedule (one axis, every axis a ring, or an
/// odd member count: no Hamiltonian cycle).
int64_t embeddedRings(llvm::ArrayRef<GridAxis> axes);

} // namespace xspmd::cost

#endif // XSPMD_RUNTIME_COST_SUBGRIDCOLLECTIVES_H
