//===- RuntimeImpl.h - the state behind a lazy Runtime ----------*- C++ -*-===//
//
// Shared by Runtime.cpp (steps, caching, sharding) and RecordOps.cpp (the
// ops a Tensor records). Not installed: embedders use Runtime.h.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_LAZY_RUNTIMEIMPL_H
#define XSPMD_LIB_LAZY_RUNTIMEIMPL_H

#include "lib/Runner.h"
#include "lib/Session.h"
#include "lib/Timing.h"
#include "lib/lazy/PersistentCache.h"
#include "lib/lazy/Runtime.h"

#include "mlir/IR/Builders.h"

#include <functional>

namespace xspmd::lazy {

/// What a Tensor handle points at: either an op of the pending graph (a
/// value of the graph being recorded, valid while `epoch` is the
/// runtime's) or device data (a global value held on the host, laid out
/// on the devices by `sharding`).
struct TensorData {
  /// Not owning: a tensor may outlive its runtime (then it is only data).
  std::weak_ptr<Runtime::Impl> owner;
  /// Shape and element type, readable when the runtime (and the MLIR
  /// context `type` lives in) is gone.
  runtime::Shape shape;
  runtime::ElementType elementType = runtime::ElementType::f32;
  mlir::RankedTensorType type;
  mlir::Value value;
  uint64_t epoch = 0;
  runtime::Tensor host;
  /// The layout of device data, or the constraint a pending value carries
  /// (null: replicated / none).
  xla::ShardingAttr sharding;
  /// Why a step did not keep this pending value, when it was alive but
  /// could not be an output (a per-device value).
  std::string dropped;
};

struct Runtime::Impl : std::enable_shared_from_this<Runtime::Impl> {
  Runtime *self = nullptr;
  RuntimeOptions options;
  std::unique_ptr<Session> session;
  mlir::MLIRContext *context = nullptr;
  /// The graph being recorded: a private function of the session's module.
  mlir::func::FuncOp pending;
  mlir::OpBuilder builder;
  uint64_t epoch = 1;
  /// Device data read by the pending graph, in argument order.
  std::vector<std::shared_ptr<TensorData>> arguments;
  /// Every tensor recorded in this epoch; the live ones are the outputs.
  std::vector<std::weak_ptr<TensorData>> recorded;
  /// Mesh symbols by their attribute.
  llvm::DenseMap<mlir::Attribute, mlir::FlatSymbolRefAttr> meshes;
  /// Per compiled graph: its runner and timing model, built once.
  struct Executable {
    std::optional<FunctionRunner> runner;
    std::unique_ptr<TimedRun> timed;
  };
  std::map<std::string, Executable> executables;
  /// Shapes and shardings of the arguments of the last graph compiled with
  /// the same ops, to explain a recompilation.
  std::map<std::string, std::vector<std::string>> lastSignatureOfOps;
  std::unique_ptr<PersistentCache> cache;

  explicit Impl(const RuntimeOptions &options);

  /// Starts a new empty pending graph.
  void resetPending();
  /// Fails unless `t` is a tensor of this (live) runtime: only then may its
  /// MLIR type, value and sharding be touched.
  llvm::Error checkOwned(const Tensor &t, llvm::StringRef what);
  /// The value of `t` in the pending graph (an argument for device data).
  llvm::Expected<mlir::Value> valueOf(const Tensor &t);
  /// Verifies `op` (just built at the end of the pending graph) and wraps
  /// its result; an invalid op is erased and its diagnostics returned.
  llvm::Expected<Tensor> finish(mlir::Operation *op);
  /// Runs `build` with diagnostics captured; errors carry their text.
  llvm::Error
  captureDiagnostics(const std::function<mlir::LogicalResult()> &build,
                     llvm::StringRef what);
  mlir::FlatSymbolRefAttr meshSymbol(const Mesh &mesh);
  llvm::Expected<xla::ShardingAttr> shardingOf(const Mesh &mesh,
                                               const PartitionSpec &spec,
                                               mlir::RankedTensorType type);
  mlir::Location loc() { return builder.getUnknownLoc(); }
  std::shared_ptr<TensorData> newData(mlir::RankedTensorType type);
};

mlir::Type toMlirType(mlir::MLIRContext *context, runtime::ElementType type);

} // namespace xspmd::lazy

#endif // XSPMD_LIB_LAZY_RUNTIMEIMPL_H
