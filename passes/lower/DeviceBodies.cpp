//===- DeviceBodies.cpp - one body per class of identical devices ---------===//

#include "passes/lower/DeviceBodies.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <map>
#include <string>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::lower {

/// Devices grouped by the link class they use in each collective, classes
/// in order of their first device.
static std::vector<SmallVector<int64_t>>
classifyDevices(ArrayRef<ResolvedCollective> collectives, int64_t numDevices) {
  std::map<std::string, size_t> classOf;
  std::vector<SmallVector<int64_t>> classes;
  std::string key(collectives.size(), '\0');
  for (int64_t d = 0; d < numDevices; ++d) {
    for (auto [i, collective] : llvm::enumerate(collectives))
      key[i] = static_cast<char>(collective.links[d]);
    auto [it, inserted] = classOf.try_emplace(key, classes.size());
    if (inserted)
      classes.emplace_back();
    classes[it->second].push_back(d);
  }
  return classes;
}

SmallVector<func::FuncOp>
buildDeviceBodies(func::FuncOp func, ArrayRef<ResolvedCollective> collectives,
                  const DeviceTarget &target, SymbolTable &symbolTable) {
  MLIRContext *ctx = func.getContext();
  std::vector<SmallVector<int64_t>> classes =
      classifyDevices(collectives, target.numDevices);
  SmallVector<Location> argLocs;
  for (BlockArgument arg : func.getArguments())
    argLocs.push_back(arg.getLoc());

  OpBuilder b(ctx);
  b.setInsertionPointAfter(func);
  SmallVector<func::FuncOp> bodies;
  SmallVector<Attribute> names;
  for (auto [k, devices] : llvm::enumerate(classes)) {
    std::string name = (func.getSymName() + ".body" + Twine(k)).str();
    auto body =
        func::FuncOp::create(b, func.getLoc(), name, func.getFunctionType());
    // The last body takes the function's own region; the others copy it.
    if (k + 1 < classes.size()) {
      IRMapping mapping;
      func.getBody().cloneInto(&body.getBody(), mapping);
    } else {
      body.getBody().takeBody(func.getBody());
    }
    // A body describes itself as the entry does (shardings, global types,
    // `xla.partitioned`), so that later passes see the same program.
    body->setDiscardableAttrs(func->getDiscardableAttrDictionary());
    body.setArgAttrsAttr(func.getArgAttrsAttr());
    body.setResAttrsAttr(func.getResAttrsAttr());
    body.setPrivate();
    body->setAttr(kDevicesAttrName, b.getDenseI64ArrayAttr(devices));
    symbolTable.insert(body);
    b.setInsertionPointAfter(body);

    SmallVector<Operation *> ops;
    body.walk([&](CollectiveOpInterface op) { ops.push_back(op); });
    assert(ops.size() == collectives.size() && "a body has every collective");
    for (auto [op, collective] : llvm::zip_equal(ops, collectives))
      setCollectiveLink(op,
                        LinkClassAttr::get(ctx, collective.links[devices[0]]));
    names.push_back(FlatSymbolRefAttr::get(body.getSymNameAttr()));
    bodies.push_back(body);
  }

  Block *entry =
      b.createBlock(&func.getBody(), {}, func.getArgumentTypes(), argLocs);
  b.setInsertionPointToEnd(entry);
  auto dispatch =
      DispatchOp::create(b, func.getLoc(), func.getResultTypes(),
                         b.getArrayAttr(names), entry->getArguments());
  func::ReturnOp::create(b, func.getLoc(), dispatch.getResults());
  return bodies;
}

} // namespace xspmd::lower
