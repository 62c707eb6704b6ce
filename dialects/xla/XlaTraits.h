//===- XlaTraits.h - op traits of the xla dialect ---------------*- C++ -*-===//
//
// ScalarBodies marks ops whose regions are scalar computations applied per
// element (HLO's to_apply, comparator and select/scatter computations: the
// body of a reduce with a computation, of a sort's comparator, ...). Such a
// region is a function of rank-0 tensors: propagation gives its values no
// sharding, the partitioner copies it unchanged into the local op, and the
// simulator compiles it into a scalar kernel. Ops with the trait should also
// be IsolatedFromAbove, as HLO computations are.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLATRAITS_H
#define XSPMD_DIALECTS_XLA_XLATRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace xspmd::xla {

/// Checks that every region of `op` is one block of rank-0 tensor arguments
/// ending in an xla.yield of rank-0 tensors.
mlir::LogicalResult verifyScalarBodies(mlir::Operation *op);

/// Whether `op` lies in a region of an op with scalar bodies (at any depth).
bool isInScalarBody(mlir::Operation *op);

/// Whether `op` lies in a region whose values are not global tensors, which
/// sharding propagation leaves alone: a scalar body (per element) or the
/// body of an xla.manual_computation (per device).
bool isInLocalRegion(mlir::Operation *op);

/// The op trait (in this namespace rather than an `OpTrait` one, which would
/// make `OpTrait::` ambiguous in files using both namespaces).
template <typename ConcreteType>
class ScalarBodies
    : public mlir::OpTrait::TraitBase<ConcreteType, ScalarBodies> {
public:
  static mlir::LogicalResult verifyRegionTrait(mlir::Operation *op) {
    return verifyScalarBodies(op);
  }
};

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLATRAITS_H
