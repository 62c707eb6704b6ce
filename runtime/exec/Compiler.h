//===- Compiler.h - func.func to Program ------------------------*- C++ -*-===//

#ifndef XSPMD_RUNTIME_EXEC_COMPILER_H
#define XSPMD_RUNTIME_EXEC_COMPILER_H

#include "runtime/exec/Program.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LogicalResult.h"

namespace xspmd::runtime {

struct CompileOptions {
  /// Devices the program will run on.
  int64_t numDevices = 1;
};

/// Compiles the body of `func` (a single block of xla ops ending in
/// func.return). Emits located diagnostics and fails on anything the
/// simulator cannot run: other dialects' ops, unsupported types, regions.
mlir::FailureOr<Program> compileFunction(mlir::func::FuncOp func,
                                         const CompileOptions &options);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_COMPILER_H
