//===- xla-opt.cpp - the xspmd optimizer driver ---------------------------===//
//
// mlir-opt for the xla dialect: parses, verifies, runs xspmd passes and
// pipelines, prints.
//
//===----------------------------------------------------------------------===//

#include "lib/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  xspmd::registerAllPasses();
  mlir::DialectRegistry registry;
  xspmd::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "xspmd optimizer: SPMD partitioning of xla programs\n",
      registry));
}
