//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "lib/io/Npy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>

using namespace xspmd::runtime;
using llvm::StringRef;

namespace xspmd::io {

static constexpr StringRef kMagic("\x93NUMPY", 6);

static llvm::Error npyError(StringRef name, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 (name + ": " + message).str());
}

static std::optional<ElementType> dtypeToElementType(StringRef descr) {
  // '|' (not applicable) and '=' (native, little-endian here) are accepted
  // for every type, '<' for multi-byte types.
  if (descr.size() < 2 ||
      (descr[0] != '<' && descr[0] != '|' && descr[0] != '='))
    return std::nullopt;
  StringRef code = descr.drop_front();
  if (code == "f4")
    return ElementType::f32;
  if (code == "f8")
    return ElementType::f64;
  if (code == "f2")
    return ElementType::f16;
  if (code == "u2")
    return ElementType::bf16;
  if (code == "b1")
    return ElementType::i1;
  if (code == "i1")
    return ElementType::i8;
  if (code == "i4")
    return ElementType::i32;
  if (code == "i8")
    return ElementType::i64;
  return std::nullopt;
}

static StringRef elementTypeToDtype(ElementType type) {
  switch (type) {
  case ElementType::f32:
    return "<f4";
  case ElementType::f64:
    return "<f8";
  case ElementType::f16:
    return "<f2";
  case ElementType::bf16:
    return "<u2";
  case ElementType::i1:
    return "|b1";
  case ElementType::i8:
    return "|i1";
  case ElementType::i32:
    return "<i4";
  case ElementType::i64:
    return "<i8";
  }
  llvm_unreachable("unknown element type");
}

/// The entries of a header dict, key -> value text. NumPy evaluates the
/// header as a Python literal and requires exactly the keys descr,
/// fortran_order and shape; a repeated key would silently take its last
/// value there, so it is an error here rather than a second meaning.
static llvm::Expected<llvm::StringMap<StringRef>>
parseHeaderDict(StringRef header, StringRef name) {
  StringRef rest = header.trim();
  auto malformed = [&](const llvm::Twine &why) {
    return npyError(name, "malformed header (" + why + "): " + header.trim());
  };
  if (!rest.consume_front("{") || !rest.consume_back("}"))
    return malformed("not a {...} dict");
  llvm::StringMap<StringRef> entries;
  auto takeQuoted = [](StringRef &text) -> std::optional<StringRef> {
    char quote = text.empty() ? 0 : text.front();
    if (quote != '\'' && quote != '"')
      return std::nullopt;
    size_t close = text.find(quote, 1);
    if (close == StringRef::npos)
      return std::nullopt;
    StringRef quoted = text.take_front(close + 1);
    text = text.drop_front(close + 1);
    return quoted;
  };
  while (true) {
    rest = rest.ltrim();
    if (rest.empty())
      break;
    std::optional<StringRef> key = takeQuoted(rest);
    if (!key)
      return malformed("expected a quoted key");
    StringRef keyName = key->drop_front().drop_back();
    rest = rest.ltrim();
    if (!rest.consume_front(":"))
      return malformed("expected ':' after '" + keyName + "'");
    rest = rest.ltrim();
    StringRef value;
    if (std::optional<StringRef> quoted = takeQuoted(rest)) {
      value = *quoted;
    } else if (rest.starts_with("(")) {
      size_t close = rest.find(')');
      if (close == StringRef::npos)
        return malformed("unclosed '(' in '" + keyName + "'");
      value = rest.take_front(close + 1);
      rest = rest.drop_front(close + 1);
    } else {
      value = rest.take_until([](char c) { return c == ','; }).rtrim();
      rest = rest.drop_front(
          rest.take_until([](char c) { return c == ','; }).size());
    }
    if (keyName != "descr" && keyName != "fortran_order" && keyName != "shape")
      return npyError(name, "unexpected key '" + keyName +
                                "' in header (NumPy writes only 'descr', "
                                "'fortran_order' and 'shape')");
    if (!entries.try_emplace(keyName, value).second)
      return npyError(name, "key '" + keyName + "' appears twice in header");
    rest = rest.ltrim();
    if (rest.empty())
      break;
    if (!rest.consume_front(","))
      return malformed("expected ',' after '" + keyName + "'");
  }
  return entries;
}

struct Header {
  ElementType type;
  Shape shape;
};

static llvm::Expected<Header> parseHeader(StringRef header, StringRef name) {
  llvm::Expected<llvm::StringMap<StringRef>> dict =
      parseHeaderDict(header, name);
  if (!dict)
    return dict.takeError();
  auto lookup = [&](StringRef key) -> std::optional<StringRef> {
    auto it = dict->find(key);
    if (it == dict->end())
      return std::nullopt;
    return it->second;
  };
  std::optional<StringRef> descr = lookup("descr");
  std::optional<StringRef> fortran = lookup("fortran_order");
  std::optional<StringRef> shapeText = lookup("shape");
  if (!descr || !fortran || !shapeText)
    return npyError(name, "malformed header (needs 'descr', 'fortran_order' "
                          "and 'shape'): " +
                              header.trim());
  if (descr->empty() || (descr->front() != '\'' && descr->front() != '"'))
    return npyError(name, "malformed 'descr' in header");
  char quote = descr->front();
  StringRef dtype =
      descr->drop_front().take_until([&](char c) { return c == quote; });
  if (dtype.starts_with(">"))
    return npyError(name, "big-endian dtype '" + dtype +
                              "' is not supported (use little-endian)");
  std::optional<ElementType> type = dtypeToElementType(dtype);
  if (!type)
    return npyError(name, "unsupported dtype '" + dtype +
                              "' (expected <f4, <f8, <f2, <u2 for bf16, |b1, "
                              "|i1, <i4 or <i8)");
  if (*fortran == "True")
    return npyError(name, "Fortran-order arrays are not supported (save with "
                          "C order)");
  if (*fortran != "False")
    return npyError(name, "malformed 'fortran_order' in header");
  if (!shapeText->consume_front("("))
    return npyError(name, "malformed 'shape' in header");
  StringRef dims = shapeText->take_until([](char c) { return c == ')'; });
  Header h{*type, {}};
  llvm::SmallVector<StringRef> parts;
  dims.split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim();
    if (part.empty())
      continue;
    int64_t d;
    if (part.getAsInteger(10, d) || d < 0)
      return npyError(name, "malformed dimension '" + part + "' in shape");
    h.shape.push_back(d);
  }
  return h;
}

llvm::Expected<std::vector<Tensor>> parseNpyArrays(StringRef contents,
                                                   StringRef name) {
  std::vector<Tensor> arrays;
  size_t offset = 0;
  while (offset < contents.size()) {
    StringRef rest = contents.drop_front(offset);
    std::string which = "array " + std::to_string(arrays.size());
    if (!rest.starts_with(kMagic))
      return npyError(name, which + ": not a .npy record (bad magic)");
    if (rest.size() < 10)
      return npyError(name, which + ": truncated header");
    uint8_t major = rest[6];
    size_t headerLen, prefix;
    if (major == 1) {
      headerLen = static_cast<uint8_t>(rest[8]) |
                  (static_cast<size_t>(static_cast<uint8_t>(rest[9])) << 8);
      prefix = 10;
    } else if (major == 2 || major == 3) {
      if (rest.size() < 12)
        return npyError(name, which + ": truncated header");
      headerLen = 0;
      for (int i = 0; i < 4; ++i)
        headerLen |= static_cast<size_t>(static_cast<uint8_t>(rest[8 + i]))
                     << (8 * i);
      prefix = 12;
    } else {
      return npyError(name, which + ": unsupported .npy version " +
                                llvm::Twine(static_cast<int>(major)));
    }
    if (rest.size() < prefix + headerLen)
      return npyError(name, which + ": truncated header");
    llvm::Expected<Header> header =
        parseHeader(rest.substr(prefix, headerLen), name);
    if (!header)
      return header.takeError();
    size_t dataStart = prefix + headerLen;
    std::optional<int64_t> bytes = checkedByteSize(header->shape, header->type);
    std::string type = formatTensorType(header->shape, header->type);
    if (!bytes)
      return npyError(name, which + ": " + type +
                                " is larger than this host's memory");
    if (rest.size() - dataStart < static_cast<size_t>(*bytes))
      return npyError(name, which + ": holds " +
                                llvm::Twine(rest.size() - dataStart) +
                                " bytes of data but its header says " + type +
                                " (" + llvm::Twine(*bytes) + " bytes)");
    Tensor t = Tensor::allocate(header->type, header->shape);
    std::memcpy(t.data(), rest.data() + dataStart, t.getByteSize());
    if (header->type == ElementType::i1)
      for (int64_t i = 0; i < t.getNumElements(); ++i)
        t.data<uint8_t>()[i] = t.data<uint8_t>()[i] ? 1 : 0;
    offset += dataStart + t.getByteSize();
    arrays.push_back(std::move(t));
  }
  if (arrays.empty())
    return npyError(name, "holds no array");
  return arrays;
}

llvm::Expected<std::vector<Tensor>> readNpyFile(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return npyError(path, "cannot read: " + file.getError().message());
  return parseNpyArrays((*file)->getBuffer(), path);
}

std::string serializeNpy(const Tensor &tensor) {
  std::string dict = "{'descr': '" +
                     elementTypeToDtype(tensor.getElementType()).str() +
                     "', 'fortran_order': False, 'shape': (";
  for (int64_t d : tensor.getShape())
    dict += std::to_string(d) + (tensor.getRank() == 1 ? ",)" : ", ");
  if (tensor.getRank() != 1) {
    if (tensor.getRank() > 1)
      dict.resize(dict.size() - 2);
    dict += ")";
  }
  dict += ", }";
  // Pad with spaces and a newline so the data starts 64-byte aligned.
  bool wide = dict.size() + 1 + 10 > 65535;
  size_t prefix = wide ? 12 : 10;
  size_t total = (prefix + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic);
  out += static_cast<char>(wide ? 2 : 1);
  out += '\0';
  size_t len = dict.size();
  for (size_t i = 0; i < (wide ? 4u : 2u); ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  out += dict;
  out.append(static_cast<const char *>(tensor.data()), tensor.getByteSize());
  return out;
}

llvm::Error writeFileAtomically(StringRef path, StringRef contents) {
  llvm::SmallString<256> temp;
  int fd;
  StringRef dir = llvm::sys::path::parent_path(path);
  llvm::SmallString<256> model(dir.empty() ? "." : dir);
  llvm::sys::path::append(model,
                          llvm::sys::path::filename(path) + ".tmp-%%%%%%");
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temp))
    return npyError(path, "cannot create a temporary file: " + ec.message());
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error()) {
      std::string message = os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return npyError(path, "cannot write: " + message);
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return npyError(path, "cannot write: " + ec.message());
  }
  return llvm::Error::success();
}

} // namespace xspmd::io
