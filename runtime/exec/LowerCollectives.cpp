//===- LowerCollectives.cpp - collective ops to rendezvous kernels --------===//
//
// Participants are resolved to device groups once, here; each kernel hands
// its buffer and that description to the communicator.
//
//===----------------------------------------------------------------------===//

#include "runtime/collectives/CollectiveKernels.h"
#include "runtime/collectives/Communicator.h"
#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/DataMovement.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <memory>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

static runtime::ReductionKind toReductionKind(xla::ReductionKind kind) {
  switch (kind) {
  case xla::ReductionKind::sum:
    return runtime::ReductionKind::sum;
  case xla::ReductionKind::mul:
    return runtime::ReductionKind::mul;
  case xla::ReductionKind::and_:
    return runtime::ReductionKind::and_;
  case xla::ReductionKind::or_:
    return runtime::ReductionKind::or_;
  case xla::ReductionKind::min:
    return runtime::ReductionKind::min;
  case xla::ReductionKind::max:
    return runtime::ReductionKind::max;
  }
  llvm_unreachable("unknown reduction kind");
}

/// The op's groups as device ids; fails unless they partition the devices
/// the program runs on.
static FailureOr<DeviceGroupList> resolveGroups(CollectiveOpInterface op,
                                                LoweringContext &ctx) {
  MeshAttr mesh;
  if (FlatSymbolRefAttr meshRef = op.getMeshAttr()) {
    MeshOp meshOp = lookupMesh(op, meshRef, &ctx.symbols);
    mesh = meshOp.getMesh();
    if (mesh.getNumDevices() != ctx.numDevices)
      return op->emitOpError()
             << "names mesh " << meshRef << " of " << mesh.getNumDevices()
             << " devices but the program runs on " << ctx.numDevices;
  }
  DeviceGroups groups = resolveParticipantGroups(op, mesh, ctx.numDevices);
  std::vector<bool> seen(ctx.numDevices, false);
  int64_t covered = 0;
  DeviceGroupList list;
  for (const auto &group : groups) {
    list.emplace_back(group.begin(), group.end());
    for (int64_t d : group) {
      if (d < 0 || d >= ctx.numDevices || seen[d])
        return op->emitOpError()
               << "replica groups must partition the " << ctx.numDevices
               << " devices the program runs on; device " << d
               << (d < 0 || d >= ctx.numDevices ? " is out of range"
                                                : " appears twice");
      seen[d] = true;
      ++covered;
    }
  }
  if (covered != ctx.numDevices)
    return op->emitOpError()
           << "replica groups cover " << covered
           << " devices but the program runs on " << ctx.numDevices;
  return list;
}

/// The result shape `op` must have with groups of `g` devices, or an error:
/// the verifier cannot check this when the op names no mesh (the group
/// size then depends on the device count of the run).
static LogicalResult checkShapes(Operation *op, int64_t g) {
  TensorSpec in = specOf(op->getOperand(0)), out = specOf(op->getResult(0));
  Shape expected = in.shape;
  auto split = [&](int64_t dim, StringRef what) -> LogicalResult {
    if (expected[dim] % g != 0)
      return op->emitOpError()
             << what << " " << dim << " of size " << expected[dim]
             << " does not split into " << g << " blocks (the group size of "
             << "this run)";
    expected[dim] /= g;
    return success();
  };
  LogicalResult ok =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](AllGatherOp ag) {
            expected[ag.getDim()] *= g;
            return success();
          })
          .Case([&](ReduceScatterOp rs) { return split(rs.getDim(), "dim"); })
          .Case([&](AllSliceOp as) { return split(as.getDim(), "dim"); })
          .Case([&](AllToAllOp a2a) -> LogicalResult {
            if (static_cast<int64_t>(a2a.getSplitCount()) != g)
              return op->emitOpError()
                     << "split_count " << a2a.getSplitCount()
                     << " must equal the group size of this run (" << g << ")";
            if (failed(split(a2a.getSplitDim(), "split dim")))
              return failure();
            expected[a2a.getConcatDim()] *= g;
            return success();
          })
          .Default([](Operation *) { return success(); });
  if (failed(ok))
    return failure();
  if (!llvm::equal(expected, out.shape))
    return op->emitOpError()
           << "with groups of " << g << " devices its result must be "
           << formatTensorType(expected, out.type) << ", not "
           << out.toString();
  return success();
}

FailureOr<std::shared_ptr<const CollectiveCall>>
describeCollectiveOp(Operation *op, LoweringContext &ctx) {
  auto iface = cast<CollectiveOpInterface>(op);
  FailureOr<DeviceGroupList> groups = resolveGroups(iface, ctx);
  if (failed(groups))
    return failure();
  auto call = std::make_shared<CollectiveCall>();
  call->groups = std::move(*groups);
  TensorSpec in = specOf(op->getOperand(0)), out = specOf(op->getResult(0));
  call->elementType = in.type;
  call->inputShape = in.shape;
  call->resultShape = out.shape;
  call->opName = op->getName().getStringRef().str();
  call->location = formatLocation(op->getLoc());
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](AllReduceOp ar) {
        call->kind = CollectiveKind::allReduce;
        call->reduction = toReductionKind(ar.getKind());
        call->scale = ar.getScale().convertToDouble();
      })
      .Case([&](AllGatherOp ag) {
        call->kind = CollectiveKind::allGather;
        call->dim = ag.getDim();
      })
      .Case([&](ReduceScatterOp rs) {
        call->kind = CollectiveKind::reduceScatter;
        call->reduction = toReductionKind(rs.getKind());
        call->scale = rs.getScale().convertToDouble();
        call->dim = rs.getDim();
      })
      .Case([&](AllToAllOp a2a) {
        call->kind = CollectiveKind::allToAll;
        call->splitDim = a2a.getSplitDim();
        call->concatDim = a2a.getConcatDim();
        call->splitCount = a2a.getSplitCount();
      })
      .Case([&](CollectivePermuteOp cp) {
        call->kind = CollectiveKind::collectivePermute;
        SmallVector<int64_t> flat =
            llvm::to_vector(cp.getPairs().getValues<int64_t>());
        for (size_t i = 0; i + 1 < flat.size(); i += 2)
          call->pairs.push_back({flat[i], flat[i + 1]});
      });
  int64_t groupSize = call->groups.front().size();
  if (failed(checkShapes(op, groupSize)))
    return failure();
  if (call->kind == CollectiveKind::collectivePermute)
    for (auto [s, t] : call->pairs)
      if (s >= groupSize || t >= groupSize)
        return op->emitOpError()
               << "pair [" << s << ", " << t
               << "] is out of range for groups of " << groupSize;
  return std::shared_ptr<const CollectiveCall>(std::move(call));
}

/// all_slice moves nothing: each device keeps its block.
static FailureOr<OpKernel> lowerAllSlice(AllSliceOp op, LoweringContext &ctx) {
  FailureOr<DeviceGroupList> groups = resolveGroups(op, ctx);
  if (failed(groups) || failed(checkShapes(op, groups->front().size())))
    return failure();
  std::vector<int64_t> position(ctx.numDevices, 0);
  for (const auto &group : *groups)
    for (auto [p, d] : llvm::enumerate(group))
      position[d] = p;
  TensorSpec spec = specOf(op.getResult());
  int64_t dim = op.getDim();
  return OpKernel([spec, dim, position](DeviceContext &device,
                                        ArrayRef<const Tensor *> in,
                                        MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    Shape start(spec.shape.size(), 0), strides(spec.shape.size(), 1);
    start[dim] = position[device.device] * spec.shape[dim];
    slice(*in[0], start, strides, out[0]);
    return llvm::Error::success();
  });
}

std::string describeParticipants(Operation *op) {
  auto iface = cast<CollectiveOpInterface>(op);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (FlatSymbolRefAttr mesh = iface.getMeshAttr()) {
    os << mesh << "[";
    llvm::interleaveComma(iface.getAxesAttr().getAsValueRange<StringAttr>(), os,
                          [&](StringRef axis) { os << '"' << axis << '"'; });
    os << "]";
    return text;
  }
  if (DenseIntElementsAttr groups = iface.getGroupsAttr()) {
    DeviceGroups list = groupsFromAttr(groups);
    os << list.size() << " group" << (list.size() == 1 ? "" : "s") << " of "
       << list.front().size() << " [";
    // The first groups, enough to recognise the pattern.
    size_t shown = 0;
    for (auto [g, group] : llvm::enumerate(list)) {
      if (g)
        os << ", ";
      if (shown >= 8) {
        os << "...";
        break;
      }
      os << "[";
      llvm::interleaveComma(llvm::ArrayRef(group).take_front(8), os);
      if (group.size() > 8)
        os << ", ...";
      os << "]";
      shown += std::min<size_t>(group.size(), 8);
    }
    os << "]";
    return text;
  }
  return "all devices";
}

FailureOr<OpKernel> lowerCollectiveOp(Operation *op, LoweringContext &ctx) {
  if (auto allSlice = dyn_cast<AllSliceOp>(op))
    return lowerAllSlice(allSlice, ctx);
  FailureOr<std::shared_ptr<const CollectiveCall>> described =
      describeCollectiveOp(op, ctx);
  if (failed(described))
    return failure();
  return makeCollectiveKernel(*described);
}

OpKernel makeCollectiveKernel(std::shared_ptr<const CollectiveCall> call) {
  return OpKernel([call](DeviceContext &device, ArrayRef<const Tensor *> in,
                         MutableArrayRef<Tensor> out) -> llvm::Error {
    if (!device.communicator) {
      // Alone: the only group is this device.
      out[0] = computeCollectiveResult(*call, device.device, {in[0]});
      device.collectiveGroupStart = device.collectiveIssueTime;
      return llvm::Error::success();
    }
    llvm::Expected<Tensor> result = device.communicator->execute(
        device.device, *call, *in[0], device.collectiveIssueTime,
        &device.collectiveGroupStart);
    if (!result)
      return result.takeError();
    out[0] = std::move(*result);
    return llvm::Error::success();
  });
}

} // namespace xspmd::runtime
