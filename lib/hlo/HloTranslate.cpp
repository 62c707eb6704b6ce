//===- HloTranslate.cpp - HLO text translations for mlir-translate --------===//

#include "lib/hlo/HloTranslate.h"
#include "lib/hlo/HloExporter.h"
#include "lib/hlo/HloImporter.h"

#include "lib/InitAll.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

namespace {
llvm::cl::opt<std::string> exportFunction(
    "hlo-entry",
    llvm::cl::desc("--export-hlo: the function to export as ENTRY "
                   "(default: @main or the only public function)"),
    llvm::cl::init(""));
} // namespace

void xspmd::hlo::registerHloTranslations() {
  static TranslateToMLIRRegistration importHlo(
      "import-hlo", "HLO text (HloModule) to the xla dialect",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         MLIRContext *ctx) -> OwningOpRef<Operation *> {
        // Errors point into the HLO text; a dump of the op adds noise.
        ctx->printOpOnDiagnostic(false);
        OwningOpRef<ModuleOp> module = importHloModule(*sourceMgr, ctx);
        if (!module)
          return nullptr;
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) { xspmd::registerAllDialects(registry); });
  static TranslateFromMLIRRegistration exportHlo(
      "export-hlo", "the xla dialect to HLO text (HloModule)",
      [](Operation *op, llvm::raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("--export-hlo needs a builtin.module");
        return exportHloModule(module, os, exportFunction);
      },
      [](DialectRegistry &registry) { xspmd::registerAllDialects(registry); });
}
