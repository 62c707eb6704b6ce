//===- Runtime.cpp - the lazy frontend's device and graph executor -------===//

#include "lib/lazy/RuntimeImpl.h"

#include "lib/Compare.h"
#include "lib/RunMetrics.h"
#include "passes/common/FunctionAttrs.h"
#include "passes/interop/HloSharding.h"
#include "runtime/exec/TypeMapping.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"

#include <fmt/format.h>

using namespace mlir;

namespace xspmd::lazy {

static llvm::Error lazyError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

Type toMlirType(MLIRContext *context, runtime::ElementType type) {
  Builder b(context);
  switch (type) {
  case runtime::ElementType::f32:
    return b.getF32Type();
  case runtime::ElementType::f64:
    return b.getF64Type();
  case runtime::ElementType::bf16:
    return b.getBF16Type();
  case runtime::ElementType::f16:
    return b.getF16Type();
  case runtime::ElementType::i1:
    return b.getI1Type();
  case runtime::ElementType::i8:
    return b.getI8Type();
  case runtime::ElementType::i32:
    return b.getI32Type();
  case runtime::ElementType::i64:
    return b.getI64Type();
  }
  llvm_unreachable("unknown element type");
}

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

llvm::ArrayRef<int64_t> Tensor::getShape() const { return data->shape; }

runtime::ElementType Tensor::getElementType() const {
  return data->elementType;
}

std::string Tensor::getTypeString() const {
  return runtime::formatTensorType(getShape(), getElementType());
}

bool Tensor::isPending() const {
  std::shared_ptr<Runtime::Impl> owner = data->owner.lock();
  return owner && data->value && data->epoch == owner->epoch;
}

llvm::Expected<runtime::Tensor> Tensor::toHost() const {
  // As `.cpu()` in PyTorch/XLA: a pending tensor syncs the whole graph.
  if (isPending())
    if (llvm::Error err = data->owner.lock()->self->markStep())
      return std::move(err);
  if (!data->host.isValid())
    return lazyError("tensor " + getTypeString() + " has no value: " +
                     (data->owner.expired()
                          ? "its runtime was destroyed before it ran"
                          : "it was recorded in a graph that did not keep "
                            "it"));
  // Counted as PyTorch/XLA counts a device-to-host copy.
  if (auto owner = data->owner.lock())
    owner->self->getMetrics().addToCounter("TransferFromDevice");
  return data->host;
}

//===----------------------------------------------------------------------===//
// Runtime::Impl
//===----------------------------------------------------------------------===//

Runtime::Impl::Impl(const RuntimeOptions &options)
    : options(options), builder(static_cast<MLIRContext *>(nullptr)) {}

void Runtime::Impl::resetPending() {
  if (pending)
    pending.erase();
  ModuleOp module = session->getModule();
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  pending = func::FuncOp::create(b, b.getUnknownLoc(), "lazy.pending",
                                 b.getFunctionType({}, {}));
  pending.setPrivate();
  builder.setInsertionPointToEnd(pending.addEntryBlock());
  arguments.clear();
  recorded.clear();
  ++epoch;
}

std::shared_ptr<TensorData> Runtime::Impl::newData(RankedTensorType type) {
  auto data = std::make_shared<TensorData>();
  data->owner = weak_from_this();
  data->type = type;
  data->shape.assign(type.getShape().begin(), type.getShape().end());
  data->elementType = *runtime::toElementType(type.getElementType());
  return data;
}

llvm::Error Runtime::Impl::checkOwned(const Tensor &t, llvm::StringRef what) {
  if (!t.isValid())
    return lazyError(what + " of an empty tensor handle");
  if (t.data->owner.lock().get() != this)
    return lazyError(what + " of a tensor of another runtime (or of one "
                            "that was destroyed)");
  return llvm::Error::success();
}

llvm::Expected<Value> Runtime::Impl::valueOf(const Tensor &t) {
  if (llvm::Error err = checkOwned(t, "an operation"))
    return std::move(err);
  const std::shared_ptr<TensorData> &data = t.data;
  if (data->value && data->epoch == epoch)
    return data->value;
  if (!data->host.isValid())
    return lazyError("operand " + t.getTypeString() +
                     " was recorded in an earlier graph that did not keep it "
                     "(" +
                     (data->dropped.empty()
                          ? std::string("it was not alive at the step boundary")
                          : data->dropped) +
                     ")");
  // Device data: an argument of the pending graph, once.
  for (auto [i, arg] : llvm::enumerate(arguments))
    if (arg == data)
      return pending.getArgument(i);
  arguments.push_back(data);
  Block &block = pending.getBody().front();
  return block.addArgument(data->type, pending.getLoc());
}

llvm::Error
Runtime::Impl::captureDiagnostics(const std::function<LogicalResult()> &build,
                                  llvm::StringRef what) {
  std::string messages;
  LogicalResult result = success();
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      if (!messages.empty())
        messages += "; ";
      messages += diag.str();
      for (Diagnostic &note : diag.getNotes())
        messages += " (" + note.str() + ")";
      return success();
    });
    result = build();
  }
  if (succeeded(result))
    return llvm::Error::success();
  return lazyError(what + ": " +
                   (messages.empty() ? std::string("failed") : messages));
}

llvm::Expected<Tensor> Runtime::Impl::finish(Operation *op) {
  if (llvm::Error err = captureDiagnostics(
          [&] { return verify(op); },
          fmt::format("cannot record {}", op->getName().getStringRef()))) {
    op->erase();
    return std::move(err);
  }
  auto data = newData(cast<RankedTensorType>(op->getResult(0).getType()));
  data->value = op->getResult(0);
  data->epoch = epoch;
  recorded.push_back(data);
  return Tensor(data);
}

FlatSymbolRefAttr Runtime::Impl::meshSymbol(const Mesh &mesh) {
  xla::MeshAttr attr = mesh.toAttr(context);
  auto it = meshes.find(attr);
  if (it != meshes.end())
    return it->second;
  ModuleOp module = session->getModule();
  std::string name =
      meshes.empty() ? "mesh" : fmt::format("mesh_{}", meshes.size());
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToStart(module.getBody());
  xla::MeshOp::create(b, b.getUnknownLoc(), name, attr);
  auto symbol = FlatSymbolRefAttr::get(context, name);
  meshes.try_emplace(attr, symbol);
  return symbol;
}

llvm::Expected<xla::ShardingAttr>
Runtime::Impl::shardingOf(const Mesh &mesh, const PartitionSpec &spec,
                          RankedTensorType type) {
  if (mesh.size() != options.numDevices)
    return lazyError(fmt::format(
        "{} spans {} devices but the runtime has {} (a mesh must cover every "
        "device, as torch_xla requires)",
        mesh.describe(), mesh.size(), options.numDevices));
  if (static_cast<int64_t>(spec.size()) != type.getRank())
    return lazyError(fmt::format(
        "partition spec has {} entries for a tensor of rank {} ({}); give "
        "one per dimension",
        spec.size(), type.getRank(),
        runtime::formatTensorType(
            type.getShape(), *runtime::toElementType(type.getElementType()))));
  FlatSymbolRefAttr symbol = meshSymbol(mesh);
  SmallVector<xla::DimShardingAttr> dims;
  for (const PartitionSpecEntry &entry : spec) {
    SmallVector<StringAttr> axes;
    for (const std::string &axis : entry) {
      llvm::Expected<std::string> name = mesh.resolveAxis(axis);
      if (!name)
        return name.takeError();
      axes.push_back(StringAttr::get(context, *name));
    }
    dims.push_back(xla::DimShardingAttr::get(context, axes, /*isOpen=*/false,
                                             std::nullopt));
  }
  auto sharding = xla::ShardingAttr::get(context, symbol, dims, {},
                                         xla::ReductionKind::sum);
  xla::MeshAttr meshAttr = mesh.toAttr(context);
  if (llvm::Error err = captureDiagnostics(
          [&] {
            return sharding.verifyFor(
                [&] { return emitError(builder.getUnknownLoc()); }, meshAttr,
                type);
          },
          "invalid partition spec"))
    return std::move(err);
  return sharding;
}

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

Runtime::Runtime() = default;
Runtime::~Runtime() = default;

llvm::Expected<std::unique_ptr<Runtime>>
Runtime::create(const RuntimeOptions &options) {
  if (options.numDevices <= 0)
    return lazyError(fmt::format("a runtime needs at least one device, not {}",
                                 options.numDevices));
  std::unique_ptr<Runtime> rt(new Runtime());
  rt->options = options;
  rt->impl = std::make_shared<Impl>(options);
  rt->impl->self = rt.get();
  Impl &impl = *rt->impl;
  llvm::Expected<std::unique_ptr<Session>> session =
      Session::loadSource("module {}", "lazy-graphs");
  if (!session)
    return session.takeError();
  impl.session = std::move(*session);
  impl.context = impl.session->getModule().getContext();
  impl.builder = OpBuilder(impl.context);
  if (!options.cacheDir.empty())
    if (llvm::Error err =
            rt->setPersistentCache(options.cacheDir, options.cacheReadOnly))
      return std::move(err);
  impl.resetPending();
  return rt;
}

llvm::Error Runtime::setPersistentCache(llvm::StringRef directory,
                                        bool readOnly) {
  llvm::Expected<std::unique_ptr<PersistentCache>> cache =
      PersistentCache::open(directory, readOnly);
  if (!cache)
    return cache.takeError();
  impl->cache = std::move(*cache);
  options.cacheDir = directory.str();
  options.cacheReadOnly = readOnly;
  return llvm::Error::success();
}

report::MetricsRegistry &Runtime::getMetrics() {
  return impl->session->getMetrics();
}

std::string Runtime::metricsReport() { return getMetrics().report(); }

std::string Runtime::shortMetricsReport() {
  // torch_xla's short report: the compile and execute times and the
  // counters that say whether graphs were recompiled.
  report::MetricsRegistry &m = getMetrics();
  std::string out;
  for (llvm::StringRef metric : {"CompileTime", "ExecuteTime"})
    out += fmt::format("Metric: {}\n  TotalSamples: {}\n", metric.str(),
                       m.getTotalSamples(metric));
  for (llvm::StringRef counter :
       {"CachedCompile", "UncachedCompile", "PersistentCacheHit",
        "PersistentCacheMiss", "MarkStep"})
    if (int64_t value = m.getCounter(counter))
      out += fmt::format("Counter: {}\n  Value: {}\n", counter.str(), value);
  return out;
}

std::string Runtime::pendingGraphText() {
  std::string text;
  llvm::raw_string_ostream os(text);
  impl->pending->print(os);
  return text;
}

llvm::Expected<Tensor> Runtime::fromHost(runtime::Tensor value) {
  if (!value.isValid())
    return lazyError("fromHost needs a tensor with storage");
  auto type = RankedTensorType::get(
      value.getShape(), toMlirType(impl->context, value.getElementType()));
  auto data = impl->newData(type);
  data->host = std::move(value);
  getMetrics().addToCounter("TransferToDevice");
  return Tensor(data);
}

llvm::Expected<Tensor> Runtime::markSharding(const Tensor &t, const Mesh &mesh,
                                             const PartitionSpec &spec) {
  if (llvm::Error err = impl->checkOwned(t, "mark_sharding"))
    return std::move(err);
  llvm::Expected<xla::ShardingAttr> sharding =
      impl->shardingOf(mesh, spec, t.data->type);
  if (!sharding)
    return sharding.takeError();
  if (!t.isPending()) {
    // Device data is laid out so from now on (the next graph's argument).
    t.data->sharding = *sharding;
    return t;
  }
  llvm::Expected<Value> input = impl->valueOf(t);
  if (!input)
    return input.takeError();
  auto mark = xla::MarkShardingOp::create(impl->builder, impl->loc(), *input,
                                          *sharding);
  // torch_xla shards the tensor in place: the handle now names the
  // constrained value.
  t.data->value = mark.getResult();
  t.data->sharding = *sharding;
  return t;
}

llvm::Error Runtime::clearSharding(const Tensor &t) {
  if (llvm::Error err = impl->checkOwned(t, "clear_sharding"))
    return err;
  if (t.isPending())
    if (auto mark = t.data->value.getDefiningOp<xla::MarkShardingOp>())
      t.data->value = mark.getInput();
  t.data->sharding = nullptr;
  return llvm::Error::success();
}

llvm::Expected<Tensor>
Runtime::enableManualSharding(const Tensor &t, const Mesh &mesh,
                              const PartitionSpec &spec) {
  if (llvm::Error err = impl->checkOwned(t, "enable_manual_sharding"))
    return std::move(err);
  llvm::Expected<xla::ShardingAttr> sharding =
      impl->shardingOf(mesh, spec, t.data->type);
  if (!sharding)
    return sharding.takeError();
  llvm::Expected<Value> input = impl->valueOf(t);
  if (!input)
    return input.takeError();
  RankedTensorType local =
      xla::localTypeOf(*sharding, mesh.toAttr(impl->context), t.data->type);
  return impl->finish(xla::FullToShardOp::create(impl->builder, impl->loc(),
                                                 local, *input, *sharding));
}

llvm::Expected<Tensor>
Runtime::disableManualSharding(const Tensor &t, const Mesh &mesh,
                               const PartitionSpec &spec,
                               llvm::ArrayRef<int64_t> fullShape) {
  if (llvm::Error err = impl->checkOwned(t, "disable_manual_sharding"))
    return std::move(err);
  auto global = t.data->type.clone(fullShape);
  llvm::Expected<xla::ShardingAttr> sharding =
      impl->shardingOf(mesh, spec, global);
  if (!sharding)
    return sharding.takeError();
  llvm::Expected<Value> input = impl->valueOf(t);
  if (!input)
    return input.takeError();
  // The op's verifier says when `t` is not the shard of `fullShape`.
  return impl->finish(xla::ShardToFullOp::create(impl->builder, impl->loc(),
                                                 global, *input, *sharding));
}

llvm::Expected<std::string> Runtime::getShardingSpec(const Tensor &t) {
  if (llvm::Error err = impl->checkOwned(t, "the sharding spec"))
    return std::move(err);
  xla::ShardingAttr sharding = t.data->sharding;
  if (!sharding)
    return std::string();
  auto mesh = SymbolTable::lookupSymbolIn(impl->session->getModule(),
                                          sharding.getMesh());
  std::string text, error;
  if (!interop::exportHloSharding(sharding, cast<xla::MeshOp>(mesh).getMesh(),
                                  /*iota=*/false, text, error))
    return lazyError(error);
  return text;
}

//===----------------------------------------------------------------------===//
// Steps
//===----------------------------------------------------------------------===//

namespace {

/// The ops of a graph in order, and what its arguments look like: two
/// graphs with the same ops but other argument types or shardings are
/// recompilations worth explaining (torch_xla's "compilation cause").
struct GraphSignature {
  std::string ops;
  std::vector<std::string> arguments;
};

/// Values of `graph` inside manual regions: reachable from an
/// xla.full_to_shard without passing an xla.shard_to_full.
llvm::DenseSet<Value> perDeviceValues(func::FuncOp graph) {
  llvm::DenseSet<Value> values;
  SmallVector<Value> work;
  graph.walk([&](xla::FullToShardOp op) { work.push_back(op.getResult()); });
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!values.insert(v).second)
      continue;
    for (Operation *user : v.getUsers())
      if (!isa<xla::ShardToFullOp>(user))
        llvm::append_range(work, user->getResults());
  }
  return values;
}

GraphSignature signatureOf(func::FuncOp graph) {
  GraphSignature sig;
  graph.walk([&](Operation *op) {
    sig.ops += op->getName().getStringRef();
    sig.ops += ';';
  });
  for (unsigned i = 0; i < graph.getNumArguments(); ++i) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << graph.getArgument(i).getType();
    if (Attribute s = graph.getArgAttr(i, xla::kShardingAttrName))
      os << " sharded " << s;
    sig.arguments.push_back(text);
  }
  return sig;
}

std::string explainRecompile(const std::vector<std::string> &before,
                             const std::vector<std::string> &now) {
  if (before.size() != now.size())
    return fmt::format("the graph has {} arguments instead of {}", now.size(),
                       before.size());
  for (size_t i = 0; i < now.size(); ++i)
    if (before[i] != now[i])
      return fmt::format("argument {} changed from {} to {}", i, before[i],
                         now[i]);
  return "the graph's constants or attributes changed";
}

} // namespace

llvm::Error Runtime::markStep() {
  Impl &impl = *this->impl;
  report::MetricsRegistry &metrics = getMetrics();
  metrics.addToCounter("MarkStep");
  std::vector<std::shared_ptr<TensorData>> outputs;
  llvm::DenseSet<Value> perDevice = perDeviceValues(impl.pending);
  for (std::weak_ptr<TensorData> &weak : impl.recorded)
    if (std::shared_ptr<TensorData> data = weak.lock()) {
      if (!data->value || data->epoch != impl.epoch ||
          llvm::is_contained(outputs, data))
        continue;
      // A per-device value means nothing outside its manual region: it is
      // not an output, and a later use says why.
      if (perDevice.contains(data->value)) {
        data->dropped = "it is a per-device value of a manual region "
                        "(enable_manual_sharding); call "
                        "disable_manual_sharding before mark_step";
        continue;
      }
      outputs.push_back(std::move(data));
    }
  if (outputs.empty()) {
    impl.resetPending();
    return llvm::Error::success();
  }

  // The pending function becomes the graph: outputs returned, dead ops and
  // unread arguments dropped, device data's layouts on the arguments.
  func::FuncOp graph = impl.pending;
  impl.pending = nullptr;
  Block &block = graph.getBody().front();
  SmallVector<Value> values;
  for (const auto &data : outputs)
    values.push_back(data->value);
  func::ReturnOp::create(impl.builder, impl.loc(), values);
  // Users before producers, so that a chain of dead ops goes at once.
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  llvm::BitVector unread(block.getNumArguments());
  std::vector<std::shared_ptr<TensorData>> arguments;
  for (BlockArgument arg : block.getArguments()) {
    if (arg.use_empty())
      unread.set(arg.getArgNumber());
    else
      arguments.push_back(impl.arguments[arg.getArgNumber()]);
  }
  (void)graph.eraseArguments(unread);
  graph.setFunctionType(FunctionType::get(
      impl.context, block.getArgumentTypes(), ValueRange(values).getTypes()));
  for (auto [i, data] : llvm::enumerate(arguments))
    if (data->sharding)
      graph.setArgAttr(i, xla::kShardingAttrName, data->sharding);

  // As in torch_xla's SPMD mode, explicit collectives (device-level code)
  // and shardings (a program the partitioner splits) do not mix, except in
  // manual regions (enable_manual_sharding), whose bounds the SPMD pipeline
  // checks.
  Operation *collective = nullptr;
  bool sharded = llvm::any_of(arguments, [](const auto &data) {
    return static_cast<bool>(data->sharding);
  });
  bool manual = false;
  graph.walk([&](Operation *op) {
    if (isa<xla::CollectiveOpInterface>(op) && !collective)
      collective = op;
    sharded |= isa<xla::MarkShardingOp>(op);
    manual |= isa<xla::FullToShardOp>(op);
  });
  if (collective && sharded && !manual) {
    std::string name = collective->getName().getStringRef().str();
    graph.erase();
    impl.resetPending();
    return lazyError(
        "the graph has both an explicit collective (" + name +
        ", xm.all_reduce & co.) and sharded tensors (xs.mark_sharding): "
        "collectives with groups run on unsharded graphs; shardings let the "
        "partitioner insert the collectives");
  }

  // Named by its content: the same graph in a later step (or process) gets
  // the same name and hash.
  ModuleOp module = impl.session->getModule();
  graph.setSymName("graph");
  std::string content =
      impl.session->hashGraph(graph, options.numDevices, true, {});
  std::string name = "graph_" + content;
  GraphSignature signature = signatureOf(graph);
  bool seen = static_cast<bool>(module.lookupSymbol<func::FuncOp>(name));
  if (seen) {
    graph.erase();
    graph = module.lookupSymbol<func::FuncOp>(name);
  } else {
    graph.setSymName(name);
    graph.setPublic();
  }
  SpmdPipelineOptions pipeline;
  std::string hash =
      impl.session->hashGraph(graph, options.numDevices, true, pipeline);
  // A graph this process has not compiled may be in the persistent cache:
  // its entry replaces the graph just built (same name, same ops).
  bool persistentHit = false;
  if (!seen && impl.cache) {
    if (!impl.cache->contains(hash)) {
      metrics.addToCounter("PersistentCacheMiss");
    } else {
      graph.erase();
      llvm::Expected<std::optional<Session::CompiledGraph>> stored =
          impl.cache->load(*impl.session, hash);
      llvm::Error err = stored ? impl.session->adoptCompiledGraph(**stored)
                               : stored.takeError();
      graph = module.lookupSymbol<func::FuncOp>(name);
      if (!err && !graph)
        err = lazyError("persistent cache entry " + hash + " lacks @" + name);
      if (err) {
        impl.resetPending();
        return err;
      }
      persistentHit = true;
      metrics.addToCounter("PersistentCacheHit");
    }
  }
  llvm::Expected<Session::CompiledGraph> compiled = impl.session->compileGraph(
      graph, options.numDevices, /*partition=*/true, pipeline);
  impl.resetPending();
  if (!compiled)
    return compiled.takeError();

  StepReport step;
  step.graphHash = compiled->hash;
  step.function = compiled->function;
  step.cached = compiled->cached || persistentHit;
  step.persistentCacheHit = persistentHit;
  step.partitioned = compiled->partitioned;
  step.numDevices = compiled->numDevices;
  step.numOutputs = outputs.size();
  auto before = impl.lastSignatureOfOps.find(signature.ops);
  if (!step.cached && before != impl.lastSignatureOfOps.end())
    step.recompileReason =
        explainRecompile(before->second, signature.arguments);
  if (!step.cached && impl.cache && !impl.cache->isReadOnly())
    if (llvm::Error err = impl.cache->store(*impl.session, *compiled))
      return err;
  impl.lastSignatureOfOps[signature.ops] = signature.arguments;
  auto entry = module.lookupSymbol<func::FuncOp>(compiled->function);
  step.collectives = describeCollectives(entry);

  // Run it: the runner and timing model are built once per graph.
  Impl::Executable &exe = impl.executables[compiled->hash];
  if (!exe.runner) {
    llvm::Expected<FunctionRunner> runner = FunctionRunner::create(
        *impl.session, compiled->function, compiled->numDevices,
        options.check ? compiled->reference : "");
    if (!runner)
      return runner.takeError();
    exe.runner.emplace(std::move(*runner));
    if (options.timing) {
      TimingOptions timing;
      timing.topology = options.topology;
      timing.slices = options.slices;
      llvm::Expected<std::unique_ptr<TimedRun>> timed =
          TimedRun::create(module, *exe.runner, timing);
      if (!timed)
        return timed.takeError();
      exe.timed = std::move(*timed);
    }
  }
  std::vector<runtime::Tensor> inputs;
  for (const auto &data : arguments)
    inputs.push_back(data->host);
  std::vector<runtime::ExecutionObserver *> observers;
  if (exe.timed)
    observers = exe.timed->getObservers();
  int64_t start = report::nowNs();
  llvm::Expected<std::vector<runtime::Tensor>> results =
      exe.runner->run(inputs, observers);
  int64_t end = report::nowNs();
  if (!results)
    return results.takeError();
  metrics.addSample("ExecuteTime", report::MetricUnit::Time,
                    static_cast<double>(end - start), end);
  if (exe.timed) {
    report::TimingSummary summary = exe.timed->summarize();
    step.stepSeconds = summary.lastStepSeconds();
    step.topology = exe.timed->getTopology().describe();
  }
  if (options.check && exe.runner->hasReference()) {
    llvm::Expected<std::vector<runtime::Tensor>> reference =
        exe.runner->runReference(inputs);
    if (!reference)
      return reference.takeError();
    for (auto [i, pair] : llvm::enumerate(llvm::zip(*results, *reference))) {
      auto &[actual, expected] = pair;
      Comparison cmp =
          compareTensors(actual, expected, checkTolerance(expected));
      step.maxCheckError = std::max(step.maxCheckError, cmp.maxAbsError);
      if (!cmp.matches)
        return lazyError(
            fmt::format("output {} of the partitioned graph differs from the "
                        "single-device run: {}",
                        i, cmp.failure));
    }
  }

  // The outputs are device data now, laid out as the compiled graph left
  // them (pending sums are folded by the runner).
  for (auto [i, data] : llvm::enumerate(outputs)) {
    data->host = std::move((*results)[i]);
    data->value = nullptr;
    auto sharding =
        entry.getResultAttrOfType<xla::ShardingAttr>(i, xla::kShardingAttrName);
    data->sharding = sharding && !sharding.isPartial() ? sharding : nullptr;
  }
  lastStep = std::move(step);
  ++numSteps;
  return llvm::Error::success();
}

} // namespace xspmd::lazy
