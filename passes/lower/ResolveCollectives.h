//===- ResolveCollectives.h - collectives on concrete devices ---*- C++ -*-===//
//
// The second step of --xla-lower-to-device: every collective names its
// participants by device id, and each device learns which link class it
// uses in it.
//
//  * all_reduce, all_gather, reduce_scatter and all_to_all get explicit
//    `groups` (the groups their mesh axes define, or one group of every
//    device); a device uses the link class of its group;
//  * collective_permute gets `pairs` of absolute device ids and no
//    participants; a device uses the link class of itself with the devices
//    it sends to and receives from (ici when it has no peer).
//
// Link classes come from the target's slices (DeviceTarget::classify).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_LOWER_RESOLVECOLLECTIVES_H
#define XSPMD_PASSES_LOWER_RESOLVECOLLECTIVES_H

#include "passes/lower/DeviceTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <vector>

namespace xspmd::lower {

struct ResolvedCollective {
  mlir::Operation *op = nullptr;
  /// links[d]: the link class device d uses in the collective.
  std::vector<xla::LinkClass> links;
};

/// Resolves the participants of every collective of `func` in place (the
/// `link` attributes are removed: bodies set them) and returns them in walk
/// order. Emits a located error and fails when the participants do not
/// partition the target's devices.
mlir::FailureOr<std::vector<ResolvedCollective>>
resolveCollectives(mlir::func::FuncOp func, const DeviceTarget &target,
                   mlir::SymbolTableCollection &symbols);

/// Sets (or, with a null `link`, removes) the `link` of a collective.
void setCollectiveLink(mlir::Operation *op, xla::LinkClassAttr link);

} // namespace xspmd::lower

#endif // XSPMD_PASSES_LOWER_RESOLVECOLLECTIVES_H
