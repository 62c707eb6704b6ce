//===- CombinePatterns.cpp - chains of collectives into one ---------------===//
//
// - all_gather over L2 of an all_gather over L1 (same dim) = one all_gather
//   over L2 ++ L1 (the later gather's axes are the major ones);
// - all_slice over L2 of an all_slice over L1 (same dim) = one all_slice
//   over L1 ++ L2;
// - all_reduce over B of an all_reduce over A (same kind, disjoint axes) =
//   one all_reduce over A ++ B.
//
//===----------------------------------------------------------------------===//

#include "passes/optimize/CollectiveUtils.h"
#include "passes/optimize/Rewrites.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {
namespace {

/// Both over mesh axes of the same mesh, and the axes disjoint.
bool disjointMeshAxes(const Participants &a, const Participants &b) {
  return a.isMeshAxes() && b.isMeshAxes() && a.mesh == b.mesh &&
         disjoint(a.axisNames(), b.axisNames());
}

Participants concatenated(Operation *op, const Participants &first,
                          const Participants &second) {
  SmallVector<StringRef> axes = first.axisNames();
  llvm::append_range(axes, second.axisNames());
  LinkClassAttr link = linkForAxes(meshOf(op, first.mesh), axes,
                                   mergeLinks(first.link, second.link));
  return Participants::onAxes(op->getContext(), first.mesh, axes, link);
}

struct GatherOfGather : OpRewritePattern<AllGatherOp> {
  GatherOfGather(MLIRContext *ctx, RewriteConfig &config)
      : OpRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(AllGatherOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getInput().getDefiningOp<AllGatherOp>();
    // With other uses the inner gather stays, and the combined one would
    // move its bytes again.
    if (!inner || !inner->hasOneUse() || inner.getDim() != outer.getDim())
      return failure();
    Participants first = Participants::of(inner),
                 second = Participants::of(outer);
    if (!disjointMeshAxes(first, second))
      return failure();
    // After the inner gather, a device holds the blocks of its L1 group in
    // L1 order; the outer gather concatenates those runs in L2 order, so
    // block (l2, l1) lands at l2 * |L1| + l1: L2 is the major part.
    Value combined = createAllGather(rewriter, outer.getLoc(), outer.getType(),
                                     inner.getInput(), outer.getDim(),
                                     concatenated(outer, second, first));
    rewriter.replaceOp(outer, combined);
    rewriter.eraseOp(inner);
    config.fired(Rewrite::GatherGather);
    return success();
  }

  RewriteConfig &config;
};

struct SliceOfSlice : OpRewritePattern<AllSliceOp> {
  SliceOfSlice(MLIRContext *ctx, RewriteConfig &config)
      : OpRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(AllSliceOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getInput().getDefiningOp<AllSliceOp>();
    if (!inner || inner.getDim() != outer.getDim())
      return failure();
    Participants first = Participants::of(inner),
                 second = Participants::of(outer);
    if (!disjointMeshAxes(first, second))
      return failure();
    // Block l1 of |L1|, then block l2 of |L2| inside it: block
    // l1 * |L2| + l2 of |L1|*|L2|, i.e. L1 is the major part. The inner
    // slice is pure and goes away with its last use.
    Value combined = createAllSlice(rewriter, outer.getLoc(), outer.getType(),
                                    inner.getInput(), outer.getDim(),
                                    concatenated(outer, first, second));
    rewriter.replaceOp(outer, combined);
    config.fired(Rewrite::SliceSlice);
    return success();
  }

  RewriteConfig &config;
};

struct ReduceOfReduce : OpRewritePattern<AllReduceOp> {
  ReduceOfReduce(MLIRContext *ctx, RewriteConfig &config)
      : OpRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(AllReduceOp outer,
                                PatternRewriter &rewriter) const override {
    auto inner = outer.getInput().getDefiningOp<AllReduceOp>();
    if (!inner || !inner->hasOneUse() || inner.getKind() != outer.getKind())
      return failure();
    Participants first = Participants::of(inner),
                 second = Participants::of(outer);
    if (!disjointMeshAxes(first, second))
      return failure();
    // The groups over A ++ B are the unions of one B-group of A-groups.
    // The inner scale factors out of a sum; for the other kinds it must be
    // 1 (max(s*x) = s*max(x) only for s >= 0; prod(s*x) = s^n*prod(x)).
    APFloat scale = outer.getScale();
    APFloat innerScale = inner.getScale();
    if (outer.getKind() == ReductionKind::sum)
      scale.multiply(innerScale, APFloat::rmNearestTiesToEven);
    else if (!innerScale.isExactlyValue(1.0))
      return failure();
    Value combined = createAllReduce(rewriter, outer.getLoc(), outer.getKind(),
                                     inner.getInput(), scale,
                                     concatenated(outer, first, second));
    rewriter.replaceOp(outer, combined);
    rewriter.eraseOp(inner);
    config.fired(Rewrite::ReduceReduce);
    return success();
  }

  RewriteConfig &config;
};

} // namespace

void populateCombinePatterns(RewritePatternSet &patterns,
                             RewriteConfig &config) {
  MLIRContext *ctx = patterns.getContext();
  if (config.enabled(Rewrite::GatherGather))
    patterns.add<GatherOfGather>(ctx, config);
  if (config.enabled(Rewrite::SliceSlice))
    patterns.add<SliceOfSlice>(ctx, config);
  if (config.enabled(Rewrite::ReduceReduce))
    patterns.add<ReduceOfReduce>(ctx, config);
}

} // namespace xspmd::optimize
