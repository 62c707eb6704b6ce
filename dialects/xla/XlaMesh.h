//===- XlaMesh.h - device-array math of meshes ------------------*- C++ -*-===//
//
// Device layout of meshes (plain, explicit order, hybrid ICI x DCN) and the
// groups of devices that mesh axes define. Shared by the verifiers, the
// passes and the simulator.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLAMESH_H
#define XSPMD_DIALECTS_XLA_XLAMESH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace xspmd::xla {

/// Row-major device array of a hybrid mesh (torch_xla HybridMesh / JAX
/// create_hybrid_device_mesh with slices of consecutive device ids, each laid
/// out row-major by the ICI shape): axis i has size ici[i]*dcn[i] and the
/// slice (DCN) index is the major part of each axis coordinate.
llvm::SmallVector<int64_t> hybridDeviceArray(llvm::ArrayRef<int64_t> ici,
                                             llvm::ArrayRef<int64_t> dcn);

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// The groups that the mesh axes `axes` (indices into `shape`) define over a
/// row-major `deviceArray`: devices whose coordinates differ only along
/// `axes` share a group; within a group devices are ordered by their
/// coordinates along `axes`, the first listed axis being the most major.
/// Groups are ordered by their first member's position in the array.
llvm::SmallVector<llvm::SmallVector<int64_t>>
meshAxisGroups(llvm::ArrayRef<int64_t> shape,
               llvm::ArrayRef<int64_t> deviceArray,
               llvm::ArrayRef<int64_t> axes);

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLAMESH_H
