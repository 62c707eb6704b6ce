//===- Pipelines.cpp - named pass pipelines of xspmd ----------------------===//

#include "passes/Pipelines.h"

#include "passes/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace xspmd {

void buildSpmdPipeline(mlir::OpPassManager &pm,
                       const SpmdPipelineOptions &options) {
  // Propagation and partitioning work on one function at a time: inline
  // every call first. No simplification runs between inlining steps, so the
  // program reaches propagation as written; private callees left without a
  // use are erased by the inliner.
  pm.addPass(mlir::createInlinerPass(
      /*opPipelines=*/{},
      /*defaultPipelineBuilder=*/[](mlir::OpPassManager &) {}));
  // Per-device code marked by full_to_shard / shard_to_full becomes
  // manual computations, which propagation and partitioning respect.
  pm.addPass(createXlaOutlineManualComputationsPass());
  // Propagation and partitioning see through trace annotations.
  pm.addPass(createXlaInlineTracePass());
  XlaPropagateShardingPassOptions propagate;
  propagate.iciCost = options.iciByteCost;
  propagate.dcnCost = options.dcnByteCost;
  pm.addPass(createXlaPropagateShardingPass(propagate));
  XlaPartitionPassOptions partition;
  partition.iciByteCost = options.iciByteCost;
  partition.dcnByteCost = options.dcnByteCost;
  partition.halo = options.halo;
  pm.addPass(createXlaPartitionPass(partition));
  // The partitioner emits device-index arithmetic and masks per op; fold and
  // share them before the collectives are optimized.
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  if (options.optimize)
    pm.addPass(createXlaOptimizeCollectivesPass());
  if (options.lower) {
    pm.addPass(createXlaLowerToDevicePass());
    // Offsets that evaluate to the same table share one.
    pm.addPass(mlir::createCSEPass());
  }
}

void registerXlaPipelines() {
  mlir::PassPipelineRegistration<SpmdPipelineOptions>(
      "xla-spmd-pipeline",
      "Propagate shardings, partition into an SPMD program, optimize its "
      "collectives and lower it to per-device programs",
      buildSpmdPipeline);
}

} // namespace xspmd
