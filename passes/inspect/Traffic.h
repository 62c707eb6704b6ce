//===- Traffic.h - bytes a collective sends, per source op ------*- C++ -*-===//
//
// One formula for what a collective sends (ring algorithms, as the simulator
// models them), shared by --xla-report-collectives and the partitioner's
// per-op byte report, and one way to name the op bytes are charged to,
// shared with --xla-explain-sharding's planned bytes, so that the two
// reports can be compared line by line (test/partition/explain-bytes).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_INSPECT_TRAFFIC_H
#define XSPMD_PASSES_INSPECT_TRAFFIC_H

#include "dialects/xla/XlaOps.h"

#include <string>

namespace xspmd::inspect {

struct CollectiveTraffic {
  /// Participant groups and devices per group.
  int64_t numGroups = 0, groupSize = 1;
  xla::LinkClass link = xla::LinkClass::ici;
  /// Local bytes of the collective's input block.
  int64_t inBytes = 0;
  /// Bytes each device sends: all-gather (g-1)B, reduce-scatter and
  /// all-to-all (g-1)/g B, all-reduce 2(g-1)/g B, collective-permute B
  /// (unless every pair is a self-pair), all-slice 0.
  int64_t sentBytes = 0;
};

/// What `op` sends per device on `mesh` (null: one device).
CollectiveTraffic collectiveTraffic(xla::CollectiveOpInterface op,
                                    xla::MeshAttr mesh);

/// `name at file:line:col` (the name alone without a file location): the
/// key under which both reports list an op's bytes.
std::string describeOp(mlir::Operation *op);

} // namespace xspmd::inspect

#endif // XSPMD_PASSES_INSPECT_TRAFFIC_H
