// Parses a module with a hybrid mesh through the installed dialect, verifies
// it and prints the mesh's device order and link classes.
#include "dialects/xla/XlaOps.h"
#include "lib/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::DialectRegistry registry;
  xspmd::registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  const char *source = R"mlir(
    xla.mesh @m = hybrid<ici=["data"=2, "model"=2], dcn=["data"=2, "model"=1]>
    func.func @f(%x: tensor<8x4xf32> {xla.sharding = #xla.sharding<@m, [{"data"}, {"model"}]>}) -> tensor<8x4xf32> {
      %y = xla.add %x, %x : tensor<8x4xf32>
      return %y : tensor<8x4xf32>
    }
  )mlir";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  for (auto mesh : module->getOps<xspmd::xla::MeshOp>()) {
    llvm::outs() << "mesh @" << mesh.getSymName() << " devices:";
    for (int64_t d : mesh.getMesh().getDeviceArray())
      llvm::outs() << ' ' << d;
    for (int64_t i = 0; i < mesh.getMesh().getRank(); ++i)
      llvm::outs() << " axis" << i << "="
                   << xspmd::xla::stringifyLinkClass(
                          mesh.getMesh().getLinkClass(i));
    llvm::outs() << "\n";
  }
  return 0;
}
