//===- Uniformity.h - which mesh axes a value is replicated over -*- C++
//-*-===//
//
// A small, conservative dataflow query used by the rewrites that drop an
// all_slice + all_gather pair: is a value the same on every device of each
// group of some mesh axes?
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_OPTIMIZE_UNIFORMITY_H
#define XSPMD_PASSES_OPTIMIZE_UNIFORMITY_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Value.h"

namespace xspmd::optimize {

/// True when `value` is known to hold the same data on any two devices whose
/// coordinates on mesh `mesh` differ only along `axes` (it is replicated over
/// those axes). Known means derived from: sources without operands
/// (constants, iota), `axis_index` of another axis, pure ops of uniform
/// operands, collectives over mesh axes of `mesh` (all_reduce and all_gather
/// make their axes uniform; all_slice, reduce_scatter, all_to_all and
/// collective_permute keep the uniformity over the other axes), and
/// arguments of a function whose `xla.sharding` on `mesh` neither splits a
/// dimension over the axes nor is partial over them (in a function marked
/// `xla.partitioned`, an argument without a sharding is replicated). Anything
/// else is not uniform.
bool isUniformOver(mlir::Value value, mlir::FlatSymbolRefAttr mesh,
                   llvm::ArrayRef<llvm::StringRef> axes);

} // namespace xspmd::optimize

#endif // XSPMD_PASSES_OPTIMIZE_UNIFORMITY_H
