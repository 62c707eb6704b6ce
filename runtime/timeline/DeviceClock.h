//===- DeviceClock.h - one device's simulated timeline ----------*- C++ -*-===//
//
// A device has a compute stream, which runs its compute ops one after
// another in program order, and a collective queue, which runs its
// collectives one after another in program order. Time is in seconds from
// the start of the run.
//
//  * A compute op starts when the stream is free and its operands are
//    ready, and takes its roofline time.
//  * A collective is issued by a device at `issue`; it starts when the last
//    member of the device's group has issued it (the group start, which the
//    communicator or the timing-only simulator provides) and takes the cost
//    model's time; the device waits (idle) in between.
//  * Synchronous collectives run on the compute stream: issued when the
//    stream reaches them and their operand is ready; the stream is blocked
//    until they end.
//  * Asynchronous collectives (the default) are XLA's start/done pairs with
//    the latency-hiding scheduler's placement: the start is issued as soon as
//    the operand is ready and the queue is free, the transfer overlaps the
//    compute stream, and the done sits at the result's first use by a
//    compute op (or at the end of the program): the stream stalls there
//    only if the transfer has not finished.
//
// A step is one run of the program; the next step starts when the device
// has finished the previous one (stream and queue idle). Everything is a
// pure function of the program, the costs and the group starts, so the
// threaded numeric run and the timing-only simulator agree exactly.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TIMELINE_DEVICECLOCK_H
#define XSPMD_RUNTIME_TIMELINE_DEVICECLOCK_H

#include "runtime/exec/ExecutionObserver.h"
#include "runtime/timeline/BusyUnion.h"
#include "runtime/timeline/CostModel.h"

#include <algorithm>
#include <vector>

namespace xspmd::timeline {

enum class EventKind : uint8_t {
  /// A compute op on the compute stream, [begin, end].
  Compute,
  /// A collective on the compute stream: issued at begin, transfer from
  /// groupStart to end.
  SyncCollective,
  /// A collective on the async line: issued (start) at begin, transfer from
  /// groupStart to end.
  AsyncCollective,
  /// The done of async collective `instruction` on the compute stream:
  /// the stream waits from begin to end (end == begin: it had finished).
  Done,
};

struct Event {
  EventKind kind = EventKind::Compute;
  /// Instruction of the device's program (for Done: the collective).
  int32_t instruction = 0;
  int32_t step = 0;
  /// Trace scope the event belongs to (for Done: the consumer's; -1 at the
  /// end of the program).
  int32_t scope = -1;
  double begin = 0, groupStart = 0, end = 0;

  bool operator==(const Event &other) const;
};

struct StepSpan {
  double begin = 0, end = 0;
};

/// Totals over all steps, in seconds.
struct DeviceStats {
  /// Compute ops on the compute stream.
  double compute = 0;
  /// Collective transfers (group start to end), sync or async.
  double communication = 0;
  /// Time the device computes or communicates (union of both).
  double busy = 0;
  /// Issued collectives waiting for the rest of their group.
  double groupWait = 0;
  /// Compute stream waiting at the done of an async collective.
  double stall = 0;
  /// Sum of the step durations.
  double span = 0;
  /// Compute ops and collectives run (a loop's at each iteration).
  int64_t computeOps = 0, collectives = 0;

  double dutyCycle() const { return span > 0 ? busy / span : 0; }
};

/// The collective kinds that run on the compute stream, as XLA runs a kind
/// whose async flag is off (xla_enable_async_all_gather=false, ...); the
/// others are async start/done pairs.
class SyncCollectives {
public:
  static SyncCollectives none() { return SyncCollectives(); }
  static SyncCollectives all() { return SyncCollectives(~0u); }
  /// "all" or a comma-separated list of all-gather, all-reduce,
  /// reduce-scatter, all-to-all, collective-permute.
  static llvm::Expected<SyncCollectives> parse(llvm::StringRef spec);

  void add(runtime::CollectiveKind kind) { mask |= bit(kind); }
  bool contains(runtime::CollectiveKind kind) const {
    return (mask & bit(kind)) != 0;
  }
  bool isNone() const { return mask == 0; }
  bool operator==(const SyncCollectives &other) const {
    return mask == other.mask;
  }
  /// "none", "all" or the kinds, e.g. "all-gather, reduce-scatter".
  std::string describe() const;

private:
  explicit SyncCollectives(unsigned mask = 0) : mask(mask) {}
  static unsigned bit(runtime::CollectiveKind kind) {
    return 1u << static_cast<unsigned>(kind);
  }
  unsigned mask;
};

struct ClockOptions {
  /// Collective kinds on the compute stream (default: none, every
  /// collective an async start/done pair).
  SyncCollectives sync = SyncCollectives::none();
  /// Keep every event (for traces); stats are always kept.
  bool recordEvents = false;
};

class DeviceClock : public runtime::ExecutionObserver {
public:
  DeviceClock(int64_t device, const CostModel &costs, ClockOptions options);
  /// `other`'s clock, at the same point (mid-step too), for `device`: the
  /// timing-only simulator runs devices that stay in step on one clock and
  /// splits them this way when they part.
  DeviceClock(const DeviceClock &other, int64_t device);

  /// Whether, between steps, this clock is where `other` is (program, times,
  /// steps, totals; neither keeps events): a step of the same program with
  /// the same collective durations and group starts leaves both at the same
  /// point again.
  bool sameTimeline(const DeviceClock &other) const;
  /// Between steps: takes `other`'s timeline (what sameTimeline compares).
  void followTimeline(const DeviceClock &other);
  bool recordsEvents() const { return options.recordEvents; }
  /// How long collective `index` of the current program lasts on `device`
  /// once its group has met.
  double collectiveSeconds(int32_t index, int64_t device) const {
    return model.secondsOn(*costs, index, device);
  }

  int64_t getDevice() const { return device; }
  const std::vector<Event> &getEvents() const { return events; }
  const std::vector<StepSpan> &getSteps() const { return steps; }
  const DeviceStats &getStats() const { return stats; }
  /// The program of the last step.
  const runtime::Program *getProgram() const { return program; }
  /// Per instruction of that program: how often it ran, over all steps.
  std::vector<int64_t> getRuns() const;

  void beginProgram(const runtime::Program &program) override;
  void onInstruction(int32_t index) override;
  double issueCollective(int32_t index) override;
  void startCollective(int32_t index, double groupStart) override;
  void onCopy(llvm::ArrayRef<int32_t> from,
              llvm::ArrayRef<int32_t> to) override;
  void endProgram() override;

private:
  void record(EventKind kind, int32_t instruction, int32_t scope, double begin,
              double groupStart, double end);
  /// The compute stream reaches the done of async collective `index`.
  void done(int32_t index, int32_t scope);
  bool isAsync(const runtime::Instruction &collective) const {
    return !options.sync.contains(collective.collective->kind);
  }
  /// No compute op or transfer added later begins before this (a
  /// synchronous collective starts after both the stream and the queue).
  double horizon() const { return std::min(computeFree, queueFree); }

  int64_t device;
  const CostModel &model;
  ClockOptions options;
  const runtime::Program *program = nullptr;
  const ProgramCosts *costs = nullptr;
  int32_t step = -1;
  /// The program's slots in `ready` and `pendingDone` (costs->slots).
  const int32_t *slotOf = nullptr;
  double stepBegin = 0, computeFree = 0, queueFree = 0, issued = 0;
  /// Per clock slot: when its value is ready, and the async collective
  /// whose done it waits for (-1: none).
  std::vector<double> ready;
  std::vector<int32_t> pendingDone;
  /// Async collectives of this step whose done may not have been reached,
  /// in program order (closed ones are dropped now and then).
  std::vector<int32_t> openCollectives;
  size_t openKept = 0;
  std::vector<bool> isOpen;
  /// This step's compute intervals and transfers.
  BusyUnion busy;
  std::vector<Event> events;
  std::vector<StepSpan> steps;
  /// Steps run with `program`, and, for a program with loops or cases,
  /// how often each instruction ran in them.
  int64_t programSteps = 0;
  std::vector<int64_t> runs;
  DeviceStats stats;
};

} // namespace xspmd::timeline

#endif // XSPMD_RUNTIME_TIMELINE_DEVICECLOCK_H
