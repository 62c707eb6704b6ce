//===- XlaOps.h - ops of the xla dialect ------------------------*- C++ -*-===//

#ifndef XSPMD_DIALECTS_XLA_XLAOPS_H
#define XSPMD_DIALECTS_XLA_XLAOPS_H

#include "dialects/xla/XlaDialect.h"
#include "dialects/xla/XlaTraits.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/xla/XlaOpInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/xla/XlaOps.h.inc"

namespace xspmd::xla {

/// The mesh `name` as seen from `from` (through `symbols` when given).
MeshOp lookupMesh(mlir::Operation *from, mlir::FlatSymbolRefAttr name,
                  mlir::SymbolTableCollection *symbols = nullptr);

/// The `xla.sharding` of result `i` of `op`: the op's attribute when it is
/// one sharding, element `i` when it is an array (one per result), or null.
mlir::Attribute getResultShardingAttr(mlir::Operation *op, unsigned i);

/// The block of a `global` tensor one device holds under `sharding` over
/// `mesh` (uneven dimensions padded at the end, as the partitioner pads).
mlir::RankedTensorType localTypeOf(ShardingAttr sharding, MeshAttr mesh,
                                   mlir::RankedTensorType global);

/// The first mesh of the module enclosing `from` that is not maximal (else
/// the first maximal one), if any: all such meshes of a module span the same
/// devices, so it tells the device count.
MeshOp findFirstMesh(mlir::Operation *from);

using DeviceGroups = llvm::SmallVector<llvm::SmallVector<int64_t>>;

/// The participant groups of `op`, each in group order. `mesh` must be the
/// op's mesh when it names axes; `numDevices` is used when it names neither
/// axes nor groups (one group of every device).
DeviceGroups resolveParticipantGroups(CollectiveOpInterface op, MeshAttr mesh,
                                      int64_t numDevices);

/// Groups of a 2-d i64 elements attribute.
DeviceGroups groupsFromAttr(mlir::DenseIntElementsAttr groups);

/// A [numGroups x groupSize] i64 elements attribute holding `groups`.
mlir::DenseIntElementsAttr groupsToAttr(mlir::MLIRContext *ctx,
                                        const DeviceGroups &groups);

/// Whether `value` is representable in the integer type `elementType` (i1:
/// 0 or 1); false for other types.
bool fitsElementType(int64_t value, mlir::Type elementType);

/// The dispatch of an entry function lowered by --xla-lower-to-device: its
/// body is one xla.dispatch of its arguments whose results it returns.
/// Null for any other function.
DispatchOp getEntryDispatch(mlir::FunctionOpInterface func);

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLAOPS_H
