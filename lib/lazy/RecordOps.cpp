//===- RecordOps.cpp - the ops a lazy Tensor records ----------------------===//
//
// Each Runtime op turns its operands into values of the pending graph,
// builds the `xla` op at the graph's end and verifies it: a shape that does
// not fit comes back as an error with the verifier's message, and the graph
// is left as it was.
//
//===----------------------------------------------------------------------===//

#include "lib/lazy/RuntimeImpl.h"

#include "dialects/xla/XlaOps.h"
#include "runtime/exec/TypeMapping.h"

#include <fmt/format.h>

using namespace mlir;

namespace xspmd::lazy {
namespace {

/// Builds `OpTy` with `properties` after inferring its result type through
/// the op's own inference (whose failure is an error here, not the fatal
/// error of the inferring builder).
template <typename OpTy>
llvm::Expected<Tensor> buildInferred(Runtime::Impl &impl, ValueRange operands,
                                     typename OpTy::Properties properties) {
  SmallVector<Type> types;
  if (llvm::Error err = impl.captureDiagnostics(
          [&] {
            return OpTy::inferReturnTypes(impl.context, impl.loc(), operands,
                                          DictionaryAttr::get(impl.context),
                                          OpaqueProperties(&properties),
                                          RegionRange(), types);
          },
          fmt::format("cannot record {}", OpTy::getOperationName().str())))
    return std::move(err);
  OperationState state(impl.loc(), OpTy::getOperationName());
  state.addOperands(operands);
  state.addTypes(types);
  state.getOrAddProperties<typename OpTy::Properties>() = properties;
  return impl.finish(impl.builder.create(state));
}

/// Values of all `tensors` in the pending graph.
llvm::Expected<SmallVector<Value>> valuesOf(Runtime::Impl &impl,
                                            llvm::ArrayRef<Tensor> tensors) {
  SmallVector<Value> values;
  for (const Tensor &t : tensors) {
    llvm::Expected<Value> v = impl.valueOf(t);
    if (!v)
      return v.takeError();
    values.push_back(*v);
  }
  return values;
}

int64_t normalizeDim(int64_t dim, int64_t rank) {
  return dim < 0 ? dim + rank : dim;
}

static_assert(static_cast<int>(CompareOp::ge) ==
                      static_cast<int>(xla::CompareDirection::ge) &&
                  static_cast<int>(CompareOp::eq) ==
                      static_cast<int>(xla::CompareDirection::eq),
              "CompareOp follows xla::CompareDirection");

} // namespace

/// numpy's broadcast shape of two shapes, or an error naming both.
llvm::Expected<SmallVector<int64_t>> broadcastShape(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      return recordError(
          fmt::format("shapes ({}) and ({}) do not broadcast together",
                      fmt::join(a, ", "), fmt::join(b, ", ")));
    shape[i] = x == 1 ? y : x;
  }
  return shape;
}

llvm::Expected<Tensor> Runtime::full(llvm::ArrayRef<int64_t> shape,
                                     double value, runtime::ElementType type) {
  Type elem = toMlirType(impl->context, type);
  auto tensorType = RankedTensorType::get(shape, elem);
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return recordError(
        fmt::format("full: negative size in ({})", fmt::join(shape, ", ")));
  Attribute scalar;
  if (auto f = dyn_cast<FloatType>(elem))
    scalar = FloatAttr::get(f, value);
  else if (elem.isInteger(1))
    scalar = IntegerAttr::get(elem, value != 0);
  else
    scalar = IntegerAttr::get(elem, static_cast<int64_t>(value));
  auto attr = DenseElementsAttr::get(tensorType, scalar);
  return impl->finish(
      xla::ConstantOp::create(impl->builder, impl->loc(), attr));
}

static llvm::Expected<Tensor> recordRng(Runtime::Impl &impl,
                                        xla::RngDistribution dist,
                                        ArrayRef<int64_t> shape, uint64_t seed,
                                        double a, double b,
                                        runtime::ElementType type) {
  auto tensorType =
      RankedTensorType::get(shape, toMlirType(impl.context, type));
  OpBuilder &builder = impl.builder;
  auto op = xla::RngOp::create(builder, impl.loc(), tensorType, dist, seed,
                               llvm::APFloat(a), llvm::APFloat(b),
                               /*global_shape=*/nullptr, /*offsets=*/Value());
  return impl.finish(op);
}

llvm::Expected<Tensor> Runtime::randUniform(llvm::ArrayRef<int64_t> shape,
                                            uint64_t seed, double low,
                                            double high,
                                            runtime::ElementType type) {
  return recordRng(*impl, xla::RngDistribution::uniform, shape, seed, low, high,
                   type);
}

llvm::Expected<Tensor> Runtime::randNormal(llvm::ArrayRef<int64_t> shape,
                                           uint64_t seed, double mean,
                                           double stddev,
                                           runtime::ElementType type) {
  return recordRng(*impl, xla::RngDistribution::normal, shape, seed, mean,
                   stddev, type);
}

llvm::Expected<Tensor> Runtime::iota(llvm::ArrayRef<int64_t> shape, int64_t dim,
                                     runtime::ElementType type) {
  auto tensorType =
      RankedTensorType::get(shape, toMlirType(impl->context, type));
  return impl->finish(
      xla::IotaOp::create(impl->builder, impl->loc(), tensorType, dim));
}

llvm::Expected<Tensor> Runtime::broadcastTo(const Tensor &x,
                                            llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<Value> input = impl->valueOf(x);
  if (!input)
    return input.takeError();
  ArrayRef<int64_t> from = x.getShape();
  if (from == shape)
    return x;
  if (from.size() > shape.size())
    return recordError(fmt::format("cannot broadcast ({}) to the smaller rank "
                                   "of ({})",
                                   fmt::join(from, ", "),
                                   fmt::join(shape, ", ")));
  SmallVector<int64_t> dims;
  for (size_t i = 0; i < from.size(); ++i)
    dims.push_back(shape.size() - from.size() + i);
  auto type = RankedTensorType::get(shape, x.data->type.getElementType());
  return impl->finish(
      xla::BroadcastInDimOp::create(impl->builder, impl->loc(), type, *input,
                                    impl->builder.getDenseI64ArrayAttr(dims)));
}

llvm::Expected<SmallVector<Value>>
Runtime::broadcastOperands(const Tensor &lhs, const Tensor &rhs) {
  if (!lhs.isValid() || !rhs.isValid())
    return recordError("an operand is an empty tensor handle");
  llvm::Expected<SmallVector<int64_t>> shape =
      broadcastShape(lhs.getShape(), rhs.getShape());
  if (!shape)
    return shape.takeError();
  llvm::Expected<Tensor> a = broadcastTo(lhs, *shape);
  if (!a)
    return a.takeError();
  llvm::Expected<Tensor> b = broadcastTo(rhs, *shape);
  if (!b)
    return b.takeError();
  return valuesOf(*impl, {*a, *b});
}

llvm::Expected<Tensor> Runtime::binary(BinaryOp op, const Tensor &lhs,
                                       const Tensor &rhs) {
  llvm::Expected<SmallVector<Value>> v = broadcastOperands(lhs, rhs);
  if (!v)
    return v.takeError();
  OpBuilder &builder = impl->builder;
  Location loc = impl->loc();
  Value x = (*v)[0], y = (*v)[1];
  if (x.getType() != y.getType())
    return recordError(fmt::format("element types differ: {} and {}",
                                   lhs.getTypeString(), rhs.getTypeString()));
  Operation *result = nullptr;
  switch (op) {
  case BinaryOp::add:
    result = xla::AddOp::create(builder, loc, x, y);
    break;
  case BinaryOp::sub:
    result = xla::SubOp::create(builder, loc, x, y);
    break;
  case BinaryOp::mul:
    result = xla::MulOp::create(builder, loc, x, y);
    break;
  case BinaryOp::div:
    result = xla::DivOp::create(builder, loc, x, y);
    break;
  case BinaryOp::max:
    result = xla::MaxOp::create(builder, loc, x, y);
    break;
  case BinaryOp::min:
    result = xla::MinOp::create(builder, loc, x, y);
    break;
  case BinaryOp::pow:
    result = xla::PowOp::create(builder, loc, x, y);
    break;
  case BinaryOp::fmod:
    result = xla::RemOp::create(builder, loc, x, y);
    break;
  case BinaryOp::atan2:
    result = xla::Atan2Op::create(builder, loc, x, y);
    break;
  }
  return impl->finish(result);
}

llvm::Expected<Tensor> Runtime::binary(BinaryOp op, const Tensor &lhs,
                                       double rhs) {
  if (!lhs.isValid())
    return recordError("an operand is an empty tensor handle");
  llvm::Expected<Tensor> scalar = full({}, rhs, lhs.getElementType());
  if (!scalar)
    return scalar.takeError();
  return binary(op, lhs, *scalar);
}

llvm::Expected<Tensor> Runtime::unary(UnaryOp op, const Tensor &x) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  OpBuilder &b = impl->builder;
  Location loc = impl->loc();
  Operation *result = nullptr;
  switch (op) {
  case UnaryOp::neg:
    result = xla::NegOp::create(b, loc, *v);
    break;
  case UnaryOp::abs:
    result = xla::AbsOp::create(b, loc, *v);
    break;
  case UnaryOp::exp:
    result = xla::ExpOp::create(b, loc, *v);
    break;
  case UnaryOp::log:
    result = xla::LogOp::create(b, loc, *v);
    break;
  case UnaryOp::tanh:
    result = xla::TanhOp::create(b, loc, *v);
    break;
  case UnaryOp::sqrt:
    result = xla::SqrtOp::create(b, loc, *v);
    break;
  case UnaryOp::rsqrt:
    result = xla::RsqrtOp::create(b, loc, *v);
    break;
  case UnaryOp::sigmoid:
    result = xla::SigmoidOp::create(b, loc, *v);
    break;
  case UnaryOp::relu:
    result = xla::ReluOp::create(b, loc, *v);
    break;
  case UnaryOp::gelu:
    result = xla::GeluOp::create(b, loc, *v);
    break;
  case UnaryOp::floor:
    result = xla::FloorOp::create(b, loc, *v);
    break;
  case UnaryOp::ceil:
    result = xla::CeilOp::create(b, loc, *v);
    break;
  case UnaryOp::round:
    result = xla::RoundNearestEvenOp::create(b, loc, *v);
    break;
  case UnaryOp::sign:
    result = xla::SignOp::create(b, loc, *v);
    break;
  case UnaryOp::erf:
    result = xla::ErfOp::create(b, loc, *v);
    break;
  case UnaryOp::cos:
    result = xla::CosOp::create(b, loc, *v);
    break;
  case UnaryOp::sin:
    result = xla::SinOp::create(b, loc, *v);
    break;
  case UnaryOp::tan:
    result = xla::TanOp::create(b, loc, *v);
    break;
  case UnaryOp::log1p:
    result = xla::Log1pOp::create(b, loc, *v);
    break;
  case UnaryOp::expm1:
    result = xla::Expm1Op::create(b, loc, *v);
    break;
  }
  return impl->finish(result);
}

llvm::Expected<Tensor> Runtime::compare(CompareOp op, const Tensor &lhs,
                                        const Tensor &rhs) {
  llvm::Expected<SmallVector<Value>> v = broadcastOperands(lhs, rhs);
  if (!v)
    return v.takeError();
  // CompareOp lists the directions in the dialect's order.
  auto direction = static_cast<xla::CompareDirection>(op);
  xla::CompareOp::Properties props;
  props.direction = xla::CompareDirectionAttr::get(impl->context, direction);
  return buildInferred<xla::CompareOp>(*impl, *v, props);
}

llvm::Expected<Tensor> Runtime::select(const Tensor &pred, const Tensor &onTrue,
                                       const Tensor &onFalse) {
  llvm::Expected<SmallVector<Value>> v =
      valuesOf(*impl, {pred, onTrue, onFalse});
  if (!v)
    return v.takeError();
  return impl->finish(xla::SelectOp::create(impl->builder, impl->loc(),
                                            onTrue.data->type, (*v)[0], (*v)[1],
                                            (*v)[2]));
}

llvm::Expected<Tensor> Runtime::matmul(const Tensor &lhs, const Tensor &rhs) {
  llvm::Expected<SmallVector<Value>> v = valuesOf(*impl, {lhs, rhs});
  if (!v)
    return v.takeError();
  return buildInferred<xla::MatmulOp>(*impl, *v, {});
}

llvm::Expected<Tensor> Runtime::einsum(llvm::StringRef equation,
                                       const Tensor &lhs, const Tensor &rhs) {
  llvm::Expected<SmallVector<Value>> v = valuesOf(*impl, {lhs, rhs});
  if (!v)
    return v.takeError();
  xla::EinsumOp::Properties props;
  props.equation = StringAttr::get(impl->context, equation);
  return buildInferred<xla::EinsumOp>(*impl, *v, props);
}

llvm::Expected<Tensor> Runtime::reduce(ReduceOp op, const Tensor &x,
                                       llvm::ArrayRef<int64_t> dims,
                                       bool keepDims) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  int64_t rank = x.getRank();
  SmallVector<int64_t> sorted;
  for (int64_t d : dims) {
    int64_t dim = normalizeDim(d, rank);
    if (dim < 0 || dim >= rank)
      return recordError(
          fmt::format("reduction dimension {} is out of range for {}", d,
                      x.getTypeString()));
    sorted.push_back(dim);
  }
  llvm::sort(sorted);
  xla::ReduceKind kind = xla::ReduceKind::sum;
  switch (op) {
  case ReduceOp::sum:
    kind = xla::ReduceKind::sum;
    break;
  case ReduceOp::mean:
    kind = xla::ReduceKind::mean;
    break;
  case ReduceOp::max:
    kind = xla::ReduceKind::max;
    break;
  case ReduceOp::min:
    kind = xla::ReduceKind::min;
    break;
  case ReduceOp::prod:
    kind = xla::ReduceKind::prod;
    break;
  }
  xla::ReduceOp::Properties props;
  props.kind = xla::ReduceKindAttr::get(impl->context, kind);
  props.dims = impl->builder.getDenseI64ArrayAttr(sorted);
  llvm::Expected<Tensor> reduced =
      buildInferred<xla::ReduceOp>(*impl, *v, props);
  if (!reduced || !keepDims)
    return reduced;
  SmallVector<int64_t> kept(x.getShape());
  for (int64_t d : sorted)
    kept[d] = 1;
  return reshape(*reduced, kept);
}

llvm::Expected<Tensor> Runtime::softmax(const Tensor &x, int64_t dim) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  return impl->finish(xla::SoftmaxOp::create(impl->builder, impl->loc(), *v,
                                             normalizeDim(dim, x.getRank())));
}

llvm::Expected<Tensor> Runtime::transpose(const Tensor &x,
                                          llvm::ArrayRef<int64_t> permutation) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  xla::TransposeOp::Properties props;
  props.permutation = impl->builder.getDenseI64ArrayAttr(permutation);
  return buildInferred<xla::TransposeOp>(*impl, *v, props);
}

llvm::Expected<Tensor> Runtime::reshape(const Tensor &x,
                                        llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  auto type = RankedTensorType::get(shape, x.data->type.getElementType());
  return impl->finish(
      xla::ReshapeOp::create(impl->builder, impl->loc(), type, *v));
}

llvm::Expected<Tensor> Runtime::convert(const Tensor &x,
                                        runtime::ElementType type) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  auto result =
      RankedTensorType::get(x.getShape(), toMlirType(impl->context, type));
  return impl->finish(
      xla::ConvertOp::create(impl->builder, impl->loc(), result, *v));
}

llvm::Expected<Tensor> Runtime::slice(const Tensor &x,
                                      llvm::ArrayRef<int64_t> start,
                                      llvm::ArrayRef<int64_t> limit,
                                      llvm::ArrayRef<int64_t> strides) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  xla::SliceOp::Properties props;
  props.start = impl->builder.getDenseI64ArrayAttr(start);
  props.limit = impl->builder.getDenseI64ArrayAttr(limit);
  props.strides = impl->builder.getDenseI64ArrayAttr(strides);
  return buildInferred<xla::SliceOp>(*impl, *v, props);
}

llvm::Expected<Tensor> Runtime::concatenate(llvm::ArrayRef<Tensor> inputs,
                                            int64_t dim) {
  llvm::Expected<SmallVector<Value>> v = valuesOf(*impl, inputs);
  if (!v)
    return v.takeError();
  if (v->empty())
    return recordError("concatenate needs at least one tensor");
  xla::ConcatenateOp::Properties props;
  props.dim = impl->builder.getI64IntegerAttr(
      normalizeDim(dim, inputs.front().getRank()));
  return buildInferred<xla::ConcatenateOp>(*impl, *v, props);
}

static DenseIntElementsAttr groupsAttr(Runtime::Impl &impl,
                                       ArrayRef<SmallVector<int64_t>> groups) {
  if (groups.empty())
    return nullptr;
  SmallVector<int64_t> flat;
  for (const auto &g : groups)
    llvm::append_range(flat, g);
  auto type =
      RankedTensorType::get({static_cast<int64_t>(groups.size()),
                             static_cast<int64_t>(groups.front().size())},
                            impl.builder.getI64Type());
  return DenseIntElementsAttr::get(type, flat);
}

/// The collective reduction of `op` (all_reduce and reduce_scatter).
static llvm::Expected<xla::ReductionKind> collectiveKind(ReduceOp op) {
  switch (op) {
  case ReduceOp::sum:
    return xla::ReductionKind::sum;
  case ReduceOp::prod:
    return xla::ReductionKind::mul;
  case ReduceOp::max:
    return xla::ReductionKind::max;
  case ReduceOp::min:
    return xla::ReductionKind::min;
  case ReduceOp::mean:
    break;
  }
  return recordError("collectives have no mean; use sum with scale = 1/group "
                     "size");
}

/// The group size of `groups` (all `numDevices` without groups), checking
/// that every group has it.
static llvm::Expected<int64_t>
groupSizeOf(ArrayRef<SmallVector<int64_t>> groups, int64_t numDevices) {
  if (groups.empty())
    return numDevices;
  for (const auto &g : groups)
    if (g.size() != groups[0].size())
      return recordError("all replica groups must have the same size");
  return static_cast<int64_t>(groups[0].size());
}

llvm::Expected<Tensor>
Runtime::allReduce(const Tensor &x, ReduceOp op, double scale,
                   llvm::ArrayRef<llvm::SmallVector<int64_t>> groups) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  llvm::Expected<int64_t> groupSize = groupSizeOf(groups, options.numDevices);
  if (!groupSize)
    return groupSize.takeError();
  llvm::Expected<xla::ReductionKind> kind = collectiveKind(op);
  if (!kind)
    return kind.takeError();
  OperationState state(impl->loc(), xla::AllReduceOp::getOperationName());
  state.addOperands(*v);
  state.addTypes(v->getType());
  auto &props = state.getOrAddProperties<xla::AllReduceOp::Properties>();
  props.kind = xla::ReductionKindAttr::get(impl->context, *kind);
  props.scale = impl->builder.getF64FloatAttr(scale);
  props.groups = groupsAttr(*impl, groups);
  return impl->finish(impl->builder.create(state));
}

llvm::Expected<Tensor>
Runtime::reduceScatter(const Tensor &x, ReduceOp op, int64_t dim, double scale,
                       llvm::ArrayRef<llvm::SmallVector<int64_t>> groups) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  llvm::Expected<int64_t> groupSize = groupSizeOf(groups, options.numDevices);
  if (!groupSize)
    return groupSize.takeError();
  llvm::Expected<xla::ReductionKind> kind = collectiveKind(op);
  if (!kind)
    return kind.takeError();
  dim = normalizeDim(dim, x.getRank());
  if (dim < 0 || dim >= x.getRank() || x.getShape()[dim] % *groupSize != 0)
    return recordError(fmt::format(
        "reduce_scatter dimension {} of {} does not split into {} blocks", dim,
        x.getTypeString(), *groupSize));
  SmallVector<int64_t> shape(x.getShape());
  shape[dim] /= *groupSize;
  OperationState state(impl->loc(), xla::ReduceScatterOp::getOperationName());
  state.addOperands(*v);
  state.addTypes(RankedTensorType::get(shape, x.data->type.getElementType()));
  auto &props = state.getOrAddProperties<xla::ReduceScatterOp::Properties>();
  props.kind = xla::ReductionKindAttr::get(impl->context, *kind);
  props.dim = impl->builder.getI64IntegerAttr(dim);
  props.scale = impl->builder.getF64FloatAttr(scale);
  props.groups = groupsAttr(*impl, groups);
  return impl->finish(impl->builder.create(state));
}

llvm::Expected<Tensor>
Runtime::allToAll(const Tensor &x, int64_t splitDim, int64_t concatDim,
                  int64_t splitCount,
                  llvm::ArrayRef<llvm::SmallVector<int64_t>> groups) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  llvm::Expected<int64_t> groupSize = groupSizeOf(groups, options.numDevices);
  if (!groupSize)
    return groupSize.takeError();
  int64_t rank = x.getRank();
  splitDim = normalizeDim(splitDim, rank);
  concatDim = normalizeDim(concatDim, rank);
  if (splitDim < 0 || splitDim >= rank || concatDim < 0 || concatDim >= rank ||
      splitCount <= 0 || x.getShape()[splitDim] % splitCount != 0)
    return recordError(fmt::format(
        "all_to_all cannot split dimension {} of {} into {} blocks and "
        "concatenate along {}",
        splitDim, x.getTypeString(), splitCount, concatDim));
  SmallVector<int64_t> shape(x.getShape());
  shape[splitDim] /= splitCount;
  shape[concatDim] *= splitCount;
  OperationState state(impl->loc(), xla::AllToAllOp::getOperationName());
  state.addOperands(*v);
  state.addTypes(RankedTensorType::get(shape, x.data->type.getElementType()));
  auto &props = state.getOrAddProperties<xla::AllToAllOp::Properties>();
  props.split_dim = impl->builder.getI64IntegerAttr(splitDim);
  props.concat_dim = impl->builder.getI64IntegerAttr(concatDim);
  props.split_count = impl->builder.getI64IntegerAttr(splitCount);
  props.groups = groupsAttr(*impl, groups);
  return impl->finish(impl->builder.create(state));
}

llvm::Expected<Tensor>
Runtime::allGather(const Tensor &x, int64_t dim,
                   llvm::ArrayRef<llvm::SmallVector<int64_t>> groups) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  int64_t rank = x.getRank();
  dim = normalizeDim(dim, rank);
  if (dim < 0 || dim >= rank)
    return recordError(fmt::format("all_gather dimension {} is out of range "
                                   "for {}",
                                   dim, x.getTypeString()));
  llvm::Expected<int64_t> groupSize = groupSizeOf(groups, options.numDevices);
  if (!groupSize)
    return groupSize.takeError();
  SmallVector<int64_t> shape(x.getShape());
  shape[dim] *= *groupSize;
  OperationState state(impl->loc(), xla::AllGatherOp::getOperationName());
  state.addOperands(*v);
  state.addTypes(RankedTensorType::get(shape, x.data->type.getElementType()));
  auto &props = state.getOrAddProperties<xla::AllGatherOp::Properties>();
  props.dim = impl->builder.getI64IntegerAttr(dim);
  props.groups = groupsAttr(*impl, groups);
  return impl->finish(impl->builder.create(state));
}

} // namespace xspmd::lazy
