//===- TimingReport.cpp - step time, duty cycle, collectives --------------===//

#include "runtime/report/TimingReport.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace xspmd::report {

std::string formatSeconds(double seconds) {
  double a = std::abs(seconds);
  if (a >= 1)
    return fmt::format("{:.3f} s", seconds);
  if (a >= 1e-3)
    return fmt::format("{:.3f} ms", seconds * 1e3);
  if (a >= 1e-6)
    return fmt::format("{:.3f} us", seconds * 1e6);
  return fmt::format("{:.1f} ns", seconds * 1e9);
}

std::string formatTrafficBytes(double bytes) {
  static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  int unit = 0;
  while (unit < 5 && bytes >= 1000.0) {
    bytes /= 1000.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes)
                   : fmt::format("{:.2f} {}", bytes, units[unit]);
}

double TimingSummary::meanDutyCycle() const {
  if (devices.empty())
    return 0;
  double sum = 0;
  for (const DeviceRow &d : devices)
    sum += d.stats.dutyCycle();
  return sum / static_cast<double>(devices.size());
}

const DeviceRow *TimingSummary::minDutyDevice() const {
  auto it = std::min_element(devices.begin(), devices.end(),
                             [](const auto &a, const auto &b) {
                               return a.stats.dutyCycle() < b.stats.dutyCycle();
                             });
  return it == devices.end() ? nullptr : &*it;
}

const DeviceRow *TimingSummary::maxDutyDevice() const {
  auto it = std::max_element(devices.begin(), devices.end(),
                             [](const auto &a, const auto &b) {
                               return a.stats.dutyCycle() < b.stats.dutyCycle();
                             });
  return it == devices.end() ? nullptr : &*it;
}

TimingSummary
summarizeTimeline(const timeline::CostModel &costs,
                  llvm::ArrayRef<const timeline::DeviceClock *> clocks) {
  TimingSummary summary;
  summary.numDevices = static_cast<int64_t>(clocks.size());
  if (clocks.empty())
    return summary;
  size_t steps = clocks.front()->getSteps().size();
  double previousEnd = 0;
  for (size_t k = 0; k < steps; ++k) {
    double end = 0;
    for (const timeline::DeviceClock *clock : clocks)
      end = std::max(end, clock->getSteps()[k].end);
    summary.stepSeconds.push_back(end - previousEnd);
    previousEnd = end;
  }
  for (const timeline::DeviceClock *clock : clocks)
    summary.devices.push_back(DeviceRow{clock->getDevice(), clock->getStats()});

  const runtime::Program *program = clocks.front()->getProgram();
  if (!program)
    return summary;
  const timeline::ProgramCosts &table = costs.costsOf(*program);
  // Counts per step from how often device 0 ran each instruction (a loop's
  // at each iteration).
  const std::vector<int64_t> &runs = clocks.front()->getRuns();
  double perStep = std::max<double>(1.0, static_cast<double>(steps));
  auto runsPerStep = [&](size_t i) {
    return i < runs.size() ? static_cast<double>(runs[i]) / perStep : 0.0;
  };
  double computeRuns = 0, collectiveRuns = 0;
  for (auto [i, inst] : llvm::enumerate(program->instructions)) {
    double n = runsPerStep(i);
    if (inst.kind == runtime::InstructionKind::Loop ||
        inst.kind == runtime::InstructionKind::Case)
      summary.hasLoops = true;
    if (inst.kind == runtime::InstructionKind::Compute) {
      ++summary.computeInstructions;
      computeRuns += n;
      summary.flopsPerStep += inst.work.flops * n;
    }
    if (inst.kind != runtime::InstructionKind::Collective)
      continue;
    collectiveRuns += n;
    const timeline::CollectiveRecord &record =
        costs.getCollectives()[table.collective[i]];
    summary.collectives.push_back(CollectiveRow{static_cast<int32_t>(i),
                                                inst.opName, inst.location,
                                                inst.participants, &record, n});
    summary.linkBytesPerStep.ici += record.estimate.linkBytes.ici * n;
    summary.linkBytesPerStep.dcn += record.estimate.linkBytes.dcn * n;
    summary.sentPerDevicePerStep.ici +=
        record.estimate.bytesSentPerDevice.ici * n;
    summary.sentPerDevicePerStep.dcn +=
        record.estimate.bytesSentPerDevice.dcn * n;
  }
  summary.computeOps = static_cast<int64_t>(std::llround(computeRuns));
  summary.collectivesRun = static_cast<int64_t>(std::llround(collectiveRuns));
  return summary;
}

static std::string percent(double fraction) {
  return fmt::format("{:.1f}%", 100.0 * fraction);
}

static void printDeviceRow(llvm::raw_ostream &os,
                           const topology::Topology &topology,
                           const DeviceRow &row, double steps) {
  topology::DeviceLocation where = topology.locate(row.device);
  const timeline::DeviceStats &s = row.stats;
  os << fmt::format(
      "    {:>6}  {:>5}  {:>8}  {:>11}  {:>11}  {:>11}  {:>11}  "
      "{:>11}  {:>11}  {:>6}\n",
      row.device, where.slice,
      fmt::format("{},{},{}", where.coords[0], where.coords[1],
                  where.coords[2]),
      formatSeconds(s.span / steps), formatSeconds(s.busy / steps),
      formatSeconds(s.compute / steps), formatSeconds(s.communication / steps),
      formatSeconds(s.groupWait / steps), formatSeconds(s.stall / steps),
      percent(s.dutyCycle()));
}

void printTimingReport(llvm::raw_ostream &os, const TimingSummary &summary,
                       const timeline::CostModel &costs,
                       const ReportOptions &options) {
  const topology::Topology &topology = costs.getTopology();
  size_t steps = summary.stepSeconds.size();
  os << fmt::format("TIMING step time: {}",
                    formatSeconds(summary.lastStepSeconds()));
  if (steps > 1) {
    os << " (last of " << steps << " steps:";
    for (double s : summary.stepSeconds)
      os << " " << formatSeconds(s);
    os << ")";
  }
  os << "\n";
  os << fmt::format("  topology: {}; {} device{}\n", topology.describe(),
                    summary.numDevices, summary.numDevices == 1 ? "" : "s");
  const DeviceRow *lo = summary.minDutyDevice(), *hi = summary.maxDutyDevice();
  if (lo && hi)
    os << fmt::format("  duty cycle: {} mean (lowest {} on device {}, highest "
                      "{} on device {})\n",
                      percent(summary.meanDutyCycle()),
                      percent(lo->stats.dutyCycle()), lo->device,
                      percent(hi->stats.dutyCycle()), hi->device);
  double perStep = std::max<double>(1.0, static_cast<double>(steps));
  if (summary.lastStepSeconds() > 0 && !summary.devices.empty()) {
    double peak = topology.getSpec().peakBf16Flops;
    os << fmt::format(
        "  compute: {} ops{}, {:.4g} FLOP per device per step "
        "({} of the bf16 peak over the step)\n",
        summary.computeOps,
        summary.hasLoops ? fmt::format(" run ({} in the program, loops "
                                       "counted per iteration, branches "
                                       "as taken)",
                                       summary.computeInstructions)
                         : std::string(),
        summary.flopsPerStep,
        percent(summary.flopsPerStep / (summary.lastStepSeconds() * peak)));
  }
  auto header = [&] {
    os << fmt::format(
        "    {:>6}  {:>5}  {:>8}  {:>11}  {:>11}  {:>11}  {:>11}  "
        "{:>11}  {:>11}  {:>6}\n",
        "device", "slice", "coords", "step", "busy", "compute", "comm",
        "group wait", "stall", "duty");
  };
  if (summary.numDevices <= options.maxDeviceRows) {
    os << "  per device (mean per step):\n";
    header();
    for (const DeviceRow &row : summary.devices)
      printDeviceRow(os, topology, row, perStep);
  } else if (lo && hi) {
    os << "  per device (mean per step; the least and the most busy):\n";
    header();
    printDeviceRow(os, topology, *lo, perStep);
    if (hi != lo)
      printDeviceRow(os, topology, *hi, perStep);
  }

  std::map<std::string, int64_t> kinds;
  for (const CollectiveRow &row : summary.collectives)
    kinds[cost::stringifyCollectiveKind(timeline::toCostKind(row.record->kind))
              .str()] += std::llround(row.runsPerStep);
  os << fmt::format("  collectives per step: {}{}", summary.collectivesRun,
                    summary.hasLoops ? " run" : "");
  // Kinds that did not run (in a branch not taken) are left out.
  bool first = true;
  for (const auto &[kind, count] : kinds) {
    if (count == 0)
      continue;
    os << (first ? " (" : ", ") << count << " " << kind;
    first = false;
  }
  if (!first)
    os << ")";
  if (summary.hasLoops)
    os << fmt::format(", {} in the program (loops counted per iteration, "
                      "branches as taken)",
                      summary.collectives.size());
  os << "\n";
  if (!summary.collectives.empty()) {
    os << fmt::format("    {:>5}  {:<15}  {:<40}  {:<5}  {:>12}  {:>11}  {}\n",
                      "inst", "kind", "participants", "link", "bytes/device",
                      "time", "algorithm");
    int64_t shown = 0;
    for (const CollectiveRow &row : summary.collectives) {
      if (options.maxCollectiveRows > 0 && shown == options.maxCollectiveRows) {
        os << fmt::format("    ... {} more\n",
                          summary.collectives.size() - shown);
        break;
      }
      ++shown;
      const cost::CollectiveEstimate &est = row.record->estimate;
      std::string algorithm = est.algorithm;
      if (!est.groupSeconds.empty()) {
        auto [fastest, slowest] = std::minmax_element(est.groupSeconds.begin(),
                                                      est.groupSeconds.end());
        algorithm +=
            fmt::format(" (each group its own time: {} to {})",
                        formatSeconds(*fastest), formatSeconds(*slowest));
      }
      std::string participants = row.participants;
      if (participants.size() > 40)
        participants = participants.substr(0, 37) + "...";
      os << fmt::format(
          "    {:>5}  {:<15}  {:<40}  {:<5}  {:>12}  {:>11}  {}\n",
          row.instruction,
          cost::stringifyCollectiveKind(timeline::toCostKind(row.record->kind))
              .str(),
          participants, topology::stringifyLinkClass(est.linkClass).str(),
          formatTrafficBytes(row.record->bytesPerDevice),
          formatSeconds(est.seconds), algorithm);
      if (summary.hasLoops)
        os << fmt::format("           runs per step: {}\n",
                          std::llround(row.runsPerStep));
    }
  }
  os << fmt::format("  bytes per link class per step: ICI {} over links ({} "
                    "sent by the busiest device), DCN {} ({} sent by the "
                    "busiest device)\n",
                    formatTrafficBytes(summary.linkBytesPerStep.ici),
                    formatTrafficBytes(summary.sentPerDevicePerStep.ici),
                    formatTrafficBytes(summary.linkBytesPerStep.dcn),
                    formatTrafficBytes(summary.sentPerDevicePerStep.dcn));
}

} // namespace xspmd::report
