//===- TimingSimulator.cpp - timelines without numerics -------------------===//

#include "runtime/timeline/TimingSimulator.h"

#include <fmt/format.h>

#include <cassert>

namespace xspmd::timeline {

static llvm::Error simError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// "devices 0, 1, 2" (the first few of a long list).
static std::string deviceList(const std::vector<int64_t> &devices) {
  std::string text = devices.size() == 1 ? "device " : "devices ";
  for (size_t i = 0; i < devices.size() && i < 8; ++i)
    text += (i ? ", " : "") + std::to_string(devices[i]);
  if (devices.size() > 8)
    text += fmt::format(" and {} more", devices.size() - 8);
  return text;
}

llvm::Error simulateStep(llvm::ArrayRef<const runtime::Program *> programs,
                         llvm::ArrayRef<DeviceClock *> clocks) {
  size_t numDevices = programs.size();
  assert(clocks.size() == numDevices && "one clock per device");
  // How often a loop runs and which branch a case takes depend on the
  // values computed, which this mode does not have.
  for (const runtime::Program *program : programs)
    for (const runtime::Instruction &inst : program->instructions)
      if (inst.kind == runtime::InstructionKind::Loop ||
          inst.kind == runtime::InstructionKind::Case)
        return simError(fmt::format(
            "the timing-only mode cannot run @{}: {} of {} depends on the "
            "values the program computes; run with numerics (without "
            "--timing-only)",
            program->name,
            inst.kind == runtime::InstructionKind::Loop ? "the trip count"
                                                        : "the branch taken",
            inst.description));
  std::vector<size_t> pc(numDevices, 0);
  std::vector<double> issue(numDevices, 0);
  for (size_t d = 0; d < numDevices; ++d)
    clocks[d]->beginProgram(*programs[d]);
  for (int64_t round = 1;; ++round) {
    // Every device runs up to its next collective and issues it.
    std::vector<int64_t> finished;
    for (size_t d = 0; d < numDevices; ++d) {
      const auto &instructions = programs[d]->instructions;
      size_t &i = pc[d];
      while (i < instructions.size() &&
             instructions[i].kind != runtime::InstructionKind::Collective)
        clocks[d]->onInstruction(static_cast<int32_t>(i++));
      if (i == instructions.size())
        finished.push_back(d);
      else
        issue[d] = clocks[d]->issueCollective(static_cast<int32_t>(i));
    }
    if (finished.size() == numDevices)
      break;
    // Judge the round as the communicator does. Devices running one
    // program share its CollectiveCall: each distinct call is compared with
    // the others once (the per-device bodies of a lowered program have
    // equal calls of their own).
    std::vector<
        std::pair<const runtime::CollectiveCall *, std::vector<int64_t>>>
        kinds;
    std::vector<std::pair<const runtime::CollectiveCall *, size_t>> seen;
    for (size_t d = 0; d < numDevices; ++d) {
      if (pc[d] == programs[d]->instructions.size())
        continue;
      const runtime::CollectiveCall *call =
          programs[d]->instructions[pc[d]].collective.get();
      auto known = std::find_if(seen.begin(), seen.end(),
                                [&](const auto &s) { return s.first == call; });
      if (known == seen.end()) {
        auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto &k) {
          return k.first->matches(*call);
        });
        size_t kind = it - kinds.begin();
        if (it == kinds.end())
          kinds.push_back({call, {}});
        known = seen.insert(seen.end(), {call, kind});
      }
      kinds[known->second].second.push_back(static_cast<int64_t>(d));
    }
    if (kinds.size() > 1) {
      std::string message = fmt::format("collective mismatch: devices reached "
                                        "different collectives as their "
                                        "collective #{}:",
                                        round);
      for (const auto &[call, devices] : kinds)
        message +=
            fmt::format("\n  {}: {}", deviceList(devices), call->describe());
      return simError(message);
    }
    if (!finished.empty()) {
      // The communicator's message, word for word.
      const auto &[call, devices] = kinds.front();
      std::string message = fmt::format(
          "{} wait{} in collective #{} ({}) for devices that will never "
          "join:",
          deviceList(devices), devices.size() > 1 ? "" : "s", round,
          call->describe());
      for (int64_t d : finished)
        message += fmt::format("\n  device {} finished its program after {} "
                               "collective{}",
                               d, round - 1, round == 2 ? "" : "s");
      return simError(message);
    }
    // Each group starts when its last member has issued.
    const runtime::CollectiveCall &call = *kinds.front().first;
    for (const auto &group : call.groups) {
      double start = 0;
      for (int64_t member : group)
        start = std::max(start, issue[member]);
      for (int64_t member : group) {
        clocks[member]->startCollective(static_cast<int32_t>(pc[member]),
                                        start);
        ++pc[member];
      }
    }
  }
  for (size_t d = 0; d < numDevices; ++d)
    clocks[d]->endProgram();
  return llvm::Error::success();
}

} // namespace xspmd::timeline
