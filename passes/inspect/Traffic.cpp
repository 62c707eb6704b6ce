//===- Traffic.cpp - bytes a collective sends, per source op --------------===//

#include "passes/inspect/Traffic.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::inspect {

static int64_t bytesOf(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

CollectiveTraffic collectiveTraffic(CollectiveOpInterface op, MeshAttr mesh) {
  Operation *o = op.getOperation();
  int64_t numDevices = mesh ? mesh.getNumDevices() : 1;
  DeviceGroups groups = resolveParticipantGroups(op, mesh, numDevices);
  CollectiveTraffic t;
  t.numGroups = groups.size();
  t.groupSize = groups.empty() ? 1 : groups.front().size();
  if (LinkClassAttr tag = op.getLinkAttr())
    t.link = tag.getValue();
  else if (ArrayAttr axes = op.getAxesAttr())
    t.link = mesh.getLinkClassOfAxes(
        llvm::to_vector(axes.getAsValueRange<StringAttr>()));
  else
    t.link = mesh ? mesh.getLinkClassOfGroups(groups) : LinkClass::ici;
  t.inBytes = bytesOf(o->getOperand(0));
  int64_t in = t.inBytes, g = t.groupSize;
  t.sentBytes = llvm::TypeSwitch<Operation *, int64_t>(o)
                    .Case([&](AllGatherOp) { return (g - 1) * in; })
                    .Case<ReduceScatterOp, AllToAllOp>(
                        [&](auto) { return in * (g - 1) / g; })
                    .Case([&](AllReduceOp) { return 2 * in * (g - 1) / g; })
                    .Case([&](CollectivePermuteOp cp) -> int64_t {
                      // Every pair whose source and target differ moves the
                      // block.
                      auto flat =
                          llvm::to_vector(cp.getPairs().getValues<int64_t>());
                      for (size_t i = 0; i + 1 < flat.size(); i += 2)
                        if (flat[i] != flat[i + 1])
                          return in;
                      return 0;
                    })
                    .Default([](Operation *) { return int64_t(0); });
  return t;
}

std::string describeOp(Operation *op) {
  std::string s = op->getName().getStringRef().str();
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc())) {
    StringRef file = loc.getFilename().getValue();
    file = file.substr(file.find_last_of('/') + 1);
    s += " at " + file.str() + ":" + std::to_string(loc.getLine()) + ":" +
         std::to_string(loc.getColumn());
  }
  return s;
}

} // namespace xspmd::inspect
