//===- ClockSlots.h - the slots a device clock keeps ------------*- C++ -*-===//
//
// A DeviceClock keeps, per slot of the program, when its value is ready and
// which async collective's done it waits for. A program has a slot per SSA
// value, but few are live at once: with thousands of devices, one entry per
// slot and device is most of a timing-only run's memory. For a program
// without loops or cases (whose regions run a data-dependent number of
// times and carry values between slots), slots whose lifetimes do not
// overlap share a clock slot, as a register allocator would pack them.
//
// A slot's lifetime, in program order, runs from the instruction that
// writes it (the step's start for arguments, constants and slots nothing
// writes) to its last read. The clock reads every operand and writes the
// results of compute ops and views and the first result of a collective;
// the result of an async collective is also read at its done, the first
// compute op reading it or a view of it (or the end of the program).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TIMELINE_CLOCKSLOTS_H
#define XSPMD_RUNTIME_TIMELINE_CLOCKSLOTS_H

#include "runtime/exec/Program.h"

#include <vector>

namespace xspmd::timeline {

struct ClockSlots {
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
