//===- Timing.cpp - time, memory and trace of a run on a topology ---------===//

#include "lib/Timing.h"
#include "runtime/report/Metrics.h"
#include "runtime/report/TraceWriter.h"
#include "runtime/timeline/TimingSimulator.h"
#include "runtime/topology/TopologyParser.h"
#include "runtime/topology/XlaMeshPlacement.h"

#include "dialects/xla/XlaOps.h"

#include <fmt/format.h>

#include <map>
#include <set>

using namespace mlir;

namespace xspmd {

static llvm::Error timingError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The default topology for `numDevices` devices in `slices` slices.
static llvm::Expected<topology::Topology>
defaultTopology(int64_t numDevices, int64_t slices, std::string &note) {
  const topology::GenerationSpec &spec =
      topology::getGenerationSpec(topology::Generation::V5p);
  if (numDevices % slices != 0)
    return timingError(fmt::format(
        "{} devices do not split into {} slices; pass --topology and --slices",
        numDevices, slices));
  int64_t perSlice = numDevices / slices;
  llvm::ArrayRef<topology::StandardSlice> standard = spec.standardSlices();
  const topology::StandardSlice *chosen = nullptr;
  for (const topology::StandardSlice &s : standard)
    if (s.chips == perSlice)
      chosen = &s;
  if (!chosen && slices == 1 && perSlice < standard.front().chips)
    chosen = &standard.front();
  if (!chosen)
    return timingError(fmt::format(
        "no standard {} slice has {} chips (the default topology is the "
        "{} slice of the run's devices); pass --topology, e.g. "
        "--topology=v5p:4x4x4",
        spec.name.str(), perSlice, spec.name.str()));
  llvm::Expected<topology::Topology> topo = topology::Topology::create(
      spec, llvm::ArrayRef(chosen->shape).take_front(spec.torusRank), slices);
  if (topo)
    note =
        fmt::format("default topology (no --topology): {}", topo->describe());
  return topo;
}

llvm::Expected<std::unique_ptr<TimedRun>>
TimedRun::create(ModuleOp module, const FunctionRunner &runner,
                 const TimingOptions &options) {
  std::unique_ptr<TimedRun> run(new TimedRun());
  int64_t numDevices = runner.getNumDevices();
  xla::MeshOp meshOp = xla::findFirstMesh(module);
  xla::MeshAttr mesh = meshOp ? meshOp.getMesh() : xla::MeshAttr();
  // A mesh of another device count is not the run's (e.g. a single-device
  // reference of a sharded program).
  if (mesh && mesh.getNumDevices() != numDevices)
    mesh = xla::MeshAttr();
  int64_t slices = options.slices;
  if (slices <= 0) {
    slices = 1;
    if (mesh && mesh.isHybrid())
      for (int64_t i = 0; i < mesh.getRank(); ++i)
        slices *= mesh.getDcnSize(i);
  }
  std::string note;
  bool defaulted = options.topology.empty();
  llvm::Expected<topology::Topology> topo =
      defaulted ? defaultTopology(numDevices, slices, note)
                : topology::parseTopology(options.topology, slices);
  if (!topo)
    return timingError(defaulted
                           ? fmt::format("default topology: {}",
                                         llvm::toString(topo.takeError()))
                           : fmt::format("--topology={}: {}", options.topology,
                                         llvm::toString(topo.takeError())));
  run->topology = std::make_unique<topology::Topology>(std::move(*topo));
  run->sync = options.syncCollectives;
  if (!note.empty())
    run->notes.push_back(note);
  else
    run->notes.push_back("topology: " + run->topology->describe());

  // The run's devices are the topology's devices 0..N-1.
  int64_t chips = run->topology->getNumDevices();
  bool smallRun = defaulted && slices == 1 &&
                  numDevices < run->topology->getChipsPerSlice();
  if (mesh && !smallRun) {
    llvm::Expected<llvm::SmallVector<topology::MeshAxisPlacement>> placed =
        topology::placeMesh(*run->topology, mesh);
    if (!placed)
      return timingError(fmt::format("mesh @{} does not fit the topology: {}",
                                     meshOp.getSymName().str(),
                                     llvm::toString(placed.takeError())));
    for (const topology::MeshAxisPlacement &axis : *placed)
      run->notes.push_back(fmt::format(
          "mesh @{} axis {}", meshOp.getSymName().str(), axis.describe()));
  } else if (numDevices > chips) {
    return timingError(
        fmt::format("the run uses {} devices but the topology {} has {} chips",
                    numDevices, run->topology->describe(), chips));
  } else if (numDevices < chips) {
    run->notes.push_back(fmt::format(
        "the run uses chip{} 0{} of the {}", numDevices == 1 ? "" : "s",
        numDevices == 1 ? std::string() : fmt::format("-{}", numDevices - 1),
        chips));
  }

  run->faults = std::make_unique<topology::FaultSet>();
  for (const std::string &spec : options.faults)
    if (llvm::Error err = run->faults->add(*run->topology, spec))
      return timingError(llvm::toString(std::move(err)));
  for (int64_t device = 0; device < numDevices; ++device)
    if (const std::string *failure = run->faults->failedDevice(device))
      return timingError(fmt::format(
          "{}, but the run uses it (the program runs on device{} 0{})",
          *failure, numDevices == 1 ? "" : "s",
          numDevices == 1 ? std::string()
                          : fmt::format("-{}", numDevices - 1)));
  for (const std::string &spec : run->faults->getSpecs())
    run->notes.push_back("fault: " + spec);

  int64_t costingStart = report::nowNs();
  timeline::CostModelOptions costOptions = options.costs;
  if (!run->faults->empty())
    costOptions.collectives.faults = run->faults.get();
  run->costs =
      std::make_unique<timeline::CostModel>(*run->topology, costOptions);
  run->programs.assign(runner.getDevicePrograms().begin(),
                       runner.getDevicePrograms().end());
  std::map<const runtime::Program *, int32_t> distinct;
  for (const runtime::Program *program : run->programs) {
    auto [it, inserted] =
        distinct.try_emplace(program, static_cast<int32_t>(run->memory.size()));
    if (inserted) {
      if (llvm::Expected<const timeline::ProgramCosts *> costed =
              run->costs->addProgram(*program);
          !costed)
        return costed.takeError();
      run->memory.push_back(report::analyzeMemory(*program));
    }
    run->memoryOf.push_back(it->second);
  }
  run->costingSeconds =
      static_cast<double>(report::nowNs() - costingStart) * 1e-9;
  std::set<int64_t> record(options.recordDevices.begin(),
                           options.recordDevices.end());
  for (int64_t d = 0; d < numDevices; ++d) {
    timeline::ClockOptions clock;
    clock.sync = options.syncCollectives;
    clock.recordEvents = record.count(d) > 0;
    run->clocks.push_back(
        std::make_unique<timeline::DeviceClock>(d, *run->costs, clock));
  }
  for (int64_t d : record)
    if (d >= 0 && d < numDevices)
      run->recorded.push_back(d);
  return run;
}

const report::MemoryProfile &TimedRun::getMemory(int64_t device) const {
  return memory[memoryOf[device]];
}

int64_t TimedRun::getPeakMemoryDevice() const {
  int64_t best = 0;
  for (int64_t d = 1; d < getNumDevices(); ++d)
    if (getMemory(d).peakBytes > getMemory(best).peakBytes)
      best = d;
  return best;
}

/// "arguments 1.0 GiB, temporaries 2.0 GiB, ..." (non-zero categories).
static std::string describeBreakdown(const report::MemoryProfile &m) {
  std::string text;
  for (int c = 0; c < report::kNumMemoryCategories; ++c) {
    if (m.peakByCategory[c] <= 0)
      continue;
    auto category = static_cast<report::MemoryCategory>(c);
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ",
                        report::formatMemoryBytes(m.peakByCategory[c]),
                        report::stringifyMemoryCategory(category).str());
  }
  return text.empty() ? "nothing" : text;
}

static std::string describeLargest(const report::MemoryProfile &m) {
  std::string text;
  for (const report::LiveTensor &t : m.largestAtPeak)
    text += fmt::format(
        "\n    {:>10}  {} {} ({})", report::formatMemoryBytes(t.bytes), t.type,
        report::stringifyMemoryCategory(t.category).str(), t.origin);
  return text;
}

static std::string peakPoint(const runtime::Program &program,
                             const report::MemoryProfile &m) {
  if (m.peakInstruction < 0)
    return "at entry";
  return "during " + program.instructions[m.peakInstruction].description;
}

llvm::Error TimedRun::checkMemory() const {
  int64_t device = getPeakMemoryDevice();
  const report::MemoryProfile &m = getMemory(device);
  double hbm = topology->getSpec().hbmBytes;
  if (m.peakBytes <= hbm)
    return llvm::Error::success();
  return timingError(fmt::format(
      "device {} needs {} of memory at its peak ({}), more than the {} of "
      "HBM of a {} chip; live at the peak: {}; largest live tensors:{}\n"
      "(shard the largest tensors over more devices, or pass "
      "--ignore-memory-limit to run anyway)",
      device, report::formatMemoryBytes(m.peakBytes),
      peakPoint(*programs[device], m), report::formatMemoryBytes(hbm),
      topology->getSpec().name.str(), describeBreakdown(m),
      describeLargest(m)));
}

void printMemoryReport(llvm::raw_ostream &os, const TimedRun &run) {
  int64_t device = run.getPeakMemoryDevice();
  const report::MemoryProfile &m = run.getMemory(device);
  double hbm = run.getTopology().getSpec().hbmBytes;
  os << fmt::format("MEMORY peak {} of {} HBM ({:.1f}%) on device {}: {}\n",
                    report::formatMemoryBytes(m.peakBytes),
                    report::formatMemoryBytes(hbm), 100.0 * m.peakBytes / hbm,
                    device, describeBreakdown(m));
  if (!m.largestAtPeak.empty())
    os << "  largest live tensors at the peak:" << describeLargest(m) << "\n";
}

std::vector<runtime::ExecutionObserver *> TimedRun::getObservers() {
  std::vector<runtime::ExecutionObserver *> observers;
  for (auto &clock : clocks)
    observers.push_back(clock.get());
  return observers;
}

llvm::Error TimedRun::runTimingOnlyStep() {
  std::vector<timeline::DeviceClock *> raw;
  for (auto &clock : clocks)
    raw.push_back(clock.get());
  return timeline::simulateStep(programs, raw);
}

report::TimingSummary TimedRun::summarize() const {
  std::vector<const timeline::DeviceClock *> raw;
  for (const auto &clock : clocks)
    raw.push_back(clock.get());
  return report::summarizeTimeline(*costs, raw);
}

std::string TimedRun::renderTrace(const std::string &description) const {
  std::vector<const timeline::DeviceClock *> shown;
  for (int64_t d : recorded)
    shown.push_back(clocks[d].get());
  report::TraceInput input;
  input.costs = costs.get();
  input.clocks = shown;
  input.description = description;
  return report::renderTrace(input);
}

llvm::Expected<std::vector<int64_t>> parseDeviceList(llvm::StringRef text,
                                                     int64_t numDevices) {
  std::vector<int64_t> devices;
  if (text.trim() == "all") {
    for (int64_t d = 0; d < numDevices; ++d)
      devices.push_back(d);
    return devices;
  }
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    auto [lo, hi] = part.trim().split('-');
    int64_t first, last;
    if (lo.getAsInteger(10, first) ||
        (hi.empty() ? (last = first, false) : hi.getAsInteger(10, last)) ||
        first > last)
      return timingError(fmt::format(
          "--trace-devices='{}': expected 'all' or device ids and ranges "
          "such as 0,3,8-15",
          text.str()));
    if (first < 0 || last >= numDevices)
      return timingError(fmt::format(
          "--trace-devices='{}': device {} does not exist (the run uses {} "
          "device{})",
          text.str(), first < 0 ? first : last, numDevices,
          numDevices == 1 ? "" : "s"));
    for (int64_t d = first; d <= last; ++d)
      devices.push_back(d);
  }
  if (devices.empty())
    return timingError("--trace-devices is empty");
  return devices;
}

} // namespace xspmd
