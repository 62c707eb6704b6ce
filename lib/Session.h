//===- Session.h - a loaded module, ready to run ----------------*- C++ -*-===//
//
// The embedding API of the simulator. A Session owns an MLIR context and a
// verified module; it picks functions and device counts the way xla-run
// documents, compiles functions into runtime programs once per device
// count, and runs them on global inputs (see Runner.h).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_SESSION_H
#define XSPMD_LIB_SESSION_H

#include "dialects/xla/XlaOps.h"
#include "passes/Pipelines.h"
#include "runtime/exec/Program.h"
#include "runtime/report/Metrics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace xspmd {

class Session {
public:
  /// Parses and verifies the module in `path` ("-" for stdin). Diagnostics,
  /// with source lines, go to `diagnostics`, during loading and later
  /// compilation.
  static llvm::Expected<std::unique_ptr<Session>>
  loadFile(llvm::StringRef path, llvm::raw_ostream &diagnostics = llvm::errs());

  /// Same for module text held in memory.
  static llvm::Expected<std::unique_ptr<Session>>
  loadSource(llvm::StringRef source, llvm::StringRef bufferName,
             llvm::raw_ostream &diagnostics = llvm::errs());

  ~Session();

  mlir::ModuleOp getModule() { return *module; }

  /// The function `requested` names; with an empty name, the module's only
  /// public function with a body, else `main`.
  llvm::Expected<mlir::func::FuncOp> resolveFunction(llvm::StringRef requested);

  /// Devices to run `func` on. `requested` (> 0) must match the module's
  /// meshes (and replica groups). Otherwise: a function that communicates
  /// or asks for its device id runs on the mesh's devices (or, without a
  /// mesh, on the devices its replica groups list); any other function runs
  /// on one device.
  llvm::Expected<int64_t> resolveDeviceCount(mlir::func::FuncOp func,
                                             int64_t requested);

  /// `func` compiled for `numDevices` (cached). Fails after emitting
  /// diagnostics when the simulator cannot run it.
  llvm::Expected<const runtime::Program *> getProgram(mlir::func::FuncOp func,
                                                      int64_t numDevices);

  /// The program each device runs for `func`: a lowered entry
  /// (--xla-lower-to-device) runs on each device the body that lists it;
  /// any other function runs everywhere.
  llvm::Expected<std::vector<const runtime::Program *>>
  getDevicePrograms(mlir::func::FuncOp func, int64_t numDevices);

  /// Whether `func` is a single-device program with sharding annotations
  /// (function or op shardings, mark_sharding) that the SPMD pipeline should
  /// partition before it runs.
  static bool needsPartitioning(mlir::func::FuncOp func);

  /// Runs the SPMD pipeline on a copy of `func` and the module's meshes and
  /// adds the result to the module as `@<name>.spmd` (with its per-device
  /// bodies `@<name>.spmd.body<k>` when the pipeline lowers), leaving `func`
  /// as written (the single-device reference). Fails after emitting
  /// diagnostics.
  llvm::Expected<mlir::func::FuncOp>
  partition(mlir::func::FuncOp func, const SpmdPipelineOptions &options);

  /// Whether `func` (or a function it calls) holds per-device code: an
  /// xla.manual_computation or its xla.full_to_shard / xla.shard_to_full
  /// markers. Such a program has no single-device meaning.
  static bool hasManualCode(mlir::func::FuncOp func);

  /// The reference of a program with per-device code: a copy of `func`
  /// with every sharding annotation dropped except the manual regions',
  /// partitioned by the SPMD pipeline into `@<name>.reference` (once). Run on
  /// the mesh's devices, it runs the manual regions as written and places
  /// everything else only as they require: the program's meaning without
  /// the user's sharding choices, which must not change any value.
  llvm::Expected<mlir::func::FuncOp> manualReference(mlir::func::FuncOp func);

  /// A graph compiled for the simulator.
  struct CompiledGraph {
    /// The function to run (`@f.spmd` when partitioned) and the function
    /// it must reproduce (empty when there is none).
    std::string function, reference;
    /// Hex hash of the graph as written, the devices and the pipeline.
    std::string hash;
    int64_t numDevices = 1;
    bool partitioned = false;
    /// Whether this call found the graph in the cache.
    bool cached = false;
  };

  /// Compiles `func` as torch_xla compiles a graph at a step boundary:
  /// partitions it with the SPMD pipeline when it carries shardings (and
  /// `partition`), resolves its device count and builds its program. The
  /// result is cached by the graph's hash: calling again with the same graph
  /// is a cache hit. Counts CachedCompile / UncachedCompile and samples
  /// CompileTime (host wall time) in getMetrics().
  llvm::Expected<CompiledGraph>
  compileGraph(mlir::func::FuncOp func, int64_t requestedDevices,
               bool partition, const SpmdPipelineOptions &options);

  /// The hash compileGraph files `func` under: its ops (not their
  /// locations), the module's meshes, the devices and the pipeline.
  std::string hashGraph(mlir::func::FuncOp func, int64_t requestedDevices,
                        bool partition, const SpmdPipelineOptions &options);

  /// Files `graph`, whose functions are already in the module (e.g. loaded
  /// from a persistent cache), under `graph.hash` after building its
  /// programs: compileGraph of the same graph is then a cache hit.
  llvm::Error adoptCompiledGraph(const CompiledGraph &graph);

  /// Metrics and counters of this session (PyTorch/XLA's report).
  report::MetricsRegistry &getMetrics() { return metrics; }

private:
  Session();

  /// Runs the SPMD pipeline on a copy of `func` named `name` (dropping its
  /// sharding annotations first when `dropAnnotations`) and adds the
  /// functions it produces to the module.
  llvm::Expected<mlir::func::FuncOp>
  partitionCopy(mlir::func::FuncOp func, const SpmdPipelineOptions &options,
                llvm::StringRef name, bool dropAnnotations);

  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<llvm::SourceMgr> sourceMgr;
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> diagnosticHandler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::map<std::pair<std::string, int64_t>, runtime::Program> programs;
  std::map<std::string, CompiledGraph> graphs;
  report::MetricsRegistry metrics;
};

/// "2 all_reduce, 1 all_gather" (in order of first appearance), or "no
/// collectives"; for a lowered entry, those of its first body.
std::string describeCollectives(mlir::func::FuncOp func);

/// "2 bodies for 8 devices" for a lowered entry, else empty.
std::string describeDeviceBodies(mlir::func::FuncOp func);

/// The bodies an xla.dispatch names, in order.
llvm::SmallVector<mlir::func::FuncOp> dispatchBodies(xla::DispatchOp dispatch);

} // namespace xspmd

#endif // XSPMD_LIB_SESSION_H
