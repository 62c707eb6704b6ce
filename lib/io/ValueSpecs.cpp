//===- ValueSpecs.cpp - iree-run-module --input / --output specs ----------===//

#include "lib/io/ValueSpecs.h"
#include "lib/io/Npy.h"

#include "llvm/Support/FileSystem.h"

#include <fmt/format.h>

using namespace xspmd::runtime;
using llvm::StringRef;

namespace xspmd::io {

static llvm::Error specError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<Tensor> readValue(StringRef spec, const TensorSpec &fallback) {
  spec = spec.trim();
  if (spec.starts_with("@")) {
    llvm::Expected<std::vector<Tensor>> arrays = readNpyFile(spec.drop_front());
    if (!arrays)
      return arrays.takeError();
    return arrays->front();
  }
  if (spec.contains('='))
    return parseTensorLiteral(spec);
  return parseValuesAs(spec, fallback);
}

llvm::Expected<std::vector<Tensor> *> InputReader::openNpy(StringRef path) {
  auto it = files.find(path.str());
  if (it != files.end())
    return &it->second.arrays;
  llvm::Expected<std::vector<Tensor>> arrays = readNpyFile(path);
  if (!arrays)
    return arrays.takeError();
  return &files.emplace(path.str(), OpenFile{std::move(*arrays), 0})
              .first->second.arrays;
}

llvm::Expected<std::vector<Tensor>>
InputReader::read(StringRef spec, llvm::ArrayRef<TensorSpec> expected,
                  size_t first) {
  if (expected.empty())
    return specError(fmt::format("input {} ('{}') is one more than the "
                                 "function's arguments",
                                 first, spec.str()));
  std::vector<Tensor> tensors;
  spec = spec.trim();
  char mode = spec.empty() ? 0 : spec.front();
  if (mode == '@' || mode == '+' || mode == '*') {
    StringRef path = spec.drop_front();
    if (mode == '@')
      files.erase(path.str());
    llvm::Expected<std::vector<Tensor> *> arrays = openNpy(path);
    if (!arrays)
      return arrays.takeError();
    OpenFile &file = files[path.str()];
    if (file.next >= file.arrays.size())
      return specError(fmt::format("input {}: {} has no array left (it holds "
                                   "{})",
                                   first, path.str(), file.arrays.size()));
    if (mode == '*') {
      while (file.next < file.arrays.size())
        tensors.push_back(file.arrays[file.next++]);
    } else {
      tensors.push_back(file.arrays[file.next++]);
    }
  } else if (spec.contains('=')) {
    llvm::Expected<Tensor> t = parseTensorLiteral(spec);
    if (!t)
      return specError(
          fmt::format("input {}: {}", first, llvm::toString(t.takeError())));
    tensors.push_back(std::move(*t));
  } else {
    llvm::Expected<Tensor> t = parseValuesAs(spec, expected.front());
    if (!t)
      return specError(
          fmt::format("input {}: {}", first, llvm::toString(t.takeError())));
    tensors.push_back(std::move(*t));
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (i >= expected.size())
      return specError(fmt::format("input {} ('{}') is one more than the "
                                   "function's arguments",
                                   first + i, spec.str()));
    if (!expected[i].matches(tensors[i]))
      return specError(fmt::format("input {} must be {}, got {} ('{}')",
                                   first + i, expected[i].toString(),
                                   tensors[i].getTypeString(), spec.str()));
  }
  return tensors;
}

void OutputWriter::print(const Tensor &tensor, size_t index) {
  os << "result[" << index << "]: " << formatTensor(tensor, options) << "\n";
}

llvm::Error OutputWriter::add(StringRef spec, const Tensor &tensor,
                              size_t index) {
  spec = spec.trim();
  if (spec.empty() || spec == "(ignored)")
    return llvm::Error::success();
  if (spec == "-") {
    print(tensor, index);
    return llvm::Error::success();
  }
  char mode = spec.front();
  if (mode != '@' && mode != '+')
    return specError(fmt::format("--output='{}': expected -, @file.npy or "
                                 "+file.npy",
                                 spec.str()));
  std::string path = spec.drop_front().str();
  if (!StringRef(path).ends_with(".npy"))
    return specError(fmt::format("--output='{}': only .npy files are "
                                 "written",
                                 spec.str()));
  std::vector<Tensor> &arrays = pending[path];
  if (mode == '@')
    arrays.clear();
  arrays.push_back(tensor);
  return llvm::Error::success();
}

llvm::Error OutputWriter::flush() {
  // All or nothing: if one file cannot be written, the ones written before
  // it are removed, so a failing run leaves no output behind.
  std::vector<std::string> written;
  for (const auto &[path, arrays] : pending) {
    std::string bytes;
    for (const Tensor &t : arrays)
      bytes += serializeNpy(t);
    if (llvm::Error err = writeFileAtomically(path, bytes)) {
      for (const std::string &done : written)
        llvm::sys::fs::remove(done);
      pending.clear();
      return err;
    }
    written.push_back(path);
  }
  pending.clear();
  return llvm::Error::success();
}

} // namespace xspmd::io
