//===- Communicator.h - rendezvous of device threads ------------*- C++ -*-===//
//
// Every device executes every collective of an SPMD program (the groups of
// a collective partition the devices), in program order. The communicator
// therefore runs collectives as numbered rounds: round k gathers each
// device's k-th collective; when the last device arrives, the descriptions
// are compared, and then each device computes its own result from the
// shared inputs, in parallel. A round's slot is reused once every device
// has taken its result.
//
// It never hangs, and its verdicts do not depend on thread timing: a round
// is judged once every device has either arrived or left its program
// (finished or failed). Devices that reached different collectives, or
// devices waiting for a peer that left, abort the whole run with one
// message naming the devices and ops.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COLLECTIVES_COMMUNICATOR_H
#define XSPMD_RUNTIME_COLLECTIVES_COMMUNICATOR_H

#include "runtime/collectives/CollectiveCall.h"

#include "llvm/Support/Error.h"

#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace xspmd::runtime {

class Communicator {
public:
  explicit Communicator(int64_t numDevices);

  int64_t getNumDevices() const { return numDevices; }

  /// Device `device` enters its next collective with `input`. Blocks until
  /// every device has arrived; returns this device's result, or the abort
  /// message. For the timing model, each device also brings the simulated
  /// time it issued the collective at; `groupStart`, when given, receives
  /// the latest issue time of the members of the device's group.
  llvm::Expected<Tensor> execute(int64_t device, const CollectiveCall &call,
                                 const Tensor &input, double issueTime = 0,
                                 double *groupStart = nullptr);

  /// Device `device` left its program: normally, or with `failure`. Devices
  /// waiting in (or later entering) a collective get an error.
  void deviceExited(int64_t device, std::optional<std::string> failure);

  /// The message that aborted the run, if any.
  std::optional<std::string> getAbortMessage() const;

private:
  enum class Phase { collecting, ready };
  struct Arrival {
    const CollectiveCall *call = nullptr;
    Tensor input;
    double issueTime = 0;
  };

  /// Sets the abort message (first one wins) and wakes everyone. Needs the
  /// lock.
  void abortLocked(std::string message);
  /// Judges the round once every device has arrived or left: starts the
  /// exchange or aborts. Needs the lock.
  void judgeRoundLocked();
  /// What is wrong with the current round, if anything. Needs the lock.
  std::optional<std::string> findProblemLocked() const;

  const int64_t numDevices;
  mutable std::mutex mutex;
  std::condition_variable changed;
  uint64_t round = 0;
  Phase phase = Phase::collecting;
  /// Devices in the current round (waiting or gone) and done with it.
  int64_t arrived = 0, departed = 0;
  std::vector<Arrival> arrivals;
  /// Collectives each device has entered so far.
  std::vector<uint64_t> entered;
  std::vector<bool> exited;
  /// "finished its program after 2 collectives", "failed (...)".
  std::vector<std::string> exitNotes;
  std::optional<std::string> abortMessage;
  /// All-reduce and all-gather give every member of a group the same value:
  /// one member computes it and the others share its storage (tensors are
  /// immutable), per group of the current round.
  std::vector<Tensor> groupResults;
  std::vector<bool> groupComputing, groupReady;
};

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_COLLECTIVES_COMMUNICATOR_H
