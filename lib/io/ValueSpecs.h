//===- ValueSpecs.h - iree-run-module --input / --output specs --*- C++ -*-===//
//
// Inputs: `2x3xf32=1,2,...` (a literal), `3.5` (bare values, read as the
// argument's type), `@x.npy` (the first array of a file), `+x.npy` (the
// next array of a file already opened, else its first), `*x.npy` (all
// remaining arrays). Every input is checked against the argument it feeds.
//
// Outputs: `-` prints `result[i]: 2x3xf32=[...]`, `@y.npy` writes a file,
// `+y.npy` appends to the arrays written to that file by earlier outputs,
// an empty spec or `(ignored)` skips the result. Files are written when the run
// is done, each atomically.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_IO_VALUESPECS_H
#define XSPMD_LIB_IO_VALUESPECS_H

#include "lib/io/TensorText.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace xspmd::io {

/// One value with no argument to check against (an --expected_output):
/// a literal or the first array of `@file.npy` keep their own type; bare
/// values take `fallback`'s.
llvm::Expected<runtime::Tensor> readValue(llvm::StringRef spec,
                                          const runtime::TensorSpec &fallback);

class InputReader {
public:
  /// The tensors `spec` stands for (one, or several for `*file.npy`),
  /// checked against `expected` (the specs of the arguments they feed, in
  /// order; `first` is the index of the first one, for messages).
  llvm::Expected<std::vector<runtime::Tensor>>
  read(llvm::StringRef spec, llvm::ArrayRef<runtime::TensorSpec> expected,
       size_t first);

private:
  llvm::Expected<std::vector<runtime::Tensor> *> openNpy(llvm::StringRef path);

  struct OpenFile {
    std::vector<runtime::Tensor> arrays;
    size_t next = 0;
  };
  std::map<std::string, OpenFile> files;
};

class OutputWriter {
public:
  explicit OutputWriter(llvm::raw_ostream &os, PrintOptions options = {})
      : os(os), options(options) {}

  /// Handles result `index` according to `spec`.
  llvm::Error add(llvm::StringRef spec, const runtime::Tensor &tensor,
                  size_t index);
  /// Prints result `index`.
  void print(const runtime::Tensor &tensor, size_t index);
  /// Writes the files collected so far.
  llvm::Error flush();

private:
  llvm::raw_ostream &os;
  PrintOptions options;
  /// File path -> its arrays in order (a map keeps a stable write order).
  std::map<std::string, std::vector<runtime::Tensor>> pending;
};

} // namespace xspmd::io

#endif // XSPMD_LIB_IO_VALUESPECS_H
