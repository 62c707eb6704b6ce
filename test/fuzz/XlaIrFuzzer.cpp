//===- XlaIrFuzzer.cpp - libFuzzer: parse, verify, --xla-spmd-pipeline ----===//
//
// Feeds arbitrary bytes through what `xla-opt --xla-spmd-pipeline` does:
// parse the bytes as an MLIR module (which verifies it), then run the SPMD
// pipeline with the verifier after every pass. Diagnostics are expected and
// discarded; a crash, a sanitizer report or a hang is a bug. Each input gets
// a fresh MLIRContext so that a crash reproduces from its input alone.
//
// Build with -DXSPMD_FUZZER=ON (and -DXSPMD_SANITIZE=ON); see
// docs/testing.md for the corpus (the lit tests) and the dictionary.
//
//===----------------------------------------------------------------------===//

#include "lib/InitAll.h"
#include "passes/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

namespace {

const mlir::DialectRegistry &registry() {
  static const mlir::DialectRegistry *instance = [] {
    auto *r = new mlir::DialectRegistry();
    xspmd::registerAllDialects(*r);
    return r;
  }();
  return *instance;
}

} // namespace

// The fuzzer runs without lit's ASAN_OPTIONS: ignore llvm::BumpPtrAllocator's
// manual poisoning, which misfires between our instrumented copy of its
// inline code and libMLIR.so's uninstrumented one
// (cmake/XspmdSanitizers.cmake).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
#endif
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(registry(), mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  mlir::ScopedDiagnosticHandler silence(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz-input"),
      llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return 0;

  mlir::PassManager pm(&context);
  pm.enableVerifier(true);
  xspmd::buildSpmdPipeline(pm, xspmd::SpmdPipelineOptions());
  (void)pm.run(*module);
  return 0;
}
