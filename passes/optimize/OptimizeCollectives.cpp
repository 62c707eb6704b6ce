//===- OptimizeCollectives.cpp - --xla-optimize-collectives ---------------===//
//
// Runs the rewrites of passes/optimize/ in four phases:
//
// 1. duplicate collectives, then the greedy patterns (all_reduce + all_slice,
//    chains, redundant reshards, trivial and dead collectives), then
//    duplicates again (the patterns can make collectives identical);
// 2. the all-reduce combiner, once chains are merged and slices moved;
// 3. the hierarchical decomposition, last, so that combined all_reduces are
//    decomposed too and no pattern reassembles the stages.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/optimize/Rewrites.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/raw_ostream.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAOPTIMIZECOLLECTIVESPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::optimize;

namespace {

struct OptimizeCollectivesPass
    : xspmd::impl::XlaOptimizeCollectivesPassBase<OptimizeCollectivesPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    config = RewriteConfig();
    for (const std::string &name : disabled) {
      std::optional<Rewrite> rewrite = parseRewrite(name);
      if (!rewrite) {
        std::string known;
        for (size_t i = 0; i < kNumRewrites; ++i)
          known += (i ? ", " : "") + rewriteName(static_cast<Rewrite>(i)).str();
        return emitError(UnknownLoc::get(ctx))
               << "xla-optimize-collectives: unknown rewrite '" << name
               << "' in disable= (known: " << known << ")";
      }
      config.setEnabled(*rewrite, false);
    }
    if (combineThresholdBytes < 0)
      return emitError(UnknownLoc::get(ctx))
             << "xla-optimize-collectives: combine-threshold-bytes must not "
                "be negative";
    config.combineThresholdBytes = combineThresholdBytes;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    RewriteConfig run = config;
    eraseDuplicateCollectives(module, run);
    RewritePatternSet patterns(&getContext());
    populateReduceScatterPatterns(patterns, run);
    populateCombinePatterns(patterns, run);
    populateRedundantPatterns(patterns, run);
    FrozenRewritePatternSet frozen(std::move(patterns));
    // Only the collective rewrites: no folding, constant hoisting or region
    // simplification of the rest of the program.
    GreedyRewriteConfig greedy;
    greedy.enableFolding(false)
        .enableConstantCSE(false)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(module, frozen, greedy))) {
      module.emitError("xla-optimize-collectives: the collective rewrites "
                       "did not converge");
      return signalPassFailure();
    }
    eraseDuplicateCollectives(module, run);
    combineAllReduces(module, run);
    decomposeHierarchically(module, run);

    if (printCounts) {
      llvm::raw_ostream &os = llvm::errs();
      os << "xla-optimize-collectives:";
      for (size_t i = 0; i < kNumRewrites; ++i) {
        auto rewrite = static_cast<Rewrite>(i);
        if (run.count(rewrite))
          os << ' ' << rewriteName(rewrite) << '=' << run.count(rewrite);
      }
      os << '\n';
    }
    numReduceScatter += run.count(Rewrite::ReduceScatter);
    numSliceBeforeReduce += run.count(Rewrite::SliceBeforeReduce);
    numGatherGather += run.count(Rewrite::GatherGather);
    numSliceSlice += run.count(Rewrite::SliceSlice);
    numReduceReduce += run.count(Rewrite::ReduceReduce);
    numGatherSlice += run.count(Rewrite::GatherSlice);
    numGatherSliceToAllToAll += run.count(Rewrite::GatherSliceToAllToAll);
    numSliceGather += run.count(Rewrite::SliceGather);
    numIdentityPermute += run.count(Rewrite::IdentityPermute);
    numTrivialGroup += run.count(Rewrite::TrivialGroup);
    numDeadCollective += run.count(Rewrite::DeadCollective);
    numDuplicateCollective += run.count(Rewrite::DuplicateCollective);
    numAllReduceCombined += run.count(Rewrite::AllReduceCombiner);
    numHierarchicalAllReduce += run.count(Rewrite::HierarchicalAllReduce);
    numHierarchicalReduceScatter +=
        run.count(Rewrite::HierarchicalReduceScatter);
    numHierarchicalAllGather += run.count(Rewrite::HierarchicalAllGather);
  }

  RewriteConfig config;
};

} // namespace
