//===- XlaCollectives.cpp - collective ops --------------------------------===//
//
// Participants (mesh axes or replica groups), their parsing and printing,
// and the verifiers of the collective ops.
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaMesh.h"
#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

#include "dialects/xla/XlaOpInterfaces.cpp.inc"

namespace xspmd::xla {

MeshOp lookupMesh(Operation *from, FlatSymbolRefAttr name,
                  SymbolTableCollection *symbols) {
  if (!name)
    return {};
  if (symbols)
    return symbols->lookupNearestSymbolFrom<MeshOp>(from, name.getAttr());
  return SymbolTable::lookupNearestSymbolFrom<MeshOp>(from, name.getAttr());
}

MeshOp findFirstMesh(Operation *from) {
  auto module = isa<ModuleOp>(from) ? cast<ModuleOp>(from)
                                    : from->getParentOfType<ModuleOp>();
  if (!module)
    return {};
  // Maximal meshes name one device; any other mesh spans them all.
  MeshOp maximal;
  for (Operation &op : module.getBody()->getOperations())
    if (auto mesh = dyn_cast<MeshOp>(op)) {
      if (!mesh.getMesh().isMaximal())
        return mesh;
      if (!maximal)
        maximal = mesh;
    }
  return maximal;
}

DeviceGroups groupsFromAttr(DenseIntElementsAttr groups) {
  auto type = cast<RankedTensorType>(groups.getType());
  int64_t size = type.getDimSize(1);
  DeviceGroups result;
  SmallVector<int64_t> flat = llvm::to_vector(groups.getValues<int64_t>());
  for (size_t i = 0; i < flat.size(); i += size)
    result.emplace_back(flat.begin() + i, flat.begin() + i + size);
  return result;
}

DenseIntElementsAttr groupsToAttr(MLIRContext *ctx,
                                  const DeviceGroups &groups) {
  int64_t size = groups.empty() ? 0 : groups.front().size();
  SmallVector<int64_t> flat;
  for (const auto &g : groups)
    llvm::append_range(flat, g);
  auto type = RankedTensorType::get({static_cast<int64_t>(groups.size()), size},
                                    IntegerType::get(ctx, 64));
  return DenseIntElementsAttr::get(type, flat);
}

DeviceGroups resolveParticipantGroups(CollectiveOpInterface op, MeshAttr mesh,
                                      int64_t numDevices) {
  if (DenseIntElementsAttr groups = op.getGroupsAttr())
    return groupsFromAttr(groups);
  if (ArrayAttr axes = op.getAxesAttr()) {
    SmallVector<int64_t> shape, axisIndices;
    for (MeshAxisAttr axis : mesh.getAxes())
      shape.push_back(axis.getSize());
    for (auto name : axes.getAsValueRange<StringAttr>())
      axisIndices.push_back(mesh.getAxisIndex(name));
    return meshAxisGroups(shape, mesh.getDeviceArray(), axisIndices);
  }
  DeviceGroups all(1);
  for (int64_t d = 0; d < numDevices; ++d)
    all.front().push_back(d);
  return all;
}

//===----------------------------------------------------------------------===//
// Parsing and printing
//===----------------------------------------------------------------------===//

// groups ::= `[` (`[` int (`,` int)* `]` (`,` ...)*)? `]`
// Rows must have equal lengths; stored as a [rows x length] i64 tensor.
ParseResult parseGroups(OpAsmParser &parser, DenseIntElementsAttr &groups) {
  SMLoc loc = parser.getCurrentLocation();
  DeviceGroups rows;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            SmallVector<int64_t> &row = rows.emplace_back();
            return parser.parseCommaSeparatedList(
                OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                  return parser.parseInteger(row.emplace_back());
                });
          }))
    return failure();
  for (const auto &row : rows)
    if (row.size() != rows.front().size())
      return parser.emitError(loc)
             << "all groups must have the same size (got " << row.size()
             << " and " << rows.front().size() << ")";
  groups = groupsToAttr(parser.getContext(), rows);
  return success();
}

void printGroups(OpAsmPrinter &printer, Operation *,
                 DenseIntElementsAttr groups) {
  printer << '[';
  llvm::interleaveComma(groupsFromAttr(groups), printer,
                        [&](const SmallVector<int64_t> &row) {
                          printer << '[';
                          llvm::interleaveComma(row, printer);
                          printer << ']';
                        });
  printer << ']';
}

// pairs ::= `[` (`[` int `,` int `]` (`,` ...)*)? `]`, stored as a [n x 2]
// i64 tensor; an empty list (every device receives zeros) is [0 x 2].
ParseResult parsePairs(OpAsmParser &parser, DenseIntElementsAttr &pairs) {
  DeviceGroups rows;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            SmallVector<int64_t> &row = rows.emplace_back(2);
            return failure(parser.parseLSquare() ||
                           parser.parseInteger(row[0]) || parser.parseComma() ||
                           parser.parseInteger(row[1]) ||
                           parser.parseRSquare());
          }))
    return failure();
  SmallVector<int64_t> flat;
  for (const auto &row : rows)
    llvm::append_range(flat, row);
  auto type = RankedTensorType::get({static_cast<int64_t>(rows.size()), 2},
                                    parser.getBuilder().getI64Type());
  pairs = DenseIntElementsAttr::get(type, flat);
  return success();
}

void printPairs(OpAsmPrinter &printer, Operation *op,
                DenseIntElementsAttr pairs) {
  printGroups(printer, op, pairs);
}

// participants ::= (`mesh_axes` `=` symbol-ref `[` string* `]`
//                   | `groups` `=` groups)? (`link` `=` link-class)?
ParseResult parseParticipants(OpAsmParser &parser, FlatSymbolRefAttr &mesh,
                              ArrayAttr &axes, DenseIntElementsAttr &groups,
                              LinkClassAttr &link) {
  if (succeeded(parser.parseOptionalKeyword("mesh_axes"))) {
    SmallVector<Attribute> names;
    if (parser.parseEqual() || parser.parseAttribute(mesh) ||
        parser.parseCommaSeparatedList(
            OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
              std::string name;
              if (parser.parseString(&name))
                return failure();
              names.push_back(parser.getBuilder().getStringAttr(name));
              return success();
            }))
      return failure();
    axes = parser.getBuilder().getArrayAttr(names);
  } else if (succeeded(parser.parseOptionalKeyword("groups"))) {
    if (parser.parseEqual() || parseGroups(parser, groups))
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("link"))) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef name;
    if (parser.parseEqual() || parser.parseKeyword(&name))
      return failure();
    std::optional<LinkClass> kind = symbolizeLinkClass(name);
    if (!kind)
      return parser.emitError(loc) << "unknown link class '" << name
                                   << "' (expected ici, dcn, mixed)";
    link = LinkClassAttr::get(parser.getContext(), *kind);
  }
  return success();
}

void printParticipants(OpAsmPrinter &printer, Operation *,
                       FlatSymbolRefAttr mesh, ArrayAttr axes,
                       DenseIntElementsAttr groups, LinkClassAttr link) {
  if (axes) {
    printer << " mesh_axes = " << mesh << '[';
    llvm::interleaveComma(axes.getAsValueRange<StringAttr>(), printer,
                          [&](StringRef a) { printer.printString(a); });
    printer << ']';
  } else if (groups) {
    printer << " groups = ";
    printGroups(printer, nullptr, groups);
  }
  if (link)
    printer << " link = " << stringifyLinkClass(link.getValue());
}

} // namespace xspmd::xla

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// Checks that depend only on the op: participants well formed, dims in range.
static LogicalResult verifyParticipants(CollectiveOpInterface op) {
  Operation *o = op.getOperation();
  bool hasMesh = static_cast<bool>(op.getMeshAttr());
  bool hasAxes = static_cast<bool>(op.getAxesAttr());
  if (hasMesh != hasAxes)
    return o->emitOpError("mesh and axes go together");
  if (hasAxes && op.getGroupsAttr())
    return o->emitOpError(
        "names its participants both by mesh axes and by groups");
  if (DenseIntElementsAttr groupsAttr = op.getGroupsAttr()) {
    auto type = cast<RankedTensorType>(groupsAttr.getType());
    if (type.getRank() != 2 || type.getDimSize(0) == 0 ||
        type.getDimSize(1) == 0)
      return o->emitOpError("replica groups must be a non-empty list of "
                            "non-empty groups of equal size");
    int64_t numDevices = type.getNumElements();
    SmallVector<bool> seen(numDevices, false);
    for (int64_t id : groupsAttr.getValues<int64_t>()) {
      if (id < 0 || id >= numDevices)
        return o->emitOpError()
               << "replica groups must partition the devices 0.."
               << numDevices - 1 << "; device " << id << " is out of range";
      if (seen[id])
        return o->emitOpError()
               << "replica groups must partition the devices; device " << id
               << " appears twice";
      seen[id] = true;
    }
  }
  return success();
}

static RankedTensorType typeOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// Checks that the op keeps its operand's rank and that `dim` is one of its
/// dimensions.
static LogicalResult checkDim(Operation *op, StringRef name, int64_t dim) {
  int64_t rank = typeOf(op->getOperand(0)).getRank();
  if (typeOf(op->getResult(0)).getRank() != rank)
    return op->emitOpError() << "result must have the operand's rank " << rank;
  if (dim >= rank)
    return op->emitOpError()
           << name << " " << dim << " is out of range for rank " << rank;
  return success();
}

static LogicalResult checkReduction(Operation *op, ReductionKind kind,
                                    Type elem, double scale) {
  bool isInt = isa<IntegerType>(elem);
  if ((kind == ReductionKind::and_ || kind == ReductionKind::or_) && !isInt)
    return op->emitOpError() << stringifyReductionKind(kind)
                             << " needs integer elements, got " << elem;
  if (elem.isInteger(1) &&
      (kind == ReductionKind::sum || kind == ReductionKind::mul))
    return op->emitOpError() << stringifyReductionKind(kind)
                             << " is not defined on i1; use and, or, min, max";
  if (scale != 1.0 && !isa<FloatType>(elem))
    return op->emitOpError("scale needs float elements");
  return success();
}

/// Shape checks that need the group size `g` (devices per group) and the
/// device count `n`.
static LogicalResult verifyWithGroupSize(Operation *op, int64_t g, int64_t n) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AllGatherOp ag) -> LogicalResult {
        RankedTensorType in = typeOf(ag.getInput()), out = ag.getType();
        int64_t dim = ag.getDim();
        SmallVector<int64_t> expected(in.getShape());
        expected[dim] *= g;
        if (out.getShape() != ArrayRef<int64_t>(expected))
          return op->emitOpError()
                 << "gathers " << g << " blocks of " << in << " along dim "
                 << dim << " into " << in.clone(expected) << ", not " << out;
        return success();
      })
      .Case<ReduceScatterOp, AllSliceOp>([&](auto scatter) -> LogicalResult {
        RankedTensorType in = typeOf(scatter.getInput()),
                         out = scatter.getType();
        int64_t dim = scatter.getDim();
        if (in.getDimSize(dim) % g != 0)
          return op->emitOpError()
                 << "dim " << dim << " of size " << in.getDimSize(dim)
                 << " does not split into " << g << " equal blocks";
        SmallVector<int64_t> expected(in.getShape());
        expected[dim] /= g;
        if (out.getShape() != ArrayRef<int64_t>(expected))
          return op->emitOpError()
                 << "keeps one of " << g << " blocks of " << in << " along dim "
                 << dim << ", which is " << in.clone(expected) << ", not "
                 << out;
        return success();
      })
      .Case([&](AllToAllOp a2a) -> LogicalResult {
        RankedTensorType in = typeOf(a2a.getInput()), out = a2a.getType();
        int64_t count = a2a.getSplitCount();
        if (count != g)
          return op->emitOpError() << "split_count " << count
                                   << " must equal the group size " << g;
        int64_t split = a2a.getSplitDim(), concat = a2a.getConcatDim();
        if (in.getDimSize(split) % count != 0)
          return op->emitOpError()
                 << "split dim " << split << " of size " << in.getDimSize(split)
                 << " does not split into " << count << " equal blocks";
        SmallVector<int64_t> expected(in.getShape());
        expected[split] /= count;
        expected[concat] *= count;
        if (out.getShape() != ArrayRef<int64_t>(expected))
          return op->emitOpError()
                 << "result must be " << in.clone(expected) << ", not " << out;
        return success();
      })
      .Case([&](CollectivePermuteOp cp) -> LogicalResult {
        // Pairs are positions within a group, or device ids without groups.
        int64_t limit = (cp.getAxesAttr() || cp.getGroupsAttr()) ? g : n;
        if (limit < 0)
          return success();
        llvm::SmallDenseSet<int64_t> sources, targets;
        SmallVector<int64_t> flat =
            llvm::to_vector(cp.getPairs().getValues<int64_t>());
        for (size_t i = 0; i < flat.size(); i += 2) {
          for (int64_t id : {flat[i], flat[i + 1]})
            if (id < 0 || id >= limit)
              return op->emitOpError()
                     << "pair [" << flat[i] << ", " << flat[i + 1]
                     << "] is out of range 0.." << limit - 1;
          if (!sources.insert(flat[i]).second)
            return op->emitOpError()
                   << flat[i] << " is the source of two pairs";
          if (!targets.insert(flat[i + 1]).second)
            return op->emitOpError()
                   << flat[i + 1] << " is the target of two pairs";
        }
        return success();
      })
      .Default([](Operation *) { return success(); });
}

/// Checks of each op that need no group size.
static LogicalResult verifyOwnShape(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](AllReduceOp ar) {
        return checkReduction(op, ar.getKind(), ar.getType().getElementType(),
                              ar.getScale().convertToDouble());
      })
      .Case([&](AllGatherOp ag) { return checkDim(op, "dim", ag.getDim()); })
      .Case([&](ReduceScatterOp rs) -> LogicalResult {
        if (failed(checkDim(op, "dim", rs.getDim())))
          return failure();
        return checkReduction(op, rs.getKind(), rs.getType().getElementType(),
                              rs.getScale().convertToDouble());
      })
      .Case([&](AllSliceOp as) { return checkDim(op, "dim", as.getDim()); })
      .Case([&](AllToAllOp a2a) -> LogicalResult {
        if (failed(checkDim(op, "split_dim", a2a.getSplitDim())) ||
            failed(checkDim(op, "concat_dim", a2a.getConcatDim())))
          return failure();
        return success();
      })
      .Case([&](CollectivePermuteOp cp) -> LogicalResult {
        auto type = cast<RankedTensorType>(cp.getPairs().getType());
        if (type.getRank() != 2 || type.getDimSize(1) != 2)
          return op->emitOpError("pairs must be a list of [source, target]");
        return success();
      })
      .Default([](Operation *) { return success(); });
}

static LogicalResult verifyCollective(CollectiveOpInterface op) {
  if (failed(verifyParticipants(op)) || failed(verifyOwnShape(op)))
    return failure();
  if (DenseIntElementsAttr groups = op.getGroupsAttr()) {
    auto type = cast<RankedTensorType>(groups.getType());
    return verifyWithGroupSize(op, type.getDimSize(1), type.getNumElements());
  }
  return success();
}

/// Checks that need the module's meshes.
static LogicalResult verifyCollectiveSymbols(CollectiveOpInterface op,
                                             SymbolTableCollection &symbols) {
  Operation *o = op.getOperation();
  MeshOp anyMesh = findFirstMesh(o);
  int64_t numDevices = anyMesh ? anyMesh.getMesh().getNumDevices() : -1;
  if (FlatSymbolRefAttr meshRef = op.getMeshAttr()) {
    MeshOp meshOp = lookupMesh(o, meshRef, &symbols);
    if (!meshOp)
      return o->emitOpError() << "names unknown mesh " << meshRef;
    MeshAttr mesh = meshOp.getMesh();
    int64_t groupSize = 1;
    llvm::SmallDenseSet<StringRef> seen;
    for (StringRef axis : op.getAxesAttr().getAsValueRange<StringAttr>()) {
      if (mesh.getAxisIndex(axis) < 0)
        return o->emitOpError()
               << "mesh " << meshRef << " has no axis \"" << axis << "\"";
      if (!seen.insert(axis).second)
        return o->emitOpError()
               << "mesh axis \"" << axis << "\" is listed twice";
      groupSize *= mesh.getAxisSize(axis);
    }
    return verifyWithGroupSize(o, groupSize, mesh.getNumDevices());
  }
  if (DenseIntElementsAttr groups = op.getGroupsAttr()) {
    int64_t listed = groups.getNumElements();
    if (numDevices >= 0 && listed != numDevices)
      return o->emitOpError()
             << "replica groups cover " << listed << " devices but the "
             << "module's meshes span " << numDevices;
    return success();
  }
  if (numDevices >= 0)
    return verifyWithGroupSize(o, numDevices, numDevices);
  return success();
}

#define XLA_COLLECTIVE_VERIFIERS(OpTy)                                         \
  LogicalResult OpTy::verify() { return verifyCollective(*this); }             \
  LogicalResult OpTy::verifySymbolUses(SymbolTableCollection &symbols) {       \
    return verifyCollectiveSymbols(*this, symbols);                            \
  }

XLA_COLLECTIVE_VERIFIERS(AllReduceOp)
XLA_COLLECTIVE_VERIFIERS(AllGatherOp)
XLA_COLLECTIVE_VERIFIERS(ReduceScatterOp)
XLA_COLLECTIVE_VERIFIERS(AllToAllOp)
XLA_COLLECTIVE_VERIFIERS(CollectivePermuteOp)
XLA_COLLECTIVE_VERIFIERS(AllSliceOp)
