//===- BenchSim.cpp - simulator kernel and SPMD-run benchmarks ------------===//
//
// Two measurements, each reported as medians of repeated runs made in the
// same process, and written as CSV:
//
//  dot.csv  the contraction kernel as xla-run executes it (a compiled
//           one-op program: allocation, dispatch, BLAS call) against raw
//           cblas_sgemm on preallocated buffers; GFLOP/s and their ratio.
//  mlp.csv  an MLP run on 8 simulated devices (Megatron-style, mesh
//           data=2 x model=4, with its all_reduce), end to end from global
//           inputs to global outputs, against the single-device reference
//           of the unpartitioned MLP; wall times and their ratio.
//
// Usage: xspmd-bench-sim [--out DIR] [--reps N] [--quick]
//
//===----------------------------------------------------------------------===//

#include "lib/Runner.h"
#include "runtime/exec/Executor.h"
#include "runtime/kernels/Gemm.h"
#include "runtime/kernels/Random.h"

#include "llvm/Support/raw_ostream.h"

#include <cblas.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace xspmd;
using namespace xspmd::runtime;

namespace {

using Clock = std::chrono::steady_clock;

/// Medians of `reps` timed runs of `a` and of `b`, interleaved so that both
/// see the same machine load (the host may be shared).
template <typename A, typename B>
std::pair<double, double> medianSecondsInterleaved(int reps, A a, B b) {
  a(); // warm up: page in buffers, let BLAS set itself up
  b();
  auto time = [](auto &fn) {
    auto start = Clock::now();
    fn();
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  std::vector<double> ta, tb;
  for (int r = 0; r < reps; ++r) {
    ta.push_back(time(a));
    tb.push_back(time(b));
  }
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return {ta[ta.size() / 2], tb[tb.size() / 2]};
}

Tensor randomTensor(ElementType type, llvm::ArrayRef<int64_t> shape,
                    uint64_t seed) {
  return generateInput(TensorSpec{type, Shape(shape)}, seed, 0);
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0)
      return line.substr(line.find(':') + 2);
  return "unknown";
}

struct DotCase {
  std::string name;
  int64_t m, n, k;
  /// Body of a function of (%a, %b) computing the product.
  std::string op;
  std::string lhsType, rhsType, resultType;
  bool transB;
};

std::string dotModule(const DotCase &c) {
  return fmt::format("func.func @main(%a: {0}, %b: {1}) -> {2} {{\n"
                     "  %0 = {3} : ({0}, {1}) -> {2}\n"
                     "  return %0 : {2}\n}}\n",
                     c.lhsType, c.rhsType, c.resultType, c.op);
}

int runDot(std::ofstream &csv, int reps, bool quick) {
  std::vector<DotCase> cases;
  for (int64_t s : quick ? std::vector<int64_t>{256}
                         : std::vector<int64_t>{256, 512, 1024}) {
    std::string t = fmt::format("tensor<{0}x{0}xf32>", s);
    cases.push_back({fmt::format("matmul_{}", s), s, s, s, "xla.matmul %a, %b",
                     t, t, t, false});
    cases.push_back({fmt::format("dot_general_nt_{}", s), s, s, s,
                     "xla.dot_general %a, %b, batch = [] x [], contract = "
                     "[1] x [1]",
                     t, t, t, true});
  }
  csv << "case,m,n,k,kernel_ms,kernel_gflops,sgemm_ms,sgemm_gflops,ratio\n";
  llvm::outs() << fmt::format("{:<22} {:>10} {:>14} {:>10} {:>14} {:>7}\n",
                              "dot case", "kernel ms", "kernel GF/s",
                              "sgemm ms", "sgemm GF/s", "ratio");
  for (const DotCase &c : cases) {
    llvm::Expected<std::unique_ptr<Session>> session =
        Session::loadSource(dotModule(c), "dot.mlir");
    if (!session) {
      llvm::errs() << llvm::toString(session.takeError()) << "\n";
      return 1;
    }
    llvm::Expected<FunctionRunner> runner =
        FunctionRunner::create(**session, "main", 1, "");
    if (!runner) {
      llvm::errs() << llvm::toString(runner.takeError()) << "\n";
      return 1;
    }
    Tensor a = randomTensor(ElementType::f32, {c.m, c.k}, 1);
    Tensor b = randomTensor(ElementType::f32,
                            c.transB ? Shape{c.n, c.k} : Shape{c.k, c.n}, 2);
    std::vector<Tensor> inputs = {a, b};
    std::vector<float> cbuf(c.m * c.n);
    auto [kernel, raw] = medianSecondsInterleaved(
        reps,
        [&] {
          llvm::Expected<std::vector<Tensor>> out = runner->run(inputs);
          if (!out)
            llvm::report_fatal_error(
                llvm::Twine(llvm::toString(out.takeError())));
        },
        [&] {
          cblas_sgemm(CblasRowMajor, CblasNoTrans,
                      c.transB ? CblasTrans : CblasNoTrans, c.m, c.n, c.k, 1.0f,
                      a.data<float>(), c.k, b.data<float>(),
                      c.transB ? c.k : c.n, 0.0f, cbuf.data(), c.n);
        });
    double flops = 2.0 * c.m * c.n * c.k;
    double ratio = raw / kernel;
    csv << fmt::format("{},{},{},{},{:.4f},{:.2f},{:.4f},{:.2f},{:.3f}\n",
                       c.name, c.m, c.n, c.k, kernel * 1e3,
                       flops / kernel / 1e9, raw * 1e3, flops / raw / 1e9,
                       ratio);
    llvm::outs() << fmt::format(
        "{:<22} {:>10.3f} {:>14.2f} {:>10.3f} {:>14.2f} "
        "{:>7.3f}\n",
        c.name, kernel * 1e3, flops / kernel / 1e9, raw * 1e3,
        flops / raw / 1e9, ratio);
  }
  return 0;
}

/// y = gelu(x w1) w2, as the single-device reference and as its SPMD form
/// on data=2 x model=4: x split by rows over data, w1 by columns and w2 by
/// rows over model, partial products summed over model.
std::string mlpModule(int64_t batch, int64_t dim, int64_t hidden) {
  int64_t b = batch / 2, h = hidden / 4;
  return fmt::format(
      "xla.mesh @mesh = <[\"data\"=2, \"model\"=4]>\n"
      "func.func @reference(%x: tensor<{0}x{1}xf32>, %w1: "
      "tensor<{1}x{2}xf32>, %w2: tensor<{2}x{1}xf32>) -> tensor<{0}x{1}xf32> "
      "{{\n"
      "  %h = xla.matmul %x, %w1 : (tensor<{0}x{1}xf32>, "
      "tensor<{1}x{2}xf32>) -> tensor<{0}x{2}xf32>\n"
      "  %g = xla.gelu %h : tensor<{0}x{2}xf32>\n"
      "  %y = xla.matmul %g, %w2 : (tensor<{0}x{2}xf32>, "
      "tensor<{2}x{1}xf32>) -> tensor<{0}x{1}xf32>\n"
      "  return %y : tensor<{0}x{1}xf32>\n}}\n"
      "func.func @spmd(\n"
      "    %x: tensor<{3}x{1}xf32> {{xla.sharding = "
      "#xla.sharding<@mesh, [{{\"data\"}}, {{}}]>}},\n"
      "    %w1: tensor<{1}x{4}xf32> {{xla.sharding = "
      "#xla.sharding<@mesh, [{{}}, {{\"model\"}}]>}},\n"
      "    %w2: tensor<{4}x{1}xf32> {{xla.sharding = "
      "#xla.sharding<@mesh, [{{\"model\"}}, {{}}]>}})\n"
      "    -> (tensor<{3}x{1}xf32> {{xla.sharding = "
      "#xla.sharding<@mesh, [{{\"data\"}}, {{}}]>}}) {{\n"
      "  %h = xla.matmul %x, %w1 : (tensor<{3}x{1}xf32>, "
      "tensor<{1}x{4}xf32>) -> tensor<{3}x{4}xf32>\n"
      "  %g = xla.gelu %h : tensor<{3}x{4}xf32>\n"
      "  %p = xla.matmul %g, %w2 : (tensor<{3}x{4}xf32>, "
      "tensor<{4}x{1}xf32>) -> tensor<{3}x{1}xf32>\n"
      "  %y = xla.all_reduce sum %p mesh_axes = @mesh[\"model\"] : "
      "tensor<{3}x{1}xf32>\n"
      "  return %y : tensor<{3}x{1}xf32>\n}}\n",
      batch, dim, hidden, b, h);
}

int runMlp(std::ofstream &csv, int reps, bool quick) {
  struct Size {
    int64_t batch, dim, hidden;
  };
  std::vector<Size> sizes = quick ? std::vector<Size>{{64, 128, 512}}
                                  : std::vector<Size>{{128, 256, 1024},
                                                      {256, 512, 2048},
                                                      {512, 1024, 4096}};
  csv << "batch,dim,hidden,devices,reference_ms,spmd_ms,ratio,max_abs_error\n";
  llvm::outs() << fmt::format("\n{:<20} {:>8} {:>13} {:>10} {:>7} {:>12}\n",
                              "mlp (b, d, h)", "devices", "reference ms",
                              "spmd ms", "ratio", "max abs err");
  for (const Size &s : sizes) {
    llvm::Expected<std::unique_ptr<Session>> session =
        Session::loadSource(mlpModule(s.batch, s.dim, s.hidden), "mlp.mlir");
    if (!session) {
      llvm::errs() << llvm::toString(session.takeError()) << "\n";
      return 1;
    }
    llvm::Expected<FunctionRunner> runner =
        FunctionRunner::create(**session, "spmd", 0, "reference");
    if (!runner) {
      llvm::errs() << llvm::toString(runner.takeError()) << "\n";
      return 1;
    }
    std::vector<Tensor> inputs;
    for (size_t i = 0; i < runner->getArguments().size(); ++i)
      inputs.push_back(generateInput(runner->getArguments()[i].global, 7, i));
    std::vector<Tensor> reference, spmd;
    auto [refTime, spmdTime] = medianSecondsInterleaved(
        reps,
        [&] {
          llvm::Expected<std::vector<Tensor>> out =
              runner->runReference(inputs);
          if (!out)
            llvm::report_fatal_error(
                llvm::Twine(llvm::toString(out.takeError())));
          reference = std::move(*out);
        },
        [&] {
          llvm::Expected<std::vector<Tensor>> out = runner->run(inputs);
          if (!out)
            llvm::report_fatal_error(
                llvm::Twine(llvm::toString(out.takeError())));
          spmd = std::move(*out);
        });
    double maxErr = 0;
    for (int64_t i = 0; i < spmd[0].getNumElements(); ++i)
      maxErr =
          std::max<double>(maxErr, std::fabs(spmd[0].data<float>()[i] -
                                             reference[0].data<float>()[i]));
    double ratio = spmdTime / refTime;
    csv << fmt::format("{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3g}\n", s.batch,
                       s.dim, s.hidden, runner->getNumDevices(), refTime * 1e3,
                       spmdTime * 1e3, ratio, maxErr);
    llvm::outs() << fmt::format(
        "{:<20} {:>8} {:>13.3f} {:>10.3f} {:>7.3f} {:>12.3g}\n",
        fmt::format("{}x{}x{}", s.batch, s.dim, s.hidden),
        runner->getNumDevices(), refTime * 1e3, spmdTime * 1e3, ratio, maxErr);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string outDir = "bench/results";
  int reps = 9;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc)
      outDir = argv[++i];
    else if (arg == "--reps" && i + 1 < argc)
      reps = std::max(1, std::atoi(argv[++i]));
    else if (arg == "--quick")
      quick = true;
    else {
      llvm::errs() << "usage: xspmd-bench-sim [--out DIR] [--reps N] "
                      "[--quick]\n";
      return 2;
    }
  }
  // One BLAS thread everywhere: the kernel, raw sgemm and each simulated
  // device compute with the same single-threaded BLAS.
  setBlasThreads(1);
  std::string load;
  std::getline(std::ifstream("/proc/loadavg"), load);
  std::string host =
      fmt::format("{}, {} hardware threads, load average {}", cpuModel(),
                  std::thread::hardware_concurrency(),
                  load.substr(0, load.find(' ')));
  llvm::outs() << "host: " << host << ", " << reps << " reps, medians\n";
  std::ofstream dot(outDir + "/dot.csv"), mlp(outDir + "/mlp.csv");
  if (!dot || !mlp) {
    llvm::errs() << "cannot write CSV files in " << outDir << "\n";
    return 1;
  }
  dot << "# host: " << host << "; medians of " << reps << " runs\n";
  mlp << "# host: " << host << "; medians of " << reps << " runs\n";
  if (int rc = runDot(dot, reps, quick))
    return rc;
  return runMlp(mlp, reps, quick);
}
