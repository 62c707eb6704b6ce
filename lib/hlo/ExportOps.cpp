//===- ExportOps.cpp - HLO instructions for each xla op -------------------===//
//
// Most ops have an HLO opcode with the same operands; the lazy-tensor
// conveniences are expanded (matmul/einsum → dot + transpose, relu → max,
// gelu → its tanh formula, softmax and mean → reduce + divide), and so are
// the per-device helpers of partitioned programs (axis_index, device_table
// and all_slice read a constant table at partition-id). Regions become
// computations; values a while or case body uses from outside are passed
// in its tuple, since HLO computations are closed.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloExportContext.h"

#include "dialects/xla/XlaMesh.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

namespace {

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// The HLO opcode of an op that maps one to one, or empty.
StringRef simpleOpcode(Operation *op) {
  return llvm::StringSwitch<StringRef>(op->getName().getStringRef())
      .Case("xla.add", "add")
      .Case("xla.sub", "subtract")
      .Case("xla.mul", "multiply")
      .Case("xla.div", "divide")
      .Case("xla.max", "maximum")
      .Case("xla.min", "minimum")
      .Case("xla.pow", "power")
      .Case("xla.and", "and")
      .Case("xla.or", "or")
      .Case("xla.xor", "xor")
      .Case("xla.atan2", "atan2")
      .Case("xla.rem", "remainder")
      .Case("xla.shift_left", "shift-left")
      .Case("xla.shift_right_arithmetic", "shift-right-arithmetic")
      .Case("xla.shift_right_logical", "shift-right-logical")
      .Case("xla.not", "not")
      .Case("xla.neg", "negate")
      .Case("xla.abs", "abs")
      .Case("xla.exp", "exponential")
      .Case("xla.log", "log")
      .Case("xla.tanh", "tanh")
      .Case("xla.sqrt", "sqrt")
      .Case("xla.rsqrt", "rsqrt")
      .Case("xla.sigmoid", "logistic")
      .Case("xla.floor", "floor")
      .Case("xla.ceil", "ceil")
      .Case("xla.round_nearest_afz", "round-nearest-afz")
      .Case("xla.round_nearest_even", "round-nearest-even")
      .Case("xla.sign", "sign")
      .Case("xla.erf", "erf")
      .Case("xla.cos", "cosine")
      .Case("xla.sin", "sine")
      .Case("xla.tan", "tan")
      .Case("xla.log1p", "log-plus-one")
      .Case("xla.expm1", "exponential-minus-one")
      .Case("xla.cbrt", "cbrt")
      .Case("xla.is_finite", "is-finite")
      .Case("xla.convert", "convert")
      .Case("xla.bitcast_convert", "bitcast-convert")
      .Case("xla.select", "select")
      .Case("xla.clamp", "clamp")
      .Case("xla.reshape", "reshape")
      .Case("xla.dynamic_update_slice", "dynamic-update-slice")
      .Default("");
}

std::string upper(StringRef s) { return s.upper(); }

/// The literal of a dense constant: nested braces, row-major.
FailureOr<std::string> literalText(Operation *op, ElementsAttr value) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return op->emitError() << "only dense constants can be exported to HLO";
  auto type = cast<RankedTensorType>(dense.getType());
  Type element = type.getElementType();
  std::vector<std::string> scalars;
  if (auto intType = dyn_cast<IntegerType>(element)) {
    for (const APInt &v : dense.getValues<APInt>())
      scalars.push_back(intType.getWidth() == 1
                            ? (v.isZero() ? "false" : "true")
                            : std::to_string(v.getSExtValue()));
  } else {
    for (APFloat v : dense.getValues<APFloat>()) {
      bool lost;
      v.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
      scalars.push_back(formatScalar(v.convertToDouble(), element));
    }
  }
  ArrayRef<int64_t> shape = type.getShape();
  if (shape.empty())
    return scalars.front();
  size_t next = 0;
  std::function<std::string(size_t)> nest = [&](size_t dim) {
    std::string s = "{";
    for (int64_t i = 0; i < shape[dim]; ++i) {
      if (i)
        s += ", ";
      s += dim + 1 == shape.size() ? scalars[next++] : nest(dim + 1);
    }
    return s + "}";
  };
  return nest(0);
}

std::string sliceText(ArrayRef<int64_t> start, ArrayRef<int64_t> limit,
                      ArrayRef<int64_t> strides) {
  std::string s = "slice={";
  for (size_t i = 0; i < start.size(); ++i) {
    s += (i ? ", [" : "[") + std::to_string(start[i]) + ":" +
         std::to_string(limit[i]);
    if (strides[i] != 1)
      s += ":" + std::to_string(strides[i]);
    s += "]";
  }
  return s + "}";
}

/// The identity of a reduction over `element`.
double identity(StringRef opcode, Type element) {
  bool isFloat = isa<FloatType>(element);
  unsigned width = element.getIntOrFloatBitWidth();
  if (opcode == "add" || opcode == "or")
    return 0;
  if (opcode == "multiply")
    return 1;
  if (opcode == "and")
    return width == 1 ? 1 : -1;
  if (opcode == "maximum")
    return isFloat ? -INFINITY : (width == 1 ? 0 : -std::ldexp(1.0, width - 1));
  return isFloat ? INFINITY : (width == 1 ? 1 : std::ldexp(1.0, width - 1) - 1);
}

/// Reduces `x` over `dims` with `opcode` (initial value its identity).
std::string emitReduce(ComputationExporter &ce, const std::string &x,
                       RankedTensorType resultType, StringRef opcode,
                       ArrayRef<int64_t> dims) {
  Type element = resultType.getElementType();
  std::string init = ce.emitScalar(identity(opcode, element), element);
  std::string reducer = ce.getModule().getReducer(opcode, element);
  return ce.emit("reduce", resultType, "reduce", {x, init},
                 "dimensions=" + hloIntList(dims) + ", to_apply=%" + reducer);
}

/// `x` (reduced over `dim`) broadcast back to `type`.
std::string emitBroadcastBack(ComputationExporter &ce, const std::string &x,
                              RankedTensorType type, int64_t dim) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != dim)
      dims.push_back(d);
  return ce.emit("broadcast", type, "broadcast", {x},
                 "dimensions=" + hloIntList(dims));
}

std::string dotAttrs(ArrayRef<int64_t> lb, ArrayRef<int64_t> rb,
                     ArrayRef<int64_t> lc, ArrayRef<int64_t> rc) {
  std::string s;
  auto add = [&](StringRef name, ArrayRef<int64_t> v) {
    if (v.empty())
      return;
    s += (s.empty() ? "" : ", ") + name.str() + "=" + hloIntList(v);
  };
  add("lhs_batch_dims", lb);
  add("lhs_contracting_dims", lc);
  add("rhs_batch_dims", rb);
  add("rhs_contracting_dims", rc);
  return s;
}

LogicalResult exportEinsum(ComputationExporter &ce, xla::EinsumOp op,
                           ArrayRef<std::string> operands) {
  auto [inputs, out] = op.getEquation().split("->");
  auto [lhs, rhs] = inputs.split(',');
  for (char c : lhs)
    if (!rhs.contains(c) && !out.contains(c))
      return op.emitError() << "einsum '" << op.getEquation()
                            << "' sums over a letter of one operand only; "
                               "no HLO export";
  for (char c : rhs)
    if (!lhs.contains(c) && !out.contains(c))
      return op.emitError() << "einsum '" << op.getEquation()
                            << "' sums over a letter of one operand only; "
                               "no HLO export";
  SmallVector<int64_t> lb, rb, lc, rc;
  std::string labels;
  for (auto [i, c] : llvm::enumerate(lhs))
    if (rhs.contains(c)) {
      if (out.contains(c)) {
        lb.push_back(i);
        rb.push_back(rhs.find(c));
        labels.push_back(c);
      } else {
        lc.push_back(i);
        rc.push_back(rhs.find(c));
      }
    }
  for (char c : lhs)
    if (!rhs.contains(c))
      labels.push_back(c);
  for (char c : rhs)
    if (!lhs.contains(c))
      labels.push_back(c);
  auto resultType = cast<RankedTensorType>(op.getType());
  SmallVector<int64_t> dotShape;
  for (char c : labels)
    dotShape.push_back(resultType.getDimSize(out.find(c)));
  auto dotType = resultType.clone(dotShape);
  std::string dot =
      ce.emit("dot", dotType, "dot", operands, dotAttrs(lb, rb, lc, rc));
  SmallVector<int64_t> perm;
  for (char c : out)
    perm.push_back(labels.find(c));
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    dot = ce.emit("transpose", resultType, "transpose", {dot},
                  "dimensions=" + hloIntList(perm));
  ce.bind(op.getResult(), dot);
  return success();
}

/// `size=2x2 stride=2x2 pad=0_0x0_0 ...` (the fields HLO prints).
std::string windowText(ArrayRef<int64_t> size, ArrayRef<int64_t> stride,
                       ArrayRef<int64_t> padding, ArrayRef<int64_t> lhsDilate,
                       ArrayRef<int64_t> rhsDilate) {
  auto xs = [](ArrayRef<int64_t> values) {
    std::string s;
    for (auto [i, v] : llvm::enumerate(values))
      s += (i ? "x" : "") + std::to_string(v);
    return s;
  };
  std::string pad;
  for (size_t i = 0; i < size.size(); ++i)
    pad += (i ? "x" : "") + std::to_string(padding[2 * i]) + "_" +
           std::to_string(padding[2 * i + 1]);
  std::string s =
      "window={size=" + xs(size) + " stride=" + xs(stride) + " pad=" + pad;
  if (!lhsDilate.empty())
    s += " lhs_dilate=" + xs(lhsDilate);
  if (!rhsDilate.empty())
    s += " rhs_dilate=" + xs(rhsDilate);
  return s + "}";
}

/// Binds the results of an op printed as one instruction `n` (a tuple when
/// it has several).
void bindResults(ComputationExporter &ce, Operation *op, const std::string &n) {
  if (op->getNumResults() == 1) {
    ce.bind(op->getResult(0), n);
    return;
  }
  for (auto [r, e] :
       llvm::zip(op->getResults(), ce.emitUntuple(n, op->getResultTypes())))
    ce.bind(r, e);
}

std::string resultShape(Operation *op) {
  return op->getNumResults() == 1 ? hloShape(op->getResult(0).getType())
                                  : hloTupleShape(op->getResultTypes());
}

} // namespace

LogicalResult xspmd::hlo::exportOperation(ComputationExporter &ce,
                                          Operation *op) {
  ModuleExporter &m = ce.getModule();
  SmallVector<std::string> operands;
  if (failed(ce.lookupAll(op->getOperands(), op, operands)))
    return failure();
  if (std::optional<LogicalResult> done = exportDeviceLevelOp(ce, op, operands))
    return *done;
  StringRef opcode = simpleOpcode(op);
  if (!opcode.empty()) {
    ce.bind(op->getResult(0),
            ce.emit(opcode, op->getResult(0).getType(), opcode, operands));
    return success();
  }
  auto bindOne = [&](const std::string &n) {
    ce.bind(op->getResult(0), n);
    return success();
  };
  auto unsupported = [&](StringRef why) {
    return op->emitError() << "'" << op->getName()
                           << "' has no HLO export: " << why;
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](xla::ConstantOp c) -> LogicalResult {
        FailureOr<std::string> literal = literalText(op, c.getValue());
        if (failed(literal))
          return failure();
        return bindOne(ce.emitConstant(c.getType(), *literal));
      })
      .Case([&](xla::IotaOp o) {
        return bindOne(ce.emit("iota", o.getType(), "iota", {},
                               "iota_dimension=" + std::to_string(o.getDim())));
      })
      .Case([&](xla::CompareOp o) {
        return bindOne(ce.emit(
            "compare", o.getType(), "compare", operands,
            "direction=" +
                upper(xla::stringifyCompareDirection(o.getDirection()))));
      })
      .Case([&](xla::BroadcastInDimOp o) {
        return bindOne(ce.emit("broadcast", o.getType(), "broadcast", operands,
                               "dimensions=" + hloIntList(o.getDims())));
      })
      .Case([&](xla::TransposeOp o) {
        return bindOne(ce.emit("transpose", o.getType(), "transpose", operands,
                               "dimensions=" + hloIntList(o.getPermutation())));
      })
      .Case([&](xla::ReverseOp o) {
        return bindOne(ce.emit("reverse", o.getType(), "reverse", operands,
                               "dimensions=" + hloIntList(o.getDims())));
      })
      .Case([&](xla::SliceOp o) {
        return bindOne(
            ce.emit("slice", o.getType(), "slice", operands,
                    sliceText(o.getStart(), o.getLimit(), o.getStrides())));
      })
      .Case([&](xla::DynamicSliceOp o) {
        return bindOne(
            ce.emit("dynamic-slice", o.getType(), "dynamic-slice", operands,
                    "dynamic_slice_sizes=" + hloIntList(o.getSizes())));
      })
      .Case([&](xla::ConcatenateOp o) {
        return bindOne(
            ce.emit("concatenate", o.getType(), "concatenate", operands,
                    "dimensions={" + std::to_string(o.getDim()) + "}"));
      })
      .Case([&](xla::PadOp o) {
        auto type = tensorOf(o.getInput());
        std::string value = ce.emitScalar(o.getValue().convertToDouble(),
                                          type.getElementType());
        std::string padding;
        for (int64_t i = 0; i < type.getRank(); ++i) {
          padding += (i ? "x" : "") + std::to_string(o.getLow()[i]) + "_" +
                     std::to_string(o.getHigh()[i]);
          if (o.getInterior()[i])
            padding += "_" + std::to_string(o.getInterior()[i]);
        }
        return bindOne(ce.emit(
            "pad", o.getType(), "pad", {operands[0], value},
            "padding=" + (padding.empty() ? std::string("0_0") : padding)));
      })
      .Case([&](xla::GatherOp o) {
        // Rows of a table: HLO's gather with one collapsed dimension.
        int64_t indexRank = tensorOf(o.getIndices()).getRank();
        auto table = tensorOf(o.getTable());
        SmallVector<int64_t> offsetDims, sizes{1};
        for (int64_t d = 1; d < table.getRank(); ++d) {
          offsetDims.push_back(indexRank + d - 1);
          sizes.push_back(table.getDimSize(d));
        }
        return bindOne(
            ce.emit("gather", o.getType(), "gather", operands,
                    "offset_dims=" + hloIntList(offsetDims) +
                        ", collapsed_slice_dims={0}, start_index_map={0}, "
                        "index_vector_dim=" +
                        std::to_string(indexRank) +
                        ", slice_sizes=" + hloIntList(sizes)));
      })
      .Case([&](xla::HloGatherOp o) {
        std::string attrs =
            "offset_dims=" + hloIntList(o.getOffsetDims()) +
            ", collapsed_slice_dims=" + hloIntList(o.getCollapsedSliceDims());
        if (!o.getOperandBatchingDims().empty())
          attrs += ", operand_batching_dims=" +
                   hloIntList(o.getOperandBatchingDims()) +
                   ", start_indices_batching_dims=" +
                   hloIntList(o.getStartIndicesBatchingDims());
        attrs += ", start_index_map=" + hloIntList(o.getStartIndexMap()) +
                 ", index_vector_dim=" + std::to_string(o.getIndexVectorDim()) +
                 ", slice_sizes=" + hloIntList(o.getSliceSizes());
        if (o.getIndicesAreSorted())
          attrs += ", indices_are_sorted=true";
        return bindOne(
            ce.emit("gather", o.getType(), "gather", operands, attrs));
      })
      .Case([&](xla::ScatterOp o) -> LogicalResult {
        FailureOr<std::string> body = ComputationExporter::exportScalarRegion(
            m, o.getUpdateComputation(), "scatter_update");
        if (failed(body))
          return failure();
        std::string attrs =
            "update_window_dims=" + hloIntList(o.getUpdateWindowDims()) +
            ", inserted_window_dims=" + hloIntList(o.getInsertedWindowDims());
        if (!o.getInputBatchingDims().empty())
          attrs +=
              ", input_batching_dims=" + hloIntList(o.getInputBatchingDims()) +
              ", scatter_indices_batching_dims=" +
              hloIntList(o.getScatterIndicesBatchingDims());
        attrs += ", scatter_dims_to_operand_dims=" +
                 hloIntList(o.getScatterDimsToOperandDims()) +
                 ", index_vector_dim=" + std::to_string(o.getIndexVectorDim());
        if (o.getIndicesAreSorted())
          attrs += ", indices_are_sorted=true";
        if (o.getUniqueIndices())
          attrs += ", unique_indices=true";
        attrs += ", to_apply=%" + *body;
        bindResults(
            ce, op,
            ce.emit("scatter", resultShape(op), "scatter", operands, attrs));
        return success();
      })
      .Case([&](xla::SortOp o) -> LogicalResult {
        FailureOr<std::string> cmp = ComputationExporter::exportScalarRegion(
            m, o.getComparator(), "compare");
        if (failed(cmp))
          return failure();
        std::string attrs =
            "dimensions={" + std::to_string(o.getDimension()) + "}";
        if (o.getIsStable())
          attrs += ", is_stable=true";
        attrs += ", to_apply=%" + *cmp;
        bindResults(ce, op,
                    ce.emit("sort", resultShape(op), "sort", operands, attrs));
        return success();
      })
      .Case([&](xla::DotGeneralOp o) {
        return bindOne(
            ce.emit("dot", o.getType(), "dot", operands,
                    dotAttrs(o.getLhsBatch(), o.getRhsBatch(),
                             o.getLhsContract(), o.getRhsContract())));
      })
      .Case([&](xla::MatmulOp o) {
        auto lhs = tensorOf(o.getLhs()), rhs = tensorOf(o.getRhs());
        SmallVector<int64_t> lb, rb;
        if (rhs.getRank() > 2)
          for (int64_t d = 0; d < rhs.getRank() - 2; ++d) {
            lb.push_back(d);
            rb.push_back(d);
          }
        return bindOne(ce.emit(
            "dot", o.getType(), "dot", operands,
            dotAttrs(lb, rb, {lhs.getRank() - 1}, {rhs.getRank() - 2})));
      })
      .Case([&](xla::EinsumOp o) { return exportEinsum(ce, o, operands); })
      .Case([&](xla::ReduceOp o) {
        auto type = cast<RankedTensorType>(o.getType());
        StringRef reducer;
        switch (o.getKind()) {
        case xla::ReduceKind::sum:
        case xla::ReduceKind::mean:
          reducer = "add";
          break;
        case xla::ReduceKind::prod:
          reducer = "multiply";
          break;
        case xla::ReduceKind::max:
          reducer = "maximum";
          break;
        case xla::ReduceKind::min:
          reducer = "minimum";
          break;
        case xla::ReduceKind::and_:
          reducer = "and";
          break;
        case xla::ReduceKind::or_:
          reducer = "or";
          break;
        }
        std::string r = emitReduce(ce, operands[0], type, reducer, o.getDims());
        if (o.getKind() == xla::ReduceKind::mean) {
          int64_t count = 1;
          for (int64_t d : o.getDims())
            count *= tensorOf(o.getInput()).getDimSize(d);
          std::string n = ce.emitSplat(count, type);
          r = ce.emit("divide", type, "divide", {r, n});
        }
        return bindOne(r);
      })
      .Case([&](xla::SoftmaxOp o) {
        auto type = cast<RankedTensorType>(o.getType());
        int64_t dim = o.getDim();
        SmallVector<int64_t> reducedShape;
        for (int64_t d = 0; d < type.getRank(); ++d)
          if (d != dim)
            reducedShape.push_back(type.getDimSize(d));
        auto reduced = type.clone(reducedShape);
        std::string mx = emitReduce(ce, operands[0], reduced, "maximum", {dim});
        std::string shifted =
            ce.emit("subtract", type, "subtract",
                    {operands[0], emitBroadcastBack(ce, mx, type, dim)});
        std::string e = ce.emit("exponential", type, "exponential", {shifted});
        std::string sum = emitReduce(ce, e, reduced, "add", {dim});
        return bindOne(ce.emit("divide", type, "divide",
                               {e, emitBroadcastBack(ce, sum, type, dim)}));
      })
      .Case([&](xla::ReluOp o) {
        auto type = cast<RankedTensorType>(o.getType());
        return bindOne(ce.emit("maximum", type, "maximum",
                               {operands[0], ce.emitSplat(0, type)}));
      })
      .Case([&](xla::GeluOp o) {
        // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
        auto type = cast<RankedTensorType>(o.getType());
        std::string x = operands[0];
        std::string x3 =
            ce.emit("multiply", type, "multiply",
                    {x, ce.emit("multiply", type, "multiply", {x, x})});
        std::string inner =
            ce.emit("add", type, "add",
                    {x, ce.emit("multiply", type, "multiply",
                                {ce.emitSplat(0.044715, type), x3})});
        std::string t = ce.emit(
            "tanh", type, "tanh",
            {ce.emit("multiply", type, "multiply",
                     {ce.emitSplat(std::sqrt(2.0 / M_PI), type), inner})});
        std::string onePlus =
            ce.emit("add", type, "add", {ce.emitSplat(1.0, type), t});
        std::string half =
            ce.emit("multiply", type, "multiply", {ce.emitSplat(0.5, type), x});
        return bindOne(ce.emit("multiply", type, "multiply", {half, onePlus}));
      })
      .Case([&](xla::ConvolutionOp o) {
        auto kernel = tensorOf(o.getKernel());
        int64_t spatial = kernel.getRank() - 2;
        std::string window;
        if (spatial > 0) {
          auto xs = [&](auto values) {
            std::string s;
            for (auto [i, v] : llvm::enumerate(values))
              s += (i ? "x" : "") + std::to_string(v);
            return s;
          };
          std::string pad;
          ArrayRef<int64_t> p = o.getPadding();
          for (int64_t i = 0; i < spatial; ++i)
            pad += (i ? "x" : "") + std::to_string(p[2 * i]) + "_" +
                   std::to_string(p[2 * i + 1]);
          window = "window={size=" + xs(kernel.getShape().take_front(spatial)) +
                   " stride=" + xs(o.getStrides()) + " pad=" + pad +
                   " lhs_dilate=" + xs(o.getLhsDilation()) +
                   " rhs_dilate=" + xs(o.getRhsDilation()) + "}, ";
        }
        std::string digits;
        for (int64_t i = 0; i < spatial; ++i)
          digits += std::to_string(i);
        std::string attrs = window + "dim_labels=b" + digits + "f_" + digits +
                            "io->b" + digits + "f";
        if (o.getFeatureGroups() != 1)
          attrs +=
              ", feature_group_count=" + std::to_string(o.getFeatureGroups());
        return bindOne(ce.emit("convolution", o.getType(), "convolution",
                               operands, attrs));
      })
      .Case([&](xla::ReduceRegionOp o) -> LogicalResult {
        FailureOr<std::string> body =
            ComputationExporter::exportScalarRegion(m, o.getBody(), "reducer");
        if (failed(body))
          return failure();
        bindResults(ce, op,
                    ce.emit("reduce", resultShape(op), "reduce", operands,
                            "dimensions=" + hloIntList(o.getDims()) +
                                ", to_apply=%" + *body));
        return success();
      })
      .Case([&](xla::ReduceWindowOp o) -> LogicalResult {
        FailureOr<std::string> body =
            ComputationExporter::exportScalarRegion(m, o.getBody(), "reducer");
        if (failed(body))
          return failure();
        bindResults(
            ce, op,
            ce.emit("reduce-window", resultShape(op), "reduce-window", operands,
                    windowText(o.getWindowDimensions(), o.getWindowStrides(),
                               o.getPadding(), o.getBaseDilations(),
                               o.getWindowDilations()) +
                        ", to_apply=%" + *body));
        return success();
      })
      .Case([&](xla::SelectAndScatterOp o) -> LogicalResult {
        FailureOr<std::string> select =
            ComputationExporter::exportScalarRegion(m, o.getSelect(), "select");
        if (failed(select))
          return failure();
        FailureOr<std::string> scatter =
            ComputationExporter::exportScalarRegion(m, o.getScatter(),
                                                    "scatter");
        if (failed(scatter))
          return failure();
        return bindOne(ce.emit(
            "select-and-scatter", o.getType(), "select-and-scatter", operands,
            windowText(o.getWindowDimensions(), o.getWindowStrides(),
                       o.getPadding(), {}, {}) +
                ", select=%" + *select + ", scatter=%" + *scatter));
      })
      .Case([&](xla::WhileOp o) { return exportWhile(ce, o); })
      .Case([&](xla::CaseOp o) { return exportCase(ce, o); })
      .Case([&](xla::TraceOp o) -> LogicalResult {
        // The body runs in place.
        Block &body = o.getBody().front();
        if (failed(ce.exportOps(body)))
          return failure();
        Operation *yield = body.getTerminator();
        for (auto [r, v] : llvm::zip(o.getResults(), yield->getOperands())) {
          FailureOr<std::string> n = ce.lookup(v, yield);
          if (failed(n))
            return failure();
          ce.bind(r, *n);
        }
        return success();
      })
      .Case([&](func::CallOp call) -> LogicalResult {
        auto callee =
            m.getModule().lookupSymbol<func::FuncOp>(call.getCalleeAttr());
        if (!callee)
          return call.emitError() << "unknown callee " << call.getCalleeAttr();
        FailureOr<std::string> comp = m.getFunction(callee);
        if (failed(comp))
          return failure();
        std::string shape = hloTupleShape(call.getResultTypes());
        if (call.getNumResults() == 1)
          shape = hloTupleShape(call.getResultTypes());
        std::string n =
            ce.emit("call", shape, "call", operands, "to_apply=%" + *comp);
        for (auto [r, e] : llvm::zip(call.getResults(),
                                     ce.emitUntuple(n, call.getResultTypes())))
          ce.bind(r, e);
        return success();
      })
      .Case([&](xla::RngOp) {
        return unsupported("xla.rng's counter-based numbers have no HLO "
                           "opcode (rng and rng-bit-generator draw others)");
      })
      .Case([&](xla::DispatchOp) {
        return unsupported("export the module before --xla-lower-to-device");
      })
      .Case([&](xla::ManualComputationOp) {
        return unsupported("export the module before "
                           "--xla-outline-manual-computations");
      })
      .Default([&](Operation *) { return unsupported("unknown op"); });
}
