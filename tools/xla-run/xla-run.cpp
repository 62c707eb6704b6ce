//===- xla-run.cpp - run xla programs on the SPMD simulator ---------------===//
//
// A thin driver over lib/: iree-run-module's flags for inputs, outputs and
// expected outputs, plus --devices and --check (compare an SPMD run with
// the single-device reference). docs/runtime.md describes every flag.
//
//===----------------------------------------------------------------------===//

#include "lib/Compare.h"
#include "lib/Runner.h"
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
  std::string referenceFunction;
  std::vector<std::string> deviceFunctions;
  std::optional<double> checkAtol, checkRtol;
  int64_t maxPrinted = 1024;
};

int fail(const std::string &message) {
  llvm::errs() << "xla-run: error: " << message << "\n";
  return 1;
}

int fail(llvm::Error err) { return fail(llvm::toString(std::move(err))); }

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

int run(const Options &opts) {
  llvm::Expected<std::unique_ptr<Session>> session =
      Session::loadFile(opts.module);
  if (!session)
    return fail(session.takeError());
  // A single-device program with sharding annotations is partitioned first
  // (--xla-spmd-pipeline); the program as written is then the reference.
  std::string function = opts.function;
  std::string reference = opts.referenceFunction;
  if (!opts.noPartition) {
    llvm::Expected<mlir::func::FuncOp> func =
        (*session)->resolveFunction(opts.function);
    if (!func)
      return fail(func.takeError());
    if (Session::needsPartitioning(*func)) {
      llvm::Expected<mlir::func::FuncOp> spmd =
          (*session)->partition(*func, SpmdPipelineOptions());
      if (!spmd)
        return fail(spmd.takeError());
      llvm::outs() << fmt::format(
          "PARTITIONED @{} into @{}: {}\n", func->getSymName().str(),
          spmd->getSymName().str(), describeCollectives(*spmd));
      std::string bodies = describeDeviceBodies(*spmd);
      if (!bodies.empty())
        llvm::outs() << fmt::format("LOWERED @{}: {}\n",
                                    spmd->getSymName().str(), bodies);
      function = spmd->getSymName().str();
      if (reference.empty())
        reference = func->getSymName().str();
    }
  }
  if (opts.check && reference.empty())
    return fail("--check needs a reference: annotate the program with "
                "shardings (it is then partitioned and compared with itself "
                "as written) or give --reference-function=NAME");
  llvm::Expected<FunctionRunner> runner =
      FunctionRunner::create(**session, function, opts.devices, reference);
  if (!runner)
    return fail(runner.takeError());
  for (llvm::StringRef spec : opts.deviceFunctions) {
    auto [deviceText, name] = spec.split('=');
    int64_t device;
    if (deviceText.getAsInteger(10, device) || name.empty())
      return fail(fmt::format("--device-function='{}': expected DEVICE=NAME",
                              spec.str()));
    if (llvm::Error err = runner->setDeviceFunction(**session, device, name))
      return fail(std::move(err));
  }
  llvm::Expected<std::vector<Tensor>> inputs = readInputs(opts, *runner);
  if (!inputs)
    return fail(inputs.takeError());

  llvm::outs() << fmt::format(
      "EXEC @{} on {} device{}\n", runner->getFunctionName().str(),
      runner->getNumDevices(), runner->getNumDevices() == 1 ? "" : "s");
  llvm::Expected<std::vector<Tensor>> outputs = runner->run(*inputs);
  if (!outputs)
    return fail(outputs.takeError());

  io::PrintOptions print;
  print.maxElements = opts.maxPrinted;
  io::OutputWriter writer(llvm::outs(), print);
  if (opts.outputs.empty()) {
    for (size_t i = 0; i < outputs->size(); ++i)
      writer.print((*outputs)[i], i);
  } else {
    if (opts.outputs.size() > outputs->size())
      return fail(fmt::format("{} --output flags given but the function "
                              "returns {} results",
                              opts.outputs.size(), outputs->size()));
    for (size_t i = 0; i < opts.outputs.size(); ++i)
      if (llvm::Error err = writer.add(opts.outputs[i], (*outputs)[i], i))
        return fail(std::move(err));
    if (llvm::Error err = writer.flush())
      return fail(std::move(err));
  }

  bool ok = true;
  bool compared = false;
  if (!opts.expectedOutputs.empty()) {
    llvm::Expected<bool> matched = checkExpected(opts, *outputs);
    if (!matched)
      return fail(matched.takeError());
    ok &= *matched;
    compared = true;
  }
  if (opts.check) {
    llvm::Expected<bool> matched =
        checkAgainstReference(opts, *runner, *inputs, *outputs);
    if (!matched)
      return fail(matched.takeError());
    ok &= *matched;
    compared = true;
  }
  if (compared && ok)
    llvm::outs() << "[SUCCESS] all function outputs matched their expected "
                    "values\n";
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
      ->capture_default_str();
  app.add_option("--devices", opts.devices,
                 "simulated devices (default: the module's mesh for SPMD "
                 "programs, else 1)")
      ->check(CLI::PositiveNumber);
  app.add_flag("--check", opts.check,
               "also run the reference function on one device and compare "
               "every output");
  app.add_flag("--no-partition", opts.noPartition,
               "run the function as written even when it carries shardings "
               "(default: partition it with --xla-spmd-pipeline first)");
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
      ->capture_default_str();
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
