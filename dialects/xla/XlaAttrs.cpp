//===- XlaAttrs.cpp - mesh and sharding attributes ------------------------===//

#include "dialects/xla/XlaDialect.h"
#include "dialects/xla/XlaMesh.h"
#include "dialects/xla/XlaSubAxes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

#define GET_ATTRDEF_CLASSES
#include "dialects/xla/XlaAttrs.cpp.inc"

void XlaDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/xla/XlaAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// MeshAttr
//===----------------------------------------------------------------------===//

/// The largest mesh any front door accepts: 2^24 devices, far beyond the
/// largest multi-slice TPU system, small enough that per-device tables fit.
static constexpr int64_t kMaxMeshDevices = int64_t(1) << 24;

int64_t MeshAttr::getNumDevices() const {
  int64_t n = 1;
  for (MeshAxisAttr axis : getAxes())
    n *= axis.getSize();
  return n;
}

bool MeshAttr::isMaximal() const {
  return getDeviceIds().size() == 1 && getNumDevices() == 1;
}

int64_t MeshAttr::getMaximalDevice() const {
  return isMaximal() ? getDeviceIds().front() : -1;
}

int64_t MeshAttr::getAxisIndex(StringRef name) const {
  for (auto [i, axis] : llvm::enumerate(getAxes()))
    if (axis.getName().getValue() == name)
      return i;
  return -1;
}

int64_t MeshAttr::getAxisSize(StringRef name) const {
  std::optional<ResolvedAxis> axis = resolveAxis(*this, name);
  return axis ? axis->size : -1;
}

int64_t MeshAttr::getDcnSize(int64_t i) const {
  return isHybrid() ? getDcnSizes()[i] : 1;
}

int64_t MeshAttr::getIciSize(int64_t i) const {
  return getAxes()[i].getSize() / getDcnSize(i);
}

LinkClass MeshAttr::getLinkClass(int64_t i) const {
  if (getDcnSize(i) == 1)
    return LinkClass::ici;
  return getIciSize(i) == 1 ? LinkClass::dcn : LinkClass::mixed;
}

LinkClass xspmd::xla::combineLinkClasses(ArrayRef<LinkClass> links) {
  bool ici = false, dcn = false;
  for (LinkClass link : links) {
    ici |= link != LinkClass::dcn;
    dcn |= link != LinkClass::ici;
  }
  if (dcn)
    return ici ? LinkClass::mixed : LinkClass::dcn;
  return LinkClass::ici;
}

LinkClass MeshAttr::getLinkClassOfAxes(ArrayRef<StringRef> axes) const {
  SmallVector<LinkClass> links;
  for (StringRef name : axes) {
    int64_t i = getAxisIndex(name);
    if (i >= 0 && getAxes()[i].getSize() > 1)
      links.push_back(getLinkClass(i));
  }
  return combineLinkClasses(links);
}

int64_t MeshAttr::getSliceSize() const {
  if (!isHybrid())
    return 0;
  int64_t size = 1;
  for (int64_t i = 0, e = getRank(); i < e; ++i)
    size *= getIciSize(i);
  return size;
}

LinkClass xspmd::xla::linkClassOfDevices(ArrayRef<int64_t> devices,
                                         int64_t sliceSize) {
  if (sliceSize <= 0)
    return LinkClass::ici;
  llvm::SmallDenseSet<int64_t, 8> slices;
  for (int64_t d : devices)
    slices.insert(d / sliceSize);
  if (slices.size() <= 1)
    return LinkClass::ici;
  return slices.size() == devices.size() ? LinkClass::dcn : LinkClass::mixed;
}

LinkClass
MeshAttr::getLinkClassOfGroups(ArrayRef<SmallVector<int64_t>> groups) const {
  SmallVector<LinkClass> links;
  for (const auto &group : groups)
    links.push_back(linkClassOfDevices(group, getSliceSize()));
  return combineLinkClasses(links);
}

SmallVector<int64_t> MeshAttr::getDeviceArray() const {
  if (isHybrid()) {
    SmallVector<int64_t> ici, dcn;
    for (int64_t i = 0, e = getRank(); i < e; ++i) {
      ici.push_back(getIciSize(i));
      dcn.push_back(getDcnSize(i));
    }
    return hybridDeviceArray(ici, dcn);
  }
  if (!getDeviceIds().empty())
    return SmallVector<int64_t>(getDeviceIds());
  return llvm::to_vector(llvm::seq<int64_t>(0, getNumDevices()));
}

LogicalResult MeshAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<MeshAxisAttr> axes,
                               ArrayRef<int64_t> deviceIds,
                               ArrayRef<int64_t> dcnSizes) {
  llvm::SmallDenseSet<StringAttr> seen;
  int64_t numDevices = 1;
  for (MeshAxisAttr axis : axes) {
    if (axis.getName().getValue().empty())
      return emitError() << "mesh axis names must not be empty";
    if (!seen.insert(axis.getName()).second)
      return emitError() << "duplicate mesh axis name \""
                         << axis.getName().getValue() << "\"";
    if (axis.getSize() <= 0)
      return emitError() << "mesh axis \"" << axis.getName().getValue()
                         << "\" has size " << axis.getSize()
                         << "; sizes must be positive";
    // Checked before multiplying, so the product can neither wrap nor grow
    // into a device list no host could hold.
    if (axis.getSize() > kMaxMeshDevices / numDevices)
      return emitError() << "mesh spans more than " << kMaxMeshDevices
                         << " devices (axis \"" << axis.getName().getValue()
                         << "\" of size " << axis.getSize()
                         << " brings it past the limit)";
    numDevices *= axis.getSize();
  }
  if (!dcnSizes.empty()) {
    if (!deviceIds.empty())
      return emitError() << "a hybrid mesh orders its devices itself; it "
                            "cannot also list devices";
    if (dcnSizes.size() != axes.size())
      return emitError() << "hybrid mesh has " << axes.size()
                         << " ICI axes but " << dcnSizes.size() << " DCN axes";
    for (auto [axis, dcn] : llvm::zip(axes, dcnSizes))
      if (dcn <= 0 || axis.getSize() % dcn != 0)
        return emitError() << "hybrid mesh axis \"" << axis.getName().getValue()
                           << "\" has DCN size " << dcn
                           << "; sizes must be positive";
  }
  // A maximal mesh names one device of the module (its range is checked
  // against the module's other meshes by the `xla.mesh` op).
  if (numDevices == 1 && deviceIds.size() == 1) {
    if (deviceIds.front() < 0)
      return emitError() << "maximal mesh names device " << deviceIds.front()
                         << "; device ids must be >= 0";
    return success();
  }
  if (!deviceIds.empty()) {
    if (static_cast<int64_t>(deviceIds.size()) != numDevices)
      return emitError() << "mesh lists " << deviceIds.size()
                         << " devices but its axes span " << numDevices;
    SmallVector<bool> present(numDevices, false);
    for (int64_t id : deviceIds) {
      if (id < 0 || id >= numDevices)
        return emitError() << "device id " << id
                           << " is out of range; the device list must be a "
                              "permutation of 0.."
                           << numDevices - 1;
      if (present[id])
        return emitError() << "device id " << id
                           << " appears twice; the device list must be a "
                              "permutation of 0.."
                           << numDevices - 1;
      present[id] = true;
    }
  }
  return success();
}

// axes ::= `[` (string `=` int (`,` string `=` int)*)? `]`
static ParseResult parseAxisList(AsmParser &parser,
                                 SmallVectorImpl<StringAttr> &names,
                                 SmallVectorImpl<int64_t> &sizes) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Square, [&]() -> ParseResult {
        std::string name;
        int64_t size;
        if (parser.parseString(&name) || parser.parseEqual() ||
            parser.parseInteger(size))
          return failure();
        names.push_back(parser.getBuilder().getStringAttr(name));
        sizes.push_back(size);
        return success();
      });
}

static void printAxisList(AsmPrinter &printer, ArrayRef<StringAttr> names,
                          ArrayRef<int64_t> sizes) {
  printer << '[';
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      printer << ", ";
    printer.printString(names[i].getValue());
    printer << '=' << sizes[i];
  }
  printer << ']';
}

// plain ::= axes (`,` `devices` `=` `[` int* `]`)?
static MeshAttr parsePlainContent(AsmParser &parser, SMLoc loc) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes, deviceIds;
  if (parseAxisList(parser, names, sizes))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("devices") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Square, [&]() -> ParseResult {
              return parser.parseInteger(deviceIds.emplace_back());
            }))
      return {};
  }
  MLIRContext *ctx = parser.getContext();
  SmallVector<MeshAxisAttr> axes;
  for (auto [name, size] : llvm::zip(names, sizes))
    axes.push_back(MeshAxisAttr::get(ctx, name, size));
  return MeshAttr::getChecked([&] { return parser.emitError(loc); }, ctx, axes,
                              deviceIds, ArrayRef<int64_t>());
}

// hybrid ::= `ici` `=` axes `,` `dcn` `=` axes
static MeshAttr parseHybridContent(AsmParser &parser, SMLoc loc) {
  SmallVector<StringAttr> iciNames, dcnNames;
  SmallVector<int64_t> iciSizes, dcnSizes;
  if (parser.parseKeyword("ici") || parser.parseEqual() ||
      parseAxisList(parser, iciNames, iciSizes) || parser.parseComma() ||
      parser.parseKeyword("dcn") || parser.parseEqual() ||
      parseAxisList(parser, dcnNames, dcnSizes))
    return {};
  if (iciNames.size() != dcnNames.size()) {
    parser.emitError(loc) << "hybrid mesh has " << iciNames.size()
                          << " ICI axes but " << dcnNames.size()
                          << " DCN axes; both must name the same axes";
    return {};
  }
  MLIRContext *ctx = parser.getContext();
  SmallVector<MeshAxisAttr> axes;
  for (size_t i = 0; i < iciNames.size(); ++i) {
    if (iciNames[i] != dcnNames[i]) {
      parser.emitError(loc)
          << "hybrid mesh axis " << i << " is \"" << iciNames[i].getValue()
          << "\" in ici but \"" << dcnNames[i].getValue()
          << "\" in dcn; both must name the same axes in the same order";
      return {};
    }
    if (iciSizes[i] <= 0 || dcnSizes[i] <= 0) {
      parser.emitError(loc)
          << "hybrid mesh axis \"" << iciNames[i].getValue()
          << "\" has ICI size " << iciSizes[i] << " and DCN size "
          << dcnSizes[i] << "; sizes must be positive";
      return {};
    }
    axes.push_back(
        MeshAxisAttr::get(ctx, iciNames[i], iciSizes[i] * dcnSizes[i]));
  }
  return MeshAttr::getChecked([&] { return parser.emitError(loc); }, ctx, axes,
                              ArrayRef<int64_t>(), dcnSizes);
}

static void printPlainContent(AsmPrinter &printer, MeshAttr mesh) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> sizes;
  for (MeshAxisAttr axis : mesh.getAxes()) {
    names.push_back(axis.getName());
    sizes.push_back(axis.getSize());
  }
  printAxisList(printer, names, sizes);
  if (!mesh.getDeviceIds().empty()) {
    printer << ", devices=[";
    llvm::interleaveComma(mesh.getDeviceIds(), printer);
    printer << ']';
  }
}

static void printHybridContent(AsmPrinter &printer, MeshAttr mesh) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> ici, dcn;
  for (int64_t i = 0, e = mesh.getRank(); i < e; ++i) {
    names.push_back(mesh.getAxes()[i].getName());
    ici.push_back(mesh.getIciSize(i));
    dcn.push_back(mesh.getDcnSize(i));
  }
  printer << "ici=";
  printAxisList(printer, names, ici);
  printer << ", dcn=";
  printAxisList(printer, names, dcn);
}

MeshAttr MeshAttr::parseBody(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  bool hybrid = succeeded(parser.parseOptionalKeyword("hybrid"));
  if (parser.parseLess())
    return {};
  MeshAttr mesh =
      hybrid ? parseHybridContent(parser, loc) : parsePlainContent(parser, loc);
  if (!mesh || parser.parseGreater())
    return {};
  return mesh;
}

void MeshAttr::printBody(AsmPrinter &printer) const {
  if (isHybrid()) {
    printer << "hybrid<";
    printHybridContent(printer, *this);
  } else {
    printer << '<';
    printPlainContent(printer, *this);
  }
  printer << '>';
}

// #xla.mesh<["a"=2]>, #xla.mesh<hybrid ici=[...], dcn=[...]>
Attribute MeshAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  MeshAttr mesh = succeeded(parser.parseOptionalKeyword("hybrid"))
                      ? parseHybridContent(parser, loc)
                      : parsePlainContent(parser, loc);
  if (!mesh || parser.parseGreater())
    return {};
  return mesh;
}

void MeshAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (isHybrid()) {
    printer << "hybrid ";
    printHybridContent(printer, *this);
  } else {
    printPlainContent(printer, *this);
  }
  printer << '>';
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

bool ShardingAttr::isFullyReplicated() const {
  return !isPartial() && llvm::all_of(getDims(), [](DimShardingAttr d) {
    return d.isReplicated();
  });
}

SmallVector<StringAttr> ShardingAttr::getShardedAxes() const {
  SmallVector<StringAttr> axes;
  for (DimShardingAttr dim : getDims())
    llvm::append_range(axes, dim.getAxes());
  return axes;
}

int64_t ShardingAttr::getNumShards(MeshAttr mesh, int64_t dim) const {
  int64_t n = 1;
  for (StringAttr axis : getDims()[dim].getAxes())
    n *= mesh.getAxisSize(axis.getValue());
  return n;
}

ShardingAttr ShardingAttr::withDims(ArrayRef<DimShardingAttr> dims) const {
  return ShardingAttr::get(getContext(), getMesh(), dims, getPartialAxes(),
                           getPartialKind());
}

ShardingAttr ShardingAttr::withPartial(ArrayRef<StringAttr> axes,
                                       ReductionKind kind) const {
  return ShardingAttr::get(getContext(), getMesh(), getDims(), axes, kind);
}

ShardingAttr ShardingAttr::getReplicated(MLIRContext *ctx,
                                         FlatSymbolRefAttr mesh, int64_t rank) {
  SmallVector<DimShardingAttr> dims(
      rank, DimShardingAttr::get(ctx, {}, /*isOpen=*/false, std::nullopt));
  return ShardingAttr::get(ctx, mesh, dims, {}, ReductionKind::sum);
}

LogicalResult ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   FlatSymbolRefAttr mesh,
                                   ArrayRef<DimShardingAttr> dims,
                                   ArrayRef<StringAttr> partialAxes,
                                   ReductionKind) {
  if (!mesh)
    return emitError() << "sharding needs a mesh";
  SmallVector<StringAttr> used;
  auto overlapping = [&](StringAttr axis) -> StringAttr {
    for (StringAttr other : used)
      if (axesOverlap(axis.getValue(), other.getValue()))
        return other;
    return {};
  };
  for (auto [i, dim] : llvm::enumerate(dims)) {
    for (StringAttr axis : dim.getAxes()) {
      if (StringAttr other = overlapping(axis)) {
        if (other == axis)
          return emitError() << "mesh axis " << displayAxisName(axis)
                             << " is used twice in the sharding";
        return emitError() << "mesh axes " << displayAxisName(other) << " and "
                           << displayAxisName(axis)
                           << " overlap (they share devices)";
      }
      used.push_back(axis);
    }
    if (std::optional<int64_t> p = dim.getPriority()) {
      if (*p < 0)
        return emitError() << "dimension " << i << " has negative priority";
      if (dim.isClosed() && dim.isReplicated())
        return emitError() << "dimension " << i
                           << " is closed and replicated; it cannot carry a "
                              "priority";
    }
  }
  llvm::SmallDenseSet<StringAttr> partial;
  for (StringAttr axis : partialAxes) {
    if (overlapping(axis))
      return emitError() << "mesh axis " << displayAxisName(axis)
                         << " is both partial and used by a dimension";
    if (!partial.insert(axis).second)
      return emitError() << "partial axis " << displayAxisName(axis)
                         << " is listed twice";
  }
  return success();
}

LogicalResult
ShardingAttr::verifyFor(function_ref<InFlightDiagnostic()> emitError,
                        MeshAttr mesh, Type type) const {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << "a sharding annotates a ranked tensor, not " << type;
  if (tensor.getRank() != getRank())
    return emitError() << "sharding has " << getRank()
                       << " dimension entries but the tensor " << type
                       << " has rank " << tensor.getRank();
  auto checkAxis = [&](StringAttr axis) -> LogicalResult {
    if (resolveAxis(mesh, axis.getValue()))
      return success();
    std::string why = explainUnresolvedAxis(mesh, axis.getValue());
    if (!why.empty())
      return emitError() << why;
    std::optional<SubAxisName> sub = parseSubAxisName(axis.getValue());
    return emitError() << "unknown mesh axis \""
                       << (sub ? sub->parent : axis.getValue()) << "\" (mesh "
                       << getMesh() << " has axes " <<
           [&] {
             std::string s;
             for (auto [i, a] : llvm::enumerate(mesh.getAxes()))
               s += (i ? ", \"" : "\"") + a.getName().getValue().str() + "\"";
             return s;
           }() << ")";
  };
  for (StringAttr axis : getShardedAxes())
    if (failed(checkAxis(axis)))
      return failure();
  for (StringAttr axis : getPartialAxes())
    if (failed(checkAxis(axis)))
      return failure();
  return success();
}

// axis-ref ::= string | integer (index into the mesh's axes)
static ParseResult parseAxisRef(AsmParser &parser, FlatSymbolRefAttr meshRef,
                                SmallVectorImpl<StringAttr> &axes) {
  std::string name;
  if (succeeded(parser.parseOptionalString(&name))) {
    // A sub-axis: `"x":(m)k` (Shardy's syntax).
    if (succeeded(parser.parseOptionalColon())) {
      int64_t preSize, size;
      SMLoc subLoc = parser.getCurrentLocation();
      if (parser.parseLParen() || parser.parseInteger(preSize) ||
          parser.parseRParen() || parser.parseInteger(size))
        return failure();
      if (preSize < 1 || size < 2)
        return parser.emitError(subLoc)
               << "sub-axis \"" << name << "\":(" << preSize << ")" << size
               << " needs a pre-size of at least 1 and a size of at least 2";
      name = formatSubAxisName(name, preSize, size);
    }
    axes.push_back(parser.getBuilder().getStringAttr(name));
    return success();
  }
  SMLoc loc = parser.getCurrentLocation();
  int64_t index;
  OptionalParseResult parsedInt = parser.parseOptionalInteger(index);
  if (!parsedInt.has_value())
    return parser.emitError(loc, "expected a mesh axis name or index");
  if (failed(*parsedInt))
    return failure();
  auto *dialect = parser.getContext()->getLoadedDialect<XlaDialect>();
  auto mesh = dyn_cast_if_present<MeshAttr>(
      dialect->lookupParsedMesh(meshRef.getAttr()));
  if (!mesh)
    return parser.emitError(loc)
           << "axis index " << index << " needs mesh " << meshRef
           << " to be declared earlier in the file";
  if (index < 0 || index >= mesh.getRank())
    return parser.emitError(loc)
           << "axis index " << index << " is out of range for mesh " << meshRef
           << " of rank " << mesh.getRank();
  axes.push_back(mesh.getAxes()[index].getName());
  return success();
}

// dim ::= `{` (axis-ref (`,` axis-ref)*)? (`,`? `?`)? `}` (`p` int)?
static ParseResult parseDimSharding(AsmParser &parser,
                                    FlatSymbolRefAttr meshRef,
                                    DimShardingAttr &result) {
  SmallVector<StringAttr> axes;
  bool isOpen = false;
  if (parser.parseLBrace())
    return failure();
  if (failed(parser.parseOptionalRBrace())) {
    while (true) {
      if (succeeded(parser.parseOptionalQuestion())) {
        isOpen = true;
        if (parser.parseRBrace())
          return failure();
        break;
      }
      if (parseAxisRef(parser, meshRef, axes))
        return failure();
      if (succeeded(parser.parseOptionalRBrace()))
        break;
      if (parser.parseComma())
        return failure();
    }
  }
  std::optional<int64_t> priority;
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (succeeded(parser.parseOptionalKeyword(&keyword))) {
    int64_t value;
    if (!keyword.consume_front("p") || keyword.empty() ||
        keyword.getAsInteger(10, value))
      return parser.emitError(loc)
             << "expected a priority like 'p0' after a dimension sharding";
    priority = value;
  }
  result = DimShardingAttr::get(parser.getContext(), axes, isOpen, priority);
  return success();
}

static ParseResult parseAxisNameList(AsmParser &parser,
                                     FlatSymbolRefAttr meshRef,
                                     SmallVectorImpl<StringAttr> &axes) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&]() {
    return parseAxisRef(parser, meshRef, axes);
  });
}

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  FlatSymbolRefAttr meshRef;
  SmallVector<DimShardingAttr> dims;
  SmallVector<StringAttr> partial;
  ReductionKind kind = ReductionKind::sum;
  if (parser.parseLess() || parser.parseAttribute(meshRef) ||
      parser.parseComma() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parseDimSharding(parser, meshRef, dims.emplace_back());
          }))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    if (parser.parseKeyword("partial"))
      return {};
    if (succeeded(parser.parseOptionalLess())) {
      SMLoc kindLoc = parser.getCurrentLocation();
      StringRef kindName;
      if (parser.parseKeyword(&kindName))
        return {};
      std::optional<ReductionKind> parsedKind =
          symbolizeReductionKind(kindName);
      if (!parsedKind) {
        parser.emitError(kindLoc) << "unknown reduction '" << kindName
                                  << "' (expected sum, mul, and, or, min, max)";
        return {};
      }
      kind = *parsedKind;
      if (parser.parseGreater())
        return {};
    }
    if (parser.parseEqual() || parseAxisNameList(parser, meshRef, partial))
      return {};
  }
  if (parser.parseGreater())
    return {};
  return ShardingAttr::getChecked([&] { return parser.emitError(loc); },
                                  parser.getContext(), meshRef, dims, partial,
                                  kind);
}

static void printAxisNames(AsmPrinter &printer, ArrayRef<StringAttr> axes) {
  llvm::interleaveComma(axes, printer, [&](StringAttr axis) {
    if (std::optional<SubAxisName> sub = parseSubAxisName(axis.getValue())) {
      printer.printString(sub->parent);
      printer << ":(" << sub->preSize << ")" << sub->size;
      return;
    }
    printer.printString(axis);
  });
}

void ShardingAttr::print(AsmPrinter &printer) const {
  printer << '<' << getMesh() << ", [";
  llvm::interleaveComma(getDims(), printer, [&](DimShardingAttr dim) {
    printer << '{';
    printAxisNames(printer, dim.getAxes());
    if (dim.getIsOpen())
      printer << (dim.isReplicated() ? "?" : ", ?");
    printer << '}';
    if (dim.getPriority())
      printer << 'p' << *dim.getPriority();
  });
  printer << ']';
  if (isPartial()) {
    printer << ", partial";
    if (getPartialKind() != ReductionKind::sum)
      printer << '<' << stringifyReductionKind(getPartialKind()) << '>';
    printer << "={";
    printAxisNames(printer, getPartialAxes());
    printer << '}';
  }
  printer << '>';
}
