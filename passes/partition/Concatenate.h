//===- Concatenate.h - concatenate along a split dimension ------*- C++ -*-===//
//
// Concatenating n operands along a dimension split into N blocks: the result
// block k covers result indices [kR, kR + R) (R = ceil(S/N), S the sum of
// the operand sizes), that is positions [kR - o_i, kR - o_i + R) of operand
// i (o_i the sizes before it), clipped to [0, s_i). Per operand, a device
// either receives the ends of that range it lacks from its neighbours along
// the dimension (a collective_permute per side, as a halo exchange) when
// the clipped range lies within its own block and the adjacent ones, or
// all-gathers the operand; whichever costs less (or as halo=... forces).
// It then takes its window of each operand from the extended block by a
// dynamic slice and selects, position by position, the operand the result
// index falls in. Only operand positions in [0, s_i) are ever selected, so
// padding at the end of uneven blocks needs no mask.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PARTITION_CONCATENATE_H
#define XSPMD_PASSES_PARTITION_CONCATENATE_H

#include "passes/partition/FactorAssignment.h"
#include "passes/partition/Halo.h"
#include "passes/partition/PartitionOptions.h"

#include "dialects/xla/XlaOps.h"

namespace xspmd::partition {

/// How each operand of a concatenate split along its dimension reaches the
/// devices that need it.
struct ConcatExchange {
  struct Source {
    /// All-gather the operand's dimension (else exchange halos).
    bool gather = false;
    HaloSizes halo;
    /// The halo would need rows beyond the neighbours' blocks.
    bool haloDoesNotFit = false;
  };
  llvm::SmallVector<Source> sources;
  /// The operands' reshards plus the halo exchanges, in the planner's units.
  double cost = 0;
};

/// Halo sizes operand `operand` of `op` needs when its dimension is in
/// `numShards` blocks of `block` and the result's in blocks of
/// `resultBlock`; nothing when some device needs rows beyond its
/// neighbours'.
std::optional<HaloSizes> concatHaloSizes(xla::ConcatenateOp op,
                                         unsigned operand, int64_t numShards,
                                         int64_t block, int64_t resultBlock);

/// `layout` with dimension `dim` (of global size `size`) whole: what a
/// gathered operand is resharded to.
ShardLayout gatheredAlong(const ShardLayout &layout, int64_t dim, int64_t size);

/// What operand `i` of a concatenate along a split dimension costs: its
/// halo exchange plus its reshard to `assignment` (if the halo fits in the
/// neighbours' blocks), and gathering it along the dimension instead.
struct ConcatSourcePrice {
  std::optional<HaloSizes> halo;
  double haloCost = 0, gatherCost = 0;
};
ConcatSourcePrice priceConcatSource(
    xla::ConcatenateOp op, const FactorAssignment &assignment, unsigned i,
    const MeshModel &mesh, const ReshardCostModel &costs,
    llvm::function_ref<double(unsigned, const ShardLayout &)> reshardCost);

/// Chooses, for each operand of `op` whose dimension `assignment` splits, a
/// halo exchange or a gather, whichever costs less (or as `mode` forces).
/// `reshardCost(i, layout)` is what resharding operand i to `layout` costs.
ConcatExchange planConcatExchange(
    xla::ConcatenateOp op, const FactorAssignment &assignment,
    const MeshModel &mesh, const ReshardCostModel &costs, HaloMode mode,
    llvm::function_ref<double(unsigned, const ShardLayout &)> reshardCost);

/// The local result block of `op`. `operands` are the local operands: laid
/// out as `assignment` says, or gatheredAlong its dimension where `exchange`
/// gathers.
mlir::Value buildLocalConcat(LocalBuilder &local, xla::ConcatenateOp op,
                             llvm::ArrayRef<mlir::Value> operands,
                             const FactorAssignment &assignment,
                             const ConcatExchange &exchange,
                             const MeshModel &mesh);

} // namespace xspmd::partition

#endif // XSPMD_PASSES_PARTITION_CONCATENATE_H
