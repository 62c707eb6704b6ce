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
// When the operand's blocks line up with the result's (B_i divides R and
// o_i), each operand block lands whole in one of R/B_i slots of one result
// block, even on a device further away than a neighbour: a
// collective_permute per slot moves the blocks there, and slots of
// different operands with distinct sources and distinct targets share one
// (each device sends the block of the operand it is a source for). Two
// equal 32x32 f32 halves over 4 devices: 2 permutes, 2,048 B per device,
// where gathering both sends 6,144 B.
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

/// Per slot of a result block (R / B of them for operand blocks of B), the
/// (source, target) shard pairs moving an operand block whole into that
/// slot of its result block.
using BlockMoves =
    llvm::SmallVector<llvm::SmallVector<std::pair<int64_t, int64_t>>>;

/// How each operand of a concatenate split along its dimension reaches the
/// devices that need it.
struct ConcatExchange {
  struct Source {
    enum class Kind {
      /// Exchange halos with the neighbours.
      halo,
      /// Move whole blocks to their result block (`moves`).
      blocks,
      /// All-gather the operand's dimension.
      gather,
    } kind = Kind::halo;
    HaloSizes halo;
    BlockMoves moves;
    /// The halo would need rows beyond the neighbours' blocks.
    bool haloDoesNotFit = false;
  };
  llvm::SmallVector<Source> sources;
  /// One collective_permute moving the blocks of several (operand, slot)
  /// parts at once: their sources are distinct devices and so are their
  /// targets, so each device sends the block of the part it is a source of
  /// and keeps what it receives as the slot of the part it is a target of
  /// (in the others' slots those positions lie outside their operand).
  struct BlockPermute {
    llvm::SmallVector<std::pair<unsigned, unsigned>> parts;
    llvm::SmallVector<std::pair<int64_t, int64_t>> pairs;
  };
  /// The block moves of the operands moved as blocks, merged (slots whose
  /// blocks all stay where they are need none).
  llvm::SmallVector<BlockPermute> permutes;
  /// The operands' reshards plus their exchanges, in the planner's units.
  double cost = 0;
};

/// The block moves of operand `operand` of `op` when its dimension is in
/// `numShards` blocks of `block` and the result's in blocks of
/// `resultBlock`; nothing unless every operand block falls whole in one
/// result block (`block` divides `resultBlock` and the operand's offset).
std::optional<BlockMoves> concatBlockMoves(xla::ConcatenateOp op,
                                           unsigned operand, int64_t numShards,
                                           int64_t block, int64_t resultBlock);

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
/// neighbours' blocks), its block moves plus that reshard (if its blocks
/// line up with the result's), and gathering it along the dimension
/// instead.
struct ConcatSourcePrice {
  std::optional<HaloSizes> halo;
  std::optional<BlockMoves> moves;
  double haloCost = 0, blocksCost = 0, gatherCost = 0;
  /// The reshard to the assignment's layout (part of the halo and blocks
  /// costs).
  double reshardCost = 0;
  /// The price of carrying the operand out as `kind`.
  double of(ConcatExchange::Source::Kind kind) const;
};
ConcatSourcePrice priceConcatSource(
    xla::ConcatenateOp op, const FactorAssignment &assignment, unsigned i,
    const MeshModel &mesh, const ReshardCostModel &costs,
    llvm::function_ref<double(unsigned, const ShardLayout &)> reshardCost);

/// What `exchange` costs: each operand's reshard and halo exchange or
/// gather, and one collective per merged block permute.
double priceConcatExchange(
    xla::ConcatenateOp op, const FactorAssignment &assignment,
    const ConcatExchange &exchange, const MeshModel &mesh,
    const ReshardCostModel &costs,
    llvm::function_ref<double(unsigned, const ShardLayout &)> reshardCost);

/// Chooses, for each operand of `op` whose dimension `assignment` splits, a
/// halo exchange, block moves or a gather, whichever costs least (or as
/// `mode` forces: `always` a halo whenever it fits, `never` a gather).
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
