//===- PropagateSharding.cpp - the --xla-propagate-sharding pass ----------===//

#include "passes/Passes.h"
#include "passes/propagation/Propagation.h"

#include <cmath>

namespace xspmd {
#define GEN_PASS_DEF_XLAPROPAGATESHARDINGPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

namespace {

struct PropagateShardingPass
    : xspmd::impl::XlaPropagateShardingPassBase<PropagateShardingPass> {
  using Base::Base;

  mlir::LogicalResult initialize(mlir::MLIRContext *ctx) override {
    for (auto [name, cost] :
         {std::pair<llvm::StringRef, double>{"ici-cost", iciCost},
          {"dcn-cost", dcnCost}})
      if (!std::isfinite(cost) || cost < 0)
        return mlir::emitError(mlir::UnknownLoc::get(ctx))
               << "xla-propagate-sharding: " << name
               << " must be a finite number >= 0, got " << cost;
    if (globalTrials < 0 || !std::isfinite(tieTolerance) || tieTolerance < 0)
      return mlir::emitError(mlir::UnknownLoc::get(ctx))
             << "xla-propagate-sharding: global-trials and tie-tolerance "
                "must be >= 0";
    return mlir::success();
  }

  void runOnOperation() override {
    xspmd::prop::PropagationOptions opts;
    opts.costModel.iciByteCost = iciCost;
    opts.costModel.dcnByteCost = dcnCost;
    opts.globalTrials = globalTrials;
    opts.tieTolerance = tieTolerance;
    opts.halo = halo;
    if (explain)
      opts.explain = &llvm::outs();
    xspmd::prop::PropagationStats stats;
    if (failed(xspmd::prop::propagateShardings(getOperation(), opts, &stats)))
      return signalPassFailure();
    if (printStats)
      llvm::outs() << "propagation: " << stats.records << " ops, "
                   << stats.visits << " op visits, " << stats.decisions
                   << " decisions\n";
  }
};

} // namespace
