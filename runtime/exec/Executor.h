//===- Executor.h - run a program on one or N devices -----------*- C++ -*-===//
//
// One device runs a program in the calling thread. N devices run it in N
// threads that share the kernels and meet in a Communicator for each
// collective; each thread has its own device id. The single-device run is
// the reference: same kernels, global shapes, no peers.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_EXECUTOR_H
#define XSPMD_RUNTIME_EXEC_EXECUTOR_H

#include "runtime/exec/ExecutionObserver.h"
#include "runtime/exec/Program.h"

#include "llvm/Support/Error.h"

#include <vector>

namespace xspmd::runtime {

using TensorList = std::vector<Tensor>;

/// Runs `program` as device `device.device`. Arguments must match the
/// program's signature (checked).
llvm::Expected<TensorList> runOnDevice(const Program &program,
                                       llvm::ArrayRef<Tensor> args,
                                       DeviceContext &device);

/// Runs programs[d] with args[d] as device d, every device in its own
/// thread (one device runs in the calling thread). Devices usually share one
/// program (SPMD); per-device programs (MPMD) must agree on their
/// collectives. Returns each device's results, or one error (a collective
/// mismatch names the devices and ops). `observers`, when not empty, holds
/// one observer per device (runtime/exec/ExecutionObserver.h). Each device
/// takes its arguments over and frees each after its last use (pass them
/// with std::move to let go of them).
llvm::Expected<std::vector<TensorList>>
runOnDevices(llvm::ArrayRef<const Program *> programs,
             std::vector<TensorList> args,
             llvm::ArrayRef<ExecutionObserver *> observers = {});

/// Checks `args` against the program's signature.
llvm::Error checkArguments(const Program &program, llvm::ArrayRef<Tensor> args);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_EXECUTOR_H
