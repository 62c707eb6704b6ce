//===- DeviceBodies.h - one body per class of identical devices -*- C++ -*-===//
//
// The last step of --xla-lower-to-device. Once device-dependent values are
// tables and collectives name devices, the devices' programs differ only in
// the link class each one uses in each collective. Devices that agree on
// every collective share one body: a private func.func with the function's
// type and attributes, `xla.devices` listing them, and each collective
// tagged with its `link`. The function
// itself keeps its signature and attributes and becomes an entry whose body
// is one `xla.dispatch` to the bodies.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_LOWER_DEVICEBODIES_H
#define XSPMD_PASSES_LOWER_DEVICEBODIES_H

#include "passes/lower/ResolveCollectives.h"

namespace xspmd::lower {

/// Builds the bodies of `func` (named `<func>.body<k>`, k in order of their
/// first device, renamed if taken) and turns `func` into their entry.
/// `collectives` are those of `func` in walk order. Returns the bodies.
llvm::SmallVector<mlir::func::FuncOp>
buildDeviceBodies(mlir::func::FuncOp func,
                  llvm::ArrayRef<ResolvedCollective> collectives,
                  const DeviceTarget &target, mlir::SymbolTable &symbolTable);

} // namespace xspmd::lower

#endif // XSPMD_PASSES_LOWER_DEVICEBODIES_H
