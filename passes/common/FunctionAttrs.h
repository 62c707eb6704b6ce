//===- FunctionAttrs.h - bulk updates of argument/result attrs --*- C++ -*-===//
//
// FunctionOpInterface::setArgAttr rebuilds the array of every argument's
// attributes, so setting one attribute on each of N arguments that way is
// quadratic. These set one named attribute on many arguments (or results)
// in a single update.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_COMMON_FUNCTIONATTRS_H
#define XSPMD_PASSES_COMMON_FUNCTIONATTRS_H

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace xspmd {

/// Sets `name` to values[i] on argument i, for each non-null values[i].
void setArgAttrs(mlir::FunctionOpInterface func, llvm::StringRef name,
                 llvm::ArrayRef<mlir::Attribute> values);

/// Sets `name` to values[i] on result i, for each non-null values[i].
void setResultAttrs(mlir::FunctionOpInterface func, llvm::StringRef name,
                    llvm::ArrayRef<mlir::Attribute> values);

} // namespace xspmd

#endif // XSPMD_PASSES_COMMON_FUNCTIONATTRS_H
