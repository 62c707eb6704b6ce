//===- RedundantPatterns.cpp - reshards that undo each other --------------===//
//
// - all_slice of an all_gather over the same participants and dim: the
//   gather's input; over a prefix of its axes: a smaller gather; on another
//   dim: an all_to_all;
// - all_gather over a suffix S of the axes of an all_slice, of a value
//   replicated over S: the slice is undone;
// - collective_permute sending every position to itself: its input;
// - collectives over groups of one device: their input;
// - collectives whose result is unused: erased.
//
//===----------------------------------------------------------------------===//

#include "passes/optimize/CollectiveUtils.h"
#include "passes/optimize/Rewrites.h"
#include "passes/optimize/Uniformity.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {
namespace {

struct SliceOfGather : OpRewritePattern<AllSliceOp> {
  SliceOfGather(MLIRContext *ctx, RewriteConfig &config)
      : OpRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(AllSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto gather = slice.getInput().getDefiningOp<AllGatherOp>();
    if (!gather)
      return failure();
    Participants gathered = Participants::of(gather),
                 kept = Participants::of(slice);
    Value input = gather.getInput();
    Value result;
    if (gather.getDim() == slice.getDim()) {
      if (!config.enabled(Rewrite::GatherSlice))
        return failure();
      if (kept.sameGroupsAs(gathered)) {
        // The member at position i keeps block i of the concatenation in
        // group order: its own input.
        result = input;
      } else if (gathered.isMeshAxes() && kept.isMeshAxes() &&
                 gathered.mesh == kept.mesh &&
                 isPrefix(kept.axisNames(), gathered.axisNames()) &&
                 gather->hasOneUse()) {
        // A gather over P ++ R is a gather over R followed by one over P;
        // the slice over P undoes the latter.
        SmallVector<StringRef> rest(ArrayRef<StringRef>(gathered.axisNames())
                                        .drop_front(kept.axes.size()));
        Participants smaller = Participants::onAxes(
            getContext(), gathered.mesh, rest,
            linkForAxes(meshOf(gather, gathered.mesh), rest, gathered.link));
        result = createAllGather(rewriter, slice.getLoc(), slice.getType(),
                                 input, gather.getDim(), smaller);
      } else {
        return failure();
      }
      config.fired(Rewrite::GatherSlice);
    } else {
      if (!config.enabled(Rewrite::GatherSliceToAllToAll) ||
          !kept.sameGroupsAs(gathered) || !gather->hasOneUse())
        return failure();
      std::optional<int64_t> size = groupSize(gather);
      if (!size)
        return failure();
      // Member j keeps block j along the slice dim of the concatenation
      // along the gather dim: the concatenation of every member's block j,
      // which is what all_to_all delivers.
      result = AllToAllOp::create(rewriter, slice.getLoc(), slice.getType(),
                                  input, slice.getDim(), gather.getDim(), *size,
                                  gathered.mesh, gathered.axes, gathered.groups,
                                  gathered.link);
      config.fired(Rewrite::GatherSliceToAllToAll);
    }
    rewriter.replaceOp(slice, result);
    if (gather->use_empty())
      rewriter.eraseOp(gather);
    return success();
  }

  RewriteConfig &config;
};

struct GatherOfSlice : OpRewritePattern<AllGatherOp> {
  GatherOfSlice(MLIRContext *ctx, RewriteConfig &config)
      : OpRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(AllGatherOp gather,
                                PatternRewriter &rewriter) const override {
    auto slice = gather.getInput().getDefiningOp<AllSliceOp>();
    if (!slice || slice.getDim() != gather.getDim())
      return failure();
    Participants kept = Participants::of(slice),
                 gathered = Participants::of(gather);
    if (!kept.isMeshAxes() || !gathered.isMeshAxes() ||
        kept.mesh != gathered.mesh)
      return failure();
    SmallVector<StringRef> sliceAxes = kept.axisNames(),
                           gatherAxes = gathered.axisNames();
    if (!isSuffix(gatherAxes, sliceAxes) ||
        !isUniformOver(slice.getInput(), kept.mesh, gatherAxes))
      return failure();
    // A slice over P ++ S is a slice over P then one over S; members of an
    // S-group hold the same P-block (the value is replicated over S), so
    // gathering their S-blocks rebuilds it.
    Value result = slice.getInput();
    if (gatherAxes.size() != sliceAxes.size()) {
      SmallVector<StringRef> rest(
          ArrayRef<StringRef>(sliceAxes).drop_back(gatherAxes.size()));
      Participants smaller = Participants::onAxes(
          getContext(), kept.mesh, rest,
          linkForAxes(meshOf(slice, kept.mesh), rest, kept.link));
      result = createAllSlice(rewriter, gather.getLoc(), gather.getType(),
                              result, slice.getDim(), smaller);
    }
    rewriter.replaceOp(gather, result);
    config.fired(Rewrite::SliceGather);
    return success();
  }

  RewriteConfig &config;
};

struct IdentityPermute : OpRewritePattern<CollectivePermuteOp> {
  IdentityPermute(MLIRContext *ctx, RewriteConfig &config)
      : OpRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(CollectivePermuteOp permute,
                                PatternRewriter &rewriter) const override {
    // Positions in a group, or device ids when the op names neither axes
    // nor groups; either way every one of them must be its own source, or
    // some device would receive zeros.
    std::optional<int64_t> size = groupSize(permute);
    auto pairs = llvm::to_vector(permute.getPairs().getValues<int64_t>());
    if (!size || static_cast<int64_t>(pairs.size()) != 2 * *size)
      return failure();
    for (size_t i = 0; i < pairs.size(); i += 2)
      if (pairs[i] != pairs[i + 1])
        return failure();
    rewriter.replaceOp(permute, permute.getInput());
    config.fired(Rewrite::IdentityPermute);
    return success();
  }

  RewriteConfig &config;
};

/// Any collective over groups of one device returns its input (a reduction
/// of one value, a gather or slice of one block), provided it has no scale
/// and, for a permute, that the device sends to itself.
struct TrivialGroup : OpInterfaceRewritePattern<CollectiveOpInterface> {
  TrivialGroup(MLIRContext *ctx, RewriteConfig &config)
      : OpInterfaceRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(CollectiveOpInterface op,
                                PatternRewriter &rewriter) const override {
    Operation *o = op.getOperation();
    std::optional<int64_t> size = groupSize(o);
    if (!size || *size != 1 ||
        o->getOperand(0).getType() != o->getResult(0).getType())
      return failure();
    if (auto ar = dyn_cast<AllReduceOp>(o);
        ar && !ar.getScale().isExactlyValue(1.0))
      return failure();
    if (auto rs = dyn_cast<ReduceScatterOp>(o);
        rs && !rs.getScale().isExactlyValue(1.0))
      return failure();
    if (auto cp = dyn_cast<CollectivePermuteOp>(o);
        cp && cp.getPairs().getNumElements() == 0)
      return failure(); // the device receives zeros
    rewriter.replaceOp(o, o->getOperand(0));
    config.fired(Rewrite::TrivialGroup);
    return success();
  }

  RewriteConfig &config;
};

struct DeadCollective : OpInterfaceRewritePattern<CollectiveOpInterface> {
  DeadCollective(MLIRContext *ctx, RewriteConfig &config)
      : OpInterfaceRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(CollectiveOpInterface op,
                                PatternRewriter &rewriter) const override {
    // Collectives declare no memory effects, so the driver keeps them even
    // when unused; every device runs the same program, so dropping one
    // everywhere leaves no peer waiting.
    if (!op->use_empty())
      return failure();
    rewriter.eraseOp(op);
    config.fired(Rewrite::DeadCollective);
    return success();
  }

  RewriteConfig &config;
};

} // namespace

void populateRedundantPatterns(RewritePatternSet &patterns,
                               RewriteConfig &config) {
  MLIRContext *ctx = patterns.getContext();
  if (config.enabled(Rewrite::GatherSlice) ||
      config.enabled(Rewrite::GatherSliceToAllToAll))
    patterns.add<SliceOfGather>(ctx, config);
  if (config.enabled(Rewrite::SliceGather))
    patterns.add<GatherOfSlice>(ctx, config);
  if (config.enabled(Rewrite::IdentityPermute))
    patterns.add<IdentityPermute>(ctx, config);
  if (config.enabled(Rewrite::TrivialGroup))
    patterns.add<TrivialGroup>(ctx, config);
  if (config.enabled(Rewrite::DeadCollective))
    patterns.add<DeadCollective>(ctx, config);
}

} // namespace xspmd::optimize
