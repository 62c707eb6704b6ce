//===- Runtime.h - the lazy frontend's device and graph executor -*- C++
//-*-===//
//
// One Runtime plays the part of PyTorch/XLA's XLA device with its graph
// executor: it records ops on lazy Tensors into a pending graph, cuts the
// graph at markStep(), compiles it once per distinct graph (in memory and,
// when configured, in a persistent cache directory, as torch_xla's
// `xr.initialize_cache`), and runs it on the simulator of `numDevices` TPU
// chips, predicting the step's time and collectives.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_LAZY_RUNTIME_H
#define XSPMD_LIB_LAZY_RUNTIME_H

#include "lib/lazy/LazyTensor.h"
#include "lib/lazy/Mesh.h"

#include "runtime/report/Metrics.h"

#include "mlir/IR/Value.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace xspmd::lazy {

struct RuntimeOptions {
  /// Simulated devices (torch_xla `xr.global_runtime_device_count()`).
  int64_t numDevices = 8;
  /// `xla-run --topology` / `--slices` (empty/0: chosen for the device
  /// count and the meshes' DCN axes, as xla-run does).
  std::string topology;
  int64_t slices = 0;
  /// Predict each step's time on the topology.
  bool timing = true;
  /// Persistent compilation cache (empty: none), and whether it is only
  /// read (torch_xla `initialize_cache(path, readonly)`).
  std::string cacheDir;
  bool cacheReadOnly = false;
  /// Compare every partitioned graph with its single-device run.
  bool check = false;
};

/// What the last markStep() did.
struct StepReport {
  /// Hex hash of the graph, its function in the module, and whether it was
  /// found in a cache (in memory or on disk).
  std::string graphHash, function;
  bool cached = false, persistentCacheHit = false;
  bool partitioned = false;
  int64_t numDevices = 1;
  int64_t numOutputs = 0;
  /// Why this graph was compiled although an earlier one was similar
  /// (empty on a cache hit or the first compilation).
  std::string recompileReason;
  /// "2 all_reduce, 1 all_gather" (or "no collectives").
  std::string collectives;
  /// Predicted step time on the topology (0 without timing), and the
  /// topology it was predicted on.
  double stepSeconds = 0;
  std::string topology;
  /// Largest absolute difference from the single-device run (check only).
  double maxCheckError = 0;
};

class Runtime {
public:
  static llvm::Expected<std::unique_ptr<Runtime>>
  create(const RuntimeOptions &options = {});
  ~Runtime();

  const RuntimeOptions &getOptions() const { return options; }
  int64_t getNumDevices() const { return options.numDevices; }

  // --- Creating tensors -------------------------------------------------
  /// Device data holding `value` (replicated until marked).
  llvm::Expected<Tensor> fromHost(runtime::Tensor value);
  /// A constant of `shape` filled with `value`, recorded in the graph.
  llvm::Expected<Tensor> full(llvm::ArrayRef<int64_t> shape, double value,
                              runtime::ElementType type);
  /// Counter-based random numbers (the same values whatever the sharding).
  llvm::Expected<Tensor> randUniform(llvm::ArrayRef<int64_t> shape,
                                     uint64_t seed, double low, double high,
                                     runtime::ElementType type);
  llvm::Expected<Tensor> randNormal(llvm::ArrayRef<int64_t> shape,
                                    uint64_t seed, double mean, double stddev,
                                    runtime::ElementType type);
  llvm::Expected<Tensor> iota(llvm::ArrayRef<int64_t> shape, int64_t dim,
                              runtime::ElementType type);

  // --- Ops (recorded, not computed) ---------------------------------------
  llvm::Expected<Tensor> binary(BinaryOp op, const Tensor &lhs,
                                const Tensor &rhs);
  llvm::Expected<Tensor> binary(BinaryOp op, const Tensor &lhs, double rhs);
  llvm::Expected<Tensor> unary(UnaryOp op, const Tensor &x);
  llvm::Expected<Tensor> compare(CompareOp op, const Tensor &lhs,
                                 const Tensor &rhs);
  llvm::Expected<Tensor> select(const Tensor &pred, const Tensor &onTrue,
                                const Tensor &onFalse);
  /// torch.matmul for rank >= 2.
  llvm::Expected<Tensor> matmul(const Tensor &lhs, const Tensor &rhs);
  llvm::Expected<Tensor> einsum(llvm::StringRef equation, const Tensor &lhs,
                                const Tensor &rhs);
  /// Reduces `dims` (negative counts from the end); keepDims keeps them
  /// with size 1, as torch's keepdim.
  llvm::Expected<Tensor> reduce(ReduceOp op, const Tensor &x,
                                llvm::ArrayRef<int64_t> dims, bool keepDims);
  llvm::Expected<Tensor> softmax(const Tensor &x, int64_t dim);
  llvm::Expected<Tensor> transpose(const Tensor &x,
                                   llvm::ArrayRef<int64_t> permutation);
  llvm::Expected<Tensor> reshape(const Tensor &x,
                                 llvm::ArrayRef<int64_t> shape);
  /// numpy broadcasting of `x` to `shape` (trailing dimensions aligned).
  llvm::Expected<Tensor> broadcastTo(const Tensor &x,
                                     llvm::ArrayRef<int64_t> shape);
  llvm::Expected<Tensor> convert(const Tensor &x, runtime::ElementType type);
  llvm::Expected<Tensor> slice(const Tensor &x, llvm::ArrayRef<int64_t> start,
                               llvm::ArrayRef<int64_t> limit,
                               llvm::ArrayRef<int64_t> strides);
  llvm::Expected<Tensor> concatenate(llvm::ArrayRef<Tensor> inputs,
                                     int64_t dim);

  // --- Collectives with replica groups (torch_xla xm.all_reduce & co.) ----
  /// `groups` empty: all devices in one group. The graph then runs on every
  /// device as device-level SPMD code; it is not partitioned.
  llvm::Expected<Tensor>
  allReduce(const Tensor &x, ReduceOp op, double scale,
            llvm::ArrayRef<llvm::SmallVector<int64_t>> groups);
  llvm::Expected<Tensor>
  allGather(const Tensor &x, int64_t dim,
            llvm::ArrayRef<llvm::SmallVector<int64_t>> groups);
  /// Reduces across each group and leaves member i block i of `dim`.
  llvm::Expected<Tensor>
  reduceScatter(const Tensor &x, ReduceOp op, int64_t dim, double scale,
                llvm::ArrayRef<llvm::SmallVector<int64_t>> groups);
  /// torch_xla `xm.all_to_all(x, split_dimension, concat_dimension,
  /// split_count, groups)`.
  llvm::Expected<Tensor>
  allToAll(const Tensor &x, int64_t splitDim, int64_t concatDim,
           int64_t splitCount,
           llvm::ArrayRef<llvm::SmallVector<int64_t>> groups);

  // --- Sharding (torch_xla.distributed.spmd) ------------------------------
  /// `xs.mark_sharding(t, mesh, partition_spec)`: on device data the data
  /// is laid out so; on a pending tensor the graph constrains the value
  /// (`xla.mark_sharding`). Returns the sharded tensor (the same handle's
  /// data is updated, as torch_xla does in place).
  llvm::Expected<Tensor> markSharding(const Tensor &t, const Mesh &mesh,
                                      const PartitionSpec &spec);
  /// `xs.clear_sharding(t)`: replicated again.
  llvm::Error clearSharding(const Tensor &t);
  /// `xs.enable_manual_sharding(t, partition_spec, mesh=mesh)`: the result
  /// is each device's shard of `t` (its local shape); ops on it, and the
  /// collectives with groups among them, are per-device code until
  /// disableManualSharding (xla.full_to_shard, docs/manual.md).
  llvm::Expected<Tensor> enableManualSharding(const Tensor &t,
                                              const Mesh &mesh,
                                              const PartitionSpec &spec);
  /// `xs.disable_manual_sharding(t, partition_spec, full_shape,
  /// mesh=mesh)`: the global tensor of `fullShape` whose shards the devices
  /// hold in `t` (xla.shard_to_full).
  llvm::Expected<Tensor>
  disableManualSharding(const Tensor &t, const Mesh &mesh,
                        const PartitionSpec &spec,
                        llvm::ArrayRef<int64_t> fullShape);
  /// `torch_xla._XLAC._get_xla_sharding_spec(t)`: the HloSharding text
  /// (`{devices=[2,1]0,1}`), or "" when the tensor has no sharding.
  llvm::Expected<std::string> getShardingSpec(const Tensor &t);

  /// torch_xla `xr.initialize_cache(path, readonly)`: compiled graphs are
  /// kept in (and looked up from) `directory` from now on.
  llvm::Error setPersistentCache(llvm::StringRef directory, bool readOnly);

  // --- Steps -------------------------------------------------------------
  /// `xm.mark_step()`: compiles (once) and runs the pending graph; its live
  /// tensors become device data. A step with nothing pending does nothing.
  llvm::Error markStep();
  const StepReport &getLastStep() const { return lastStep; }
  /// Steps run so far (markStep calls that executed a graph).
  int64_t getNumSteps() const { return numSteps; }

  /// PyTorch/XLA's metrics: CompileTime, ExecuteTime, counters
  /// (CachedCompile, UncachedCompile, PersistentCacheHit, ...).
  report::MetricsRegistry &getMetrics();
  /// `met.metrics_report()` and `met.short_metrics_report()`.
  std::string metricsReport();
  std::string shortMetricsReport();

  /// The pending graph as `xla` IR (for debugging, as
  /// `torch_xla._XLAC._get_xla_tensors_text`).
  std::string pendingGraphText();

  struct Impl;

private:
  /// Values of `lhs` and `rhs` in the pending graph, broadcast to their
  /// common shape.
  llvm::Expected<llvm::SmallVector<mlir::Value>>
  broadcastOperands(const Tensor &lhs, const Tensor &rhs);

  Runtime();
  friend class Tensor;
  std::shared_ptr<Impl> impl;
  RuntimeOptions options;
  StepReport lastStep;
  int64_t numSteps = 0;
};

} // namespace xspmd::lazy

#endif // XSPMD_LIB_LAZY_RUNTIME_H
