//===- RunMetrics.h - PyTorch/XLA-style metrics of timed runs ---*- C++ -*-===//
//
// What xla-run --metrics reports, in torch_xla's words (seed "Get A Metrics
// Report", "Performance Debugging"):
//
//  * Metric CompileTime: host wall time of each uncached compilation (the
//    SPMD pipeline and the program build); counters CachedCompile and
//    UncachedCompile (Session::compileGraph).
//  * Metric ExecuteTime: the predicted device time of each step (the
//    simulated TPU's time, the quantity torch_xla measures), with the
//    simulated clock as timestamps; Metric SimulationTime: the host wall
//    time of simulating each step; Metric CostModelTime: the host wall time
//    of costing the programs on the topology (once, before the first step).
//  * Metrics TransferToDeviceTime / TransferFromDeviceTime: predicted PCIe
//    time of the inputs (before the first step) and outputs (after the
//    last); metrics InboundData / OutboundData and counters
//    TransferToDeviceBytes / TransferFromDeviceBytes: their bytes (every
//    device's input blocks; one copy of each result block).
//  * Counters AllReduce, AllGather, ReduceScatter, AllToAll,
//    CollectivePermute: collectives executed per kind.
//
// and the compilation analyses of PT_XLA_DEBUG_LEVEL=2 ("Compilation
// Analysis", "Post Compilation Analysis": graph input, output, aliased input,
// intermediate and compiled program sizes in GB of 2^30 bytes, per device).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_RUNMETRICS_H
#define XSPMD_LIB_RUNMETRICS_H

#include "lib/Session.h"
#include "lib/Timing.h"

namespace xspmd {

/// Samples ExecuteTime and counts collectives for every step of `run`.
void recordStepMetrics(report::MetricsRegistry &metrics, const TimedRun &run,
                       llvm::ArrayRef<double> simulationSeconds);

/// Records a transfer of `bytes` (summed over `devices` devices, each over
/// its own PCIe link) to or from the devices.
void recordTransfer(report::MetricsRegistry &metrics, const TimedRun &run,
                    bool toDevice, double bytes, int64_t devices);

/// The "Compilation Analysis" and "Post Compilation Analysis" blocks of a
/// freshly compiled graph.
void printCompilationAnalysis(llvm::raw_ostream &os,
                              const Session::CompiledGraph &graph,
                              const runtime::Program &program,
                              const report::MemoryProfile &memory);

} // namespace xspmd

#endif // XSPMD_LIB_RUNMETRICS_H
