//===- HloMeshInference.h - meshes inferred from shardings ------*- C++ -*-===//
//
// HLO has no meshes: each sharding lists its own tile assignment. The
// importer needs `xla.mesh` symbols over which every sharding is a
// partition spec. Given the module's shardings, this finds one mesh (a
// sharding's own tile shape, or that shape split into prime factors, or
// the iota mesh of prime factors) that expresses all of them, and falls
// back to one mesh per distinct tile layout when none does. Axes are named
// "a", "b", ... in mesh order (HLO keeps no axis names). docs/hlo.md.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOMESHINFERENCE_H
#define XSPMD_LIB_HLO_HLOMESHINFERENCE_H

#include "dialects/xla/XlaDialect.h"
#include "passes/interop/HloSharding.h"

#include "mlir/IR/Location.h"

#include <optional>
#include <string>
#include <vector>

namespace xspmd::hlo {

class MeshInference {
public:
  explicit MeshInference(mlir::MLIRContext *ctx) : ctx(ctx) {}

  /// Records the sharding of one array (not a tuple) seen at `loc`.
  mlir::LogicalResult add(llvm::StringRef text, mlir::Location loc);

  /// Chooses the meshes. `declaredDevices` is the module header's device
  /// count (num_partitions or replica_count), if any.
  mlir::LogicalResult finalize(std::optional<int64_t> declaredDevices,
                               mlir::Location moduleLoc);

  int64_t getNumDevices() const { return numDevices; }

  struct NamedMesh {
    std::string name;
    xla::MeshAttr mesh;
  };
  const std::vector<NamedMesh> &getMeshes() const { return meshes; }

  /// The sharding for `text` on a value of `rank` (after finalize). A
  /// maximal sharding `{maximal device=k}` on a multi-device module is on
  /// the maximal mesh @maximal_k (`<[], devices=[k]>`); on one device it is
  /// replicated.
  mlir::FailureOr<xla::ShardingAttr> import(llvm::StringRef text, int64_t rank,
                                            mlir::Location loc);

  /// The default mesh (the first one); null when the module has none.
  mlir::FlatSymbolRefAttr getDefaultMeshRef() const;

private:
  mlir::MLIRContext *ctx;
  struct Seen {
    std::string text;
    interop::HloSharding parsed;
    mlir::Location loc;
  };
  std::vector<Seen> seen;
  std::vector<NamedMesh> meshes;
  int64_t numDevices = 1;
};

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOMESHINFERENCE_H
