//===- Runner.h - run a function on global inputs ---------------*- C++ -*-===//
//
// Users see global tensors; devices see blocks. A FunctionRunner binds a
// function of a Session to a device count and runs it on global inputs:
//
//  * on 1 device, the function runs as written;
//  * on N devices, each argument is split into per-device blocks by its
//    `xla.sharding` (none: replicated), the N devices run in parallel, and
//    each result is assembled by its `xla.sharding` (partial values folded,
//    replicas required to agree, padding dropped).
//
// Global shapes come from the reference function when one is given (which
// also allows padded, non-divisible dims), else from local shape times the
// number of shards. `runReference` runs the reference on one device: the
// unpartitioned program the SPMD run must reproduce. A reference with
// manual (per-device) regions has no single-device meaning; it runs as
// Session::manualReference partitions it.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_RUNNER_H
#define XSPMD_LIB_RUNNER_H

#include "lib/Session.h"
#include "runtime/exec/GlobalBlocks.h"

#include <vector>

namespace xspmd {

/// How one function value is spread over the devices.
struct ValueLayout {
  xla::MeshModel mesh;
  xla::ShardLayout shards;
  /// The value as the user sees it, and as one device holds it.
  runtime::TensorSpec global, local;
};

class FunctionRunner {
public:
  /// Binds `function` (empty: the default function) to `requestedDevices`
  /// (0: decided by the module) and an optional reference function.
  static llvm::Expected<FunctionRunner>
  create(Session &session, llvm::StringRef function, int64_t requestedDevices,
         llvm::StringRef referenceFunction);

  llvm::StringRef getFunctionName() const { return functionName; }
  int64_t getNumDevices() const { return numDevices; }
  bool hasReference() const { return reference || manualReference; }
  /// Whether the function communicates or depends on its device id (device
  /// 0's program for a lowered entry).
  bool isSpmd() const { return program->isSpmd; }
  const std::vector<ValueLayout> &getArguments() const { return args; }
  const std::vector<ValueLayout> &getResults() const { return results; }

  /// Runs `function` instead on `device` (an MPMD run, as per-device
  /// programs are): it must take and return the same local types.
  llvm::Error setDeviceFunction(Session &session, int64_t device,
                                llvm::StringRef function);

  /// The program each device runs.
  llvm::ArrayRef<const runtime::Program *> getDevicePrograms() const {
    return devicePrograms;
  }

  /// Runs the function; inputs and outputs are global. `observers`, when
  /// not empty, follow each device's run (one per device; see
  /// runtime/exec/ExecutionObserver.h).
  llvm::Expected<std::vector<runtime::Tensor>>
  run(llvm::ArrayRef<runtime::Tensor> inputs,
      llvm::ArrayRef<runtime::ExecutionObserver *> observers = {}) const;

  /// Bytes each device receives from the host for `inputs` (its blocks),
  /// summed over the devices.
  double transferToDeviceBytes() const;

  /// Runs the reference function on one device (a reference with manual
  /// regions, on the devices of its mesh).
  llvm::Expected<std::vector<runtime::Tensor>>
  runReference(llvm::ArrayRef<runtime::Tensor> inputs) const;

private:
  FunctionRunner() = default;

  std::string functionName;
  int64_t numDevices = 1;
  const runtime::Program *program = nullptr;
  const runtime::Program *reference = nullptr;
  /// A reference with per-device code runs on every device
  /// (Session::manualReference) instead of `reference`.
  std::shared_ptr<const FunctionRunner> manualReference;
  /// Program of each device: `program`, or for a lowered entry the body
  /// that lists the device, unless overridden.
  std::vector<const runtime::Program *> devicePrograms;
  std::vector<ValueLayout> args, results;
};

/// A deterministic input for argument `index` (for inputs the user did not
/// give): floats uniform in [-1, 1) rounded to the element type, integers
/// uniform in [-4, 4], i1 fair coin flips; element i is a pure function of
/// (seed, index, i).
runtime::Tensor generateInput(const runtime::TensorSpec &spec, uint64_t seed,
                              int64_t index);

} // namespace xspmd

#endif // XSPMD_LIB_RUNNER_H
