//===- ExecutionObserver.h - follow a run for the timing model --*- C++ -*-===//
//
// The executor tells an observer about each instruction as its device
// reaches it, in program order; the instructions of a loop's regions are
// reported at each iteration, as if the loop were unrolled. The timing model
// (runtime/timeline) is one: it keeps the device's simulated clocks. For a
// collective, the observer says when the device issues it; the communicator
// then tells every member when the last member of its group issued it (the
// group start), which is all a device needs to know about its peers' timelines.
//
// The timing-only simulator (runtime/timeline/TimingSimulator.h) drives the
// same observers without kernels or threads; both must give the same
// timeline.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_EXECUTIONOBSERVER_H
#define XSPMD_RUNTIME_EXEC_EXECUTIONOBSERVER_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace xspmd::runtime {

struct Program;

class ExecutionObserver {
public:
  virtual ~ExecutionObserver();

  /// The device starts running `program` (one step).
  virtual void beginProgram(const Program &program) = 0;
  /// The device reaches instruction `index`, which does not communicate.
  virtual void onInstruction(int32_t index) = 0;
  /// The device reaches collective `index`; returns when it issues it.
  virtual double issueCollective(int32_t index) = 0;
  /// Collective `index` starts at `groupStart`, when the last member of this
  /// device's group issued it.
  virtual void startCollective(int32_t index, double groupStart) = 0;
  /// The slots `to` take the values of the slots `from` (an xla.while
  /// entering its first iteration or carrying values to the next).
  virtual void onCopy(llvm::ArrayRef<int32_t> from,
                      llvm::ArrayRef<int32_t> to) = 0;
  /// The device finished the program.
  virtual void endProgram() = 0;
};

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_EXECUTIONOBSERVER_H
