//===- TensorText.h - tensors in iree-run-module's text syntax --*- C++ -*-===//
//
//   2x3xf32=1,2,3,4,5,6      values separated by commas or spaces
//   2x2xi32=[[1 2][3 4]]     brackets are optional decoration
//   f32=1.5                  a scalar (rank 0)
//   2x2xf32=@file.bin        raw little-endian bytes
//   2x2xf32=5                one value fills the whole shape (splat)
// Otherwise the count of values must match the shape; an empty value
// ("1,,3") is an error. Floats accept nan, inf and -inf; i1 accepts 0, 1,
// true and false. Values are rounded to the element type (nearest even);
// integers must fit.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_IO_TENSORTEXT_H
#define XSPMD_LIB_IO_TENSORTEXT_H

#include "runtime/exec/Program.h"

#include "llvm/Support/Error.h"

#include <string>

namespace xspmd::io {

/// Parses "SHAPExTYPE=VALUES" (or "TYPE=VALUES").
llvm::Expected<runtime::Tensor> parseTensorLiteral(llvm::StringRef text);

/// Parses "SHAPExTYPE" (or "TYPE").
llvm::Expected<runtime::TensorSpec> parseTensorType(llvm::StringRef text);

/// Parses bare values (e.g. "3.14") as a tensor of `spec`.
llvm::Expected<runtime::Tensor> parseValuesAs(llvm::StringRef values,
                                              const runtime::TensorSpec &spec);

struct PrintOptions {
  /// Elements printed before "..." (0: all).
  int64_t maxElements = 1024;
};

/// "2x3xf32=[1 2 3][4 5 6]". Floats print as the shortest decimal that
/// reads back to the same value of their own type.
std::string formatTensor(const runtime::Tensor &tensor,
                         const PrintOptions &options = {});

/// One element as formatTensor prints it.
std::string formatElement(const runtime::Tensor &tensor, int64_t index);

} // namespace xspmd::io

#endif // XSPMD_LIB_IO_TENSORTEXT_H
