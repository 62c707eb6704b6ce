//===- Executor.cpp - run a program on one or N devices -------------------===//

#include "runtime/exec/Executor.h"
#include "runtime/collectives/Communicator.h"
#include "runtime/exec/DeviceThreads.h"
#include "runtime/kernels/Gemm.h"

#include <fmt/format.h>

#include <cassert>
#include <thread>

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

namespace {

/// Runs the instructions of one program on one device.
class ProgramRun {
public:
  ProgramRun(const Program &program, DeviceContext &device)
      : program(program), device(device), observer(device.observer),
        slots(program.numSlots) {}

  llvm::Expected<TensorList> run(llvm::ArrayRef<Tensor> args) {
    return run(TensorList(args.begin(), args.end()));
  }

  /// Takes the arguments over: each is freed after its last use.
  llvm::Expected<TensorList> run(TensorList &&args) {
    for (auto [slot, value] : program.constants)
      slots[slot] = value;
    for (size_t i = 0; i < args.size(); ++i)
      slots[program.argSlots[i]] = std::move(args[i]);
    args.clear();
    if (observer)
      observer->beginProgram(program);
    if (llvm::Error err =
            runRange(0, static_cast<int32_t>(program.instructions.size())))
      return std::move(err);
    if (observer)
      observer->endProgram();
    TensorList outputs;
    for (int32_t s : program.resultSlots)
      outputs.push_back(slots[s]);
    return outputs;
  }

private:
  /// Runs instructions [begin, end), each loop with its regions.
  llvm::Error runRange(int32_t begin, int32_t end) {
    for (int32_t index = begin; index < end; ++index) {
      const Instruction &inst = program.instructions[index];
      if (inst.loop || inst.branches) {
        if (llvm::Error err =
                inst.loop ? runLoop(index, inst) : runCase(index, inst))
          return err;
        index = inst.regionsEnd() - 1;
      } else if (llvm::Error err = runInstruction(index, inst)) {
        return err;
      }
      for (int32_t s : inst.releases)
        slots[s] = Tensor();
    }
    return llvm::Error::success();
  }

  llvm::Error runInstruction(int32_t index, const Instruction &inst) {
    operands.clear();
    for (int32_t s : inst.operands)
      operands.push_back(&slots[s]);
    results.assign(inst.results.size(), Tensor());
    bool collective = inst.kind == InstructionKind::Collective;
    if (observer) {
      if (collective)
        device.collectiveIssueTime = observer->issueCollective(index);
      else
        observer->onInstruction(index);
    }
    if (llvm::Error err = inst.kernel(device, operands, results))
      return err;
    if (observer && collective)
      observer->startCollective(index, device.collectiveGroupStart);
    for (size_t r = 0; r < results.size(); ++r)
      slots[inst.results[r]] = std::move(results[r]);
    return llvm::Error::success();
  }

  /// Copies `from` into the carried slots of `inst` (tensors share storage).
  void carry(const Instruction &inst, llvm::ArrayRef<int32_t> from) {
    llvm::SmallVector<Tensor, 4> values;
    for (int32_t s : from)
      values.push_back(slots[s]);
    for (auto [slot, value] : llvm::zip_equal(inst.results, values))
      slots[slot] = std::move(value);
    if (observer)
      observer->onCopy(from, inst.results);
  }

  llvm::Error runLoop(int32_t index, const Instruction &inst) {
    const LoopInfo &loop = *inst.loop;
    if (observer)
      observer->onInstruction(index);
    carry(inst, inst.operands);
    // Every device of an SPMD program computes the same condition, so all
    // run the same number of iterations and their collectives match.
    while (true) {
      if (llvm::Error err = runRange(loop.condBegin, loop.condEnd))
        return err;
      const Tensor &condition = slots[loop.condition];
      if (*static_cast<const uint8_t *>(condition.data()) == 0)
        return llvm::Error::success();
      if (llvm::Error err = runRange(loop.condEnd, loop.bodyEnd))
        return err;
      carry(inst, loop.yields);
    }
  }

  llvm::Error runCase(int32_t index, const Instruction &inst) {
    const CaseInfo &info = *inst.branches;
    if (observer)
      observer->onInstruction(index);
    const Tensor &selector = slots[inst.operands[0]];
    int64_t numBranches = static_cast<int64_t>(info.begins.size());
    int64_t branch;
    if (info.predicated) {
      branch = *static_cast<const uint8_t *>(selector.data()) ? 0 : 1;
    } else {
      // An index out of range runs the last branch (HLO's conditional).
      branch = *static_cast<const int32_t *>(selector.data());
      if (branch < 0 || branch >= numBranches)
        branch = numBranches - 1;
    }
    int32_t end = branch + 1 < numBranches ? info.begins[branch + 1] : info.end;
    if (llvm::Error err = runRange(info.begins[branch], end))
      return err;
    carry(inst, info.yields[branch]);
    return llvm::Error::success();
  }

  const Program &program;
  DeviceContext &device;
  ExecutionObserver *observer;
  std::vector<Tensor> slots;
  llvm::SmallVector<const Tensor *, 4> operands;
  llvm::SmallVector<Tensor, 2> results;
};

} // namespace

llvm::Expected<TensorList> runOnDevice(const Program &program,
                                       llvm::ArrayRef<Tensor> args,
                                       DeviceContext &device) {
  if (llvm::Error err = checkArguments(program, args))
    return std::move(err);
  return ProgramRun(program, device).run(args);
}

llvm::Expected<std::vector<TensorList>>
runOnDevices(llvm::ArrayRef<const Program *> programs,
             std::vector<TensorList> args,
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
  // More device threads than cores: products take turns, one per core.
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (cores > 0 && cores < numDevices)
    setConcurrentGemms(cores);
  Communicator communicator(numDevices);
  std::vector<TensorList> results(numDevices);
  std::vector<std::string> failures(numDevices);
  runConcurrently(numDevices, [&](int64_t d) {
    DeviceContext device{d, numDevices, &communicator, observerOf(d)};
    // The device owns its blocks: each is freed after its last use.
    llvm::Expected<TensorList> out =
        ProgramRun(*programs[d], device).run(std::move(args[d]));
    if (out) {
      results[d] = std::move(*out);
      communicator.deviceExited(d, std::nullopt);
      return;
    }
    failures[d] = llvm::toString(out.takeError());
    communicator.deviceExited(d, failures[d]);
  });
  setConcurrentGemms(0);
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
