//===- TimingSimulator.cpp - timelines without numerics -------------------===//

#include "runtime/timeline/TimingSimulator.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <cassert>
#include <deque>
#include <map>
#include <tuple>

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
  // Classes of devices in step, each walked on one clock: a member's own,
  // or a copy made when the class split.
  struct Class {
    DeviceClock *clock;
    std::vector<int64_t> members;
    size_t pc = 0;
    double issue = 0;
  };
  std::vector<Class> classes;
  // Never more classes than devices: references into it stay valid.
  classes.reserve(numDevices);
  std::vector<size_t> classOf(numDevices);
  std::deque<DeviceClock> copies;
  {
    // Candidates by program and times, then compared in full.
    std::map<std::tuple<const runtime::Program *, double, double, double>,
             std::vector<size_t>>
        buckets;
    for (size_t d = 0; d < numDevices; ++d) {
      const DeviceClock &clock = *clocks[d];
      std::vector<size_t> *candidates = nullptr;
      if (!clock.recordsEvents()) {
        candidates = &buckets[{
            programs[d], clock.getStats().span, clock.getStats().busy,
            clock.getSteps().empty() ? 0.0 : clock.getSteps().back().end}];
        auto match = llvm::find_if(*candidates, [&](size_t c) {
          return programs[classes[c].members.front()] == programs[d] &&
                 classes[c].clock->sameTimeline(clock);
        });
        if (match != candidates->end()) {
          classOf[d] = *match;
          classes[*match].members.push_back(static_cast<int64_t>(d));
          continue;
        }
      }
      classOf[d] = classes.size();
      if (candidates)
        candidates->push_back(classes.size());
      classes.push_back(Class{clocks[d], {static_cast<int64_t>(d)}});
    }
  }
  auto pcOf = [&](size_t d) { return classes[classOf[d]].pc; };
  for (Class &c : classes)
    c.clock->beginProgram(*programs[c.members.front()]);
  std::vector<double> groupStart(numDevices);
  std::vector<int32_t> groupsOf(numDevices);
  for (int64_t round = 1;; ++round) {
    // Every device runs up to its next collective and issues it.
    for (Class &c : classes) {
      const auto &instructions = programs[c.members.front()]->instructions;
      size_t &i = c.pc;
      while (i < instructions.size() &&
             instructions[i].kind != runtime::InstructionKind::Collective)
        c.clock->onInstruction(static_cast<int32_t>(i++));
      if (i < instructions.size())
        c.issue = c.clock->issueCollective(static_cast<int32_t>(i));
    }
    std::vector<int64_t> finished;
    for (size_t d = 0; d < numDevices; ++d)
      if (pcOf(d) == programs[d]->instructions.size())
        finished.push_back(d);
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
      if (pcOf(d) == programs[d]->instructions.size())
        continue;
      const runtime::CollectiveCall *call =
          programs[d]->instructions[pcOf(d)].collective.get();
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
    std::fill(groupsOf.begin(), groupsOf.end(), 0);
    for (const auto &group : call.groups) {
      double start = 0;
      for (int64_t member : group)
        start = std::max(start, classes[classOf[member]].issue);
      for (int64_t member : group) {
        groupStart[member] = start;
        ++groupsOf[member];
      }
    }
    // A device in no group or in several (no class can stand for it):
    // every device on its own clock from here on.
    if (llvm::any_of(groupsOf, [](int32_t n) { return n != 1; })) {
      size_t numClasses = classes.size();
      for (size_t c = 0; c < numClasses; ++c)
        for (size_t k = 1; k < classes[c].members.size(); ++k) {
          int64_t d = classes[c].members[k];
          classOf[d] = classes.size();
          classes.push_back(Class{&copies.emplace_back(*classes[c].clock, d),
                                  {d},
                                  classes[c].pc,
                                  classes[c].issue});
        }
      for (size_t c = 0; c < numClasses; ++c)
        classes[c].members.resize(1);
      for (const auto &group : call.groups) {
        double start = 0;
        for (int64_t member : group)
          start = std::max(start, classes[classOf[member]].issue);
        for (int64_t member : group) {
          Class &c = classes[classOf[member]];
          c.clock->startCollective(static_cast<int32_t>(c.pc), start);
          ++c.pc;
        }
      }
      continue;
    }
    // Members whose group starts at another time, or whose collective lasts
    // another time, leave their class (in order of their first member).
    size_t numClasses = classes.size();
    for (size_t c = 0; c < numClasses; ++c) {
      auto index = static_cast<int32_t>(classes[c].pc);
      auto key = [&](int64_t d) {
        return std::make_pair(groupStart[d],
                              classes[c].clock->collectiveSeconds(index, d));
      };
      std::vector<int64_t> &members = classes[c].members;
      auto first = key(members.front());
      if (llvm::all_of(members, [&](int64_t d) { return key(d) == first; }))
        continue;
      std::vector<std::pair<std::pair<double, double>, size_t>> parts;
      std::vector<int64_t> kept;
      for (int64_t d : members) {
        auto k = key(d);
        if (k == first) {
          kept.push_back(d);
          continue;
        }
        auto part =
            llvm::find_if(parts, [&](const auto &p) { return p.first == k; });
        if (part == parts.end()) {
          parts.push_back({k, classes.size()});
          classes.push_back(Class{&copies.emplace_back(*classes[c].clock, d),
                                  {},
                                  classes[c].pc,
                                  classes[c].issue});
          part = parts.end() - 1;
        }
        classOf[d] = part->second;
        classes[part->second].members.push_back(d);
      }
      // The class's clock computes durations for its own device: keep it
      // with the members that match its first one.
      members = std::move(kept);
    }
    for (Class &c : classes) {
      c.clock->startCollective(static_cast<int32_t>(c.pc),
                               groupStart[c.members.front()]);
      ++c.pc;
    }
  }
  for (Class &c : classes) {
    c.clock->endProgram();
    for (int64_t d : c.members)
      if (clocks[d] != c.clock)
        clocks[d]->followTimeline(*c.clock);
  }
  return llvm::Error::success();
}

} // namespace xspmd::timeline
