//===- Mesh.h - torch_xla's Mesh and HybridMesh -----------------*- C++ -*-===//
//
// The lazy frontend's device meshes, with torch_xla's semantics
// (torch_xla.distributed.spmd.Mesh / HybridMesh): a logical array of device
// ids with named (or unnamed) axes, and partition specs over it. A mesh
// becomes an `xla.mesh` symbol of the graphs that use it.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_LAZY_MESH_H
#define XSPMD_LIB_LAZY_MESH_H

#include "dialects/xla/XlaDialect.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace xspmd::lazy {

/// One entry of a partition spec: the mesh axes a tensor dimension is split
/// over, major to minor (empty: the dimension is replicated, torch_xla's
/// None; two or more: torch_xla's tuple of axes).
using PartitionSpecEntry = llvm::SmallVector<std::string, 1>;
using PartitionSpec = std::vector<PartitionSpecEntry>;

class Mesh {
public:
  /// torch_xla `Mesh(device_ids, mesh_shape, axis_names)`: `deviceIds` laid
  /// out row-major over `shape`; it must be a permutation of 0..N-1.
  /// Without names the axes are unnamed and specs refer to them by index
  /// (they are called "axis0", "axis1", ... in the IR).
  static llvm::Expected<Mesh> create(llvm::ArrayRef<int64_t> deviceIds,
                                     llvm::ArrayRef<int64_t> shape,
                                     llvm::ArrayRef<std::string> axisNames);

  /// torch_xla `HybridMesh(ici_mesh_shape, dcn_mesh_shape, axis_names)`:
  /// one ICI mesh per slice, slices laid out by the DCN shape (the DCN index
  /// is the major part of each axis), as docs/dialect.md describes.
  static llvm::Expected<Mesh> hybrid(llvm::ArrayRef<int64_t> iciShape,
                                     llvm::ArrayRef<int64_t> dcnShape,
                                     llvm::ArrayRef<std::string> axisNames);

  /// torch_xla `get_1d_mesh(axis_name)`: all `numDevices` devices on one
  /// axis.
  static llvm::Expected<Mesh> get1d(int64_t numDevices,
                                    llvm::StringRef axisName);

  int64_t size() const;
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  llvm::ArrayRef<std::string> getAxisNames() const { return axisNames; }
  /// Whether the user named the axes.
  bool hasNamedAxes() const { return named; }
  bool isHybrid() const { return !dcnShape.empty(); }
  llvm::ArrayRef<int64_t> getIciShape() const { return iciShape; }
  llvm::ArrayRef<int64_t> getDcnShape() const { return dcnShape; }
  /// The device array, row-major over the shape (torch_xla
  /// `get_logical_mesh().flatten()`).
  llvm::SmallVector<int64_t> getDeviceIds() const;

  /// The axis an index or a name refers to ("0" is index 0 when the axes
  /// are unnamed). Fails naming the axis and listing the mesh's axes.
  llvm::Expected<std::string> resolveAxis(llvm::StringRef axis) const;
  llvm::Expected<std::string> resolveAxis(int64_t index) const;

  /// The mesh as the dialect's attribute.
  xla::MeshAttr toAttr(mlir::MLIRContext *context) const;

  /// "Mesh(shape=(2, 4), axis_names=('data', 'model'))".
  std::string describe() const;

  bool operator==(const Mesh &other) const;

private:
  Mesh() = default;

  llvm::SmallVector<int64_t> shape, deviceIds, iciShape, dcnShape;
  std::vector<std::string> axisNames;
  bool named = true;
};

} // namespace xspmd::lazy

#endif // XSPMD_LIB_LAZY_MESH_H
