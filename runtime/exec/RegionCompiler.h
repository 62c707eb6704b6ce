//===- RegionCompiler.h - scalar bodies to ScalarComputation ----*- C++ -*-===//
//
// Compiles a scalar computation of the xla dialect (a region of an op with
// the ScalarBodies trait: rank-0 tensor arguments, elementwise ops,
// constants, compare, select and convert, ending in xla.yield) into a
// runtime ScalarComputation that kernels apply per element.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_REGIONCOMPILER_H
#define XSPMD_RUNTIME_EXEC_REGIONCOMPILER_H

#include "runtime/kernels/ScalarComputation.h"

#include "mlir/IR/Region.h"
#include "mlir/Support/LogicalResult.h"

namespace xspmd::runtime {

/// The computation `region` describes. An op a scalar computation cannot
/// hold gets a located error naming it ("xla.dot_general cannot appear in a
/// scalar computation"), as does a value that is not a rank-0 tensor of a
/// simulator element type.
mlir::FailureOr<ScalarComputation>
compileScalarComputation(mlir::Region &region);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_REGIONCOMPILER_H
