//===- Communicator.cpp - rendezvous of device threads --------------------===//

#include "runtime/collectives/Communicator.h"
#include "runtime/collectives/CollectiveKernels.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace xspmd::runtime {

static llvm::Error abortError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

Communicator::Communicator(int64_t numDevices)
    : numDevices(numDevices), arrivals(numDevices), entered(numDevices, 0),
      exited(numDevices, false), exitNotes(numDevices) {}

std::optional<std::string> Communicator::getAbortMessage() const {
  std::lock_guard<std::mutex> lock(mutex);
  return abortMessage;
}

void Communicator::abortLocked(std::string message) {
  if (!abortMessage)
    abortMessage = std::move(message);
  changed.notify_all();
}

/// "devices 0, 1" / "device 2".
static std::string deviceList(const std::vector<int64_t> &devices) {
  return fmt::format("device{} {}", devices.size() > 1 ? "s" : "",
                     fmt::join(devices, ", "));
}

std::optional<std::string> Communicator::findProblemLocked() const {
  // Group the waiting devices by what they brought; one group and no
  // departed device means agreement.
  std::vector<std::pair<const CollectiveCall *, std::vector<int64_t>>> kinds;
  std::vector<int64_t> gone;
  for (int64_t d = 0; d < numDevices; ++d) {
    if (exited[d]) {
      gone.push_back(d);
      continue;
    }
    const CollectiveCall *call = arrivals[d].call;
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto &k) {
      return k.first == call || k.first->matches(*call);
    });
    if (it == kinds.end())
      kinds.push_back({call, {d}});
    else
      it->second.push_back(d);
  }
  if (gone.empty() && kinds.size() == 1)
    return std::nullopt;
  std::string message;
  if (kinds.size() > 1) {
    message = fmt::format("collective mismatch: devices reached different "
                          "collectives as their collective #{}:",
                          round + 1);
    for (const auto &[call, devices] : kinds)
      message +=
          fmt::format("\n  {}: {}", deviceList(devices), call->describe());
  } else {
    const auto &[call, devices] = kinds.front();
    message = fmt::format("{} wait{} in collective #{} ({}) for devices that "
                          "will never join:",
                          deviceList(devices), devices.size() > 1 ? "" : "s",
                          round + 1, call->describe());
  }
  for (int64_t d : gone)
    message += fmt::format("\n  device {} {}", d, exitNotes[d]);
  return message;
}

void Communicator::judgeRoundLocked() {
  if (arrived < numDevices || phase != Phase::collecting)
    return;
  if (std::count(exited.begin(), exited.end(), true) == numDevices)
    return; // Everyone is done: nothing to exchange.
  if (std::optional<std::string> problem = findProblemLocked()) {
    abortLocked(*problem);
    return;
  }
  phase = Phase::ready;
  changed.notify_all();
}

llvm::Expected<Tensor> Communicator::execute(int64_t device,
                                             const CollectiveCall &call,
                                             const Tensor &input,
                                             double issueTime,
                                             double *groupStart) {
  std::unique_lock<std::mutex> lock(mutex);
  uint64_t myRound = entered[device]++;
  // Wait for the slot: the previous round may still be handing out results.
  changed.wait(lock, [&] {
    return abortMessage || (round == myRound && phase == Phase::collecting);
  });
  if (abortMessage)
    return abortError(*abortMessage);
  arrivals[device] = Arrival{&call, input, issueTime};
  ++arrived;
  judgeRoundLocked();
  changed.wait(lock, [&] {
    return abortMessage || (round == myRound && phase == Phase::ready);
  });
  if (abortMessage)
    return abortError(*abortMessage);

  // Inputs stay untouched until every device has departed: compute without
  // the lock, in parallel with the other devices.
  std::vector<const Tensor *> inputs(numDevices);
  for (int64_t d = 0; d < numDevices; ++d)
    inputs[d] = &arrivals[d].input;
  if (groupStart) {
    *groupStart = issueTime;
    int64_t group = call.locate(device).first;
    for (int64_t member : call.groups[group])
      *groupStart = std::max(*groupStart, arrivals[member].issueTime);
  }
  Tensor result;
  if (call.kind == CollectiveKind::allReduce ||
      call.kind == CollectiveKind::allGather) {
    // One value per group: the first member computes it (without the lock),
    // the others wait for it and share it.
    if (groupResults.size() != call.groups.size()) {
      groupResults.assign(call.groups.size(), Tensor());
      groupComputing.assign(call.groups.size(), false);
      groupReady.assign(call.groups.size(), false);
    }
    int64_t group = call.locate(device).first;
    if (!groupComputing[group]) {
      groupComputing[group] = true;
      lock.unlock();
      result = computeCollectiveResult(call, device, inputs);
      lock.lock();
      groupResults[group] = result;
      groupReady[group] = true;
      // Nobody reads this group's inputs any more: let them go now rather
      // than when the last device of the round departs.
      for (int64_t member : call.groups[group])
        arrivals[member].input = Tensor();
      changed.notify_all();
    } else {
      changed.wait(lock, [&] { return groupReady[group]; });
      result = groupResults[group];
    }
  } else {
    lock.unlock();
    result = computeCollectiveResult(call, device, inputs);
    lock.lock();
  }

  if (++departed == numDevices) {
    for (Arrival &a : arrivals)
      a = Arrival();
    groupResults.clear();
    groupComputing.clear();
    groupReady.clear();
    departed = 0;
    // Devices that left stay counted in every later round.
    arrived = std::count(exited.begin(), exited.end(), true);
    phase = Phase::collecting;
    ++round;
    changed.notify_all();
  }
  return result;
}

void Communicator::deviceExited(int64_t device,
                                std::optional<std::string> failure) {
  std::lock_guard<std::mutex> lock(mutex);
  exited[device] = true;
  exitNotes[device] =
      failure ? fmt::format("failed: {}", *failure)
              : fmt::format("finished its program after {} collective{}",
                            entered[device], entered[device] == 1 ? "" : "s");
  // A device that fails inside a collective was counted when it arrived.
  if (!failure || arrivals[device].call == nullptr)
    ++arrived;
  judgeRoundLocked();
}

} // namespace xspmd::runtime
