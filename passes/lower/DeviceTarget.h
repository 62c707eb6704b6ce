//===- DeviceTarget.h - the devices a program is lowered for ----*- C++ -*-===//
//
// What --xla-lower-to-device needs to know about the machine: how many
// devices run the program and how they are grouped into slices (the ICI
// domains of a hybrid mesh), which decides the link class of every group of
// devices that communicates.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_LOWER_DEVICETARGET_H
#define XSPMD_PASSES_LOWER_DEVICETARGET_H

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace xspmd::lower {

struct DeviceTarget {
  int64_t numDevices = 0;
  /// Devices per slice: slice s holds ids s*sliceSize .. (s+1)*sliceSize-1.
  /// 0 when the module declares no hybrid mesh (one slice).
  int64_t sliceSize = 0;

  /// ici when every member of `devices` lies in one slice; dcn when each
  /// lies in a slice of its own; mixed otherwise.
  xla::LinkClass classify(llvm::ArrayRef<int64_t> devices) const;

  /// The slice size the module's hybrid meshes define (they must agree);
  /// emits an error at the offending mesh and fails otherwise.
  static mlir::FailureOr<int64_t> sliceSizeOf(mlir::ModuleOp module);
};

} // namespace xspmd::lower

#endif // XSPMD_PASSES_LOWER_DEVICETARGET_H
