//===- ExplainSharding.cpp - the --xla-explain-sharding pass --------------===//

#include "passes/Passes.h"
#include "passes/propagation/Propagation.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAEXPLAINSHARDINGPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

namespace {

struct ExplainShardingPass
    : xspmd::impl::XlaExplainShardingPassBase<ExplainShardingPass> {
  using Base::Base;
  void runOnOperation() override {
    xspmd::prop::PropagationOptions opts;
    opts.costModel.iciByteCost = iciCost;
    opts.costModel.dcnByteCost = dcnCost;
    opts.globalTrials = globalTrials;
    opts.tieTolerance = tieTolerance;
    opts.halo = halo;
    opts.explain = &llvm::outs();
    if (failed(xspmd::prop::propagateShardings(getOperation(), opts)))
      signalPassFailure();
  }
};

} // namespace
