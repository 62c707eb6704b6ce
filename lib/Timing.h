//===- Timing.h - time, memory and trace of a run on a topology -*- C++ -*-===//
//
// The embedding API of the timing model. A TimedRun binds a FunctionRunner
// to a TPU topology: it places the run's devices on the topology (checking
// the module's mesh against it), costs every program once, checks each
// device's peak memory against HBM, and keeps one DeviceClock per device.
// Those clocks follow numeric runs (as ExecutionObservers passed to
// FunctionRunner::run) or timing-only steps (no kernels, no data), with the
// same result.
//
// Default topology (no --topology): TPU v5p (the training generation of the
// research notes and the 8192-chip benchmark). The slice count is the
// hybrid mesh's DCN size (1 otherwise), and each slice is the standard v5p
// slice of devices / slices chips (2x2x1, 2x2x2, 2x2x4, 2x4x4, 4x4x4, ...).
// A run of 1 or 2 devices uses the first chips of a 2x2x1 slice, the
// smallest v5p slice.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_TIMING_H
#define XSPMD_LIB_TIMING_H

#include "lib/Runner.h"
#include "runtime/report/MemoryAnalysis.h"
#include "runtime/report/TimingReport.h"
#include "runtime/timeline/DeviceClock.h"
#include "runtime/topology/Faults.h"
#include "runtime/topology/Topology.h"

#include <memory>
#include <string>
#include <vector>

namespace xspmd {

struct TimingOptions {
  /// `--topology` (empty: the default above) and `--slices` (0: the mesh's
  /// DCN size, or 1).
  std::string topology;
  int64_t slices = 0;
  /// `--fault` values (runtime/topology/Faults.h), parsed on the topology.
  std::vector<std::string> faults;
  /// Collective kinds on the compute stream (default: none, every
  /// collective an async start/done pair).
  timeline::SyncCollectives syncCollectives = timeline::SyncCollectives::none();
  /// Devices whose events are kept for a trace.
  std::vector<int64_t> recordDevices;
  timeline::CostModelOptions costs;
};

class TimedRun {
public:
  /// Places `runner`'s devices on the topology and costs its programs.
  /// Errors: a bad --topology, a mesh that does not fit, a device count the
  /// topology cannot hold, a collective the cost model rejects.
  static llvm::Expected<std::unique_ptr<TimedRun>>
  create(mlir::ModuleOp module, const FunctionRunner &runner,
         const TimingOptions &options);

  const topology::Topology &getTopology() const { return *topology; }
  const timeline::CostModel &getCostModel() const { return *costs; }
  /// How the topology was chosen and the mesh placed, one line each.
  llvm::ArrayRef<std::string> getPlacementNotes() const { return notes; }
  int64_t getNumDevices() const { return clocks.size(); }
  /// The collective kinds the run keeps on the compute stream.
  const timeline::SyncCollectives &getSyncCollectives() const { return sync; }
  /// Host wall time spent costing the programs (rooflines and collective
  /// estimates), in seconds.
  double getCostingSeconds() const { return costingSeconds; }

  /// Peak memory of device `device`'s program.
  const report::MemoryProfile &getMemory(int64_t device) const;
  /// The device with the highest peak (the lowest id among equals).
  int64_t getPeakMemoryDevice() const;
  /// Fails when some device's peak exceeds the chip's HBM, naming the
  /// device and its largest live tensors.
  llvm::Error checkMemory() const;

  /// One observer per device, for FunctionRunner::run.
  std::vector<runtime::ExecutionObserver *> getObservers();
  /// One step without numerics.
  llvm::Error runTimingOnlyStep();

  report::TimingSummary summarize() const;
  const timeline::DeviceClock &getClock(int64_t device) const {
    return *clocks[device];
  }
  /// The trace of the recorded devices (TimingOptions::recordDevices).
  std::string renderTrace(const std::string &description) const;

private:
  TimedRun() = default;

  std::unique_ptr<topology::Topology> topology;
  std::unique_ptr<topology::FaultSet> faults;
  std::unique_ptr<timeline::CostModel> costs;
  std::vector<const runtime::Program *> programs;
  std::vector<std::unique_ptr<timeline::DeviceClock>> clocks;
  std::vector<int64_t> recorded;
  std::vector<std::string> notes;
  timeline::SyncCollectives sync = timeline::SyncCollectives::none();
  /// Per distinct program, and which one each device runs.
  std::vector<report::MemoryProfile> memory;
  std::vector<int32_t> memoryOf;
  double costingSeconds = 0;
};

/// The one-line memory summary: "MEMORY peak 1.2 GiB of 95 GiB HBM (1.3%)
/// on device 0: ..." plus the largest live tensors.
void printMemoryReport(llvm::raw_ostream &os, const TimedRun &run);

/// Parses `--trace-devices`: "all", or ids and ranges ("0,3,8-15").
llvm::Expected<std::vector<int64_t>> parseDeviceList(llvm::StringRef text,
                                                     int64_t numDevices);

} // namespace xspmd

#endif // XSPMD_LIB_TIMING_H
