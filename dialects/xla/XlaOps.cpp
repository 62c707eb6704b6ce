//===- XlaOps.cpp - ops of the xla dialect --------------------------------===//

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaContraction.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace xspmd::xla;

// Custom directives used by the generated parsers and printers; defined in
// XlaCollectives.cpp (participants, groups) and below (padding).
namespace xspmd::xla {
ParseResult parseParticipants(OpAsmParser &parser, FlatSymbolRefAttr &mesh,
                              ArrayAttr &axes, DenseIntElementsAttr &groups,
                              LinkClassAttr &link);
void printParticipants(OpAsmPrinter &printer, Operation *op,
                       FlatSymbolRefAttr mesh, ArrayAttr axes,
                       DenseIntElementsAttr groups, LinkClassAttr link);
ParseResult parseGroups(OpAsmParser &parser, DenseIntElementsAttr &groups);
ParseResult parsePairs(OpAsmParser &parser, DenseIntElementsAttr &pairs);
void printPairs(OpAsmPrinter &printer, Operation *op,
                DenseIntElementsAttr pairs);
void printGroups(OpAsmPrinter &printer, Operation *op,
                 DenseIntElementsAttr groups);
} // namespace xspmd::xla

// padding ::= `[` (`[` int `,` int `]` (`,` ...)*)? `]`, stored flat.
static ParseResult parsePadding(OpAsmParser &parser,
                                DenseI64ArrayAttr &padding) {
  SmallVector<int64_t> flat;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            int64_t lo, hi;
            if (parser.parseLSquare() || parser.parseInteger(lo) ||
                parser.parseComma() || parser.parseInteger(hi) ||
                parser.parseRSquare())
              return failure();
            flat.append({lo, hi});
            return success();
          }))
    return failure();
  padding = parser.getBuilder().getDenseI64ArrayAttr(flat);
  return success();
}

static void printPadding(OpAsmPrinter &printer, Operation *,
                         DenseI64ArrayAttr padding) {
  printer << '[';
  ArrayRef<int64_t> flat = padding.asArrayRef();
  for (size_t i = 0; i + 1 < flat.size(); i += 2) {
    if (i)
      printer << ", ";
    printer << '[' << flat[i] << ", " << flat[i + 1] << ']';
  }
  printer << ']';
}

// concat-inputs ::= ssa-use (`,` ssa-use)* `,` `dim` `=` int
static ParseResult
parseConcatInputs(OpAsmParser &parser,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &inputs,
                  IntegerAttr &dim) {
  do {
    if (parser.parseOperand(inputs.emplace_back()) || parser.parseComma())
      return failure();
  } while (failed(parser.parseOptionalKeyword("dim")));
  int64_t value;
  if (parser.parseEqual() || parser.parseInteger(value))
    return failure();
  dim = parser.getBuilder().getI64IntegerAttr(value);
  return success();
}

static void printConcatInputs(OpAsmPrinter &printer, Operation *,
                              OperandRange inputs, IntegerAttr dim) {
  printer << inputs << ", dim = " << dim.getInt();
}

#define GET_OP_CLASSES
#include "dialects/xla/XlaOps.cpp.inc"

void XlaDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "dialects/xla/XlaOps.cpp.inc"
      >();
}

static RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

//===----------------------------------------------------------------------===//
// MeshOp
//===----------------------------------------------------------------------===//

ParseResult MeshOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes) ||
      parser.parseEqual())
    return failure();
  MeshAttr mesh = MeshAttr::parseBody(parser);
  if (!mesh)
    return failure();
  result.addAttribute(getMeshAttrName(result.name), mesh);
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  // Remember the mesh so that shardings later in the file may name its axes
  // by index.
  parser.getContext()->getLoadedDialect<XlaDialect>()->rememberParsedMesh(name,
                                                                          mesh);
  return success();
}

void MeshOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  printer << " = ";
  getMesh().printBody(printer);
  printer.printOptionalAttrDict((*this)->getAttrs(),
                                {getSymNameAttrName(), getMeshAttrName()});
}

LogicalResult MeshOp::verify() {
  // All meshes of a module span the same devices, except maximal meshes,
  // which name one of them: compare with the first mesh that is not maximal.
  MeshOp first;
  for (Operation &op : (*this)->getBlock()->getOperations())
    if (auto mesh = dyn_cast<MeshOp>(op); mesh && !mesh.getMesh().isMaximal()) {
      first = mesh;
      break;
    }
  MeshAttr mesh = getMesh();
  if (mesh.isMaximal()) {
    int64_t device = mesh.getMaximalDevice();
    if (!first) {
      if (device == 0)
        return success();
      return emitOpError()
             << "is a maximal mesh on device " << device
             << " but no mesh of the module spans the devices; declare the "
                "module's mesh next to it";
    }
    int64_t numDevices = first.getMesh().getNumDevices();
    if (device >= numDevices)
      return emitOpError() << "is a maximal mesh on device " << device
                           << " but mesh @" << first.getSymName() << " spans "
                           << numDevices << " devices (0.." << numDevices - 1
                           << ")";
    return success();
  }
  if (!first || first == *this)
    return success();
  int64_t expected = first.getMesh().getNumDevices();
  int64_t actual = mesh.getNumDevices();
  if (expected != actual)
    return emitOpError() << "spans " << actual << " devices but mesh @"
                         << first.getSymName() << " spans " << expected
                         << "; all meshes of a module must span the same "
                            "devices (a single-device mesh names its device: "
                            "<[], devices=[k]>)";
  return success();
}

//===----------------------------------------------------------------------===//
// MarkShardingOp
//===----------------------------------------------------------------------===//

LogicalResult MarkShardingOp::verify() {
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(
      *this, getSharding().getMesh().getAttr());
  if (!mesh)
    return emitOpError() << "names unknown mesh " << getSharding().getMesh();
  return getSharding().verifyFor([&] { return emitOpError(); }, mesh.getMesh(),
                                 getType());
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

LogicalResult IotaOp::verify() {
  int64_t rank = getType().getRank();
  if (rank == 0)
    return emitOpError("result must have rank >= 1");
  if (static_cast<int64_t>(getDim()) >= rank)
    return emitOpError() << "dim " << getDim() << " is out of range for rank "
                         << rank;
  return success();
}

LogicalResult RngOp::verify() {
  RankedTensorType type = getType();
  if (getGlobalShape().has_value() != (getOffsets() != nullptr))
    return emitOpError("global shape and offsets go together");
  double a = getA().convertToDouble(), b = getB().convertToDouble();
  if (getDistribution() == RngDistribution::uniform && !(a < b))
    return emitOpError() << "uniform range [" << a << ", " << b << ") is empty";
  if (getDistribution() == RngDistribution::normal && !(b >= 0))
    return emitOpError("normal stddev must not be negative");
  if (std::optional<ArrayRef<int64_t>> global = getGlobalShape()) {
    if (global->size() != static_cast<size_t>(type.getRank()))
      return emitOpError() << "global shape has rank " << global->size()
                           << " but the result has rank " << type.getRank();
    for (auto [local, g] : llvm::zip(type.getShape(), *global))
      if (local > g)
        return emitOpError("local block is larger than the global shape");
    auto offType = cast<RankedTensorType>(getOffsets().getType());
    if (offType.getRank() != 1 || offType.getDimSize(0) != type.getRank())
      return emitOpError() << "offsets must be a 1-d tensor of "
                           << type.getRank() << " integers";
  }
  return success();
}

LogicalResult AxisIndexOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto mesh = symbols.lookupNearestSymbolFrom<MeshOp>(*this, getMeshAttr());
  if (!mesh)
    return emitOpError() << "names unknown mesh " << getMeshAttr();
  if (mesh.getMesh().getAxisIndex(getAxis()) < 0)
    return emitOpError() << "mesh " << getMeshAttr() << " has no axis \""
                         << getAxis() << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

LogicalResult CompareOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &types) {
  types.push_back(tensorOf(adaptor.getLhs()).clone(IntegerType::get(ctx, 1)));
  return success();
}

OpFoldResult ConvertOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

LogicalResult BroadcastInDimOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  ArrayRef<int64_t> dims = getDims();
  if (in.getElementType() != out.getElementType())
    return emitOpError("operand and result element types differ");
  if (static_cast<int64_t>(dims.size()) != in.getRank())
    return emitOpError() << "needs one dimension per operand dimension ("
                         << in.getRank() << "), got " << dims.size();
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (d < 0 || d >= out.getRank())
      return emitOpError() << "dimension " << d
                           << " is out of range for result rank "
                           << out.getRank();
    if (i > 0 && d <= dims[i - 1])
      return emitOpError("dims must be strictly increasing");
    int64_t inSize = in.getDimSize(i), outSize = out.getDimSize(d);
    if (inSize != 1 && inSize != outSize)
      return emitOpError() << "operand dimension " << i << " has size "
                           << inSize << " but result dimension " << d
                           << " has size " << outSize
                           << " (must be equal or 1)";
  }
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("operand and result element types differ");
  if (in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << in << " ("
                         << in.getNumElements() << " elements) into " << out
                         << " (" << out.getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  return {};
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &types) {
  RankedTensorType in = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != in.getRank())
    return emitOptionalError(loc, "permutation has ", perm.size(),
                             " entries but the operand has rank ",
                             in.getRank());
  SmallVector<bool> seen(perm.size(), false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= in.getRank() || seen[p])
      return emitOptionalError(loc, "permutation is not a permutation of 0..",
                               in.getRank() - 1);
    seen[p] = true;
    shape.push_back(in.getDimSize(p));
  }
  types.push_back(in.clone(shape));
  return success();
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &types) {
  RankedTensorType in = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> start = adaptor.getStart(), limit = adaptor.getLimit(),
                    strides = adaptor.getStrides();
  int64_t rank = in.getRank();
  if (static_cast<int64_t>(start.size()) != rank ||
      static_cast<int64_t>(limit.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return emitOptionalError(loc, "start, limit and strides need ", rank,
                             " entries each (the operand's rank)");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (strides[d] <= 0)
      return emitOptionalError(loc, "stride of dimension ", d,
                               " must be positive");
    if (start[d] < 0 || start[d] > limit[d] || limit[d] > in.getDimSize(d))
      return emitOptionalError(loc, "slice [", start[d], ", ", limit[d],
                               ") of dimension ", d,
                               " is out of range for size ", in.getDimSize(d));
    shape.push_back((limit[d] - start[d] + strides[d] - 1) / strides[d]);
  }
  types.push_back(in.clone(shape));
  return success();
}

LogicalResult DynamicSliceOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  ArrayRef<int64_t> sizes = getSizes();
  if (in.getElementType() != out.getElementType())
    return emitOpError("operand and result element types differ");
  if (static_cast<int64_t>(getOffsets().size()) != in.getRank() ||
      static_cast<int64_t>(sizes.size()) != in.getRank())
    return emitOpError() << "needs one offset and one size per dimension ("
                         << in.getRank() << ")";
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (sizes[d] < 0 || sizes[d] > in.getDimSize(d))
      return emitOpError() << "size " << sizes[d] << " of dimension " << d
                           << " exceeds the operand's " << in.getDimSize(d);
  if (out.getShape() != sizes)
    return emitOpError("result shape must equal the slice sizes");
  return success();
}

LogicalResult DynamicUpdateSliceOp::verify() {
  RankedTensorType in = getInput().getType(), upd = getUpdate().getType();
  if (in.getElementType() != upd.getElementType())
    return emitOpError("operand and update element types differ");
  if (in.getRank() != upd.getRank())
    return emitOpError("update must have the operand's rank");
  if (static_cast<int64_t>(getOffsets().size()) != in.getRank())
    return emitOpError() << "needs one offset per dimension (" << in.getRank()
                         << ")";
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (upd.getDimSize(d) > in.getDimSize(d))
      return emitOpError() << "update dimension " << d
                           << " is larger than the operand's";
  return success();
}

LogicalResult ConcatenateOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(loc, "needs at least one operand");
  RankedTensorType first = tensorOf(adaptor.getInputs()[0]);
  int64_t dim = adaptor.getDim();
  if (dim >= first.getRank())
    return emitOptionalError(loc, "dim ", dim, " is out of range for rank ",
                             first.getRank());
  SmallVector<int64_t> shape(first.getShape());
  for (auto [i, v] : llvm::enumerate(adaptor.getInputs().drop_front())) {
    RankedTensorType t = tensorOf(v);
    if (t.getElementType() != first.getElementType() ||
        t.getRank() != first.getRank())
      return emitOptionalError(loc, "operand ", i + 1,
                               " differs from operand 0 in element type or "
                               "rank");
    for (int64_t d = 0; d < t.getRank(); ++d)
      if (d != dim && t.getDimSize(d) != first.getDimSize(d))
        return emitOptionalError(loc, "operand ", i + 1, " has size ",
                                 t.getDimSize(d), " in dimension ", d,
                                 " but operand 0 has ", first.getDimSize(d));
    shape[dim] += t.getDimSize(dim);
  }
  types.push_back(first.clone(shape));
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &types) {
  RankedTensorType in = tensorOf(adaptor.getInput());
  ArrayRef<int64_t> low = adaptor.getLow(), high = adaptor.getHigh(),
                    interior = adaptor.getInterior();
  int64_t rank = in.getRank();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank)
    return emitOptionalError(loc, "low, high and interior need ", rank,
                             " entries each (the operand's rank)");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (interior[d] < 0)
      return emitOptionalError(loc, "interior padding of dimension ", d,
                               " is negative");
    int64_t size = in.getDimSize(d);
    int64_t grown = size == 0 ? 0 : size + (size - 1) * interior[d];
    int64_t result = grown + low[d] + high[d];
    if (result < 0)
      return emitOptionalError(loc, "padding makes dimension ", d, " negative");
    shape.push_back(result);
  }
  types.push_back(in.clone(shape));
  return success();
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  RankedTensorType table = tensorOf(adaptor.getTable());
  RankedTensorType indices = tensorOf(adaptor.getIndices());
  if (table.getRank() < 1)
    return emitOptionalError(loc, "table must have rank >= 1");
  SmallVector<int64_t> shape(indices.getShape());
  llvm::append_range(shape, table.getShape().drop_front());
  types.push_back(table.clone(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions, reductions, convolution
//===----------------------------------------------------------------------===//

static LogicalResult inferContraction(FailureOr<ContractionLabels> labels,
                                      Value lhs, SmallVectorImpl<Type> &types) {
  if (failed(labels))
    return failure();
  types.push_back(tensorOf(lhs).clone(contractionResultShape(*labels)));
  return success();
}

LogicalResult DotGeneralOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &types) {
  return inferContraction(
      dotGeneralLabels(tensorOf(adaptor.getLhs()).getShape(),
                       tensorOf(adaptor.getRhs()).getShape(),
                       adaptor.getLhsBatch(), adaptor.getRhsBatch(),
                       adaptor.getLhsContract(), adaptor.getRhsContract(), loc),
      adaptor.getLhs(), types);
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferContraction(matmulLabels(tensorOf(adaptor.getLhs()).getShape(),
                                       tensorOf(adaptor.getRhs()).getShape(),
                                       loc),
                          adaptor.getLhs(), types);
}

LogicalResult EinsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  return inferContraction(
      parseEinsum(adaptor.getEquation(), tensorOf(adaptor.getLhs()).getShape(),
                  tensorOf(adaptor.getRhs()).getShape(), loc),
      adaptor.getLhs(), types);
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &types) {
  RankedTensorType in = tensorOf(adaptor.getInput());
  Type elem = in.getElementType();
  ReduceKind kind = adaptor.getKind();
  if (kind == ReduceKind::mean && !isa<FloatType>(elem))
    return emitOptionalError(loc, "mean needs a float tensor, got ", in);
  if ((kind == ReduceKind::and_ || kind == ReduceKind::or_) &&
      !isa<IntegerType>(elem))
    return emitOptionalError(loc, stringifyReduceKind(kind),
                             " needs an integer tensor, got ", in);
  if (elem.isInteger(1) && kind != ReduceKind::and_ &&
      kind != ReduceKind::or_ && kind != ReduceKind::max &&
      kind != ReduceKind::min)
    return emitOptionalError(loc, stringifyReduceKind(kind),
                             " is not defined on i1; use and, or, max or min");
  SmallVector<bool> reduced(in.getRank(), false);
  for (int64_t d : adaptor.getDims()) {
    if (d < 0 || d >= in.getRank())
      return emitOptionalError(loc, "dimension ", d,
                               " is out of range for rank ", in.getRank());
    if (reduced[d])
      return emitOptionalError(loc, "dimension ", d, " is reduced twice");
    reduced[d] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < in.getRank(); ++d)
    if (!reduced[d])
      shape.push_back(in.getDimSize(d));
  types.push_back(in.clone(shape));
  return success();
}

LogicalResult SoftmaxOp::verify() {
  if (static_cast<int64_t>(getDim()) >= getType().getRank())
    return emitOpError() << "dim " << getDim() << " is out of range for rank "
                         << getType().getRank();
  return success();
}

LogicalResult ConvolutionOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &types) {
  RankedTensorType in = tensorOf(adaptor.getInput());
  RankedTensorType kernel = tensorOf(adaptor.getKernel());
  int64_t rank = in.getRank(), spatial = rank - 2;
  if (rank < 3)
    return emitOptionalError(loc, "input must be [N, spatial..., C] with at "
                                  "least one spatial dimension");
  if (kernel.getRank() != rank)
    return emitOptionalError(loc, "kernel rank ", kernel.getRank(),
                             " must equal the input rank ", rank);
  auto checkSize = [&](ArrayRef<int64_t> a, StringRef name,
                       int64_t expected) -> LogicalResult {
    if (static_cast<int64_t>(a.size()) != expected)
      return emitOptionalError(loc, name, " needs ", expected, " entries, got ",
                               a.size());
    return success();
  };
  ArrayRef<int64_t> strides = adaptor.getStrides(),
                    padding = adaptor.getPadding(),
                    lhsDil = adaptor.getLhsDilation(),
                    rhsDil = adaptor.getRhsDilation();
  if (failed(checkSize(strides, "strides", spatial)) ||
      failed(checkSize(padding, "padding", 2 * spatial)) ||
      failed(checkSize(lhsDil, "lhs_dilation", spatial)) ||
      failed(checkSize(rhsDil, "rhs_dilation", spatial)))
    return failure();
  int64_t groups = adaptor.getFeatureGroups();
  int64_t channels = in.getDimSize(rank - 1);
  int64_t kernelIn = kernel.getDimSize(rank - 2);
  int64_t outFeatures = kernel.getDimSize(rank - 1);
  if (groups <= 0 || channels % groups != 0 || outFeatures % groups != 0)
    return emitOptionalError(loc, "feature_groups ", groups,
                             " must divide the input channels (", channels,
                             ") and the output features (", outFeatures, ")");
  if (kernelIn * groups != channels)
    return emitOptionalError(
        loc, "kernel input features (", kernelIn, ") times feature_groups (",
        groups, ") must equal the input channels (", channels, ")");
  SmallVector<int64_t> shape{in.getDimSize(0)};
  for (int64_t s = 0; s < spatial; ++s) {
    if (strides[s] <= 0 || lhsDil[s] <= 0 || rhsDil[s] <= 0)
      return emitOptionalError(loc, "strides and dilations must be positive");
    int64_t inSize = in.getDimSize(1 + s);
    int64_t dilatedIn = inSize == 0 ? 0 : (inSize - 1) * lhsDil[s] + 1;
    int64_t dilatedK = (kernel.getDimSize(s) - 1) * rhsDil[s] + 1;
    int64_t padded = dilatedIn + padding[2 * s] + padding[2 * s + 1];
    if (padded < dilatedK)
      return emitOptionalError(loc, "spatial dimension ", s, " (", padded,
                               " after dilation and padding) is smaller than "
                               "the dilated kernel (",
                               dilatedK, ")");
    shape.push_back((padded - dilatedK) / strides[s] + 1);
  }
  shape.push_back(outFeatures);
  types.push_back(in.clone(shape));
  return success();
}

Attribute xspmd::xla::getResultShardingAttr(Operation *op, unsigned i) {
  Attribute attr = op->getAttr(kShardingAttrName);
  if (auto array = dyn_cast_if_present<ArrayAttr>(attr))
    return i < array.size() ? array[i] : Attribute();
  return attr;
}
