//===- Partition.cpp - --xla-partition ------------------------------------===//

#include "dialects/xla/XlaSubAxes.h"
#include "passes/Passes.h"
#include "passes/partition/FunctionPartitioner.h"

#include <cmath>

namespace xspmd {
#define GEN_PASS_DEF_XLAPARTITIONPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::partition;

namespace {

struct PartitionPass : xspmd::impl::XlaPartitionPassBase<PartitionPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    // A negative or NaN byte cost would make the planner's shortest paths
    // meaningless.
    for (auto [name, cost] :
         {std::pair<StringRef, double>{"ici-byte-cost", iciByteCost},
          {"dcn-byte-cost", dcnByteCost}})
      if (!std::isfinite(cost) || cost < 0)
        return emitError(UnknownLoc::get(ctx))
               << "xla-partition: " << name
               << " must be a finite number >= 0, got " << cost;
    return success();
  }

  void runOnOperation() override {
    ReshardCostModel costs;
    costs.iciByteCost = iciByteCost;
    costs.dcnByteCost = dcnByteCost;
    // One planner (and plan cache) per mesh.
    llvm::DenseMap<Operation *, std::unique_ptr<ReshardPlanner>> planners;
    // Sub-axes become axes of their own (a refined mesh naming the same
    // devices), so everything below sees whole axes only.
    if (failed(xspmd::xla::refineSubAxes(getOperation())))
      return signalPassFailure();
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || func->hasAttr(xspmd::xla::kPartitionedAttrName))
        continue;
      FailureOr<xspmd::xla::MeshOp> mesh = findFunctionMesh(func);
      if (failed(mesh))
        return signalPassFailure();
      if (!*mesh)
        continue; // nothing is sharded: every device runs the program as is
      auto &planner = planners[*mesh];
      if (!planner)
        planner = std::make_unique<ReshardPlanner>(
            MeshModel::fromAttr(mesh->getMesh()), costs);
      PartitionStats stats;
      PartitionOptions options;
      options.halo = halo;
      if (failed(partitionFunction(func, *mesh, *planner, options, stats)))
        return signalPassFailure();
      numReshards += stats.reshards;
      numCollectives += stats.collectives;
    }
  }
};

} // namespace
