//===- InitAll.h - register xspmd's dialects and passes ---------*- C++ -*-===//
//
// One place for tools and embedders to register everything xspmd provides.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_INITALL_H
#define XSPMD_LIB_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace xspmd {

/// The dialects an xspmd program uses: xla, func.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Every xspmd pass and pipeline, plus the upstream transforms
/// (canonicalize, cse, ...) that are handy around them.
void registerAllPasses();

} // namespace xspmd

#endif // XSPMD_LIB_INITALL_H
