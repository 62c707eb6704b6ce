//===- ExportHloSharding.cpp - the --xla-export-hlo-sharding pass ---------===//

#include "passes/Passes.h"
#include "passes/common/FunctionAttrs.h"
#include "passes/interop/HloSharding.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAEXPORTHLOSHARDINGPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;

namespace {

struct ExportHloShardingPass
    : xspmd::impl::XlaExportHloShardingPassBase<ExportHloShardingPass> {
  using Base::Base;

  /// The text for `sharding`, or null (with a diagnostic) if there is none.
  StringAttr exportOne(func::FuncOp func, ShardingAttr sharding,
                       const Twine &what, SymbolTableCollection &symbols,
                       bool &failed) {
    MeshOp mesh = lookupMesh(func, sharding.getMesh(), &symbols);
    if (!mesh) {
      func.emitError() << what << ": sharding names unknown mesh "
                       << sharding.getMesh();
      failed = true;
      return {};
    }
    std::string text, error;
    if (!xspmd::interop::exportHloSharding(sharding, mesh.getMesh(), iota, text,
                                           error)) {
      func.emitWarning() << what << ": " << error << "; no "
                         << xspmd::interop::kHloShardingAttrName << " written";
      return {};
    }
    return StringAttr::get(&getContext(), text);
  }

  void runOnOperation() override {
    bool failed = false;
    SymbolTableCollection symbols;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      SmallVector<Attribute> args(func.getNumArguments()),
          results(func.getNumResults());
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (auto sharding =
                func.getArgAttrOfType<ShardingAttr>(i, kShardingAttrName))
          args[i] = exportOne(func, sharding, "argument " + Twine(i), symbols,
                              failed);
      for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
        if (auto sharding =
                func.getResultAttrOfType<ShardingAttr>(i, kShardingAttrName))
          results[i] =
              exportOne(func, sharding, "result " + Twine(i), symbols, failed);
      xspmd::setArgAttrs(func, xspmd::interop::kHloShardingAttrName, args);
      xspmd::setResultAttrs(func, xspmd::interop::kHloShardingAttrName,
                            results);
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
