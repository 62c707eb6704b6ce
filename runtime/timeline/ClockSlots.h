//===- ClockSlots.h - the slots a device clock keeps ------------*- C++ -*-===//
//
// A DeviceClock keeps, per slot of the program, when its value is ready and
// which async collective's done it waits for. A program has a slot per SSA
// value; with thousands of devices, one entry per slot and device is most
// of a timing-only run's memory, and walking them most of its time. For a
// program without loops or cases (whose regions run a data-dependent
// number of times and carry values between slots), few slots need one:
//
//  * Slots nothing writes (arguments, constants) stay ready at the step's
//    start: they share one clock slot that is never written.
//  * A compute op's result is ready when it ends, and the compute stream
//    is serial: any compute op reading it later starts after that anyway.
//    Its time matters only to a collective reading it. The results of
//    compute ops (and views of them) that no collective reads share one
//    sink clock slot: every value written there is at most the compute
//    stream's time when it is read, so it never moves a start.
//  * The others (results of collectives, operands of collectives, and the
//    views between them) are "timed": they take their own clock slots,
//    packed by lifetime as a register allocator would. A lifetime runs from
//    the instruction writing the slot to its last read; the result of an
//    async collective is also read at its done (the first compute op
//    reading it or a view of it, or the end of the program).
//
// The clock reads every operand and writes the results of compute ops and
// views and the first result of a collective.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TIMELINE_CLOCKSLOTS_H
#define XSPMD_RUNTIME_TIMELINE_CLOCKSLOTS_H

#include "runtime/exec/Program.h"

#include <vector>

namespace xspmd::timeline {

struct ClockSlots {
  /// The clock slots shared by untimed compute results, and by slots
  /// nothing writes.
  static constexpr int32_t kSink = 0, kEntry = 1;

  /// Per slot of the program, its clock slot.
  std::vector<int32_t> of;
  /// Clock slots (at least 1).
  int32_t count = 1;
  /// The program has loops or cases: every slot keeps its own clock slot.
  bool hasRegions = false;
};

ClockSlots planClockSlots(const runtime::Program &program);

} // namespace xspmd::timeline

#endif // XSPMD_RUNTIME_TIMELINE_CLOCKSLOTS_H
