//===- TraceWriter.cpp - Chrome / Perfetto trace of a timeline ------------===//

#include "runtime/report/TraceWriter.h"

#include <fmt/format.h>

#include <algorithm>

namespace xspmd::report {

using timeline::Event;
using timeline::EventKind;

static std::string jsonEscape(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20)
        out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      else
        out += c;
    }
  }
  return out;
}

namespace {

/// Appends trace events, comma separated.
class TraceBuilder {
public:
  explicit TraceBuilder(std::string &out) : out(out) {}

  void metadata(int64_t pid, int tid, llvm::StringRef name,
                const std::string &args) {
    begin();
    if (tid < 0)
      out += fmt::format(R"({{"ph":"M","pid":{},"name":"{}","args":{{{}}}}})",
                         pid, name.str(), args);
    else
      out += fmt::format(
          R"({{"ph":"M","pid":{},"tid":{},"name":"{}","args":{{{}}}}})", pid,
          tid, name.str(), args);
  }
  /// A complete slice from `begin` to `end` (seconds).
  void slice(int64_t pid, int tid, llvm::StringRef name, double beginSec,
             double endSec, const std::string &args = "") {
    double ts = beginSec * 1e6, te = endSec * 1e6;
    begin();
    out += fmt::format(R"({{"ph":"X","pid":{},"tid":{},"name":"{}","ts":{})",
                       pid, tid, jsonEscape(name), ts);
    out += fmt::format(R"(,"dur":{})", std::max(0.0, te - ts));
    if (!args.empty())
      out += fmt::format(R"(,"args":{{{}}})", args);
    out += '}';
  }

private:
  void begin() {
    if (!first)
      out += ",\n";
    first = false;
  }
  std::string &out;
  bool first = true;
};

std::string quoted(llvm::StringRef text) {
  return "\"" + jsonEscape(text) + "\"";
}

/// The scope path of `scope`, outermost first.
llvm::SmallVector<int32_t, 4> scopePath(const runtime::Program &program,
                                        int32_t scope) {
  llvm::SmallVector<int32_t, 4> path;
  for (int32_t s = scope; s >= 0; s = program.scopes[s].parent)
    path.push_back(s);
  std::reverse(path.begin(), path.end());
  return path;
}

std::string scopeName(const runtime::Program &program, int32_t scope) {
  std::string name;
  for (int32_t s : scopePath(program, scope))
    name += (name.empty() ? "" : "/") + program.scopes[s].name;
  return name;
}

class DeviceTrace {
public:
  DeviceTrace(TraceBuilder &trace, const timeline::CostModel &costs,
              const timeline::DeviceClock &clock)
      : trace(trace), costs(costs), clock(clock), pid(clock.getDevice()),
        program(*clock.getProgram()),
        table(costs.costsOf(*clock.getProgram())) {}

  void write();

private:
  std::string collectiveName(int32_t index) const;
  std::string computeArgs(int32_t index, int32_t scope) const;
  std::string collectiveArgs(const Event &e) const;
  /// The phases of a collective's transfer, nested in [start, end].
  void phases(int tid, int32_t index, double start, double end);
  void annotations(llvm::ArrayRef<Event> events);

  TraceBuilder &trace;
  const timeline::CostModel &costs;
  const timeline::DeviceClock &clock;
  int64_t pid;
  const runtime::Program &program;
  const timeline::ProgramCosts &table;
};

std::string DeviceTrace::collectiveName(int32_t index) const {
  const runtime::Instruction &inst = program.instructions[index];
  return cost::stringifyCollectiveKind(
             timeline::toCostKind(inst.collective->kind))
      .str();
}

std::string DeviceTrace::computeArgs(int32_t index, int32_t scope) const {
  const runtime::Instruction &inst = program.instructions[index];
  const cost::ComputeEstimate &c = table.compute[index];
  std::string args = fmt::format(
      R"("op":{},"instruction":{},"location":{},"flops":{},"bytes":{},"bound":"{}")",
      quoted(inst.opName), index, quoted(inst.location), inst.work.flops,
      costs.hbmBytes(inst), c.isMemoryBound() ? "memory" : "compute");
  if (scope >= 0)
    args += fmt::format(R"(,"scope":{})", quoted(scopeName(program, scope)));
  return args;
}

std::string DeviceTrace::collectiveArgs(const Event &e) const {
  const runtime::Instruction &inst = program.instructions[e.instruction];
  const timeline::CollectiveRecord &record =
      costs.getCollectives()[table.collective[e.instruction]];
  const cost::CollectiveEstimate &est = record.estimate;
  std::string args = fmt::format(
      R"("op":{},"instruction":{},"location":{},"participants":{},"link":"{}","algorithm":{},"bytes_per_device":{},"ici_link_bytes":{},"dcn_link_bytes":{},"issued_us":{},"group_start_us":{},"end_us":{})",
      quoted(inst.opName), e.instruction, quoted(inst.location),
      quoted(inst.participants),
      topology::stringifyLinkClass(est.linkClass).str(), quoted(est.algorithm),
      record.bytesPerDevice, est.linkBytes.ici, est.linkBytes.dcn,
      e.begin * 1e6, e.groupStart * 1e6, e.end * 1e6);
  if (inst.scope >= 0)
    args +=
        fmt::format(R"(,"scope":{})", quoted(scopeName(program, inst.scope)));
  return args;
}

void DeviceTrace::phases(int tid, int32_t index, double start, double end) {
  const timeline::CollectiveRecord &record =
      costs.getCollectives()[table.collective[index]];
  const cost::CollectiveEstimate &est = record.estimate;
  // This device's group's time in a phase (0: its group has no part in it,
  // e.g. the DCN phase of a collective whose group stays on ICI).
  auto own = [&](const cost::CollectivePhase *phase) {
    return record.phaseSecondsOf(*phase, pid);
  };
  // Phases that run concurrently share a start; nest them longest first.
  size_t i = 0;
  double stageStart = start;
  while (i < est.phases.size()) {
    size_t j = i + 1;
    while (j < est.phases.size() && est.phases[j].concurrentWithPrevious)
      ++j;
    llvm::SmallVector<const cost::CollectivePhase *, 3> stage;
    double longest = 0;
    for (size_t k = i; k < j; ++k) {
      if (!record.deviceGroup.empty() && own(&est.phases[k]) <= 0)
        continue;
      stage.push_back(&est.phases[k]);
      longest = std::max(longest, own(&est.phases[k]));
    }
    std::stable_sort(stage.begin(), stage.end(),
                     [&](auto *a, auto *b) { return own(a) > own(b); });
    for (const cost::CollectivePhase *phase : stage)
      trace.slice(
          pid, tid,
          fmt::format("{} ({})", phase->operation,
                      topology::stringifyLinkClass(phase->link).str()),
          stageStart, std::min(end, stageStart + own(phase)),
          fmt::format(
              R"("algorithm":{},"latency_us":{},"bandwidth_us":{},"bytes_sent_per_device":{},"link_bytes":{})",
              quoted(phase->algorithm), phase->latencySeconds * 1e6,
              phase->bandwidthSeconds * 1e6, phase->bytesSentPerDevice,
              phase->linkBytes));
    stageStart = std::min(end, stageStart + longest);
    i = j;
  }
}

void DeviceTrace::annotations(llvm::ArrayRef<Event> events) {
  // Runs of consecutive compute-stream events sharing a scope prefix become
  // one slice per scope level: slices nest perfectly even when the program
  // interleaves the ops of several scopes.
  struct Open {
    int32_t scope;
    double begin, end;
  };
  llvm::SmallVector<Open, 4> open;
  // Slices close innermost first; they are written outermost first.
  std::vector<Open> closed;
  auto closeTo = [&](size_t depth) {
    while (open.size() > depth) {
      closed.push_back(open.back());
      open.pop_back();
    }
  };
  for (const Event &e : events) {
    if (e.kind == EventKind::AsyncCollective)
      continue;
    llvm::SmallVector<int32_t, 4> path = scopePath(program, e.scope);
    size_t common = 0;
    while (common < open.size() && common < path.size() &&
           open[common].scope == path[common])
      ++common;
    closeTo(common);
    for (size_t k = common; k < path.size(); ++k)
      open.push_back(Open{path[k], e.begin, e.end});
    for (Open &o : open)
      o.end = std::max(o.end, e.end);
  }
  closeTo(0);
  std::stable_sort(
      closed.begin(), closed.end(), [&](const Open &a, const Open &b) {
        if (a.begin != b.begin)
          return a.begin < b.begin;
        return program.scopes[a.scope].depth < program.scopes[b.scope].depth;
      });
  for (const Open &o : closed)
    trace.slice(
        pid, kAnnotationsLine, program.scopes[o.scope].name, o.begin, o.end,
        fmt::format(R"("scope":{})", quoted(scopeName(program, o.scope))));
}

void DeviceTrace::write() {
  const std::vector<Event> &events = clock.getEvents();
  const std::vector<timeline::StepSpan> &steps = clock.getSteps();
  for (auto [k, step] : llvm::enumerate(steps)) {
    trace.slice(pid, kStepsLine, fmt::format("step {}", k), step.begin,
                step.end, fmt::format(R"("step":{})", k));
    trace.slice(pid, kModulesLine, program.name, step.begin, step.end,
                fmt::format(R"("step":{})", k));
  }
  for (const Event &e : events) {
    switch (e.kind) {
    case EventKind::Compute: {
      llvm::StringRef name = program.instructions[e.instruction].opName;
      name.consume_front("xla.");
      trace.slice(pid, kOpsLine, name, e.begin, e.end,
                  computeArgs(e.instruction, e.scope));
      break;
    }
    case EventKind::SyncCollective: {
      std::string name = collectiveName(e.instruction);
      trace.slice(pid, kOpsLine, name, e.begin, e.end, collectiveArgs(e));
      if (e.groupStart > e.begin)
        trace.slice(pid, kOpsLine, "wait for group", e.begin, e.groupStart);
      phases(kOpsLine, e.instruction, e.groupStart, e.end);
      break;
    }
    case EventKind::AsyncCollective: {
      std::string name = collectiveName(e.instruction);
      std::string args = collectiveArgs(e);
      trace.slice(pid, kAsyncLine, name + "-start", e.begin, e.groupStart,
                  args);
      trace.slice(pid, kAsyncLine, name, e.groupStart, e.end, args);
      phases(kAsyncLine, e.instruction, e.groupStart, e.end);
      break;
    }
    case EventKind::Done:
      trace.slice(
          pid, kOpsLine, collectiveName(e.instruction) + "-done", e.begin,
          e.end,
          fmt::format(R"("instruction":{},"op":{},"stall_us":{})",
                      e.instruction,
                      quoted(program.instructions[e.instruction].opName),
                      (e.end - e.begin) * 1e6));
      break;
    }
  }
  // Annotations, step by step.
  size_t first = 0;
  while (first < events.size()) {
    size_t last = first;
    while (last < events.size() && events[last].step == events[first].step)
      ++last;
    annotations(llvm::ArrayRef(events).slice(first, last - first));
    first = last;
  }
}

} // namespace

std::string renderTrace(const TraceInput &input) {
  std::string out = fmt::format(
      "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"generator\":"
      "\"xspmd xla-run\",\"description\":{}}},\n\"traceEvents\":[\n",
      quoted(input.description));
  TraceBuilder trace(out);
  const topology::Topology &topology = input.costs->getTopology();
  static const char *const lineNames[] = {"",
                                          "Steps",
                                          "XLA Modules",
                                          "XLA Ops",
                                          "Async Collectives",
                                          "Trace Annotations"};
  for (const timeline::DeviceClock *clock : input.clocks) {
    int64_t d = clock->getDevice();
    topology::DeviceLocation where = topology.locate(d);
    trace.metadata(
        d, -1, "process_name",
        fmt::format(
            R"json("name":"/device:TPU:{} (slice {}, host {}, coords {},{},{})")json",
            d, where.slice, where.host, where.coords[0], where.coords[1],
            where.coords[2]));
    trace.metadata(d, -1, "process_sort_index",
                   fmt::format(R"("sort_index":{})", d));
    for (int tid = kStepsLine; tid <= kAnnotationsLine; ++tid) {
      trace.metadata(d, tid, "thread_name",
                     fmt::format(R"("name":"{}")", lineNames[tid]));
      trace.metadata(d, tid, "thread_sort_index",
                     fmt::format(R"("sort_index":{})", tid));
    }
    if (clock->getProgram())
      DeviceTrace(trace, *input.costs, *clock).write();
  }
  out += "\n]}\n";
  return out;
}

} // namespace xspmd::report
