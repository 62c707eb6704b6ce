//===- XlaDialect.h - the xla dialect ---------------------------*- C++ -*-===//
//
// Include this header for the dialect, its enums and its attributes; include
// dialects/xla/XlaOps.h for the ops.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLADIALECT_H
#define XSPMD_DIALECTS_XLA_XLADIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseMap.h"

#include <mutex>
#include <optional>

#include "dialects/xla/XlaEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/xla/XlaAttrs.h.inc"

#include "dialects/xla/XlaDialect.h.inc"

namespace xspmd::xla {

/// The link class of traffic that uses links of all of `links`: ici or dcn
/// when they all are, mixed otherwise (ici for none).
LinkClass combineLinkClasses(llvm::ArrayRef<LinkClass> links);

/// The link class of traffic among `devices` when slices hold `sliceSize`
/// consecutive device ids (0: one slice): ici when all lie in one slice,
/// dcn when each lies in a slice of its own, mixed otherwise.
LinkClass linkClassOfDevices(llvm::ArrayRef<int64_t> devices,
                             int64_t sliceSize);

/// Names of the discardable attributes the dialect owns.
inline constexpr llvm::StringLiteral kShardingAttrName = "xla.sharding";
inline constexpr llvm::StringLiteral kDonateAttrName = "xla.donate";
inline constexpr llvm::StringLiteral kAliasesAttrName = "xla.aliases";
/// On a function the partitioner rewrote into an SPMD program on local
/// shapes (unit).
inline constexpr llvm::StringLiteral kPartitionedAttrName = "xla.partitioned";
/// On arguments and results of a partitioned function: the global type the
/// local one is a block of (padding makes it ambiguous otherwise).
inline constexpr llvm::StringLiteral kGlobalTypeAttrName = "xla.global_type";
/// On the per-device bodies of a program lowered by --xla-lower-to-device:
/// the ids of the devices that run the body (a strictly increasing
/// `array<i64: ...>`).
inline constexpr llvm::StringLiteral kDevicesAttrName = "xla.devices";

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLADIALECT_H
