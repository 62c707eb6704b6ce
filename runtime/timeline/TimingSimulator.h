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
