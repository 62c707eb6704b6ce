//===- RunMetrics.cpp - PyTorch/XLA-style metrics of timed runs -----------===//

#include "lib/RunMetrics.h"
#include "runtime/timeline/CostModel.h"

#include <fmt/format.h>

#include <map>

namespace xspmd {

/// "all-reduce" -> "AllReduce".
static std::string counterName(runtime::CollectiveKind kind) {
  std::string name;
  bool upper = true;
  for (char c :
       cost::stringifyCollectiveKind(timeline::toCostKind(kind)).str()) {
    if (c == '-') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(c)) : c;
    upper = false;
  }
  return name;
}

void recordStepMetrics(report::MetricsRegistry &metrics, const TimedRun &run,
                       llvm::ArrayRef<double> simulationSeconds) {
  report::TimingSummary summary = run.summarize();
  double clock = 0;
  for (double seconds : summary.stepSeconds) {
    clock += seconds;
    metrics.addSample("ExecuteTime", report::MetricUnit::Time, seconds * 1e9,
                      static_cast<int64_t>(clock * 1e9));
  }
  int64_t wall = report::nowNs();
  double elapsed = 0;
  for (double seconds : simulationSeconds)
    elapsed += seconds;
  double at = static_cast<double>(wall) - elapsed * 1e9;
  for (double seconds : simulationSeconds) {
    at += seconds * 1e9;
    metrics.addSample("SimulationTime", report::MetricUnit::Time, seconds * 1e9,
                      static_cast<int64_t>(at));
  }
  metrics.addSample("CostModelTime", report::MetricUnit::Time,
                    run.getCostingSeconds() * 1e9, wall);
  for (const report::CollectiveRow &row : summary.collectives)
    metrics.addToCounter(counterName(row.record->kind),
                         static_cast<int64_t>(summary.stepSeconds.size()));
}

void recordTransfer(report::MetricsRegistry &metrics, const TimedRun &run,
                    bool toDevice, double bytes, int64_t devices) {
  // Every device has its own PCIe link to its host; they transfer at once.
  double perDevice = bytes / static_cast<double>(std::max<int64_t>(devices, 1));
  double seconds = perDevice / run.getTopology().getSpec().pcieBandwidth;
  int64_t now = report::nowNs();
  metrics.addSample(toDevice ? "TransferToDeviceTime"
                             : "TransferFromDeviceTime",
                    report::MetricUnit::Time, seconds * 1e9, now);
  metrics.addSample(toDevice ? "InboundData" : "OutboundData",
                    report::MetricUnit::Bytes, bytes, now);
  metrics.addToCounter(toDevice ? "TransferToDeviceBytes"
                                : "TransferFromDeviceBytes",
                       static_cast<int64_t>(bytes));
}

void printCompilationAnalysis(llvm::raw_ostream &os,
                              const Session::CompiledGraph &graph,
                              const runtime::Program &program,
                              const report::MemoryProfile &memory) {
  const std::string rule(80, '=');
  const std::string thin(80, '-');
  auto gb = [](double bytes) {
    return fmt::format("{:.6f} GB", bytes / (1024.0 * 1024.0 * 1024.0));
  };
  os << "Compilation Analysis: " << rule << "\n"
     << "Compilation Analysis: Compilation Cause\n"
     << "Compilation Analysis:   "
     << (graph.partitioned ? "xla-run: partitioned with --xla-spmd-pipeline"
                           : "xla-run: first run of the graph")
     << "\n"
     << "Compilation Analysis: Graph Info:\n"
     << "Compilation Analysis:   Graph Hash: " << graph.hash << "\n"
     << "Compilation Analysis:   Number of Graph Inputs: "
     << program.argSpecs.size() << "\n"
     << "Compilation Analysis:   Number of Graph Outputs: "
     << program.resultSpecs.size() << "\n"
     << "Compilation Analysis:   Devices: " << graph.numDevices << "\n"
     << "Compilation Analysis: " << thin << "\n"
     << "Compilation Analysis: " << rule << "\n\n";
  os << "Post Compilation Analysis: " << rule << "\n"
     << "Post Compilation Analysis: Graph input size: "
     << gb(memory.argumentBytes) << "\n"
     << "Post Compilation Analysis: Graph output size: "
     << gb(memory.outputBytes) << "\n"
     << "Post Compilation Analysis: Aliased Input size: "
     << gb(memory.aliasedBytes) << "\n"
     << "Post Compilation Analysis: Intermediate tensor size: "
     << gb(memory.intermediateBytes) << "\n"
     << "Post Compilation Analysis: Compiled program size: "
     << gb(static_cast<double>(program.programBytes)) << "\n"
     << "Post Compilation Analysis: " << thin << "\n"
     << "Post Compilation Analysis: " << rule << "\n";
}

} // namespace xspmd
