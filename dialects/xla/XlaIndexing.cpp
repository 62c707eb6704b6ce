//===- XlaIndexing.cpp - xla.hlo_gather, xla.scatter, xla.sort ------------===//
//
// Verifiers and dimension helpers of the indexing ops (XlaIndexingOps.td).
// The rules are StableHLO's constraints for gather and scatter (with batching
// dimensions) and HLO's for sort; each failure names the attribute and the
// value at fault.
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace xspmd::xla {
namespace {

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// "[1, 2, 3]".
std::string listString(ArrayRef<int64_t> values) {
  std::string s = "[";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  os << "]";
  return s;
}

/// Checks that every entry of the dimension list `name` is in [0, rank) of
/// `what`, that no entry repeats and, when `sorted`, that they increase.
LogicalResult checkDimList(function_ref<InFlightDiagnostic()> emitError,
                           StringRef name, ArrayRef<int64_t> dims, int64_t rank,
                           StringRef what, bool sorted) {
  for (int64_t d : dims)
    if (d < 0 || d >= rank)
      return emitError() << name << " entry " << d << " is out of range for "
                         << what << " of rank " << rank;
  for (size_t i = 1; i < dims.size(); ++i) {
    if (sorted && dims[i] <= dims[i - 1])
      return emitError() << name << " must be increasing, got "
                         << listString(dims);
    if (llvm::is_contained(dims.take_front(i), dims[i]))
      return emitError() << name << " repeats dimension " << dims[i];
  }
  return success();
}

/// The number of components of the index vectors of `indices`.
int64_t indexVectorSize(RankedTensorType indices, int64_t indexVectorDim) {
  return indexVectorDim < indices.getRank() ? indices.getDimSize(indexVectorDim)
                                            : 1;
}

/// Checks what gather and scatter share: `index_vector_dim`, the map from
/// index components to operand dimensions, and the batching dimensions that
/// pair operand dimensions with dimensions of the indices. `excluded` are
/// operand dimensions the batching dimensions may not share (collapsed or
/// inserted window dimensions).
LogicalResult checkIndexing(
    function_ref<InFlightDiagnostic()> emitError, RankedTensorType operand,
    StringRef operandName, RankedTensorType indices, StringRef indicesName,
    int64_t indexVectorDim, StringRef mapName, ArrayRef<int64_t> indexMap,
    StringRef excludedName, ArrayRef<int64_t> excluded,
    StringRef operandBatchingName, ArrayRef<int64_t> operandBatching,
    StringRef indicesBatchingName, ArrayRef<int64_t> indicesBatching) {
  int64_t operandRank = operand.getRank(), indicesRank = indices.getRank();
  if (indexVectorDim > indicesRank)
    return emitError() << "index_vector_dim " << indexVectorDim
                       << " exceeds the rank " << indicesRank << " of "
                       << indicesName;
  int64_t components = indexVectorSize(indices, indexVectorDim);
  if (static_cast<int64_t>(indexMap.size()) != components)
    return emitError() << mapName << " has " << indexMap.size()
                       << " entries but the index vectors of " << indicesName
                       << " have " << components << " components";
  if (failed(checkDimList(emitError, mapName, indexMap, operandRank,
                          operandName, /*sorted=*/false)) ||
      failed(checkDimList(emitError, excludedName, excluded, operandRank,
                          operandName, /*sorted=*/true)) ||
      failed(checkDimList(emitError, operandBatchingName, operandBatching,
                          operandRank, operandName, /*sorted=*/true)) ||
      failed(checkDimList(emitError, indicesBatchingName, indicesBatching,
                          indicesRank, indicesName, /*sorted=*/false)))
    return failure();
  for (int64_t d : operandBatching) {
    if (llvm::is_contained(excluded, d))
      return emitError() << operandName << " dimension " << d << " is in both "
                         << excludedName << " and " << operandBatchingName;
    if (llvm::is_contained(indexMap, d))
      return emitError() << operandName << " dimension " << d << " is in both "
                         << mapName << " and " << operandBatchingName;
  }
  if (llvm::is_contained(indicesBatching, indexVectorDim))
    return emitError() << indicesBatchingName << " contains index_vector_dim "
                       << indexVectorDim;
  if (operandBatching.size() != indicesBatching.size())
    return emitError() << operandBatchingName << " has "
                       << operandBatching.size() << " entries but "
                       << indicesBatchingName << " has "
                       << indicesBatching.size();
  for (auto [o, i] : llvm::zip(operandBatching, indicesBatching))
    if (operand.getDimSize(o) != indices.getDimSize(i))
      return emitError() << "batching dimension " << o << " of " << operandName
                         << " has size " << operand.getDimSize(o)
                         << " but dimension " << i << " of " << indicesName
                         << " has size " << indices.getDimSize(i);
  return success();
}

/// The dimensions of a tensor of `rank` not in `excluded`, in order.
SmallVector<int64_t> dimsNotIn(int64_t rank, ArrayRef<int64_t> excluded) {
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(excluded, d))
      dims.push_back(d);
  return dims;
}

/// The dimension of the indices that position dimension `i` walks (the
/// position dimensions skip the index vector's).
int64_t indicesDimOfPosition(int64_t i, int64_t indexVectorDim) {
  return i < indexVectorDim ? i : i + 1;
}

/// Per operand dimension, the dimension of a result (gather) or of the
/// updates (scatter) along which its window lies: the listed window
/// dimensions in order, skipping `collapsed` and `batching` operand
/// dimensions (-1).
SmallVector<int64_t> windowDimsOf(int64_t operandRank,
                                  ArrayRef<int64_t> windowDims,
                                  ArrayRef<int64_t> collapsed,
                                  ArrayRef<int64_t> batching) {
  SmallVector<int64_t> result(operandRank, -1);
  size_t next = 0;
  for (int64_t d = 0; d < operandRank; ++d)
    if (!llvm::is_contained(collapsed, d) && !llvm::is_contained(batching, d) &&
        next < windowDims.size())
      result[d] = windowDims[next++];
  return result;
}

/// Checks that a scalar body takes `argTypes` (as rank-0 tensors) and yields
/// `resultTypes`; `what` names the region.
LogicalResult checkScalarSignature(Operation *op, Region &region,
                                   StringRef what, ArrayRef<Type> argTypes,
                                   ArrayRef<Type> resultTypes) {
  Block &block = region.front();
  auto scalars = [](ArrayRef<Type> elems) {
    SmallVector<Type> types;
    for (Type elem : elems)
      types.push_back(RankedTensorType::get({}, elem));
    return types;
  };
  SmallVector<Type> wantArgs = scalars(argTypes);
  if (TypeRange(block.getArgumentTypes()) != TypeRange(wantArgs))
    return op->emitOpError() << what << " must take (" << TypeRange(wantArgs)
                             << "), got (" << block.getArgumentTypes() << ")";
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << what << " must end in xla.yield";
  SmallVector<Type> wantResults = scalars(resultTypes);
  if (yield.getValues().getTypes() != TypeRange(wantResults)) {
    InFlightDiagnostic diag =
        op->emitOpError() << what << " must yield (" << TypeRange(wantResults)
                          << "), got (" << yield.getValues().getTypes() << ")";
    diag.attachNote(yield.getLoc()) << "yielded here";
    return diag;
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// xla.hlo_gather
//===----------------------------------------------------------------------===//

SmallVector<int64_t> HloGatherOp::getBatchDims() {
  return dimsNotIn(getType().getRank(), getOffsetDims());
}

int64_t HloGatherOp::getIndicesDimOfBatch(int64_t i) {
  return indicesDimOfPosition(i, getIndexVectorDim());
}

SmallVector<int64_t> HloGatherOp::getOffsetDimOfOperand() {
  return windowDimsOf(tensorOf(getOperand()).getRank(), getOffsetDims(),
                      getCollapsedSliceDims(), getOperandBatchingDims());
}

LogicalResult HloGatherOp::verify() {
  RankedTensorType operand = tensorOf(getOperand());
  RankedTensorType indices = tensorOf(getStartIndices());
  RankedTensorType result = getType();
  auto emitError = [&] { return emitOpError(); };
  if (result.getElementType() != operand.getElementType())
    return emitOpError() << "result element type " << result.getElementType()
                         << " differs from the operand's "
                         << operand.getElementType();
  int64_t ivd = getIndexVectorDim();
  if (failed(checkIndexing(
          emitError, operand, "operand", indices, "start_indices", ivd,
          "start_index_map", getStartIndexMap(), "collapsed_slice_dims",
          getCollapsedSliceDims(), "operand_batching_dims",
          getOperandBatchingDims(), "start_indices_batching_dims",
          getStartIndicesBatchingDims())))
    return failure();
  int64_t rank = operand.getRank();
  ArrayRef<int64_t> sizes = getSliceSizes();
  if (static_cast<int64_t>(sizes.size()) != rank)
    return emitOpError() << "slice_sizes has " << sizes.size()
                         << " entries for an operand of rank " << rank;
  for (auto [d, size] : llvm::enumerate(sizes))
    if (size < 0 || size > operand.getDimSize(d))
      return emitOpError() << "slice size " << size << " of dimension " << d
                           << " is outside [0, " << operand.getDimSize(d)
                           << "]";
  for (ArrayRef<int64_t> dims :
       {getCollapsedSliceDims(), getOperandBatchingDims()})
    for (int64_t d : dims)
      if (sizes[d] > 1)
        return emitOpError()
               << "dimension " << d << " is "
               << (llvm::is_contained(getCollapsedSliceDims(), d)
                       ? "collapsed"
                       : "a batching dimension")
               << " but its slice size is " << sizes[d] << "; it must be 1";
  int64_t numOffsets = getOffsetDims().size();
  if (numOffsets + static_cast<int64_t>(getCollapsedSliceDims().size() +
                                        getOperandBatchingDims().size()) !=
      rank)
    return emitOpError() << "offset_dims (" << numOffsets
                         << "), collapsed_slice_dims ("
                         << getCollapsedSliceDims().size()
                         << ") and operand_batching_dims ("
                         << getOperandBatchingDims().size()
                         << ") must together count the operand's rank " << rank;
  int64_t batchRank = indices.getRank() - (ivd < indices.getRank() ? 1 : 0);
  int64_t resultRank = batchRank + numOffsets;
  if (failed(checkDimList(emitError, "offset_dims", getOffsetDims(), resultRank,
                          "the result", /*sorted=*/true)))
    return failure();
  // Batch dimensions take the indices' sizes, offset dimensions the slice's.
  SmallVector<int64_t> expected(resultRank, 0);
  SmallVector<int64_t> batchSizes;
  for (int64_t d : dimsNotIn(indices.getRank(), {ivd}))
    batchSizes.push_back(indices.getDimSize(d));
  size_t nextBatch = 0;
  for (int64_t d = 0; d < resultRank; ++d)
    if (!llvm::is_contained(getOffsetDims(), d))
      expected[d] = batchSizes[nextBatch++];
  for (auto [d, resultDim] : llvm::enumerate(getOffsetDimOfOperand()))
    if (resultDim >= 0)
      expected[resultDim] = sizes[d];
  if (result.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError() << "result shape " << listString(result.getShape())
                         << " differs from the gathered shape "
                         << listString(expected);
  return success();
}

//===----------------------------------------------------------------------===//
// xla.scatter
//===----------------------------------------------------------------------===//

SmallVector<int64_t> ScatterOp::getUpdateScatterDims() {
  return dimsNotIn(tensorOf(getUpdates().front()).getRank(),
                   getUpdateWindowDims());
}

int64_t ScatterOp::getIndicesDimOfScatter(int64_t i) {
  return indicesDimOfPosition(i, getIndexVectorDim());
}

SmallVector<int64_t> ScatterOp::getWindowDimOfInput() {
  return windowDimsOf(tensorOf(getInputs().front()).getRank(),
                      getUpdateWindowDims(), getInsertedWindowDims(),
                      getInputBatchingDims());
}

LogicalResult ScatterOp::verify() {
  int64_t n = getInputs().size();
  if (n == 0)
    return emitOpError("needs at least one input");
  if (static_cast<int64_t>(getUpdates().size()) != n)
    return emitOpError() << "has " << n << " inputs but " << getUpdates().size()
                         << " updates";
  if (getNumResults() != n)
    return emitOpError() << "has " << n << " inputs but " << getNumResults()
                         << " results";
  RankedTensorType input = tensorOf(getInputs().front());
  RankedTensorType update = tensorOf(getUpdates().front());
  for (int64_t i = 0; i < n; ++i) {
    RankedTensorType in = tensorOf(getInputs()[i]);
    RankedTensorType upd = tensorOf(getUpdates()[i]);
    if (in.getShape() != input.getShape())
      return emitOpError() << "input " << i << " has shape "
                           << listString(in.getShape()) << " but input 0 has "
                           << listString(input.getShape());
    if (upd.getShape() != update.getShape())
      return emitOpError() << "update " << i << " has shape "
                           << listString(upd.getShape()) << " but update 0 has "
                           << listString(update.getShape());
    if (upd.getElementType() != in.getElementType())
      return emitOpError() << "update " << i << " has element type "
                           << upd.getElementType() << " but input " << i
                           << " has " << in.getElementType();
    if (getResult(i).getType() != in)
      return emitOpError() << "result " << i << " has type "
                           << getResult(i).getType() << " but input " << i
                           << " has " << in;
  }
  RankedTensorType indices = tensorOf(getScatterIndices());
  auto emitError = [&] { return emitOpError(); };
  int64_t ivd = getIndexVectorDim();
  if (failed(checkIndexing(
          emitError, input, "inputs", indices, "scatter_indices", ivd,
          "scatter_dims_to_operand_dims", getScatterDimsToOperandDims(),
          "inserted_window_dims", getInsertedWindowDims(),
          "input_batching_dims", getInputBatchingDims(),
          "scatter_indices_batching_dims", getScatterIndicesBatchingDims())))
    return failure();
  int64_t rank = input.getRank();
  int64_t numWindow = getUpdateWindowDims().size();
  if (numWindow + static_cast<int64_t>(getInsertedWindowDims().size() +
                                       getInputBatchingDims().size()) !=
      rank)
    return emitOpError() << "update_window_dims (" << numWindow
                         << "), inserted_window_dims ("
                         << getInsertedWindowDims().size()
                         << ") and input_batching_dims ("
                         << getInputBatchingDims().size()
                         << ") must together count the inputs' rank " << rank;
  SmallVector<int64_t> scatterSizes;
  for (int64_t d : dimsNotIn(indices.getRank(), {ivd}))
    scatterSizes.push_back(indices.getDimSize(d));
  int64_t updateRank = static_cast<int64_t>(scatterSizes.size()) + numWindow;
  if (update.getRank() != updateRank)
    return emitOpError() << "updates have rank " << update.getRank()
                         << " but the indices' " << scatterSizes.size()
                         << " scatter dimensions and " << numWindow
                         << " window dimensions make " << updateRank;
  if (failed(checkDimList(emitError, "update_window_dims",
                          getUpdateWindowDims(), updateRank, "the updates",
                          /*sorted=*/true)))
    return failure();
  SmallVector<int64_t> scatterDims = getUpdateScatterDims();
  for (auto [i, d] : llvm::enumerate(scatterDims))
    if (update.getDimSize(d) != scatterSizes[i])
      return emitOpError() << "update dimension " << d << " has size "
                           << update.getDimSize(d) << " but scatter_indices "
                           << "dimension " << getIndicesDimOfScatter(i)
                           << " has size " << scatterSizes[i];
  for (auto [d, window] : llvm::enumerate(getWindowDimOfInput()))
    if (window >= 0 && update.getDimSize(window) > input.getDimSize(d))
      return emitOpError() << "update window dimension " << window
                           << " has size " << update.getDimSize(window)
                           << ", larger than input dimension " << d << " ("
                           << input.getDimSize(d) << ")";
  return success();
}

LogicalResult ScatterOp::verifyRegions() {
  SmallVector<Type> elems;
  for (Value v : getInputs())
    elems.push_back(tensorOf(v).getElementType());
  SmallVector<Type> args(elems);
  llvm::append_range(args, elems);
  return checkScalarSignature(*this, getUpdateComputation(),
                              "update computation", args, elems);
}

//===----------------------------------------------------------------------===//
// xla.sort
//===----------------------------------------------------------------------===//

LogicalResult SortOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &types) {
  llvm::append_range(types, adaptor.getInputs().getTypes());
  return success();
}

LogicalResult SortOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  RankedTensorType first = tensorOf(getInputs().front());
  for (auto [i, v] : llvm::enumerate(getInputs()))
    if (tensorOf(v).getShape() != first.getShape())
      return emitOpError() << "input " << i << " has shape "
                           << listString(tensorOf(v).getShape())
                           << " but input 0 has "
                           << listString(first.getShape());
  if (first.getRank() == 0)
    return emitOpError("sorts along a dimension: inputs must have rank >= 1");
  if (static_cast<int64_t>(getDimension()) >= first.getRank())
    return emitOpError() << "dim " << getDimension()
                         << " is out of range for rank " << first.getRank();
  return success();
}

LogicalResult SortOp::verifyRegions() {
  SmallVector<Type> args;
  for (Value v : getInputs()) {
    Type elem = tensorOf(v).getElementType();
    args.append({elem, elem});
  }
  return checkScalarSignature(*this, getComparator(), "comparator", args,
                              {IntegerType::get(getContext(), 1)});
}

} // namespace xspmd::xla
