//===- LowerNumerics.cpp - contractions, reductions, convolution ----------===//

#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/Contraction.h"
#include "runtime/kernels/Convolution.h"
#include "runtime/kernels/Reduce.h"

#include "dialects/xla/XlaContraction.h"
#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <memory>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

static FailureOr<OpKernel> lowerContraction(Operation *op) {
  TensorSpec spec = specOf(op->getResult(0));
  if (spec.type == ElementType::i1)
    return op->emitOpError("has no simulator kernel for i1");
  ContractionLabels labels = getContractionLabels(op);
  ContractionDims dims{labels.lhs, labels.rhs, labels.result, labels.sizes};
  auto plan = std::make_shared<const ContractionPlan>(dims);
  return OpKernel([plan, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                               MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    plan->run(*in[0], *in[1], out[0]);
    return llvm::Error::success();
  });
}

static runtime::ReduceKind toReduceKind(xla::ReduceKind kind) {
  switch (kind) {
  case xla::ReduceKind::sum:
    return runtime::ReduceKind::sum;
  case xla::ReduceKind::prod:
    return runtime::ReduceKind::prod;
  case xla::ReduceKind::max:
    return runtime::ReduceKind::max;
  case xla::ReduceKind::min:
    return runtime::ReduceKind::min;
  case xla::ReduceKind::mean:
    return runtime::ReduceKind::mean;
  case xla::ReduceKind::and_:
    return runtime::ReduceKind::and_;
  case xla::ReduceKind::or_:
    return runtime::ReduceKind::or_;
  }
  llvm_unreachable("unknown reduce kind");
}

static OpKernel lowerReduce(ReduceOp op) {
  TensorSpec spec = specOf(op.getResult());
  runtime::ReduceKind kind = toReduceKind(op.getKind());
  Shape dims(op.getDims().begin(), op.getDims().end());
  return [spec, kind, dims](DeviceContext &, ArrayRef<const Tensor *> in,
                            MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    reduce(kind, *in[0], dims, out[0]);
    return llvm::Error::success();
  };
}

static OpKernel lowerSoftmax(SoftmaxOp op) {
  TensorSpec spec = specOf(op.getResult());
  int64_t dim = op.getDim();
  return [spec, dim](DeviceContext &, ArrayRef<const Tensor *> in,
                     MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    softmax(*in[0], dim, out[0]);
    return llvm::Error::success();
  };
}

static FailureOr<OpKernel> lowerConvolution(ConvolutionOp op) {
  TensorSpec spec = specOf(op.getResult());
  auto toShape = [](ArrayRef<int64_t> a) { return Shape(a.begin(), a.end()); };
  ConvolutionParams params{toShape(op.getStrides()), toShape(op.getPadding()),
                           toShape(op.getLhsDilation()),
                           toShape(op.getRhsDilation()),
                           static_cast<int64_t>(op.getFeatureGroups())};
  return OpKernel([spec, params](DeviceContext &, ArrayRef<const Tensor *> in,
                                 MutableArrayRef<Tensor> out) {
    out[0] = Tensor::zeros(spec.type, spec.shape);
    convolution(*in[0], *in[1], params, out[0]);
    return llvm::Error::success();
  });
}

FailureOr<OpKernel> lowerNumericOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<OpKernel>>(op)
      .Case<DotGeneralOp, MatmulOp, EinsumOp>(
          [](Operation *op) { return lowerContraction(op); })
      .Case([](ReduceOp op) { return lowerReduce(op); })
      .Case([](SoftmaxOp op) { return lowerSoftmax(op); })
      .Case([](ConvolutionOp op) { return lowerConvolution(op); })
      .Default([](Operation *op) -> FailureOr<OpKernel> {
        return op->emitOpError("is not a numeric op");
      });
}

} // namespace xspmd::runtime
