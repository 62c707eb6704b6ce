//===- xla-run.cpp - run xla programs on the SPMD simulator ---------------===//
//
// A thin driver over lib/: iree-run-module's flags for inputs, outputs and
// expected outputs, plus --devices and --check (compare an SPMD run with
// the single-device reference). docs/runtime.md describes every flag.
//
//===----------------------------------------------------------------------===//

#include "lib/Compare.h"
#include "lib/RunMetrics.h"
#include "lib/Runner.h"
#include "lib/Timing.h"
#include "lib/io/Npy.h"
#include "lib/io/ValueSpecs.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using namespace xspmd;
using runtime::Tensor;

namespace {

struct Options {
  std::string module;
  std::string function;
  std::vector<std::string> inputs, outputs, expectedOutputs;
  ExpectedThresholds thresholds;
  uint64_t seed = 0;
  int64_t devices = 0;
  bool check = false;
  bool noPartition = false;
  std::string halo = "auto";
  std::string referenceFunction;
  std::vector<std::string> deviceFunctions;
  std::optional<double> checkAtol, checkRtol;
  int64_t maxPrinted = 1024;
  // Timing (docs/simulator.md).
  bool timing = false;
  bool timingOnly = false;
  std::string topology;
  int64_t slices = 0;
  std::vector<std::string> faults;
  std::string syncCollectives;
  bool noFusion = false;
  std::string trace, traceDevices;
  bool metrics = false;
  int64_t repeat = 1;
  bool ignoreMemoryLimit = false;
};

int fail(const std::string &message) {
  llvm::errs() << "xla-run: error: " << message << "\n";
  return 1;
}

int fail(llvm::Error err) { return fail(llvm::toString(std::move(err))); }

/// A CLI11 check that the option's value is an integer >= `min` (CLI11's
/// own conversion would wrap "-1" into an unsigned seed, and its range
/// validators print the bounds as doubles).
CLI::Validator integerAtLeast(int64_t min) {
  return CLI::Validator(
      [min](std::string &text) -> std::string {
        llvm::StringRef value(text);
        int64_t v;
        uint64_t big;
        bool ok = !value.getAsInteger(10, v)
                      ? v >= min
                      : !value.starts_with("-") && !value.getAsInteger(10, big);
        return ok ? ""
                  : fmt::format("expected an integer >= {}, got '{}'", min,
                                text);
      },
      fmt::format("INT>={}", min));
}

/// Reads --input flags; generates the arguments they leave out.
llvm::Expected<std::vector<Tensor>> readInputs(const Options &opts,
                                               const FunctionRunner &runner) {
  std::vector<runtime::TensorSpec> specs;
  for (const ValueLayout &arg : runner.getArguments())
    specs.push_back(arg.global);
  io::InputReader reader;
  std::vector<Tensor> inputs;
  for (const std::string &spec : opts.inputs) {
    llvm::Expected<std::vector<Tensor>> read = reader.read(
        spec,
        llvm::ArrayRef(specs).drop_front(std::min(inputs.size(), specs.size())),
        inputs.size());
    if (!read)
      return read.takeError();
    inputs.insert(inputs.end(), read->begin(), read->end());
  }
  for (size_t i = inputs.size(); i < specs.size(); ++i) {
    llvm::errs() << fmt::format("xla-run: note: input {} ({}) generated from "
                                "--seed={}\n",
                                i, specs[i].toString(), opts.seed);
    inputs.push_back(generateInput(specs[i], opts.seed, i));
  }
  return inputs;
}

/// --expected_output: true when every given expectation holds.
llvm::Expected<bool> checkExpected(const Options &opts,
                                   llvm::ArrayRef<Tensor> outputs) {
  if (opts.expectedOutputs.size() > outputs.size())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        fmt::format("{} expected outputs given but the function returns {}",
                    opts.expectedOutputs.size(), outputs.size()));
  bool ok = true;
  for (size_t i = 0; i < opts.expectedOutputs.size(); ++i) {
    llvm::StringRef spec = opts.expectedOutputs[i];
    if (spec.trim() == "(ignored)")
      continue;
    runtime::TensorSpec resultSpec{outputs[i].getElementType(),
                                   runtime::Shape(outputs[i].getShape())};
    llvm::Expected<Tensor> expected = io::readValue(spec, resultSpec);
    if (!expected)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          fmt::format("--expected_output {}: {}", i,
                      llvm::toString(expected.takeError())));
    Comparison c =
        compareTensors(outputs[i], *expected,
                       opts.thresholds.forType(outputs[i].getElementType()));
    if (!c.matches) {
      llvm::outs() << fmt::format("[FAILED] result[{}]: {}\n", i, c.failure);
      ok = false;
    }
  }
  return ok;
}

/// --check: runs the reference and compares every output.
llvm::Expected<bool> checkAgainstReference(const Options &opts,
                                           const FunctionRunner &runner,
                                           llvm::ArrayRef<Tensor> inputs,
                                           llvm::ArrayRef<Tensor> outputs) {
  llvm::Expected<std::vector<Tensor>> reference = runner.runReference(inputs);
  if (!reference)
    return reference.takeError();
  bool ok = true;
  for (size_t i = 0; i < outputs.size(); ++i) {
    Tolerance tol = checkTolerance((*reference)[i]);
    if (opts.checkAtol)
      tol.atol = *opts.checkAtol;
    if (opts.checkRtol)
      tol.rtol = *opts.checkRtol;
    Comparison c = compareTensors(outputs[i], (*reference)[i], tol);
    llvm::outs() << fmt::format(
        "[check] result[{}]: {} max abs error {:.3g}, max rel error {:.3g} "
        "(atol {:g}, rtol {:g}): {}\n",
        i, outputs[i].getTypeString(), c.maxAbsError, c.maxRelError, tol.atol,
        tol.rtol, c.matches ? "ok" : "MISMATCH");
    if (!c.matches) {
      llvm::outs() << fmt::format("[FAILED] result[{}]: {} ({} mismatching)\n",
                                  i, c.failure, c.mismatches);
      ok = false;
    }
  }
  return ok;
}

/// --output flags, or print every result.
int writeOutputs(const Options &opts, llvm::ArrayRef<Tensor> outputs) {
  io::PrintOptions print;
  print.maxElements = opts.maxPrinted;
  io::OutputWriter writer(llvm::outs(), print);
  if (opts.outputs.empty()) {
    for (size_t i = 0; i < outputs.size(); ++i)
      writer.print(outputs[i], i);
    return 0;
  }
  if (opts.outputs.size() > outputs.size())
    return fail(fmt::format("{} --output flags given but the function "
                            "returns {} results",
                            opts.outputs.size(), outputs.size()));
  for (size_t i = 0; i < opts.outputs.size(); ++i)
    if (llvm::Error err = writer.add(opts.outputs[i], outputs[i], i))
      return fail(std::move(err));
  if (llvm::Error err = writer.flush())
    return fail(std::move(err));
  return 0;
}

bool timingRequested(const Options &opts) {
  return opts.timing || opts.timingOnly || !opts.topology.empty() ||
         opts.slices > 0 || !opts.trace.empty() || opts.metrics ||
         !opts.faults.empty();
}

/// Everything the first step sets up: the runner, the timing model, the
/// inputs.
struct RunState {
  std::optional<FunctionRunner> runner;
  std::unique_ptr<TimedRun> timed;
  std::vector<Tensor> inputs;
  std::string reference;
};

/// The first step's set-up, after the graph is compiled.
int prepare(const Options &opts, Session &session,
            const Session::CompiledGraph &graph, RunState &state) {
  if (graph.partitioned) {
    auto spmd =
        session.getModule().lookupSymbol<mlir::func::FuncOp>(graph.function);
    llvm::outs() << fmt::format("PARTITIONED @{} into @{}: {}\n",
                                graph.reference, graph.function,
                                describeCollectives(spmd));
    std::string bodies = describeDeviceBodies(spmd);
    if (!bodies.empty())
      llvm::outs() << fmt::format("LOWERED @{}: {}\n", graph.function, bodies);
  }
  state.reference =
      opts.referenceFunction.empty() ? graph.reference : opts.referenceFunction;
  if (opts.check && state.reference.empty())
    return fail("--check needs a reference: annotate the program with "
                "shardings (it is then partitioned and compared with itself "
                "as written) or give --reference-function=NAME");
  // Timing-only runs never execute the reference (a global program may not
  // fit this host).
  llvm::Expected<FunctionRunner> runner =
      FunctionRunner::create(session, graph.function, opts.devices,
                             opts.timingOnly ? "" : state.reference);
  if (!runner)
    return fail(runner.takeError());
  state.runner.emplace(std::move(*runner));
  for (llvm::StringRef spec : opts.deviceFunctions) {
    auto [deviceText, name] = spec.split('=');
    int64_t device;
    if (deviceText.getAsInteger(10, device) || name.empty())
      return fail(fmt::format("--device-function='{}': expected DEVICE=NAME",
                              spec.str()));
    if (llvm::Error err =
            state.runner->setDeviceFunction(session, device, name))
      return fail(std::move(err));
  }
  int64_t numDevices = state.runner->getNumDevices();
  if (timingRequested(opts)) {
    TimingOptions timing;
    timing.topology = opts.topology;
    timing.slices = opts.slices;
    timing.faults = opts.faults;
    if (!opts.syncCollectives.empty()) {
      llvm::Expected<timeline::SyncCollectives> sync =
          timeline::SyncCollectives::parse(opts.syncCollectives);
      if (!sync)
        return fail("--sync-collectives=" + opts.syncCollectives + ": " +
                    llvm::toString(sync.takeError()));
      timing.syncCollectives = *sync;
    }
    timing.costs.fuseElementwise = !opts.noFusion;
    if (!opts.trace.empty()) {
      // Default: every device of small runs, the first 64 of large ones.
      std::string devices = !opts.traceDevices.empty() ? opts.traceDevices
                            : numDevices <= 64         ? std::string("all")
                                                       : std::string("0-63");
      llvm::Expected<std::vector<int64_t>> list =
          parseDeviceList(devices, numDevices);
      if (!list)
        return fail(list.takeError());
      timing.recordDevices = std::move(*list);
    }
    llvm::Expected<std::unique_ptr<TimedRun>> timed =
        TimedRun::create(session.getModule(), *state.runner, timing);
    if (!timed)
      return fail(timed.takeError());
    state.timed = std::move(*timed);
    for (const std::string &note : state.timed->getPlacementNotes())
      llvm::outs() << "TOPOLOGY " << note << "\n";
    if (opts.metrics)
      printCompilationAnalysis(
          llvm::outs(), graph,
          *state.runner
               ->getDevicePrograms()[state.timed->getPeakMemoryDevice()],
          state.timed->getMemory(state.timed->getPeakMemoryDevice()));
    if (llvm::Error err = state.timed->checkMemory()) {
      if (!opts.ignoreMemoryLimit)
        return fail(std::move(err));
      llvm::errs() << "xla-run: warning: " << llvm::toString(std::move(err))
                   << "\nxla-run: note: going on (--ignore-memory-limit)\n";
    }
  }
  if (opts.timingOnly)
    return 0;
  llvm::Expected<std::vector<Tensor>> inputs = readInputs(opts, *state.runner);
  if (!inputs)
    return fail(inputs.takeError());
  state.inputs = std::move(*inputs);
  if (state.timed && opts.metrics)
    recordTransfer(session.getMetrics(), *state.timed, /*toDevice=*/true,
                   state.runner->transferToDeviceBytes(), numDevices);
  return 0;
}

/// Prints the reports a timed run asked for, and writes the trace.
int reportTiming(const Options &opts, Session &session, RunState &state,
                 llvm::ArrayRef<double> simulationSeconds) {
  TimedRun &timed = *state.timed;
  report::printTimingReport(llvm::outs(), timed.summarize(),
                            timed.getCostModel());
  printMemoryReport(llvm::outs(), timed);
  if (!opts.trace.empty()) {
    std::string description = fmt::format(
        "@{} on {}; {} collectives; {} step{}",
        state.runner->getFunctionName().str(), timed.getTopology().describe(),
        timed.getSyncCollectives().isNone()
            ? std::string("asynchronous")
            : "synchronous: " + timed.getSyncCollectives().describe(),
        opts.repeat, opts.repeat == 1 ? "" : "s");
    if (llvm::Error err =
            io::writeFileAtomically(opts.trace, timed.renderTrace(description)))
      return fail(std::move(err));
    llvm::outs() << fmt::format("TRACE written to {} (open it at "
                                "https://ui.perfetto.dev, Open trace file)\n",
                                opts.trace);
  }
  if (opts.metrics) {
    recordStepMetrics(session.getMetrics(), timed, simulationSeconds);
    llvm::outs() << session.getMetrics().report();
  }
  return 0;
}

int run(const Options &opts) {
  llvm::Expected<std::unique_ptr<Session>> session =
      Session::loadFile(opts.module);
  if (!session)
    return fail(session.takeError());
  if (opts.timingOnly &&
      (opts.check || !opts.inputs.empty() || !opts.outputs.empty() ||
       !opts.expectedOutputs.empty()))
    return fail("--timing-only runs no numerics: it takes no --input, "
                "--output, --expected_output or --check");
  llvm::Expected<mlir::func::FuncOp> func =
      (*session)->resolveFunction(opts.function);
  if (!func)
    return fail(func.takeError());

  // Every step compiles its graph, as torch_xla does at each mark_step: the
  // first compiles for real, the later ones hit the cache. A single-device
  // program with sharding annotations is partitioned (--xla-spmd-pipeline);
  // the program as written is then the reference.
  RunState state;
  std::vector<Tensor> outputs;
  std::vector<double> simulationSeconds;
  SpmdPipelineOptions pipeline;
  pipeline.halo = opts.halo == "always"  ? partition::HaloMode::always
                  : opts.halo == "never" ? partition::HaloMode::never
                                         : partition::HaloMode::automatic;
  for (int64_t step = 0; step < opts.repeat; ++step) {
    llvm::Expected<Session::CompiledGraph> graph = (*session)->compileGraph(
        *func, opts.devices, !opts.noPartition, pipeline);
    if (!graph)
      return fail(graph.takeError());
    if (step == 0) {
      if (int status = prepare(opts, **session, *graph, state))
        return status;
      llvm::outs() << fmt::format(
          "EXEC @{} on {} device{}{}{}\n",
          state.runner->getFunctionName().str(), state.runner->getNumDevices(),
          state.runner->getNumDevices() == 1 ? "" : "s",
          opts.timingOnly ? " (timing only)" : "",
          opts.repeat > 1 ? fmt::format(", {} steps", opts.repeat) : "");
    }
    int64_t start = report::nowNs();
    if (opts.timingOnly) {
      if (llvm::Error err = state.timed->runTimingOnlyStep())
        return fail(std::move(err));
    } else {
      std::vector<runtime::ExecutionObserver *> observers;
      if (state.timed)
        observers = state.timed->getObservers();
      llvm::Expected<std::vector<Tensor>> result =
          state.runner->run(state.inputs, observers);
      if (!result)
        return fail(result.takeError());
      outputs = std::move(*result);
    }
    simulationSeconds.push_back(static_cast<double>(report::nowNs() - start) *
                                1e-9);
  }

  bool ok = true;
  if (!opts.timingOnly) {
    if (int status = writeOutputs(opts, outputs))
      return status;
    bool compared = false;
    if (!opts.expectedOutputs.empty()) {
      llvm::Expected<bool> matched = checkExpected(opts, outputs);
      if (!matched)
        return fail(matched.takeError());
      ok &= *matched;
      compared = true;
    }
    if (opts.check) {
      llvm::Expected<bool> matched =
          checkAgainstReference(opts, *state.runner, state.inputs, outputs);
      if (!matched)
        return fail(matched.takeError());
      ok &= *matched;
      compared = true;
    }
    if (compared && ok)
      llvm::outs() << "[SUCCESS] all function outputs matched their expected "
                      "values\n";
    if (state.timed && opts.metrics) {
      // The host receives one copy of each result block, from all devices
      // at once.
      double bytes = 0;
      for (const Tensor &t : outputs)
        bytes += static_cast<double>(t.getByteSize());
      recordTransfer((*session)->getMetrics(), *state.timed,
                     /*toDevice=*/false, bytes, state.runner->getNumDevices());
    }
  }
  if (state.timed)
    if (int status = reportTiming(opts, **session, state, simulationSeconds))
      return status;
  llvm::outs().flush();
  return ok ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options opts;
  CLI::App app{"xla-run: runs a function of an xla module on the SPMD "
               "simulator (iree-run-module conventions)"};
  app.add_option("module", opts.module, "MLIR module (- for stdin)")
      ->required();
  app.add_option("--function", opts.function,
                 "function to run (default: the only public one, or main)");
  app.add_option("--input", opts.inputs,
                 "argument, in order: 2x3xf32=1,2,..., f32=1.5, @x.npy, "
                 "+x.npy, *x.npy");
  app.add_option("--output", opts.outputs,
                 "per result: - (print), @y.npy, +y.npy, or empty to skip");
  app.add_option("--expected_output", opts.expectedOutputs,
                 "per result: a tensor literal, @file.npy or (ignored)");
  app.add_option("--expected_f32_threshold", opts.thresholds.f32,
                 "absolute tolerance of f32 expected outputs")
      ->capture_default_str();
  app.add_option("--expected_f64_threshold", opts.thresholds.f64,
                 "absolute tolerance of f64 expected outputs")
      ->capture_default_str();
  app.add_option("--expected_f16_threshold", opts.thresholds.f16,
                 "absolute tolerance of f16 expected outputs")
      ->capture_default_str();
  app.add_option("--expected_bf16_threshold", opts.thresholds.bf16,
                 "absolute tolerance of bf16 expected outputs")
      ->capture_default_str();
  app.add_option("--seed", opts.seed, "seed of the inputs not given")
      ->capture_default_str()
      ->check(integerAtLeast(0));
  app.add_option("--devices", opts.devices,
                 "simulated devices (default: the module's mesh for SPMD "
                 "programs, else 1)")
      ->check(integerAtLeast(1));
  app.add_flag("--check", opts.check,
               "also run the reference function on one device and compare "
               "every output");
  app.add_flag("--no-partition", opts.noPartition,
               "run the function as written even when it carries shardings "
               "(default: partition it with --xla-spmd-pipeline first)");
  app.add_option("--halo", opts.halo,
                 "split windowed dimensions: exchange halos by cost (auto), "
                 "whenever the window fits (always) or never (gather)")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--reference-function", opts.referenceFunction,
                 "unpartitioned function computing the same results on "
                 "global shapes");
  app.add_option("--device-function", opts.deviceFunctions,
                 "DEVICE=NAME: device DEVICE runs function NAME instead "
                 "(per-device programs)");
  app.add_option("--check_atol", opts.checkAtol,
                 "absolute tolerance of --check (default per type)");
  app.add_option("--check_rtol", opts.checkRtol,
                 "relative tolerance of --check (default per type)");
  app.add_option("--output_max_element_count", opts.maxPrinted,
                 "elements printed per result (0: all)")
      ->capture_default_str()
      ->check(integerAtLeast(0));
  app.add_flag("--timing", opts.timing,
               "predict the run's time on a TPU topology (the default one "
               "unless --topology): step time, duty cycle, collectives, bytes "
               "per link class, peak memory");
  app.add_flag("--timing-only", opts.timingOnly,
               "simulate the timeline without numerics (no kernels, no "
               "data): thousands of devices in seconds");
  app.add_option("--topology", opts.topology,
                 "TPU topology: v5p:4x4x4, v4:2x2x1, v6e:16x16, or an "
                 "accelerator type (v4-8, v5p-128, v5litepod-16); default: "
                 "the v5p slice of the run's devices");
  app.add_option("--slices", opts.slices,
                 "slices joined by DCN (default: the hybrid mesh's DCN size, "
                 "or 1)")
      ->check(CLI::PositiveNumber);
  app.add_option("--fault", opts.faults,
                 "inject a fault (repeatable): link:DEVICE:AXIS(+|-):slow=F, "
                 "link:DEVICE:AXIS(+|-):fail, device:DEVICE:fail, "
                 "dcn:slow=F, dcn:SLICE:slow=F");
  app.add_flag("--sync-collectives{all}", opts.syncCollectives,
               "run collectives on the compute stream: all of them, or "
               "=KIND,... of all-gather, all-reduce, reduce-scatter, "
               "all-to-all, collective-permute, as XLA runs a kind whose "
               "async flag is off (default: async start/done pairs "
               "overlapping compute)");
  app.add_flag("--no-fusion", opts.noFusion,
               "charge every op its full HBM traffic (default: elementwise "
               "chains fuse into their consumers, as XLA fuses them)");
  app.add_option("--trace", opts.trace,
                 "write a Chrome/Perfetto trace (JSON) of the timeline");
  app.add_option("--trace-devices", opts.traceDevices,
                 "devices in the trace: all, or ids and ranges such as "
                 "0,3,8-15 (default: all up to 64 devices, else 0-63)");
  app.add_flag("--metrics", opts.metrics,
               "print PyTorch/XLA's metrics report and compilation analysis");
  app.add_option("--repeat", opts.repeat,
                 "run the step N times (later steps hit the compile cache)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_flag("--ignore-memory-limit", opts.ignoreMemoryLimit,
               "go on when a device's peak memory exceeds its HBM");
  // One value per occurrence: `--input=a b` must not swallow `b`.
  for (CLI::Option *opt : app.get_options())
    opt->allow_extra_args(false);
  // CLI11 takes `--output=` for a missing value; iree means "skip it".
  std::vector<std::string> args(argv + 1, argv + argc);
  for (std::string &arg : args)
    if (arg == "--output=" || arg == "--expected_output=")
      arg += "(ignored)";
  std::reverse(args.begin(), args.end()); // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  return run(opts);
}
