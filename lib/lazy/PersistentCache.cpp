//===- PersistentCache.cpp - compiled graphs kept on disk -----------------===//

#include "lib/lazy/PersistentCache.h"

#include "lib/io/Npy.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

using namespace mlir;

namespace xspmd::lazy {

static llvm::Error cacheError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// The module attribute that describes an entry.
static constexpr llvm::StringLiteral kEntryAttrName = "xspmd.compiled_graph";

llvm::Expected<std::unique_ptr<PersistentCache>>
PersistentCache::open(llvm::StringRef directory, bool readOnly) {
  if (!readOnly)
    if (std::error_code ec = llvm::sys::fs::create_directories(directory))
      return cacheError("cannot create the compilation cache directory '" +
                        directory + "': " + ec.message());
  if (!llvm::sys::fs::is_directory(directory))
    return cacheError("the compilation cache '" + directory +
                      "' is not a directory");
  return std::unique_ptr<PersistentCache>(
      new PersistentCache(directory.str(), readOnly));
}

std::string PersistentCache::pathOf(llvm::StringRef hash) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, hash + ".mlir");
  return std::string(path);
}

bool PersistentCache::contains(llvm::StringRef hash) const {
  return llvm::sys::fs::exists(pathOf(hash));
}

/// The functions a compiled graph consists of: the reference, the entry
/// and, for a lowered entry, its per-device bodies.
static SmallVector<func::FuncOp> functionsOf(ModuleOp module,
                                             const Session::CompiledGraph &g) {
  SmallVector<func::FuncOp> funcs;
  for (const std::string &name : {g.reference, g.function})
    if (!name.empty())
      if (auto f = module.lookupSymbol<func::FuncOp>(name))
        funcs.push_back(f);
  if (!funcs.empty())
    if (xla::DispatchOp dispatch = xla::getEntryDispatch(funcs.back()))
      llvm::append_range(funcs, dispatchBodies(dispatch));
  return funcs;
}

llvm::Error PersistentCache::store(Session &session,
                                   const Session::CompiledGraph &graph) {
  if (readOnly)
    return llvm::Error::success();
  ModuleOp module = session.getModule();
  OpBuilder b(module.getContext());
  OwningOpRef<ModuleOp> entry = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(entry->getBody());
  for (auto mesh : module.getOps<xla::MeshOp>())
    b.clone(*mesh);
  for (func::FuncOp f : functionsOf(module, graph))
    b.clone(*f);
  (*entry)->setAttr(
      kEntryAttrName,
      b.getDictionaryAttr({
          b.getNamedAttr("function", b.getStringAttr(graph.function)),
          b.getNamedAttr("reference", b.getStringAttr(graph.reference)),
          b.getNamedAttr("devices", b.getI64IntegerAttr(graph.numDevices)),
          b.getNamedAttr("partitioned", b.getBoolAttr(graph.partitioned)),
      }));
  std::string text;
  llvm::raw_string_ostream os(text);
  entry->print(os);
  return io::writeFileAtomically(pathOf(graph.hash), text);
}

llvm::Expected<std::optional<Session::CompiledGraph>>
PersistentCache::load(Session &session, llvm::StringRef hash) {
  std::string path = pathOf(hash);
  if (!contains(hash))
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!file)
    return cacheError("cannot read compilation cache entry '" + path +
                      "': " + file.getError().message());
  ModuleOp module = session.getModule();
  MLIRContext *context = module.getContext();
  // A damaged entry is reported, not half-loaded: diagnostics are kept.
  std::string messages;
  OwningOpRef<ModuleOp> entry;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      messages += (messages.empty() ? "" : "; ") + diag.str();
      return success();
    });
    entry = parseSourceString<ModuleOp>((*file)->getBuffer(),
                                        ParserConfig(context), path);
    if (entry && failed(verify(*entry)))
      entry = nullptr;
  }
  auto info = entry ? (*entry)->getAttrOfType<DictionaryAttr>(kEntryAttrName)
                    : DictionaryAttr();
  auto function = info ? info.getAs<StringAttr>("function") : StringAttr();
  auto reference = info ? info.getAs<StringAttr>("reference") : StringAttr();
  auto devices = info ? info.getAs<IntegerAttr>("devices") : IntegerAttr();
  auto partitioned = info ? info.getAs<BoolAttr>("partitioned") : BoolAttr();
  if (!function || !reference || !devices || !partitioned)
    return cacheError("compilation cache entry '" + path + "' is damaged" +
                      (messages.empty() ? "" : ": " + messages) +
                      "; delete it to recompile");

  // Meshes must be the ones the session knows under the same names.
  SymbolTable symbols(module);
  OpBuilder b(module.getBodyRegion());
  for (auto mesh : entry->getOps<xla::MeshOp>()) {
    auto known = symbols.lookup<xla::MeshOp>(mesh.getSymName());
    if (!known) {
      b.setInsertionPointToStart(module.getBody());
      symbols.insert(b.clone(*mesh));
      continue;
    }
    if (known.getMesh() != mesh.getMesh())
      return cacheError("compilation cache entry '" + path + "' has mesh @" +
                        mesh.getSymName() + " unlike this program's");
  }
  for (auto f : llvm::make_early_inc_range(entry->getOps<func::FuncOp>())) {
    if (symbols.lookup(f.getSymName()))
      continue;
    f->remove();
    symbols.insert(f);
  }
  Session::CompiledGraph graph;
  graph.hash = hash.str();
  graph.function = function.getValue().str();
  graph.reference = reference.getValue().str();
  graph.numDevices = devices.getInt();
  graph.partitioned = partitioned.getValue();
  return graph;
}

} // namespace xspmd::lazy
