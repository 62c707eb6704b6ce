//===- Passes.h - passes of xspmd -------------------------------*- C++ -*-===//

#ifndef XSPMD_PASSES_PASSES_H
#define XSPMD_PASSES_PASSES_H

#include "dialects/xla/XlaOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "passes/partition/PartitionOptions.h"

namespace xspmd {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace xspmd

#endif // XSPMD_PASSES_PASSES_H
