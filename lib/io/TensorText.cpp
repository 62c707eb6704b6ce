//===- TensorText.cpp - tensors in iree-run-module's text syntax ----------===//

#include "lib/io/TensorText.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/Float16.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace xspmd::runtime;
using llvm::StringRef;

namespace xspmd::io {

static llvm::Error textError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

llvm::Expected<TensorSpec> parseTensorType(StringRef text) {
  text = text.trim();
  llvm::SmallVector<StringRef> parts;
  text.split(parts, 'x');
  std::optional<ElementType> type = parseElementType(parts.back());
  if (!type)
    return textError("'" + text + "': unknown element type '" + parts.back() +
                     "' (expected f32, f64, bf16, f16, i1, i8, i32 or i64)");
  TensorSpec spec{*type, {}};
  for (StringRef dim : llvm::ArrayRef<StringRef>(parts).drop_back()) {
    int64_t d;
    if (dim.getAsInteger(10, d) || d < 0)
      return textError("'" + text + "': malformed dimension '" + dim + "'");
    spec.shape.push_back(d);
  }
  if (!checkedByteSize(spec.shape, spec.type))
    return textError("'" + text + "' is larger than this host's memory");
  return spec;
}

/// Parses one value into element `index` of `out`.
static llvm::Error parseValue(StringRef token, Tensor &out, int64_t index) {
  ElementType type = out.getElementType();
  size_t width = byteWidth(type);
  uint8_t *dst = out.data<uint8_t>() + index * width;
  std::string s = token.str();
  if (isFloat(type)) {
    std::string lower = token.lower();
    double v;
    if (lower == "nan" || lower == "+nan" || lower == "-nan")
      v = std::numeric_limits<double>::quiet_NaN();
    else if (lower == "inf" || lower == "+inf")
      v = std::numeric_limits<double>::infinity();
    else if (lower == "-inf")
      v = -std::numeric_limits<double>::infinity();
    else {
      char *end = nullptr;
      v = std::strtod(s.c_str(), &end);
      if (end != s.c_str() + s.size() || s.empty())
        return textError("'" + token + "' is not a number");
    }
    if (type == ElementType::f32) {
      float f = static_cast<float>(v);
      std::memcpy(dst, &f, sizeof f);
    } else {
      storeDoubleAs(v, type, dst);
    }
    return llvm::Error::success();
  }
  if (type == ElementType::i1) {
    if (token == "1" || token == "true")
      *dst = 1;
    else if (token == "0" || token == "false")
      *dst = 0;
    else
      return textError("'" + token + "' is not an i1 (0, 1, true, false)");
    return llvm::Error::success();
  }
  char *end = nullptr;
  errno = 0;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size() || s.empty())
    return textError("'" + token + "' is not an integer");
  int64_t lo = std::numeric_limits<int64_t>::min(),
          hi = std::numeric_limits<int64_t>::max();
  if (type == ElementType::i8) {
    lo = -128;
    hi = 127;
  } else if (type == ElementType::i32) {
    lo = std::numeric_limits<int32_t>::min();
    hi = std::numeric_limits<int32_t>::max();
  }
  if (errno == ERANGE || v < lo || v > hi)
    return textError("'" + token + "' does not fit in " + toString(type));
  switch (type) {
  case ElementType::i8:
    *reinterpret_cast<int8_t *>(dst) = static_cast<int8_t>(v);
    break;
  case ElementType::i32: {
    int32_t x = static_cast<int32_t>(v);
    std::memcpy(dst, &x, sizeof x);
    break;
  }
  default: {
    int64_t x = v;
    std::memcpy(dst, &x, sizeof x);
    break;
  }
  }
  return llvm::Error::success();
}

llvm::Expected<Tensor> parseValuesAs(StringRef values, const TensorSpec &spec) {
  Tensor out = Tensor::zeros(spec.type, spec.shape);
  values = values.trim();
  if (values.starts_with("@")) {
    StringRef path = values.drop_front();
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file)
      return textError(path + ": cannot read: " + file.getError().message());
    StringRef bytes = (*file)->getBuffer();
    if (bytes.size() != out.getByteSize())
      return textError(path + ": holds " + llvm::Twine(bytes.size()) +
                       " bytes but " + spec.toString() + " needs " +
                       llvm::Twine(out.getByteSize()));
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
  }
  // Values are separated by commas or white space; brackets are decoration.
  // Two commas with nothing between them are an error, not a zero: a value
  // the user meant to write must never be silently dropped.
  int64_t n = out.getNumElements();
  size_t pos = 0;
  bool commaPending = false;
  auto isSpaceOrBracket = [](char c) {
    return c == '[' || c == ']' || std::isspace(static_cast<unsigned char>(c));
  };
  auto emptyValue = [&](size_t at) {
    return textError(spec.toString() + ": empty value at offset " +
                     llvm::Twine(at) + " of '" + values + "'");
  };
  std::vector<StringRef> tokens;
  while (pos < values.size()) {
    char c = values[pos];
    if (c == ',') {
      if (tokens.empty() || commaPending)
        return emptyValue(pos);
      commaPending = true;
      ++pos;
      continue;
    }
    if (isSpaceOrBracket(c)) {
      ++pos;
      continue;
    }
    size_t start = pos;
    while (pos < values.size() && values[pos] != ',' &&
           !isSpaceOrBracket(values[pos]))
      ++pos;
    tokens.push_back(values.slice(start, pos));
    commaPending = false;
  }
  if (commaPending)
    return emptyValue(values.size());
  // Malformed values are reported before a wrong count: they are the more
  // specific mistake.
  int64_t given = static_cast<int64_t>(tokens.size());
  for (int64_t i = 0; i < std::min(given, n); ++i)
    if (llvm::Error err = parseValue(tokens[i], out, i))
      return std::move(err);
  // As iree-run-module: one value is splatted over the whole shape.
  bool splat = given == 1 && n > 1;
  if (!splat && given != n)
    return textError(spec.toString() + " holds " + llvm::Twine(n) + " element" +
                     (n == 1 ? "" : "s") + " but " + llvm::Twine(given) +
                     " value" + (given == 1 ? " was" : "s were") +
                     " given (give all of them, or one to fill the shape)");
  if (splat) {
    size_t width = byteWidth(spec.type);
    uint8_t *bytes = out.data<uint8_t>();
    for (int64_t i = 1; i < n; ++i)
      std::memcpy(bytes + i * width, bytes, width);
  }
  return out;
}

llvm::Expected<Tensor> parseTensorLiteral(StringRef text) {
  auto [typeText, values] = text.split('=');
  if (!text.contains('='))
    return textError("'" + text +
                     "' is not a tensor (expected e.g. 2x3xf32=1,2,3,4,5,6)");
  llvm::Expected<TensorSpec> spec = parseTensorType(typeText);
  if (!spec)
    return spec.takeError();
  return parseValuesAs(values, *spec);
}

/// The shortest decimal that converts back to `bits` in a 16-bit format,
/// printed like fmt prints a double (no exponent for moderate magnitudes).
static std::string shortest16(double value, ElementType type, uint16_t bits) {
  for (int precision = 1; precision < 17; ++precision) {
    double candidate =
        std::strtod(fmt::format("{:.{}g}", value, precision).c_str(), nullptr);
    uint16_t back;
    storeDoubleAs(candidate, type, &back);
    if (back == bits)
      return fmt::format("{}", candidate);
  }
  return fmt::format("{}", value);
}

std::string formatElement(const Tensor &t, int64_t i) {
  switch (t.getElementType()) {
  case ElementType::f32:
    return fmt::format("{}", t.data<float>()[i]);
  case ElementType::f64:
    return fmt::format("{}", t.data<double>()[i]);
  case ElementType::bf16:
  case ElementType::f16: {
    double v = loadAsDouble(t.data(), t.getElementType(), i);
    if (std::isnan(v) || std::isinf(v))
      return fmt::format("{}", v);
    return shortest16(v, t.getElementType(), t.data<uint16_t>()[i]);
  }
  case ElementType::i1:
    return fmt::format("{}", t.data<uint8_t>()[i]);
  case ElementType::i8:
    return fmt::format("{}", t.data<int8_t>()[i]);
  case ElementType::i32:
    return fmt::format("{}", t.data<int32_t>()[i]);
  case ElementType::i64:
    return fmt::format("{}", t.data<int64_t>()[i]);
  }
  llvm_unreachable("unknown element type");
}

std::string formatTensor(const Tensor &t, const PrintOptions &options) {
  std::string out = t.getTypeString() + "=";
  int64_t n = t.getNumElements(), rank = t.getRank();
  int64_t limit =
      options.maxElements > 0 ? std::min(n, options.maxElements) : n;
  if (rank == 0)
    return out + formatElement(t, 0);
  Shape strides = stridesOf(t.getShape());
  for (int64_t i = 0; i < limit; ++i) {
    // Open a bracket for every dim (but the outermost) starting here.
    int64_t opens = 0;
    for (int64_t d = 1; d < rank; ++d)
      if (i % strides[d - 1] == 0)
        ++opens;
    if (i > 0 && opens == 0)
      out += ' ';
    out.append(opens, '[');
    out += formatElement(t, i);
    int64_t closes = 0;
    for (int64_t d = 1; d < rank; ++d)
      if ((i + 1) % strides[d - 1] == 0)
        ++closes;
    out.append(closes, ']');
  }
  if (limit < n)
    out += "...";
  return out;
}

} // namespace xspmd::io
