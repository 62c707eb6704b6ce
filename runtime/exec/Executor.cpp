//===- Executor.cpp - run a program on one or N devices -------------------===//

#include "runtime/exec/Executor.h"
#include "runtime/collectives/Communicator.h"
#include "runtime/exec/DeviceThreads.h"
#include "runtime/kernels/Gemm.h"

#include <fmt/format.h>

#include <cassert>

namespace xspmd::runtime {

ExecutionObserver::~ExecutionObserver() = default;

static llvm::Error makeError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error checkArguments(const Program &program,
                           llvm::ArrayRef<Tensor> args) {
  if (args.size() != program.argSpecs.size())
    return makeError(fmt::format("@{} takes {} argument{}, got {}",
                                 program.name, program.argSpecs.size(),
                                 program.argSpecs.size() == 1 ? "" : "s",
                                 args.size()));
  for (size_t i = 0; i < args.size(); ++i)
    if (!program.argSpecs[i].matches(args[i]))
      return makeError(
          fmt::format("@{} argument {} must be {}, got {}", program.name, i,
                      program.argSpecs[i].toString(), args[i].getTypeString()));
  return llvm::Error::success();
}

llvm::Expected<TensorList> runOnDevice(const Program &program,
                                       llvm::ArrayRef<Tensor> args,
                                       DeviceContext &device) {
  if (llvm::Error err = checkArguments(program, args))
    return std::move(err);
  std::vector<Tensor> slots(program.numSlots);
  for (auto [slot, value] : program.constants)
    slots[slot] = value;
  for (size_t i = 0; i < args.size(); ++i)
    slots[program.argSlots[i]] = args[i];
  llvm::SmallVector<const Tensor *, 4> operands;
  llvm::SmallVector<Tensor, 2> results;
  ExecutionObserver *observer = device.observer;
  if (observer)
    observer->beginProgram(program);
  for (auto [index, inst] : llvm::enumerate(program.instructions)) {
    operands.clear();
    for (int32_t s : inst.operands)
      operands.push_back(&slots[s]);
    results.assign(inst.results.size(), Tensor());
    bool collective = inst.kind == InstructionKind::Collective;
    if (observer) {
      if (collective)
        device.collectiveIssueTime =
            observer->issueCollective(static_cast<int32_t>(index));
      else
        observer->onInstruction(static_cast<int32_t>(index));
    }
    if (llvm::Error err = inst.kernel(device, operands, results))
      return std::move(err);
    if (observer && collective)
      observer->startCollective(static_cast<int32_t>(index),
                                device.collectiveGroupStart);
    for (size_t r = 0; r < results.size(); ++r)
      slots[inst.results[r]] = std::move(results[r]);
    for (int32_t s : inst.releases)
      slots[s] = Tensor();
  }
  if (observer)
    observer->endProgram();
  TensorList outputs;
  for (int32_t s : program.resultSlots)
    outputs.push_back(slots[s]);
  return outputs;
}

llvm::Expected<std::vector<TensorList>>
runOnDevices(llvm::ArrayRef<const Program *> programs,
             const std::vector<TensorList> &args,
             llvm::ArrayRef<ExecutionObserver *> observers) {
  int64_t numDevices = args.size();
  assert(programs.size() == args.size() && "one program per device");
  assert((observers.empty() || observers.size() == args.size()) &&
         "one observer per device");
  auto observerOf = [&](int64_t d) {
    return observers.empty() ? nullptr : observers[d];
  };
  if (numDevices == 1) {
    DeviceContext device{0, 1, nullptr, observerOf(0)};
    llvm::Expected<TensorList> results =
        runOnDevice(*programs[0], args[0], device);
    if (!results)
      return results.takeError();
    return std::vector<TensorList>{std::move(*results)};
  }
  for (int64_t d = 0; d < numDevices; ++d)
    if (llvm::Error err = checkArguments(*programs[d], args[d]))
      return makeError(
          fmt::format("device {}: {}", d, llvm::toString(std::move(err))));

  // Device threads already occupy the cores; BLAS threads inside them would
  // oversubscribe (docs/runtime.md). A one-device run keeps BLAS's own.
  int blasThreads = getBlasThreads();
  setBlasThreads(1);
  Communicator communicator(numDevices);
  std::vector<TensorList> results(numDevices);
  std::vector<std::string> failures(numDevices);
  runConcurrently(numDevices, [&](int64_t d) {
    DeviceContext device{d, numDevices, &communicator, observerOf(d)};
    llvm::Expected<TensorList> out = runOnDevice(*programs[d], args[d], device);
    if (out) {
      results[d] = std::move(*out);
      communicator.deviceExited(d, std::nullopt);
      return;
    }
    failures[d] = llvm::toString(out.takeError());
    communicator.deviceExited(d, failures[d]);
  });
  setBlasThreads(blasThreads);
  // A collective problem is reported once, as the communicator saw it.
  if (std::optional<std::string> abort = communicator.getAbortMessage())
    return makeError(*abort);
  for (int64_t d = 0; d < numDevices; ++d)
    if (!failures[d].empty())
      return makeError(fmt::format("device {}: {}", d, failures[d]));
  return results;
}

} // namespace xspmd::runtime
