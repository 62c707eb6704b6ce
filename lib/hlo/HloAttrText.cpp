//===- HloAttrText.cpp - reading HLO attribute values ---------------------===//

#include "lib/hlo/HloAttrText.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"

#include <numeric>

using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::StringRef;

namespace xspmd::hlo {

static bool parseInteger(StringRef word, int64_t &value) {
  return !word.trim().getAsInteger(10, value);
}

bool readInt(StringRef text, int64_t &value, std::string &error) {
  if (parseInteger(text, value))
    return true;
  error = "expected an integer, found '" + text.str() + "'";
  return false;
}

bool readBool(StringRef text, bool &value, std::string &error) {
  text = text.trim();
  if (text == "true" || text == "false") {
    value = text == "true";
    return true;
  }
  error = "expected true or false, found '" + text.str() + "'";
  return false;
}

/// Splits `text` at commas outside any bracket.
static SmallVector<StringRef> splitTopLevel(StringRef text, char sep = ',') {
  SmallVector<StringRef> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '{' || c == '[' || c == '(')
      ++depth;
    else if (c == '}' || c == ']' || c == ')')
      --depth;
    else if (c == sep && depth == 0) {
      parts.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  StringRef last = text.drop_front(start).trim();
  if (!last.empty() || !parts.empty())
    parts.push_back(last);
  return parts;
}

static bool stripBraces(StringRef &text, char open, char close) {
  text = text.trim();
  if (text.size() < 2 || text.front() != open || text.back() != close)
    return false;
  text = text.drop_front().drop_back().trim();
  return true;
}

bool readIntList(StringRef text, SmallVectorImpl<int64_t> &values,
                 std::string &error) {
  StringRef body = text;
  if (!stripBraces(body, '{', '}')) {
    error = "expected a list like {0,1}, found '" + text.str() + "'";
    return false;
  }
  for (StringRef part : splitTopLevel(body)) {
    int64_t v;
    if (!parseInteger(part, v)) {
      error = "expected an integer in '" + text.str() + "', found '" +
              part.str() + "'";
      return false;
    }
    values.push_back(v);
  }
  return true;
}

/// `[2,2]<=[4]` / `[2,2]<=[2,2]T(1,0)`: the device array.
static bool readIota(StringRef text, SmallVectorImpl<int64_t> &shape,
                     SmallVectorImpl<int64_t> &devices, std::string &error) {
  auto fail = [&](const char *what) {
    error = std::string(what) + " in iota form '" + text.str() + "'";
    return false;
  };
  StringRef s = text.trim();
  size_t arrow = s.find("<=");
  if (arrow == StringRef::npos)
    return fail("expected '<='");
  auto readDims = [&](StringRef dims, SmallVectorImpl<int64_t> &out) {
    if (!stripBraces(dims, '[', ']'))
      return false;
    for (StringRef d : splitTopLevel(dims)) {
      int64_t v;
      if (!parseInteger(d, v) || v <= 0)
        return false;
      out.push_back(v);
    }
    return !out.empty();
  };
  if (!readDims(s.take_front(arrow), shape))
    return fail("bad shape");
  StringRef rest = s.drop_front(arrow + 2).trim();
  size_t t = rest.find('T');
  SmallVector<int64_t> reshape, perm;
  if (!readDims(rest.take_front(t).trim(), reshape))
    return fail("bad reshape dimensions");
  if (t != StringRef::npos) {
    StringRef p = rest.drop_front(t + 1).trim();
    if (!stripBraces(p, '(', ')'))
      return fail("bad T(...)");
    for (StringRef d : splitTopLevel(p)) {
      int64_t v;
      if (!parseInteger(d, v))
        return fail("bad T(...)");
      perm.push_back(v);
    }
  } else {
    perm = llvm::to_vector(llvm::seq<int64_t>(0, reshape.size()));
  }
  int64_t n = 1;
  for (int64_t d : reshape)
    n *= d;
  int64_t m = 1;
  for (int64_t d : shape)
    m *= d;
  if (n != m)
    return fail("device counts differ");
  SmallVector<int64_t> sortedPerm(perm);
  llvm::sort(sortedPerm);
  if (perm.size() != reshape.size() ||
      sortedPerm != llvm::to_vector(llvm::seq<int64_t>(0, reshape.size())))
    return fail("T(...) is not a permutation of the reshape dimensions");
  // devices[i] = iota(reshape) transposed by perm, read row-major.
  SmallVector<int64_t> tShape, strides(reshape.size(), 1);
  for (int64_t i = reshape.size() - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * reshape[i + 1];
  for (int64_t p : perm)
    tShape.push_back(reshape[p]);
  SmallVector<int64_t> idx(tShape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t dev = 0;
    for (size_t d = 0; d < tShape.size(); ++d)
      dev += idx[d] * strides[perm[d]];
    devices.push_back(dev);
    for (int64_t d = tShape.size() - 1; d >= 0; --d) {
      if (++idx[d] < tShape[d])
        break;
      idx[d] = 0;
    }
  }
  return true;
}

bool readReplicaGroups(StringRef text,
                       std::vector<SmallVector<int64_t>> &groups,
                       std::string &error) {
  StringRef s = text.trim();
  if (s.starts_with("[")) {
    SmallVector<int64_t> shape, devices;
    if (!readIota(s, shape, devices, error))
      return false;
    if (shape.size() != 2) {
      error = "iota replica groups need a 2-d shape [groups,size], found '" +
              text.str() + "'";
      return false;
    }
    for (int64_t g = 0; g < shape[0]; ++g)
      groups.emplace_back(devices.begin() + g * shape[1],
                          devices.begin() + (g + 1) * shape[1]);
    return true;
  }
  StringRef body = s;
  if (!stripBraces(body, '{', '}')) {
    error = "expected replica groups like {{0,1},{2,3}}, found '" + text.str() +
            "'";
    return false;
  }
  if (body.empty())
    return true;
  for (StringRef part : splitTopLevel(body)) {
    SmallVector<int64_t> group;
    if (!readIntList(part, group, error))
      return false;
    if (!groups.empty() && groups.front().size() != group.size()) {
      error = "replica groups of different sizes in '" + text.str() + "'";
      return false;
    }
    groups.push_back(std::move(group));
  }
  return true;
}

bool readPairs(StringRef text, std::vector<std::pair<int64_t, int64_t>> &pairs,
               std::string &error) {
  StringRef body = text;
  if (!stripBraces(body, '{', '}')) {
    error = "expected pairs like {{0,1},{1,0}}, found '" + text.str() + "'";
    return false;
  }
  if (body.empty())
    return true;
  for (StringRef part : splitTopLevel(body)) {
    SmallVector<int64_t> pair;
    if (!readIntList(part, pair, error))
      return false;
    if (pair.size() != 2) {
      error = "a source-target pair needs two ids, found '" + part.str() + "'";
      return false;
    }
    pairs.push_back({pair[0], pair[1]});
  }
  return true;
}

bool readSlice(StringRef text, SliceDims &slice, std::string &error) {
  StringRef body = text;
  if (!stripBraces(body, '{', '}')) {
    error = "expected slice={[start:limit:stride], ...}, found '" + text.str() +
            "'";
    return false;
  }
  if (body.empty())
    return true;
  for (StringRef part : splitTopLevel(body)) {
    StringRef dim = part;
    SmallVector<StringRef> fields;
    if (!stripBraces(dim, '[', ']') ||
        (dim.split(fields, ':'), fields.size() < 2 || fields.size() > 3)) {
      error = "expected [start:limit] or [start:limit:stride], found '" +
              part.str() + "'";
      return false;
    }
    int64_t start, limit, stride = 1;
    if (!parseInteger(fields[0], start) || !parseInteger(fields[1], limit) ||
        (fields.size() == 3 && !parseInteger(fields[2], stride))) {
      error = "non-integer bound in slice '" + part.str() + "'";
      return false;
    }
    slice.start.push_back(start);
    slice.limit.push_back(limit);
    slice.stride.push_back(stride);
  }
  return true;
}

bool readPadding(StringRef text, PaddingDims &padding, std::string &error) {
  SmallVector<StringRef> dims;
  text.trim().split(dims, 'x');
  for (StringRef dim : dims) {
    SmallVector<StringRef> fields;
    dim.split(fields, '_');
    int64_t lo, hi, in = 0;
    if (fields.size() < 2 || fields.size() > 3 ||
        !parseInteger(fields[0], lo) || !parseInteger(fields[1], hi) ||
        (fields.size() == 3 && !parseInteger(fields[2], in))) {
      error = "expected low_high or low_high_interior per dimension, found '" +
              dim.str() + "'";
      return false;
    }
    padding.low.push_back(lo);
    padding.high.push_back(hi);
    padding.interior.push_back(in);
  }
  return true;
}

static bool readXList(StringRef text, SmallVectorImpl<int64_t> &values) {
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t v;
    if (!parseInteger(p, v))
      return false;
    values.push_back(v);
  }
  return true;
}

bool readWindow(StringRef text, Window &window, std::string &error) {
  StringRef body = text;
  if (!stripBraces(body, '{', '}')) {
    error = "expected window={size=...}, found '" + text.str() + "'";
    return false;
  }
  SmallVector<StringRef> fields;
  body.split(fields, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef field : fields) {
    auto [key, value] = field.split('=');
    bool ok = true;
    if (key == "size") {
      ok = readXList(value, window.size);
    } else if (key == "stride") {
      ok = readXList(value, window.stride);
    } else if (key == "lhs_dilate") {
      ok = readXList(value, window.lhsDilate);
    } else if (key == "rhs_dilate") {
      ok = readXList(value, window.rhsDilate);
    } else if (key == "pad") {
      PaddingDims pad;
      ok = readPadding(value, pad, error);
      window.padLow = pad.low;
      window.padHigh = pad.high;
    } else if (key == "rhs_reversal") {
      ok = readXList(value, window.rhsReversal);
      window.reversed =
          llvm::any_of(window.rhsReversal, [](int64_t r) { return r != 0; });
    } else {
      error = "unknown window field '" + key.str() + "'";
      return false;
    }
    if (!ok) {
      error = "malformed window field '" + field.str() + "'";
      return false;
    }
  }
  size_t n = window.size.size();
  auto fill = [&](SmallVectorImpl<int64_t> &v, int64_t value) {
    if (v.empty())
      v.assign(n, value);
    return v.size() == n;
  };
  if (!fill(window.stride, 1) || !fill(window.padLow, 0) ||
      !fill(window.padHigh, 0) || !fill(window.lhsDilate, 1) ||
      !fill(window.rhsDilate, 1)) {
    error = "window fields of different ranks in '" + text.str() + "'";
    return false;
  }
  return true;
}

bool readDimLabels(StringRef text, ConvLabels &labels, std::string &error) {
  auto fail = [&](const std::string &why) {
    error = "dim_labels '" + text.str() + "': " + why;
    return false;
  };
  auto [operands, out] = text.trim().split("->");
  auto [lhs, rhs] = operands.split('_');
  if (lhs.empty() || rhs.empty() || out.empty())
    return fail("expected lhs_rhs->out");
  auto read = [&](StringRef s, char a, char b, int64_t &posA, int64_t &posB,
                  SmallVectorImpl<int64_t> &spatial) {
    posA = s.find(a);
    posB = s.find(b);
    if (posA == (int64_t)StringRef::npos || posB == (int64_t)StringRef::npos)
      return false;
    spatial.assign(s.size() - 2, -1);
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == a || c == b)
        continue;
      if (c < '0' || c > '9' || (size_t)(c - '0') >= spatial.size() ||
          spatial[c - '0'] != -1)
        return false;
      spatial[c - '0'] = i;
    }
    // Each of a, b and the spatial digits exactly once.
    return llvm::count(s, a) == 1 && llvm::count(s, b) == 1 &&
           !llvm::is_contained(spatial, -1);
  };
  if (!read(lhs, 'b', 'f', labels.lhsBatch, labels.lhsFeature,
            labels.lhsSpatial))
    return fail("bad input labels '" + lhs.str() + "'");
  if (!read(rhs, 'i', 'o', labels.rhsInput, labels.rhsOutput,
            labels.rhsSpatial))
    return fail("bad kernel labels '" + rhs.str() + "'");
  if (!read(out, 'b', 'f', labels.outBatch, labels.outFeature,
            labels.outSpatial))
    return fail("bad output labels '" + out.str() + "'");
  if (labels.lhsSpatial.size() != labels.rhsSpatial.size() ||
      labels.lhsSpatial.size() != labels.outSpatial.size())
    return fail("operands with different numbers of spatial dimensions");
  return true;
}

std::string readComputationName(StringRef text) {
  text = text.trim();
  text.consume_front("%");
  return text.str();
}

bool readComputationList(StringRef text, std::vector<std::string> &names,
                         std::string &error) {
  StringRef body = text;
  if (!stripBraces(body, '{', '}')) {
    error = "expected {%a, %b}, found '" + text.str() + "'";
    return false;
  }
  for (StringRef part : splitTopLevel(body))
    names.push_back(readComputationName(part));
  return true;
}

std::string readString(StringRef text) {
  text = text.trim();
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.drop_front().drop_back();
  return text.str();
}

bool readLiteral(StringRef text, std::vector<std::string> &scalars,
                 std::string &error) {
  std::string word;
  auto flush = [&] {
    if (!word.empty())
      scalars.push_back(word);
    word.clear();
  };
  for (char c : text) {
    if (c == '{' || c == '}' || c == ',' || c == ' ' || c == '\n' ||
        c == '\t' || c == '\r') {
      flush();
      continue;
    }
    if (c == '(' || c == ')' || c == '[' || c == ']') {
      error = "unexpected '" + std::string(1, c) + "' in literal";
      return false;
    }
    word.push_back(c);
  }
  flush();
  return true;
}

bool splitTupleSharding(StringRef text, std::vector<std::string> &elements) {
  StringRef body = text;
  if (!stripBraces(body, '{', '}'))
    return false;
  if (!body.empty() && body.front() != '{')
    return false;
  for (StringRef part : splitTopLevel(body))
    elements.push_back(part.str());
  return true;
}

} // namespace xspmd::hlo
