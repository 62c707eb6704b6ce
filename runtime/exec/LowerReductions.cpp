//===- LowerReductions.cpp - ops with scalar computations to kernels ------===//
//
// xla.reduce_region, xla.reduce_window and xla.select_and_scatter: their
// regions are compiled once into ScalarComputations that the kernel (shared
// by every device) applies per element.
//
//===----------------------------------------------------------------------===//

#include "runtime/exec/Lowering.h"
#include "runtime/exec/RegionCompiler.h"
#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/RegionReductions.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <memory>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

namespace {

using Computation = std::shared_ptr<const ScalarComputation>;

FailureOr<Computation> compileBody(Region &region) {
  FailureOr<ScalarComputation> compiled = compileScalarComputation(region);
  if (failed(compiled))
    return failure();
  return std::make_shared<const ScalarComputation>(std::move(*compiled));
}

Shape toShape(ArrayRef<int64_t> values) {
  return Shape(values.begin(), values.end());
}

SmallVector<TensorSpec> resultSpecs(Operation *op) {
  SmallVector<TensorSpec> specs;
  for (Value result : op->getResults())
    specs.push_back(specOf(result));
  return specs;
}

FailureOr<OpKernel> lowerReduceRegion(ReduceRegionOp op) {
  FailureOr<Computation> body = compileBody(op.getBody());
  if (failed(body))
    return failure();
  int64_t n = op.getInputs().size();
  SmallVector<TensorSpec> specs = resultSpecs(op);
  Shape dims = toShape(op.getDims());
  return OpKernel([body = *body, n, specs, dims](DeviceContext &,
                                                 ArrayRef<const Tensor *> in,
                                                 MutableArrayRef<Tensor> out) {
    for (auto [i, spec] : llvm::enumerate(specs))
      out[i] = spec.allocate();
    reduceWithComputation(*body, in.take_front(n), in.drop_front(n), dims, out);
    return llvm::Error::success();
  });
}

FailureOr<OpKernel> lowerReduceWindow(ReduceWindowOp op) {
  FailureOr<Computation> body = compileBody(op.getBody());
  if (failed(body))
    return failure();
  int64_t n = op.getInputs().size();
  SmallVector<TensorSpec> specs = resultSpecs(op);
  WindowParams window{
      toShape(op.getWindowDimensions()), toShape(op.getWindowStrides()),
      toShape(op.getBaseDilations()), toShape(op.getWindowDilations()),
      toShape(op.getPadding())};
  return OpKernel([body = *body, n, specs,
                   window](DeviceContext &, ArrayRef<const Tensor *> in,
                           MutableArrayRef<Tensor> out) {
    for (auto [i, spec] : llvm::enumerate(specs))
      out[i] = spec.allocate();
    reduceWindow(*body, in.take_front(n), in.drop_front(n), window, out);
    return llvm::Error::success();
  });
}

FailureOr<OpKernel> lowerSelectAndScatter(SelectAndScatterOp op) {
  FailureOr<Computation> select = compileBody(op.getSelect());
  if (failed(select))
    return failure();
  FailureOr<Computation> scatter = compileBody(op.getScatter());
  if (failed(scatter))
    return failure();
  TensorSpec spec = specOf(op.getResult());
  WindowParams window{toShape(op.getWindowDimensions()),
                      toShape(op.getWindowStrides()),
                      {},
                      {},
                      toShape(op.getPadding())};
  return OpKernel([select = *select, scatter = *scatter, spec,
                   window](DeviceContext &, ArrayRef<const Tensor *> in,
                           MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    selectAndScatter(*select, *scatter, *in[0], *in[1], *in[2], window, out[0]);
    return llvm::Error::success();
  });
}

} // namespace

FailureOr<OpKernel> lowerReductionOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<OpKernel>>(op)
      .Case([](ReduceRegionOp op) { return lowerReduceRegion(op); })
      .Case([](ReduceWindowOp op) { return lowerReduceWindow(op); })
      .Case([](SelectAndScatterOp op) { return lowerSelectAndScatter(op); })
      .Default([](Operation *op) -> FailureOr<OpKernel> {
        return op->emitOpError("is not a reduction with a computation");
      });
}

} // namespace xspmd::runtime
