//===- HloMeshInference.cpp - meshes from an HLO module's shardings -------===//

#include "lib/hlo/HloMeshInference.h"

#include "dialects/xla/XlaSubAxes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <set>

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

LogicalResult MeshInference::add(StringRef text, Location loc) {
  interop::HloSharding parsed;
  std::string error;
  if (!interop::parseHloSharding(text, parsed, error))
    return emitError(loc) << "cannot parse sharding '" << text
                          << "': " << error;
  seen.push_back({text.str(), std::move(parsed), loc});
  return success();
}

namespace {

/// A candidate mesh: axis sizes over a row-major device array.
struct Layout {
  SmallVector<int64_t> sizes;
  SmallVector<int64_t> devices;
  bool operator==(const Layout &o) const {
    return sizes == o.sizes && devices == o.devices;
  }
};

SmallVector<int64_t> primeFactors(int64_t n) {
  SmallVector<int64_t> factors;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  if (n > 1)
    factors.push_back(n);
  return factors;
}

Layout splitIntoPrimes(const Layout &layout) {
  Layout split{{}, layout.devices};
  for (int64_t s : layout.sizes)
    llvm::append_range(split.sizes, primeFactors(s));
  return split;
}

/// Whether `sharding` names parts of axes: the importer then prefers a mesh
/// whose whole axes express it.
bool usesSubAxes(xla::ShardingAttr sharding) {
  for (xla::DimShardingAttr dim : sharding.getDims())
    for (StringAttr axis : dim.getAxes())
      if (xla::parseSubAxisName(axis.getValue()))
        return true;
  return false;
}

std::string axisName(size_t i) {
  std::string name;
  do {
    name.insert(name.begin(), char('a' + i % 26));
    i = i / 26;
  } while (i-- > 0);
  return name;
}

xla::MeshAttr toMesh(MLIRContext *ctx, const Layout &layout) {
  SmallVector<xla::MeshAxisAttr> axes;
  for (auto [i, size] : llvm::enumerate(layout.sizes))
    axes.push_back(
        xla::MeshAxisAttr::get(ctx, StringAttr::get(ctx, axisName(i)), size));
  bool iota =
      llvm::equal(layout.devices, llvm::seq<int64_t>(0, layout.devices.size()));
  return xla::MeshAttr::get(ctx, axes,
                            iota ? ArrayRef<int64_t>() : layout.devices, {});
}

} // namespace

LogicalResult MeshInference::finalize(std::optional<int64_t> declaredDevices,
                                      Location moduleLoc) {
  using Kind = interop::HloSharding::Kind;
  // The device count: the header's, else the widest tile assignment.
  std::optional<int64_t> fromShardings;
  for (const Seen &s : seen)
    if (s.parsed.kind == Kind::tiled) {
      int64_t n = s.parsed.devices.size();
      if (!declaredDevices && fromShardings && *fromShardings != n)
        return emitError(s.loc)
               << "sharding '" << s.text << "' spans " << n
               << " devices but an earlier one spans " << *fromShardings;
      fromShardings = n;
    }
  numDevices = declaredDevices ? *declaredDevices : fromShardings.value_or(1);
  if (numDevices == 1)
    for (const Seen &s : seen)
      if (s.parsed.kind == Kind::maximal && s.parsed.device != 0)
        numDevices = std::max(numDevices, s.parsed.device + 1);
  for (const Seen &s : seen) {
    if (s.parsed.kind == Kind::tiled &&
        (int64_t)s.parsed.devices.size() != numDevices)
      return emitError(s.loc)
             << "sharding '" << s.text << "' spans " << s.parsed.devices.size()
             << " devices but the module runs on " << numDevices;
    if (s.parsed.kind == Kind::maximal &&
        (s.parsed.device < 0 || s.parsed.device >= numDevices))
      return emitError(s.loc)
             << "sharding '" << s.text << "' names device " << s.parsed.device
             << " of a module on " << numDevices << " devices";
  }

  if (numDevices == 1) {
    // A mesh only when something names one.
    if (!seen.empty())
      meshes.push_back({"mesh", toMesh(ctx, {{1}, {0}})});
    return success();
  }

  // The tile layouts (each sharding's own mesh: its tile dimensions of
  // size > 1 over its device list), most axes first.
  SmallVector<Layout> layouts;
  for (const Seen &s : seen) {
    if (s.parsed.kind != Kind::tiled)
      continue;
    Layout layout;
    for (int64_t d : s.parsed.tileDims)
      if (d > 1)
        layout.sizes.push_back(d);
    layout.devices = s.parsed.devices;
    if (!llvm::is_contained(layouts, layout))
      layouts.push_back(std::move(layout));
  }
  llvm::stable_sort(layouts, [](const Layout &a, const Layout &b) {
    return a.sizes.size() > b.sizes.size();
  });
  SmallVector<Layout> candidates(layouts);
  for (const Layout &l : layouts) {
    Layout split = splitIntoPrimes(l);
    if (!llvm::is_contained(candidates, split))
      candidates.push_back(split);
  }
  Layout iota{primeFactors(numDevices),
              llvm::to_vector(llvm::seq<int64_t>(0, numDevices))};
  if (!llvm::is_contained(candidates, iota))
    candidates.push_back(iota);

  // Tries the shardings on a mesh without reporting anything.
  auto expressesAll = [&](xla::MeshAttr mesh) {
    ScopedDiagnosticHandler silence(ctx,
                                    [](Diagnostic &) { return success(); });
    auto ref = FlatSymbolRefAttr::get(ctx, "mesh");
    for (const Seen &s : seen) {
      if (s.parsed.kind != Kind::tiled)
        continue;
      int64_t rank = s.parsed.tileDims.size() - s.parsed.numSubgroupDims();
      FailureOr<xla::ShardingAttr> spec = interop::importHloSharding(
          s.text, mesh, ref, rank, [&] { return emitError(s.loc); });
      if (failed(spec) || usesSubAxes(*spec))
        return false;
    }
    return true;
  };
  auto found = llvm::find_if(candidates, [&](const Layout &c) {
    return expressesAll(toMesh(ctx, c));
  });
  if (found != candidates.end()) {
    meshes.push_back({"mesh", toMesh(ctx, *found)});
  } else {
    // No common factoring: one mesh per distinct layout.
    for (auto [i, l] : llvm::enumerate(layouts))
      meshes.push_back({"mesh" + std::to_string(i), toMesh(ctx, l)});
  }
  // `{maximal device=k}`: a maximal mesh per device named, after the mesh
  // spanning the devices (which stays the default).
  std::set<int64_t> maximalDevices;
  for (const Seen &s : seen)
    if (s.parsed.kind == Kind::maximal)
      maximalDevices.insert(s.parsed.device);
  for (int64_t k : maximalDevices)
    meshes.push_back(
        {"maximal_" + std::to_string(k), xla::MeshAttr::get(ctx, {}, {k}, {})});
  return success();
}

FlatSymbolRefAttr MeshInference::getDefaultMeshRef() const {
  if (meshes.empty())
    return {};
  return FlatSymbolRefAttr::get(ctx, meshes.front().name);
}

FailureOr<xla::ShardingAttr> MeshInference::import(StringRef text, int64_t rank,
                                                   Location loc) {
  interop::HloSharding parsed;
  std::string error;
  if (!interop::parseHloSharding(text, parsed, error))
    return emitError(loc) << "cannot parse sharding '" << text
                          << "': " << error;
  // On one device, a maximal sharding is replicated; on more it names its
  // maximal mesh.
  if (parsed.kind == interop::HloSharding::Kind::maximal && numDevices > 1)
    return xla::ShardingAttr::getReplicated(
        ctx,
        FlatSymbolRefAttr::get(ctx, "maximal_" + std::to_string(parsed.device)),
        rank);
  if (parsed.kind == interop::HloSharding::Kind::maximal ||
      parsed.kind == interop::HloSharding::Kind::replicated)
    return xla::ShardingAttr::getReplicated(ctx, getDefaultMeshRef(), rank);
  // The first mesh whose whole axes express it, else the first over parts
  // of axes.
  if (parsed.kind == interop::HloSharding::Kind::tiled) {
    std::optional<xla::ShardingAttr> withSubAxes;
    for (const NamedMesh &m : meshes) {
      FailureOr<xla::ShardingAttr> result;
      {
        ScopedDiagnosticHandler silence(ctx,
                                        [](Diagnostic &) { return success(); });
        result = interop::importHloSharding(
            text, m.mesh, FlatSymbolRefAttr::get(ctx, m.name), rank,
            [&] { return emitError(loc); });
      }
      if (failed(result))
        continue;
      if (!usesSubAxes(*result))
        return result;
      if (!withSubAxes)
        withSubAxes = *result;
    }
    if (withSubAxes)
      return *withSubAxes;
  }
  // Reports the problem against the default mesh.
  return interop::importHloSharding(
      text, meshes.front().mesh, getDefaultMeshRef(), rank,
      [&] { return emitError(loc) << "sharding: "; });
}
