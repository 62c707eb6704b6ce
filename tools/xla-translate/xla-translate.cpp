//===- xla-translate.cpp - the xspmd translation driver -------------------===//
//
// mlir-translate for xspmd: `--import-hlo` reads XLA's HloModule text into
// the xla dialect, `--export-hlo` prints an xla module as HloModule text.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloTranslate.h"

#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  xspmd::hlo::registerHloTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "xspmd translation tool\n"));
}
