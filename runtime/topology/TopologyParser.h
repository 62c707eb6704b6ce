//===- TopologyParser.h - --topology strings --------------------*- C++ -*-===//
//
// Two spellings of one slice (research notes 3.3):
//   <generation>:<shape>     v5p:4x4x4, v4:2x2x1, v5e:16x16, v6e:2x4
//   <accelerator type>       v4-8, v5p-128 (v4/v5p count TensorCores, two per
//                            chip), v5litepod-16, v6e-8 (one TensorCore per
//                            chip); the standard shape for that chip count
// plus a slice count (`--slices=N`) joined by DCN.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TOPOLOGY_TOPOLOGYPARSER_H
#define XSPMD_RUNTIME_TOPOLOGY_TOPOLOGYPARSER_H

#include "runtime/topology/Topology.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace xspmd::topology {

/// A parsed `--topology` value: a generation and one slice's shape.
struct SliceRequest {
  Generation generation;
  llvm::SmallVector<int64_t, 3> sliceShape;
};

/// Parses either spelling; errors name the offending text and say what is
/// expected.
llvm::Expected<SliceRequest> parseSliceRequest(llvm::StringRef text);

/// `--topology=<text> --slices=<numSlices>`: parses and builds the topology.
llvm::Expected<Topology> parseTopology(llvm::StringRef text,
                                       int64_t numSlices = 1);

} // namespace xspmd::topology

#endif // XSPMD_RUNTIME_TOPOLOGY_TOPOLOGYPARSER_H
