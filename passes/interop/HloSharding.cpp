//===- HloSharding.cpp - XLA's HloSharding text form ----------------------===//

#include "passes/interop/HloSharding.h"

#include "dialects/xla/XlaSubAxes.h"

#include "dialects/xla/XlaMesh.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <numeric>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::interop {
namespace {

using Spec = SmallVector<SmallVector<int64_t, 2>, 4>;

int64_t product(ArrayRef<int64_t> values) {
  return std::accumulate(values.begin(), values.end(), int64_t{1},
                         std::multiplies<int64_t>());
}

SmallVector<int64_t> meshShape(MeshAttr mesh) {
  return llvm::map_to_vector(mesh.getAxes(),
                             [](MeshAxisAttr a) { return a.getSize(); });
}

/// `array` (row-major over `shape`) with its dimensions permuted: dimension
/// i of the result is dimension perm[i] of the input.
SmallVector<int64_t> transpose(ArrayRef<int64_t> shape, ArrayRef<int64_t> array,
                               ArrayRef<int64_t> perm) {
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<int64_t> outShape =
      llvm::map_to_vector(perm, [&](int64_t p) { return shape[p]; });
  SmallVector<int64_t> out(array.size());
  SmallVector<int64_t> index(perm.size(), 0);
  for (int64_t flat = 0, e = array.size(); flat < e; ++flat) {
    int64_t src = 0;
    for (size_t i = 0; i < perm.size(); ++i)
      src += index[i] * strides[perm[i]];
    out[flat] = array[src];
    for (int64_t i = perm.size() - 1; i >= 0; --i) {
      if (++index[i] < outShape[i])
        break;
      index[i] = 0;
    }
  }
  return out;
}

/// Mesh axis indices of each dimension of `sharding`.
Spec specOf(ShardingAttr sharding, MeshAttr mesh) {
  Spec spec;
  for (DimShardingAttr dim : sharding.getDims())
    spec.push_back(llvm::map_to_vector<2>(dim.getAxes(), [&](StringAttr a) {
      return mesh.getAxisIndex(a.getValue());
    }));
  return spec;
}

/// Mesh axes no dimension uses, in mesh order.
SmallVector<int64_t> unusedAxes(const Spec &spec, int64_t meshRank) {
  SmallVector<int64_t> unused;
  for (int64_t a = 0; a < meshRank; ++a)
    if (llvm::none_of(spec, [&](ArrayRef<int64_t> d) {
          return llvm::is_contained(d, a);
        }))
      unused.push_back(a);
  return unused;
}

/// Tile dimensions of `spec`: shards per tensor dimension, then the
/// replication group if larger than 1.
SmallVector<int64_t> tileDims(const Spec &spec, ArrayRef<int64_t> shape,
                              int64_t &groupSize) {
  SmallVector<int64_t> dims;
  for (ArrayRef<int64_t> dim : spec)
    dims.push_back(
        product(llvm::map_to_vector(dim, [&](int64_t a) { return shape[a]; })));
  groupSize = product(shape) / product(dims);
  if (groupSize > 1)
    dims.push_back(groupSize);
  return dims;
}

/// The explicit tile assignment (device list) of `spec`, replication groups
/// sorted.
SmallVector<int64_t> tileDevices(const Spec &spec, MeshAttr mesh,
                                 int64_t groupSize) {
  SmallVector<int64_t> perm;
  for (ArrayRef<int64_t> dim : spec)
    llvm::append_range(perm, dim);
  llvm::append_range(perm, unusedAxes(spec, mesh.getRank()));
  SmallVector<int64_t> devices =
      transpose(meshShape(mesh), mesh.getDeviceArray(), perm);
  if (groupSize > 1)
    for (auto it = devices.begin(); it != devices.end(); it += groupSize)
      std::sort(it, it + groupSize);
  return devices;
}

/// The mesh's device order as an iota transposition: devices are
/// iota(reshape) with reshape dimensions axisDims[0], axisDims[1], ...
/// taken in that order. Fails for explicit non-iota device lists.
bool meshAsIota(MeshAttr mesh, SmallVector<int64_t> &reshape,
                SmallVector<SmallVector<int64_t, 2>> &axisDims) {
  int64_t rank = mesh.getRank();
  if (mesh.isHybrid()) {
    // Device id is row-major over [dcn..., ici...]; axis i is (dcn_i, ici_i).
    for (int64_t i = 0; i < rank; ++i)
      reshape.push_back(mesh.getDcnSize(i));
    for (int64_t i = 0; i < rank; ++i)
      reshape.push_back(mesh.getIciSize(i));
    for (int64_t i = 0; i < rank; ++i)
      axisDims.push_back({i, rank + i});
    return true;
  }
  SmallVector<int64_t> devices = mesh.getDeviceArray();
  for (auto [i, d] : llvm::enumerate(devices))
    if (d != static_cast<int64_t>(i))
      return false;
  reshape = meshShape(mesh);
  for (int64_t i = 0; i < rank; ++i)
    axisDims.push_back({i});
  return true;
}

/// XLA's canonical iota form: size-1 reshape dimensions dropped, and
/// dimensions consecutive in both the reshape and the permutation merged.
void canonicalizeIota(SmallVector<int64_t> &reshape,
                      SmallVector<int64_t> &perm) {
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<int64_t> newIndex(reshape.size(), -1);
    SmallVector<int64_t> kept;
    for (auto [i, size] : llvm::enumerate(reshape))
      if (size != 1) {
        newIndex[i] = kept.size();
        kept.push_back(size);
      }
    SmallVector<int64_t> keptPerm;
    for (int64_t p : perm)
      if (newIndex[p] >= 0)
        keptPerm.push_back(newIndex[p]);
    reshape = kept;
    perm = keptPerm;
    for (size_t i = 1; i < perm.size(); ++i)
      if (perm[i] == perm[i - 1] + 1) {
        reshape[perm[i - 1]] *= reshape[perm[i]];
        reshape[perm[i]] = 1;
        changed = true;
        break;
      }
  }
  if (reshape.empty()) {
    reshape = {1};
    perm = {0};
  }
}

std::string joined(ArrayRef<int64_t> values) {
  return llvm::join(
      llvm::map_range(values, [](int64_t v) { return std::to_string(v); }),
      ",");
}

} // namespace

bool exportHloSharding(ShardingAttr sharding, MeshAttr mesh, bool iota,
                       std::string &result, std::string &error) {
  // Sub-axes are axes of the refined mesh, which names the same devices.
  auto refined = refineForSharding(mesh, sharding, error);
  if (!refined)
    return false;
  std::tie(mesh, sharding) = *refined;
  if (sharding.isPartial()) {
    error = "a partial sharding (pending reduction) has no HloSharding form";
    return false;
  }
  if (mesh.getNumDevices() == 1) {
    result =
        "{maximal device=" + std::to_string(mesh.getDeviceArray()[0]) + "}";
    return true;
  }
  Spec spec = specOf(sharding, mesh);
  SmallVector<int64_t> shape = meshShape(mesh);
  int64_t groupSize = 1;
  SmallVector<int64_t> dims = tileDims(spec, shape, groupSize);
  if (groupSize == mesh.getNumDevices()) {
    result = "{replicated}";
    return true;
  }
  SmallVector<int64_t> reshape;
  SmallVector<SmallVector<int64_t, 2>> axisDims;
  result = "{devices=[" + joined(dims) + "]";
  if (iota && meshAsIota(mesh, reshape, axisDims)) {
    SmallVector<int64_t> perm;
    for (ArrayRef<int64_t> dim : spec)
      for (int64_t a : dim)
        llvm::append_range(perm, axisDims[a]);
    SmallVector<int64_t> replicated;
    for (int64_t a : unusedAxes(spec, mesh.getRank()))
      llvm::append_range(replicated, axisDims[a]);
    llvm::sort(replicated); // replication groups in increasing device order
    llvm::append_range(perm, replicated);
    canonicalizeIota(reshape, perm);
    result += "<=[" + joined(reshape) + "]";
    if (reshape.size() > 1)
      result += "T(" + joined(perm) + ")";
  } else {
    result += joined(tileDevices(spec, mesh, groupSize));
  }
  if (groupSize > 1)
    result += " last_tile_dim_replicate";
  result += "}";
  return true;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

/// Parses `[i,j,...]` or `(i,j,...)` (given the brackets) at the front of
/// `s`, consuming it.
bool parseIntList(StringRef &s, char open, char close,
                  SmallVectorImpl<int64_t> &out) {
  s = s.ltrim();
  if (!s.consume_front(StringRef(&open, 1)))
    return false;
  size_t end = s.find(close);
  if (end == StringRef::npos)
    return false;
  StringRef inner = s.take_front(end);
  s = s.drop_front(end + 1);
  if (inner.trim().empty())
    return true;
  SmallVector<StringRef> parts;
  inner.split(parts, ',');
  for (StringRef part : parts) {
    int64_t v = 0;
    if (part.trim().getAsInteger(10, v))
      return false;
    out.push_back(v);
  }
  return true;
}

/// Consumes a comma-separated list of integers (the explicit devices).
void parseDeviceList(StringRef &s, SmallVectorImpl<int64_t> &out) {
  while (true) {
    s = s.ltrim();
    size_t n = 0;
    while (n < s.size() && llvm::isDigit(s[n]))
      ++n;
    if (n == 0)
      return;
    int64_t v = 0;
    s.take_front(n).getAsInteger(10, v);
    out.push_back(v);
    s = s.drop_front(n).ltrim();
    if (!s.consume_front(","))
      return;
  }
}

} // namespace

bool parseHloSharding(StringRef text, HloSharding &r, std::string &error) {
  StringRef s = text.trim();
  if (!s.consume_front("{") || !s.consume_back("}")) {
    error = "an HloSharding is enclosed in braces";
    return false;
  }
  s = s.trim();
  if (s.starts_with("{")) {
    error = "tuple shardings are not supported (each value is one array)";
    return false;
  }
  // Metadata is informational; drop it.
  if (size_t m = s.find("metadata={"); m != StringRef::npos)
    s = s.take_front(m).rtrim();
  if (s.contains("shard_as") || s.contains("shard_like")) {
    error = "shard_as/shard_like groups are not supported";
    return false;
  }
  if (s == "replicated" || s == "manual" || s == "unknown") {
    r.kind = s == "replicated" ? HloSharding::Kind::replicated
             : s == "manual"   ? HloSharding::Kind::manual
                               : HloSharding::Kind::unknown;
    return true;
  }
  if (s.consume_front("maximal")) {
    s = s.ltrim();
    if (!s.consume_front("device=") || s.trim().getAsInteger(10, r.device)) {
      error = "expected 'maximal device=N'";
      return false;
    }
    r.kind = HloSharding::Kind::maximal;
    return true;
  }
  if (!s.consume_front("devices=") || !parseIntList(s, '[', ']', r.tileDims) ||
      r.tileDims.empty()) {
    error = "expected 'replicated', 'maximal device=N' or 'devices=[...]'";
    return false;
  }
  r.kind = HloSharding::Kind::tiled;
  int64_t numTiles = product(r.tileDims);
  s = s.ltrim();
  if (s.consume_front("<=")) {
    SmallVector<int64_t> reshape, perm;
    if (!parseIntList(s, '[', ']', reshape) || reshape.empty()) {
      error = "expected '<=[...]' after the tile dimensions";
      return false;
    }
    s = s.ltrim();
    if (s.consume_front("T")) {
      if (!parseIntList(s, '(', ')', perm)) {
        error = "expected 'T(...)' with a permutation";
        return false;
      }
    } else {
      perm = llvm::to_vector(llvm::seq<int64_t>(0, reshape.size()));
    }
    SmallVector<int64_t> sorted(perm);
    llvm::sort(sorted);
    if (perm.size() != reshape.size() ||
        sorted != llvm::to_vector(llvm::seq<int64_t>(0, reshape.size()))) {
      error = "T(...) must permute the " + std::to_string(reshape.size()) +
              " iota dimensions";
      return false;
    }
    if (product(reshape) != numTiles) {
      error = "iota over " + std::to_string(product(reshape)) +
              " devices does not fill " + std::to_string(numTiles) + " tiles";
      return false;
    }
    SmallVector<int64_t> iota =
        llvm::to_vector(llvm::seq<int64_t>(0, numTiles));
    r.devices = transpose(reshape, iota, perm);
  } else {
    parseDeviceList(s, r.devices);
    if (static_cast<int64_t>(r.devices.size()) != numTiles) {
      error = "the tile assignment lists " + std::to_string(r.devices.size()) +
              " devices for " + std::to_string(numTiles) + " tiles";
      return false;
    }
  }
  while (!(s = s.ltrim()).empty()) {
    if (s.consume_front("last_tile_dim_replicate")) {
      r.lastTileDimReplicate = true;
      continue;
    }
    if (s.consume_front("last_tile_dims={")) {
      size_t end = s.find('}');
      if (end == StringRef::npos) {
        error = "unterminated last_tile_dims={...}";
        return false;
      }
      SmallVector<StringRef> types;
      s.take_front(end).split(types, ',');
      for (StringRef t : types)
        r.subgroupTypes.push_back(t.trim().str());
      s = s.drop_front(end + 1);
      continue;
    }
    error = "unexpected '" + s.str() + "'";
    return false;
  }
  if (r.numSubgroupDims() > static_cast<int64_t>(r.tileDims.size())) {
    error = "more subgroup dimensions than tile dimensions";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Import
//===----------------------------------------------------------------------===//

namespace {

/// Depth-first search over partition specs whose per-dimension shard
/// counts are `counts`: each dimension takes an ordered list of distinct
/// mesh axes (of size > 1) with that product.
struct SpecSearch {
  ArrayRef<int64_t> counts;
  ArrayRef<int64_t> shape;
  function_ref<bool(const Spec &)> accept;
  Spec spec;
  SmallVector<bool> used;

  bool dim(size_t d) {
    if (d == counts.size())
      return accept(spec);
    return extend(d, 1);
  }

  bool extend(size_t d, int64_t covered) {
    if (covered == counts[d])
      return dim(d + 1);
    for (int64_t a = 0, e = shape.size(); a < e; ++a) {
      int64_t next = covered * shape[a];
      if (used[a] || shape[a] == 1 || counts[d] % next != 0)
        continue;
      used[a] = true;
      spec[d].push_back(a);
      if (extend(d, next))
        return true;
      spec[d].pop_back();
      used[a] = false;
    }
    return false;
  }
};

} // namespace

FailureOr<ShardingAttr>
importHloSharding(StringRef text, MeshAttr mesh, FlatSymbolRefAttr meshRef,
                  int64_t rank, function_ref<InFlightDiagnostic()> emitError) {
  MLIRContext *ctx = meshRef.getContext();
  HloSharding parsed;
  std::string error;
  if (!parseHloSharding(text, parsed, error))
    return emitError() << "cannot parse HloSharding '" << text
                       << "': " << error;
  auto makeSharding = [&](const Spec &spec) {
    SmallVector<DimShardingAttr> dims;
    for (ArrayRef<int64_t> dim : spec)
      dims.push_back(DimShardingAttr::get(
          ctx,
          llvm::map_to_vector(
              dim, [&](int64_t a) { return mesh.getAxes()[a].getName(); }),
          /*isOpen=*/false, std::nullopt));
    return ShardingAttr::get(ctx, meshRef, dims, {}, ReductionKind::sum);
  };
  Spec replicated(rank);
  switch (parsed.kind) {
  case HloSharding::Kind::replicated:
    return makeSharding(replicated);
  case HloSharding::Kind::maximal:
    if (mesh.getNumDevices() == 1 && mesh.getDeviceArray()[0] == parsed.device)
      return makeSharding(replicated);
    return emitError() << "HloSharding '" << text << "' puts the value on "
                       << "device " << parsed.device << " only; no partition "
                       << "spec over mesh " << meshRef << " of "
                       << mesh.getNumDevices() << " devices does";
  case HloSharding::Kind::manual:
  case HloSharding::Kind::unknown:
    return emitError() << "HloSharding '" << text
                       << "' is not a partition spec";
  case HloSharding::Kind::tiled:
    break;
  }
  for (const std::string &type : parsed.subgroupTypes)
    if (type != "replicated")
      return emitError() << "HloSharding '" << text << "' has a '" << type
                         << "' subgroup; only replicated subgroups are "
                            "partition specs";
  int64_t numSubgroupDims = parsed.numSubgroupDims();
  int64_t dataDims = parsed.tileDims.size() - numSubgroupDims;
  if (dataDims != rank)
    return emitError() << "HloSharding '" << text << "' tiles " << dataDims
                       << " dimensions but the value has rank " << rank;
  if (static_cast<int64_t>(parsed.devices.size()) != mesh.getNumDevices())
    return emitError() << "HloSharding '" << text << "' spans "
                       << parsed.devices.size() << " devices but mesh "
                       << meshRef << " has " << mesh.getNumDevices();
  // Expected devices, with the replication group (all subgroup dimensions
  // merged) sorted.
  int64_t groupSize =
      product(ArrayRef<int64_t>(parsed.tileDims).take_back(numSubgroupDims));
  SmallVector<int64_t> expected(parsed.devices);
  if (groupSize > 1)
    for (auto it = expected.begin(); it != expected.end(); it += groupSize)
      std::sort(it, it + groupSize);
  SmallVector<int64_t> counts(
      ArrayRef<int64_t>(parsed.tileDims).take_front(dataDims));
  SmallVector<int64_t> shape = meshShape(mesh);
  std::optional<Spec> found;
  // A named lambda: SpecSearch holds a function_ref, which must not outlive
  // what it refers to (a temporary would die with the initializer).
  auto matchesDevices = [&](const Spec &spec) {
    int64_t group = 1;
    tileDims(spec, shape, group);
    if (tileDevices(spec, mesh, group) != expected)
      return false;
    found = spec;
    return true;
  };
  SpecSearch search{counts, shape, matchesDevices, Spec(rank),
                    SmallVector<bool>(shape.size(), false)};
  if (product(counts) * groupSize != mesh.getNumDevices())
    return emitError() << "HloSharding '" << text << "' has "
                       << product(counts) * groupSize
                       << " tiles times replicas but mesh " << meshRef
                       << " has " << mesh.getNumDevices() << " devices";
  if (search.dim(0))
    return makeSharding(*found);
  // Over parts of axes: the same search on the mesh split into prime
  // sub-axes, whose parts then merge back ("x":(1)2, "x":(2)2 is "x").
  MeshAttr atoms = primeRefinedMesh(mesh);
  if (atoms && atoms.getRank() > mesh.getRank()) {
    SmallVector<int64_t> atomShape = meshShape(atoms);
    auto matchesAtoms = [&](const Spec &spec) {
      int64_t group = 1;
      tileDims(spec, atomShape, group);
      if (tileDevices(spec, atoms, group) != expected)
        return false;
      found = spec;
      return true;
    };
    SpecSearch atomSearch{counts, atomShape, matchesAtoms, Spec(rank),
                          SmallVector<bool>(atomShape.size(), false)};
    if (atomSearch.dim(0)) {
      SmallVector<DimShardingAttr> dims;
      for (ArrayRef<int64_t> dim : *found) {
        SmallVector<StringAttr> names = llvm::map_to_vector(
            dim, [&](int64_t a) { return atoms.getAxes()[a].getName(); });
        dims.push_back(DimShardingAttr::get(ctx, canonicalizeAxes(mesh, names),
                                            /*isOpen=*/false, std::nullopt));
      }
      return ShardingAttr::get(ctx, meshRef, dims, {}, ReductionKind::sum);
    }
  }
  return emitError() << "no partition spec over mesh " << meshRef
                     << " gives the tile assignment of HloSharding '" << text
                     << "'";
}

} // namespace xspmd::interop
