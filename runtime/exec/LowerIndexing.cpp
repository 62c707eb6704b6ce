//===- LowerIndexing.cpp - hlo_gather, scatter and sort to kernels --------===//
//
// The scalar bodies (a scatter's update computation, a sort's comparator)
// are compiled once per op into a ScalarComputation that the kernel shares
// across runs and devices.
//
//===----------------------------------------------------------------------===//

#include "runtime/exec/Lowering.h"
#include "runtime/exec/RegionCompiler.h"
#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/Indexing.h"
#include "runtime/kernels/Sort.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <memory>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {
namespace {

Shape toShape(ArrayRef<int64_t> a) { return Shape(a.begin(), a.end()); }

/// Allocates every result with its spec.
void allocateResults(ArrayRef<TensorSpec> specs, MutableArrayRef<Tensor> out) {
  for (auto [spec, tensor] : llvm::zip(specs, out))
    tensor = spec.allocate();
}

SmallVector<TensorSpec> resultSpecs(Operation *op) {
  SmallVector<TensorSpec> specs;
  for (Value v : op->getResults())
    specs.push_back(specOf(v));
  return specs;
}

FailureOr<std::shared_ptr<const ScalarComputation>>
compileBody(Region &region) {
  FailureOr<ScalarComputation> body = compileScalarComputation(region);
  if (failed(body))
    return failure();
  return std::make_shared<const ScalarComputation>(std::move(*body));
}

/// Whether the update computation of `op` yields its updates unchanged.
bool isOverwrite(ScatterOp op) {
  Block &block = op.getUpdateComputation().front();
  auto yield = cast<YieldOp>(block.getTerminator());
  int64_t n = op.getInputs().size();
  for (auto [i, value] : llvm::enumerate(yield.getValues()))
    if (value != block.getArgument(n + i))
      return false;
  return true;
}

OpKernel lowerGather(HloGatherOp op) {
  GatherDimensions dims;
  dims.mapping.indexVectorDim = op.getIndexVectorDim();
  dims.mapping.indexToOperandDims = toShape(op.getStartIndexMap());
  dims.mapping.operandBatchingDims = toShape(op.getOperandBatchingDims());
  dims.mapping.indicesBatchingDims = toShape(op.getStartIndicesBatchingDims());
  dims.offsetDims = toShape(op.getOffsetDims());
  dims.collapsedSliceDims = toShape(op.getCollapsedSliceDims());
  dims.sliceSizes = toShape(op.getSliceSizes());
  TensorSpec spec = specOf(op.getResult());
  return [dims, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                      MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    hloGather(*in[0], *in[1], dims, out[0]);
    return llvm::Error::success();
  };
}

FailureOr<OpKernel> lowerScatter(ScatterOp op) {
  FailureOr<std::shared_ptr<const ScalarComputation>> body =
      compileBody(op.getUpdateComputation());
  if (failed(body))
    return failure();
  ScatterDimensions dims;
  dims.mapping.indexVectorDim = op.getIndexVectorDim();
  dims.mapping.indexToOperandDims = toShape(op.getScatterDimsToOperandDims());
  dims.mapping.operandBatchingDims = toShape(op.getInputBatchingDims());
  dims.mapping.indicesBatchingDims =
      toShape(op.getScatterIndicesBatchingDims());
  dims.updateWindowDims = toShape(op.getUpdateWindowDims());
  dims.insertedWindowDims = toShape(op.getInsertedWindowDims());
  int64_t n = op.getInputs().size();
  bool overwrite = isOverwrite(op);
  SmallVector<TensorSpec> specs = resultSpecs(op);
  return OpKernel([dims, n, overwrite, specs,
                   body = *body](DeviceContext &, ArrayRef<const Tensor *> in,
                                 MutableArrayRef<Tensor> out) {
    allocateResults(specs, out);
    ScatterCombiner combiner{body.get(), overwrite};
    scatter(in.take_front(n), *in[n], in.drop_front(n + 1), dims, combiner,
            out);
    return llvm::Error::success();
  });
}

FailureOr<OpKernel> lowerSort(SortOp op) {
  FailureOr<std::shared_ptr<const ScalarComputation>> comparator =
      compileBody(op.getComparator());
  if (failed(comparator))
    return failure();
  int64_t dim = op.getDimension();
  bool stable = op.getIsStable();
  SmallVector<TensorSpec> specs = resultSpecs(op);
  return OpKernel([dim, stable, specs, comparator = *comparator](
                      DeviceContext &, ArrayRef<const Tensor *> in,
                      MutableArrayRef<Tensor> out) {
    allocateResults(specs, out);
    sort(in, dim, stable, *comparator, out);
    return llvm::Error::success();
  });
}

} // namespace

FailureOr<OpKernel> lowerIndexingOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<OpKernel>>(op)
      .Case(
          [](HloGatherOp op) -> FailureOr<OpKernel> { return lowerGather(op); })
      .Case([](ScatterOp op) { return lowerScatter(op); })
      .Case([](SortOp op) { return lowerSort(op); })
      .Default([](Operation *op) -> FailureOr<OpKernel> {
        return op->emitOpError("is not an indexing op");
      });
}

} // namespace xspmd::runtime
