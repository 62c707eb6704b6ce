//===- ImportHloSharding.cpp - the --xla-import-hlo-sharding pass ---------===//

#include "passes/Passes.h"
#include "passes/common/FunctionAttrs.h"
#include "passes/interop/HloSharding.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAIMPORTHLOSHARDINGPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;

namespace {

int64_t rankOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getRank() : 0;
}

struct ImportHloShardingPass
    : xspmd::impl::XlaImportHloShardingPassBase<ImportHloShardingPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MeshOp mesh;
    if (meshName.empty()) {
      mesh = findFirstMesh(module);
    } else {
      mesh = module.lookupSymbol<MeshOp>(meshName);
      if (!mesh) {
        module.emitError() << "no mesh named @" << meshName;
        return signalPassFailure();
      }
    }
    // Nothing to do without any mhlo.sharding; an error only if some needs
    // a mesh.
    auto meshRef = mesh ? FlatSymbolRefAttr::get(mesh.getSymNameAttr())
                        : FlatSymbolRefAttr();
    StringRef attrName = xspmd::interop::kHloShardingAttrName;
    bool failed = false;
    auto import = [&](StringAttr text, Type type, Location loc,
                      const Twine &what) -> ShardingAttr {
      if (!mesh) {
        emitError(loc) << what << ": importing '" << text.getValue()
                       << "' needs a mesh in the module";
        failed = true;
        return {};
      }
      FailureOr<ShardingAttr> sharding = xspmd::interop::importHloSharding(
          text.getValue(), mesh.getMesh(), meshRef, rankOf(type),
          [&] { return emitError(loc) << what << ": "; });
      if (::mlir::failed(sharding)) {
        failed = true;
        return {};
      }
      return *sharding;
    };
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<Attribute> args(func.getNumArguments()),
          results(func.getNumResults());
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (auto text = func.getArgAttrOfType<StringAttr>(i, attrName))
          args[i] = import(text, func.getArgumentTypes()[i],
                           func.isExternal() ? func.getLoc()
                                             : func.getArgument(i).getLoc(),
                           "argument " + Twine(i));
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        if (auto text = func.getResultAttrOfType<StringAttr>(i, attrName))
          results[i] = import(text, func.getResultTypes()[i], func.getLoc(),
                              "result " + Twine(i));
      xspmd::setArgAttrs(func, kShardingAttrName, args);
      xspmd::setResultAttrs(func, kShardingAttrName, results);
      func.walk([&](Operation *op) {
        auto text = op->getAttrOfType<StringAttr>(attrName);
        if (!text || op->getNumResults() != 1)
          return;
        if (ShardingAttr s = import(text, op->getResult(0).getType(),
                                    op->getLoc(), "result 0"))
          op->setAttr(kShardingAttrName, s);
      });
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
