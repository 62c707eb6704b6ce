//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes the .npy format (versions 1.0, 2.0 and 3.0 headers,
// little-endian, C order). A file may hold several arrays back to back, as
// iree-run-module's `+file.npy` convention expects.
//
// dtypes: <f4 f32, <f8 f64, <f2 f16, |b1 i1, |i1 i8, <i4 i32, <i8 i64.
// NumPy has no bfloat16: bf16 tensors are written as <u2 holding the bf16
// bit patterns, and <u2 arrays are read as bf16 bit patterns.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_IO_NPY_H
#define XSPMD_LIB_IO_NPY_H

#include "runtime/kernels/Tensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace xspmd::io {

/// Every array of the .npy bytes `contents` (`name` is used in messages).
llvm::Expected<std::vector<runtime::Tensor>>
parseNpyArrays(llvm::StringRef contents, llvm::StringRef name);

/// Every array of the file at `path`.
llvm::Expected<std::vector<runtime::Tensor>> readNpyFile(llvm::StringRef path);

/// One array as .npy bytes (version 1.0 header unless it does not fit).
std::string serializeNpy(const runtime::Tensor &tensor);

/// Writes `contents` to a temporary file beside `path` and renames it over
/// `path`, so a failure never leaves a half-written file.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef contents);

} // namespace xspmd::io

#endif // XSPMD_LIB_IO_NPY_H
