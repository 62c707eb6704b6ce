//===- Session.cpp - a loaded module, ready to run ------------------------===//

#include "lib/Session.h"
#include "lib/InitAll.h"
#include "lib/hlo/HloImporter.h"
#include "runtime/exec/Compiler.h"
#include "runtime/exec/Lowering.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/xxhash.h"

#include <fmt/format.h>

using namespace mlir;

namespace xspmd {

static llvm::Error sessionError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// The functions `func` calls, directly or not, in the order first reached
/// (without `func` itself).
static SmallVector<func::FuncOp> transitiveCallees(func::FuncOp func) {
  SmallVector<func::FuncOp> callees;
  llvm::SmallPtrSet<Operation *, 8> seen{func};
  SmallVector<func::FuncOp> work{func};
  while (!work.empty()) {
    func::FuncOp caller = work.pop_back_val();
    caller.walk([&](func::CallOp call) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (callee && seen.insert(callee).second) {
        callees.push_back(callee);
        work.push_back(callee);
      }
    });
  }
  return callees;
}

Session::Session() = default;
Session::~Session() = default;

llvm::Expected<std::unique_ptr<Session>>
Session::loadFile(llvm::StringRef path, llvm::raw_ostream &diagnostics) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/true);
  if (!file)
    return sessionError("cannot read '" + path +
                        "': " + file.getError().message());
  return loadSource((*file)->getBuffer(), path, diagnostics);
}

llvm::Expected<std::unique_ptr<Session>>
Session::loadSource(llvm::StringRef source, llvm::StringRef bufferName,
                    llvm::raw_ostream &diagnostics) {
  std::unique_ptr<Session> session(new Session());
  DialectRegistry registry;
  registerAllDialects(registry);
  // Device threads share the context read-only; MLIR's own thread pool is
  // not needed.
  session->context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  session->context->loadAllAvailableDialects();
  // Diagnostics point at the source line; a dump of the op adds noise.
  session->context->printOpOnDiagnostic(false);
  session->sourceMgr = std::make_unique<llvm::SourceMgr>();
  session->sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, bufferName), llvm::SMLoc());
  session->diagnosticHandler = std::make_unique<SourceMgrDiagnosticHandler>(
      *session->sourceMgr, session->context.get(), diagnostics);
  // XLA's HloModule text (a .hlo file, or any buffer starting with
  // `HloModule`) goes through the HLO importer.
  if (bufferName.ends_with(".hlo") || hlo::looksLikeHlo(source)) {
    session->module =
        hlo::importHloModule(*session->sourceMgr, session->context.get());
  } else {
    ParserConfig config(session->context.get());
    session->module = parseSourceFile<ModuleOp>(*session->sourceMgr, config);
  }
  if (!session->module)
    return sessionError("cannot load '" + bufferName +
                        "' (see the diagnostics above)");
  if (failed(verify(*session->module)))
    return sessionError("'" + bufferName + "' does not verify");
  return session;
}

llvm::Expected<func::FuncOp>
Session::resolveFunction(llvm::StringRef requested) {
  llvm::SmallVector<func::FuncOp> candidates;
  for (auto func : module->getOps<func::FuncOp>())
    if (func.isPublic() && !func.isExternal())
      candidates.push_back(func);
  auto listNames = [&] {
    std::string names;
    for (func::FuncOp f : module->getOps<func::FuncOp>())
      names += (names.empty() ? "@" : ", @") + f.getSymName().str();
    return names.empty() ? std::string("none") : names;
  };
  if (!requested.empty()) {
    auto func = module->lookupSymbol<func::FuncOp>(requested);
    if (!func)
      return sessionError("no function @" + requested +
                          " in the module (functions: " + listNames() + ")");
    return func;
  }
  if (candidates.size() == 1)
    return candidates.front();
  if (auto main = module->lookupSymbol<func::FuncOp>("main"))
    return main;
  return sessionError("cannot pick a function: the module has " +
                      llvm::Twine(candidates.size()) +
                      " public functions and no @main (functions: " +
                      listNames() + "); pass --function=NAME");
}

llvm::Expected<int64_t> Session::resolveDeviceCount(func::FuncOp func,
                                                    int64_t requested) {
  std::optional<int64_t> meshDevices;
  std::string meshName;
  if (xla::MeshOp mesh = xla::findFirstMesh(*module)) {
    meshDevices = mesh.getMesh().getNumDevices();
    meshName = mesh.getSymName().str();
  }
  std::optional<int64_t> groupDevices;
  bool deviceDependent = false;
  // A lowered entry runs on the devices its bodies list.
  if (xla::DispatchOp dispatch = xla::getEntryDispatch(func)) {
    int64_t listed = 0;
    for (func::FuncOp body : dispatchBodies(dispatch))
      if (auto devices =
              body->getAttrOfType<DenseI64ArrayAttr>(xla::kDevicesAttrName))
        listed += devices.size();
    groupDevices = listed;
  }
  func.walk([&](Operation *op) {
    if (runtime::isDeviceDependent(op))
      deviceDependent = true;
    if (auto collective = dyn_cast<xla::CollectiveOpInterface>(op))
      if (DenseIntElementsAttr groups = collective.getGroupsAttr())
        if (!groupDevices)
          groupDevices = groups.getNumElements();
  });
  if (requested > 0) {
    if (meshDevices && requested != *meshDevices)
      return sessionError(
          "--devices=" + llvm::Twine(requested) + " does not match mesh @" +
          meshName + ", which spans " + llvm::Twine(*meshDevices) + " devices");
    if (groupDevices && requested != *groupDevices)
      return sessionError("--devices=" + llvm::Twine(requested) +
                          " does not match the replica groups of @" +
                          func.getSymName() + ", which list " +
                          llvm::Twine(*groupDevices) + " devices");
    return requested;
  }
  // A partitioned function runs on its mesh even where it happens not to
  // communicate (data parallel inference).
  if (!deviceDependent && !func->hasAttr(xla::kPartitionedAttrName))
    return 1;
  if (meshDevices)
    return *meshDevices;
  return groupDevices.value_or(1);
}

llvm::Expected<const runtime::Program *>
Session::getProgram(func::FuncOp func, int64_t numDevices) {
  auto key = std::make_pair(func.getSymName().str(), numDevices);
  auto it = programs.find(key);
  if (it != programs.end())
    return &it->second;
  runtime::CompileOptions options;
  options.numDevices = numDevices;
  FailureOr<runtime::Program> program = runtime::compileFunction(func, options);
  if (failed(program))
    return sessionError("cannot run @" + func.getSymName() +
                        " on the simulator (see the diagnostics above)");
  return &programs.emplace(key, std::move(*program)).first->second;
}

llvm::Expected<std::vector<const runtime::Program *>>
Session::getDevicePrograms(func::FuncOp func, int64_t numDevices) {
  xla::DispatchOp dispatch = xla::getEntryDispatch(func);
  if (!dispatch) {
    llvm::Expected<const runtime::Program *> program =
        getProgram(func, numDevices);
    if (!program)
      return program.takeError();
    return std::vector<const runtime::Program *>(numDevices, *program);
  }
  std::vector<const runtime::Program *> programs(numDevices, nullptr);
  for (func::FuncOp body : dispatchBodies(dispatch)) {
    llvm::Expected<const runtime::Program *> program =
        getProgram(body, numDevices);
    if (!program)
      return program.takeError();
    auto devices =
        body->getAttrOfType<DenseI64ArrayAttr>(xla::kDevicesAttrName);
    for (int64_t d : devices.asArrayRef()) {
      if (d >= numDevices)
        return sessionError("@" + body.getSymName() + " runs on device " +
                            llvm::Twine(d) + " but the run uses " +
                            llvm::Twine(numDevices) + " devices");
      programs[d] = *program;
    }
  }
  for (int64_t d = 0; d < numDevices; ++d)
    if (!programs[d])
      return sessionError("no body of @" + func.getSymName() +
                          " runs on device " + llvm::Twine(d));
  return programs;
}

bool Session::hasManualCode(func::FuncOp func) {
  auto holdsManual = [](func::FuncOp f) {
    return f
        .walk([](Operation *op) {
          return isa<xla::ManualComputationOp, xla::FullToShardOp,
                     xla::ShardToFullOp>(op)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  };
  return holdsManual(func) ||
         llvm::any_of(transitiveCallees(func), holdsManual);
}

bool Session::needsPartitioning(func::FuncOp func) {
  if (func.isExternal() || func->hasAttr(xla::kPartitionedAttrName))
    return false;
  // Per-device regions (with their collectives) inside a global program.
  if (hasManualCode(func))
    return true;
  // Hand-written SPMD code (collectives, device ids) runs as written.
  bool annotated = false, spmd = false;
  func.walk([&](Operation *op) {
    spmd |=
        runtime::isDeviceDependent(op) || isa<xla::CollectiveOpInterface>(op);
    annotated |=
        isa<xla::MarkShardingOp>(op) || op->hasAttr(xla::kShardingAttrName);
  });
  if (spmd)
    return false;
  auto hasSharding = [](DictionaryAttr attrs) {
    return attrs && attrs.get(xla::kShardingAttrName);
  };
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    annotated |= hasSharding(func.getArgAttrDict(i));
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    annotated |= hasSharding(func.getResultAttrDict(i));
  return annotated;
}

llvm::Expected<func::FuncOp>
Session::partition(func::FuncOp func, const SpmdPipelineOptions &options) {
  return partitionCopy(func, options, (func.getSymName() + ".spmd").str(),
                       /*dropAnnotations=*/false);
}

/// Drops the sharding annotations of `func` but those of its manual
/// regions: shardings of arguments, results and ops, and mark_sharding.
static void dropShardings(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    func.removeArgAttr(i, xla::kShardingAttrName);
  for (unsigned i = 0; i < func.getNumResults(); ++i)
    func.removeResultAttr(
        i, StringAttr::get(func.getContext(), xla::kShardingAttrName));
  func.walk([](Operation *op) {
    op->removeAttr(xla::kShardingAttrName);
    if (auto mark = dyn_cast<xla::MarkShardingOp>(op)) {
      mark.replaceAllUsesWith(mark.getInput());
      mark.erase();
    }
  });
}

llvm::Expected<func::FuncOp> Session::manualReference(func::FuncOp func) {
  std::string name = (func.getSymName() + ".reference").str();
  if (auto done = module->lookupSymbol<func::FuncOp>(name))
    return done;
  return partitionCopy(func, SpmdPipelineOptions(), name,
                       /*dropAnnotations=*/true);
}

llvm::Expected<func::FuncOp>
Session::partitionCopy(func::FuncOp func, const SpmdPipelineOptions &options,
                       StringRef name, bool dropAnnotations) {
  // Partition a copy in a scratch module holding the meshes, so that the
  // original stays the reference and other functions are untouched.
  // The copy is named (@<name>.spmd) before the pipeline runs, so that the
  // per-device bodies lowering adds are @<name>.spmd.body<k>.
  OpBuilder builder(context.get());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(func.getLoc());
  builder.setInsertionPointToEnd(scratch->getBody());
  for (auto mesh : module->getOps<xla::MeshOp>())
    builder.clone(*mesh);
  auto work = cast<func::FuncOp>(builder.clone(*func));
  work.setSymName(name);
  if (dropAnnotations)
    dropShardings(work);
  // The functions it calls come along, private: the pipeline inlines them
  // and erases them once unused.
  llvm::StringSet<> callees;
  for (func::FuncOp callee : transitiveCallees(func)) {
    auto copy = cast<func::FuncOp>(builder.clone(*callee));
    copy.setPrivate();
    if (dropAnnotations)
      dropShardings(copy);
    callees.insert(copy.getSymName());
  }
  PassManager pm(context.get());
  buildSpmdPipeline(pm, options);
  if (failed(pm.run(*scratch)))
    return sessionError("cannot partition @" + func.getSymName() +
                        " (see the diagnostics above)");
  // Bring back the functions the pipeline produced (the entry and its
  // bodies), replacing those of an earlier partitioning.
  SymbolTable symbols(*module);
  builder.setInsertionPointAfter(func);
  func::FuncOp copy;
  for (auto produced : scratch->getOps<func::FuncOp>()) {
    if (callees.contains(produced.getSymName()))
      continue; // a callee the pipeline kept: the module has the original
    if (Operation *old = symbols.lookup(produced.getSymName()))
      symbols.erase(old);
    auto cloned = cast<func::FuncOp>(builder.clone(*produced));
    cloned.setPrivate();
    if (cloned.getSymName() == name)
      copy = cloned;
  }
  if (!copy || failed(verify(*module)))
    return sessionError("the partitioned @" + func.getSymName() +
                        " does not verify (see the diagnostics above)");
  return copy;
}

std::string Session::hashGraph(func::FuncOp func, int64_t requestedDevices,
                               bool partition,
                               const SpmdPipelineOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  // Local scope: value numbers must not depend on the other functions.
  flags.printGenericOpForm().useLocalScope();
  for (auto mesh : module->getOps<xla::MeshOp>())
    mesh->print(os, flags);
  func->print(os, flags);
  for (func::FuncOp callee : transitiveCallees(func))
    callee->print(os, flags);
  os << "devices=" << requestedDevices << " partition=" << partition
     << " ici=" << options.iciByteCost << " dcn=" << options.dcnByteCost
     << " optimize=" << options.optimize << " lower=" << options.lower
     << " halo=" << static_cast<int>(options.halo.getValue());
  return fmt::format("{:016x}", llvm::xxh3_64bits(text));
}

llvm::Error Session::adoptCompiledGraph(const CompiledGraph &graph) {
  auto compiled = module->lookupSymbol<func::FuncOp>(graph.function);
  if (!compiled)
    return sessionError("compiled graph " + graph.hash + " names @" +
                        graph.function + ", which the module lacks");
  if (!graph.reference.empty() &&
      !module->lookupSymbol<func::FuncOp>(graph.reference))
    return sessionError("compiled graph " + graph.hash + " names reference @" +
                        graph.reference + ", which the module lacks");
  if (llvm::Expected<std::vector<const runtime::Program *>> programs =
          getDevicePrograms(compiled, graph.numDevices);
      !programs)
    return programs.takeError();
  CompiledGraph filed = graph;
  filed.cached = false;
  graphs[graph.hash] = filed;
  return llvm::Error::success();
}

llvm::Expected<Session::CompiledGraph>
Session::compileGraph(func::FuncOp func, int64_t requestedDevices,
                      bool partition, const SpmdPipelineOptions &options) {
  std::string hash = hashGraph(func, requestedDevices, partition, options);
  auto found = graphs.find(hash);
  if (found != graphs.end()) {
    metrics.addToCounter("CachedCompile");
    CompiledGraph graph = found->second;
    graph.cached = true;
    return graph;
  }

  int64_t start = report::nowNs();
  CompiledGraph graph;
  graph.hash = hash;
  graph.function = func.getSymName().str();
  if (partition && needsPartitioning(func)) {
    llvm::Expected<func::FuncOp> spmd = this->partition(func, options);
    if (!spmd)
      return spmd.takeError();
    graph.reference = graph.function;
    graph.function = spmd->getSymName().str();
    graph.partitioned = true;
  }
  auto compiled = module->lookupSymbol<func::FuncOp>(graph.function);
  llvm::Expected<int64_t> devices =
      resolveDeviceCount(compiled, requestedDevices);
  if (!devices)
    return devices.takeError();
  graph.numDevices = *devices;
  // Every device's program (the bodies of a lowered entry).
  if (llvm::Expected<std::vector<const runtime::Program *>> programs =
          getDevicePrograms(compiled, graph.numDevices);
      !programs)
    return programs.takeError();
  int64_t end = report::nowNs();
  metrics.addToCounter("UncachedCompile");
  metrics.addSample("CompileTime", report::MetricUnit::Time,
                    static_cast<double>(end - start), end);
  graphs.emplace(hash, graph);
  return graph;
}

SmallVector<func::FuncOp> dispatchBodies(xla::DispatchOp dispatch) {
  SmallVector<func::FuncOp> bodies;
  for (auto name : dispatch.getBodies().getAsRange<FlatSymbolRefAttr>())
    bodies.push_back(SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        dispatch, name.getAttr()));
  return bodies;
}

std::string describeDeviceBodies(func::FuncOp func) {
  xla::DispatchOp dispatch = xla::getEntryDispatch(func);
  if (!dispatch)
    return "";
  SmallVector<func::FuncOp> bodies = dispatchBodies(dispatch);
  int64_t devices = 0;
  for (func::FuncOp body : bodies)
    devices +=
        body->getAttrOfType<DenseI64ArrayAttr>(xla::kDevicesAttrName).size();
  return std::to_string(bodies.size()) +
         (bodies.size() == 1 ? " body" : " bodies") + " for " +
         std::to_string(devices) + (devices == 1 ? " device" : " devices");
}

std::string describeCollectives(func::FuncOp func) {
  // A lowered entry: what one device runs (bodies differ in links only).
  if (xla::DispatchOp dispatch = xla::getEntryDispatch(func))
    func = dispatchBodies(dispatch).front();
  llvm::SmallVector<std::pair<llvm::StringRef, int64_t>> counts;
  func.walk([&](xla::CollectiveOpInterface op) {
    llvm::StringRef name = op->getName().stripDialect();
    auto it = llvm::find_if(counts, [&](auto &c) { return c.first == name; });
    if (it == counts.end())
      counts.push_back({name, 1});
    else
      ++it->second;
  });
  if (counts.empty())
    return "no collectives";
  std::string text;
  for (auto [i, c] : llvm::enumerate(counts))
    text += (i ? ", " : "") + std::to_string(c.second) + " " + c.first.str();
  return text;
}

} // namespace xspmd
