//===- TimingSimulator.h - timelines without numerics -----------*- C++ -*-===//
//
// The timing-only mode: every device's program is walked in program order
// without kernels, data or threads, driving each device's DeviceClock as
// the numeric executor would. Collectives are matched as the communicator
// matches them, in rounds: round k is every device's k-th collective; once
// all devices have issued it, each group starts at the latest issue time of
// its members. The result is the timeline the numeric run gives (a test
// asserts it), at a cost of a few operations per device and instruction.
//
// Devices in step share one clock: a clock is a pure function of its
// program, its collectives' durations and its groups' start times, so
// devices that start a step at the same point (DeviceClock::sameTimeline)
// and run the same program form a class walked once. A class splits when
// its members' groups start at different times or their collectives last
// differently; at the end of the step every member takes its class's
// timeline. An SPMD program on a symmetric topology walks one clock for
// thousands of devices, with the same numbers as one clock per device.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TIMELINE_TIMINGSIMULATOR_H
#define XSPMD_RUNTIME_TIMELINE_TIMINGSIMULATOR_H

#include "runtime/timeline/DeviceClock.h"

#include "llvm/Support/Error.h"

namespace xspmd::timeline {

/// Runs programs[d] once on clocks[d] for every device d. Fails, as the
/// communicator does, when devices reach different collectives or some
/// device finishes while others wait in a collective.
llvm::Error simulateStep(llvm::ArrayRef<const runtime::Program *> programs,
                         llvm::ArrayRef<DeviceClock *> clocks);

} // namespace xspmd::timeline

#endif // XSPMD_RUNTIME_TIMELINE_TIMINGSIMULATOR_H
