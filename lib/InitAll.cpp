//===- InitAll.cpp - register xspmd's dialects and passes -----------------===//

#include "lib/InitAll.h"

#include "dialects/xla/XlaDialect.h"
#include "passes/Passes.h"
#include "passes/Pipelines.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void xspmd::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<xspmd::xla::XlaDialect, mlir::func::FuncDialect>();
  // func.call/func.return inline (the SPMD pipeline inlines calls first).
  mlir::func::registerInlinerExtension(registry);
}

void xspmd::registerAllPasses() {
  xspmd::registerXlaPasses();
  xspmd::registerXlaPipelines();
  mlir::registerTransformsPasses();
}
