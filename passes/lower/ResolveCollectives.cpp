//===- ResolveCollectives.cpp - collectives on concrete devices -----------===//

#include "passes/lower/ResolveCollectives.h"

#include "mlir/IR/Builders.h"

#include <algorithm>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::lower {

void setCollectiveLink(Operation *op, LinkClassAttr link) {
  if (link)
    op->setAttr("link", link);
  else
    op->removeAttr("link");
}

/// Checks that `groups` partition the devices 0..n-1.
static LogicalResult checkPartition(Operation *op, const DeviceGroups &groups,
                                    int64_t n) {
  std::vector<bool> seen(n, false);
  int64_t covered = 0;
  for (const auto &group : groups)
    for (int64_t d : group) {
      if (d < 0 || d >= n || seen[d])
        return op->emitOpError()
               << "cannot be lowered: its participants must partition the " << n
               << " devices of the module, but device " << d
               << (d < 0 || d >= n ? " is out of range" : " appears twice");
      seen[d] = true;
      ++covered;
    }
  if (covered != n)
    return op->emitOpError() << "cannot be lowered: its participants cover "
                             << covered << " devices but the module has " << n;
  return success();
}

/// Pairs of absolute device ids, sorted by source.
static DeviceGroups absolutePairs(CollectivePermuteOp op,
                                  const DeviceGroups &groups) {
  SmallVector<int64_t> flat =
      llvm::to_vector(op.getPairs().getValues<int64_t>());
  bool positional = op.getAxesAttr() || op.getGroupsAttr();
  DeviceGroups pairs;
  for (size_t i = 0; i + 1 < flat.size(); i += 2) {
    if (!positional) {
      pairs.push_back({flat[i], flat[i + 1]});
      continue;
    }
    for (const auto &group : groups)
      pairs.push_back({group[flat[i]], group[flat[i + 1]]});
  }
  llvm::sort(pairs);
  return pairs;
}

static FailureOr<ResolvedCollective> resolve(CollectiveOpInterface op,
                                             const DeviceTarget &target,
                                             SymbolTableCollection &symbols) {
  MLIRContext *ctx = op->getContext();
  MeshAttr mesh;
  if (FlatSymbolRefAttr ref = op.getMeshAttr()) {
    MeshOp meshOp = lookupMesh(op, ref, &symbols);
    if (!meshOp)
      return op->emitOpError() << "names unknown mesh " << ref;
    mesh = meshOp.getMesh();
  }
  DeviceGroups groups = resolveParticipantGroups(op, mesh, target.numDevices);
  if (failed(checkPartition(op, groups, target.numDevices)))
    return failure();
  ResolvedCollective resolved;
  resolved.op = op;
  resolved.links.assign(target.numDevices, LinkClass::ici);
  if (auto permute = dyn_cast<CollectivePermuteOp>(op.getOperation())) {
    DeviceGroups pairs = absolutePairs(permute, groups);
    std::vector<SmallVector<int64_t, 3>> peers(target.numDevices);
    for (int64_t d = 0; d < target.numDevices; ++d)
      peers[d].push_back(d);
    for (const auto &pair : pairs) {
      peers[pair[0]].push_back(pair[1]);
      peers[pair[1]].push_back(pair[0]);
    }
    for (int64_t d = 0; d < target.numDevices; ++d) {
      llvm::sort(peers[d]);
      peers[d].erase(llvm::unique(peers[d]), peers[d].end());
      resolved.links[d] = target.classify(peers[d]);
    }
    DenseIntElementsAttr pairsAttr = groupsToAttr(ctx, pairs);
    if (pairs.empty())
      pairsAttr = DenseIntElementsAttr::get(
          RankedTensorType::get({0, 2}, IntegerType::get(ctx, 64)),
          ArrayRef<int64_t>{});
    permute.setPairsAttr(pairsAttr);
    op->removeAttr("groups");
  } else {
    for (const auto &group : groups) {
      LinkClass link = target.classify(group);
      for (int64_t d : group)
        resolved.links[d] = link;
    }
    op->setAttr("groups", groupsToAttr(ctx, groups));
  }
  op->removeAttr("mesh");
  op->removeAttr("axes");
  setCollectiveLink(op, nullptr);
  return resolved;
}

FailureOr<std::vector<ResolvedCollective>>
resolveCollectives(func::FuncOp func, const DeviceTarget &target,
                   SymbolTableCollection &symbols) {
  std::vector<ResolvedCollective> collectives;
  WalkResult walked = func.walk([&](CollectiveOpInterface op) {
    FailureOr<ResolvedCollective> resolved = resolve(op, target, symbols);
    if (failed(resolved))
      return WalkResult::interrupt();
    collectives.push_back(std::move(*resolved));
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  return collectives;
}

} // namespace xspmd::lower
