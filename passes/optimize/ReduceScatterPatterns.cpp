//===- ReduceScatterPatterns.cpp - all_reduce + all_slice -----------------===//
//
// An all_reduce whose every use is the same all_slice:
//
// - over the same participants: one reduce_scatter;
// - over a subset S of its mesh axes A: a reduce_scatter over S, then an
//   all_reduce over A \ S of the 1/|S| block;
// - over mesh axes disjoint from A: the slice first (free), then the
//   all_reduce of the smaller block.
//
//===----------------------------------------------------------------------===//

#include "passes/optimize/CollectiveUtils.h"
#include "passes/optimize/Rewrites.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::optimize {
namespace {

/// The users of `ar` when all of them are all_slices of one dim, result type
/// and participants; else empty.
SmallVector<AllSliceOp> alikeSliceUsers(AllReduceOp ar) {
  SmallVector<AllSliceOp> slices;
  for (Operation *user : ar->getUsers()) {
    auto slice = dyn_cast<AllSliceOp>(user);
    if (!slice)
      return {};
    if (!slices.empty()) {
      AllSliceOp first = slices.front();
      if (slice.getDim() != first.getDim() ||
          slice.getType() != first.getType() ||
          !Participants::of(slice).sameGroupsAs(Participants::of(first)))
        return {};
    }
    slices.push_back(slice);
  }
  return slices;
}

struct AllReduceThenSlice : OpRewritePattern<AllReduceOp> {
  AllReduceThenSlice(MLIRContext *ctx, RewriteConfig &config)
      : OpRewritePattern(ctx), config(config) {}

  LogicalResult matchAndRewrite(AllReduceOp ar,
                                PatternRewriter &rewriter) const override {
    SmallVector<AllSliceOp> slices = alikeSliceUsers(ar);
    if (slices.empty())
      return rewriter.notifyMatchFailure(ar, "not only sliced");
    AllSliceOp slice = slices.front();
    Participants reduce = Participants::of(ar);
    Participants keep = Participants::of(slice);
    rewriter.setInsertionPointAfter(ar);
    Location loc = ar.getLoc();
    Value input = ar.getInput();
    int64_t dim = slice.getDim();
    APFloat scale = ar.getScale();
    Value result;

    if (keep.sameGroupsAs(reduce)) {
      if (!config.enabled(Rewrite::ReduceScatter))
        return failure();
      keep.link = reduce.link;
      result = createReduceScatter(rewriter, loc, slice.getType(), ar.getKind(),
                                   input, dim, scale, keep);
      config.fired(Rewrite::ReduceScatter);
    } else if (reduce.isMeshAxes() && keep.isMeshAxes() &&
               reduce.mesh == keep.mesh) {
      MeshAttr mesh = meshOf(ar, reduce.mesh);
      SmallVector<StringRef> a = reduce.axisNames(), s = keep.axisNames();
      if (llvm::all_of(s, [&](StringRef x) { return contains(a, x); })) {
        if (!config.enabled(Rewrite::ReduceScatter))
          return failure();
        // Reduce-scatter over S, then finish the reduction over A \ S; the
        // scale applies once, on the last step.
        SmallVector<StringRef> rest = without(a, s);
        APFloat one(scale.getSemantics(), 1);
        Participants scatter = Participants::onAxes(
            getContext(), keep.mesh, s, linkForAxes(mesh, s, reduce.link));
        result = createReduceScatter(rewriter, loc, slice.getType(),
                                     ar.getKind(), input, dim,
                                     rest.empty() ? scale : one, scatter);
        if (!rest.empty())
          result = createAllReduce(
              rewriter, loc, ar.getKind(), result, scale,
              Participants::onAxes(getContext(), reduce.mesh, rest,
                                   linkForAxes(mesh, rest, reduce.link)));
        config.fired(Rewrite::ReduceScatter);
      } else if (disjoint(a, s)) {
        if (!config.enabled(Rewrite::SliceBeforeReduce))
          return failure();
        // Every member of a reduction group has the same coordinates along
        // S, so all of them keep the same block: slicing commutes with the
        // reduction.
        Value sliced =
            createAllSlice(rewriter, loc, slice.getType(), input, dim, keep);
        result =
            createAllReduce(rewriter, loc, ar.getKind(), sliced, scale, reduce);
        config.fired(Rewrite::SliceBeforeReduce);
      } else {
        return rewriter.notifyMatchFailure(ar, "slice axes overlap partly");
      }
    } else {
      return rewriter.notifyMatchFailure(ar, "unrelated participants");
    }
    for (AllSliceOp s : slices)
      rewriter.replaceOp(s, result);
    rewriter.eraseOp(ar);
    return success();
  }

  RewriteConfig &config;
};

} // namespace

void populateReduceScatterPatterns(RewritePatternSet &patterns,
                                   RewriteConfig &config) {
  if (config.enabled(Rewrite::ReduceScatter) ||
      config.enabled(Rewrite::SliceBeforeReduce))
    patterns.add<AllReduceThenSlice>(patterns.getContext(), config);
}

} // namespace xspmd::optimize
