//===- Pipelines.h - named pass pipelines of xspmd --------------*- C++ -*-===//

#ifndef XSPMD_PASSES_PIPELINES_H
#define XSPMD_PASSES_PIPELINES_H

#include "passes/partition/PartitionOptions.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace xspmd {

struct SpmdPipelineOptions
    : public mlir::PassPipelineOptions<SpmdPipelineOptions> {
  Option<double> iciByteCost{*this, "ici-byte-cost",
                             llvm::cl::desc("Relative cost of an ICI byte"),
                             llvm::cl::init(1.0)};
  Option<double> dcnByteCost{*this, "dcn-byte-cost",
                             llvm::cl::desc("Relative cost of a DCN byte"),
                             llvm::cl::init(16.0)};
  Option<partition::HaloMode> halo{
      *this, "halo",
      llvm::cl::desc("Halo exchange or gather for split windowed dimensions: "
                     "by cost (auto), whenever the window fits (always), or "
                     "never"),
      llvm::cl::init(partition::HaloMode::automatic),
      llvm::cl::values(
          clEnumValN(partition::HaloMode::automatic, "auto", "by cost"),
          clEnumValN(partition::HaloMode::always, "always",
                     "halo exchange whenever the window fits"),
          clEnumValN(partition::HaloMode::never, "never",
                     "gather the dimension"))};
  Option<bool> optimize{*this, "optimize",
                        llvm::cl::desc("Run --xla-optimize-collectives"),
                        llvm::cl::init(true)};
  Option<bool> lower{
      *this, "lower",
      llvm::cl::desc("Run --xla-lower-to-device (false stops at the SPMD "
                     "program on mesh axes)"),
      llvm::cl::init(true)};
};

/// inline calls -> inline trace annotations -> propagate sharding -> partition
/// -> canonicalize + cse -> optimize collectives -> lower to per-device
/// programs + cse.
void buildSpmdPipeline(mlir::OpPassManager &pm,
                       const SpmdPipelineOptions &options);

/// Registers `--xla-spmd-pipeline`.
void registerXlaPipelines();

} // namespace xspmd

#endif // XSPMD_PASSES_PIPELINES_H
