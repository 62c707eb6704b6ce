//===- TraceWriter.h - Chrome / Perfetto trace of a timeline ----*- C++ -*-===//
//
// Trace Event Format JSON (`{"displayTimeUnit": "ns", "traceEvents": [...]}`,
// times in microseconds), laid out as XProf lays out TPU traces: one process
// per device, named "/device:TPU:<id> (slice s, host h, coords x,y,z)", with
// one line (thread) per kind of activity:
//
//   1 Steps               one slice per step
//   2 XLA Modules         the program of each step
//   3 XLA Ops             the compute stream: compute ops, synchronous
//                         collectives (with "wait for group" and their
//                         algorithm phases nested inside), and the done of
//                         each async collective ("all-reduce-done", as long
//                         as the stream waits for it)
//   4 Async Collectives   each async collective as "<kind>-start" (issued,
//                         waiting for its group) followed by "<kind>" (the
//                         transfer, phases nested inside)
//   5 Trace Annotations   xla.trace scopes, nested, over the compute-stream
//                         activity of their ops
//
// Every line holds slices that follow one another or nest perfectly, as
// Perfetto requires. Args carry the details (bytes, FLOPs, algorithm,
// participants, link class).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_REPORT_TRACEWRITER_H
#define XSPMD_RUNTIME_REPORT_TRACEWRITER_H

#include "runtime/timeline/DeviceClock.h"

#include <string>

namespace xspmd::report {

enum TraceLine : int {
  kStepsLine = 1,
  kModulesLine = 2,
  kOpsLine = 3,
  kAsyncLine = 4,
  kAnnotationsLine = 5,
};

struct TraceInput {
  const timeline::CostModel *costs = nullptr;
  /// The devices to show, with their recorded events.
  llvm::ArrayRef<const timeline::DeviceClock *> clocks;
  /// Free-form run description stored under "otherData".
  std::string description;
};

/// The whole trace as JSON text.
std::string renderTrace(const TraceInput &input);

} // namespace xspmd::report

#endif // XSPMD_RUNTIME_REPORT_TRACEWRITER_H
