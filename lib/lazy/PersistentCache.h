//===- PersistentCache.h - compiled graphs kept on disk ---------*- C++ -*-===//
//
// torch_xla's persistent compilation cache (`xr.initialize_cache(path,
// readonly)`): a compiled graph is stored under its hash as the MLIR of its
// meshes and functions (the reference, the SPMD program and its per-device
// bodies), so a later process skips the SPMD pipeline for a graph it has
// seen. Files are written atomically; a read-only cache is never written.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_LAZY_PERSISTENTCACHE_H
#define XSPMD_LIB_LAZY_PERSISTENTCACHE_H

#include "lib/Session.h"

#include <optional>
#include <string>

namespace xspmd::lazy {

class PersistentCache {
public:
  /// Creates the directory if needed (unless read-only).
  static llvm::Expected<std::unique_ptr<PersistentCache>>
  open(llvm::StringRef directory, bool readOnly);

  bool contains(llvm::StringRef hash) const;

  /// Loads the graph stored under `hash` into `session`'s module; none when
  /// the cache has no such entry. A damaged entry is an error naming it.
  llvm::Expected<std::optional<Session::CompiledGraph>>
  load(Session &session, llvm::StringRef hash);

  /// Stores `graph` (a no-op for a read-only cache).
  llvm::Error store(Session &session, const Session::CompiledGraph &graph);

  bool isReadOnly() const { return readOnly; }
  std::string pathOf(llvm::StringRef hash) const;

private:
  PersistentCache(std::string directory, bool readOnly)
      : directory(std::move(directory)), readOnly(readOnly) {}
  std::string directory;
  bool readOnly;
};

} // namespace xspmd::lazy

#endif // XSPMD_LIB_LAZY_PERSISTENTCACHE_H
