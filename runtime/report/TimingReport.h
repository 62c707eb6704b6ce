//===- TimingReport.h - step time, duty cycle, collectives ------*- C++ -*-===//
//
// What a timed run reports: the time of each step, each device's busy and
// idle time (duty cycle = time computing or communicating / step time), the
// collectives of a step (kind, participants, link class, bytes, time,
// algorithm) and the bytes they put on each link class.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_REPORT_TIMINGREPORT_H
#define XSPMD_RUNTIME_REPORT_TIMINGREPORT_H

#include "runtime/timeline/DeviceClock.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace xspmd::report {

/// One collective instruction of a step.
struct CollectiveRow {
  int32_t instruction = 0;
  std::string op, location, participants;
  const timeline::CollectiveRecord *record = nullptr;
  /// How often it runs per step (more than once in a loop).
  double runsPerStep = 1;
};

struct DeviceRow {
  int64_t device = 0;
  timeline::DeviceStats stats;
};

struct TimingSummary {
  int64_t numDevices = 0;
  /// Per step: the latest device's end of the step minus the latest
  /// device's end of the previous step (0 for the first).
  std::vector<double> stepSeconds;
  /// Every device's totals over all steps.
  std::vector<DeviceRow> devices;
  /// The collective instructions of device 0's program, in program order.
  std::vector<CollectiveRow> collectives;
  /// Collectives device 0 ran per step (a loop's at each iteration).
  int64_t collectivesRun = 0;
  /// Per step, summed over the collectives run.
  cost::LinkBytes linkBytesPerStep, sentPerDevicePerStep;
  /// Compute ops device 0 ran per step and their FLOPs; the compute
  /// instructions of its program.
  int64_t computeOps = 0;
  int64_t computeInstructions = 0;
  double flopsPerStep = 0;
  /// Whether the program has loops (counts run differ from the program's).
  bool hasLoops = false;

  double lastStepSeconds() const {
    return stepSeconds.empty() ? 0 : stepSeconds.back();
  }
  /// Mean duty cycle over devices, and the devices with the lowest and
  /// highest.
  double meanDutyCycle() const;
  const DeviceRow *minDutyDevice() const;
  const DeviceRow *maxDutyDevice() const;
};

/// Collects the summary; every clock must have run the same steps.
TimingSummary
summarizeTimeline(const timeline::CostModel &costs,
                  llvm::ArrayRef<const timeline::DeviceClock *> clocks);

/// "1.234 ms", "12.5 us", "830 ns".
std::string formatSeconds(double seconds);
/// "12.3 MB" (decimal units: traffic).
std::string formatTrafficBytes(double bytes);

struct ReportOptions {
  /// Print one row per device up to this many devices, else a summary.
  int64_t maxDeviceRows = 16;
  /// Print at most this many collective rows (0: all).
  int64_t maxCollectiveRows = 0;
};

void printTimingReport(llvm::raw_ostream &os, const TimingSummary &summary,
                       const timeline::CostModel &costs,
                       const ReportOptions &options = {});

} // namespace xspmd::report

#endif // XSPMD_RUNTIME_REPORT_TIMINGREPORT_H
