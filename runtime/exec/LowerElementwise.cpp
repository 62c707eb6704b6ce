//===- LowerElementwise.cpp - elementwise ops to kernels ------------------===//

#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/Elementwise.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

static FailureOr<OpKernel> noKernel(Operation *op, ElementType type) {
  return op->emitOpError() << "has no simulator kernel for element type "
                           << toString(type);
}

static FailureOr<OpKernel> lowerUnary(Operation *op, UnaryOp kind) {
  TensorSpec spec = specOf(op->getResult(0));
  UnaryKernel fn = getUnaryKernel(kind, spec.type);
  if (!fn)
    return noKernel(op, spec.type);
  return OpKernel([fn, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                             MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    fn(in[0]->data(), out[0].data(), out[0].getNumElements());
    return llvm::Error::success();
  });
}

static FailureOr<OpKernel> lowerBinary(Operation *op, BinaryOp kind) {
  TensorSpec spec = specOf(op->getResult(0));
  BinaryKernel fn = getBinaryKernel(kind, spec.type);
  if (!fn)
    return noKernel(op, spec.type);
  return OpKernel([fn, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                             MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    fn(in[0]->data(), in[1]->data(), out[0].data(), out[0].getNumElements());
    return llvm::Error::success();
  });
}

static CompareOp toCompareOp(CompareDirection direction) {
  switch (direction) {
  case CompareDirection::eq:
    return CompareOp::eq;
  case CompareDirection::ne:
    return CompareOp::ne;
  case CompareDirection::lt:
    return CompareOp::lt;
  case CompareDirection::le:
    return CompareOp::le;
  case CompareDirection::gt:
    return CompareOp::gt;
  case CompareDirection::ge:
    return CompareOp::ge;
  }
  llvm_unreachable("unknown comparison");
}

static FailureOr<OpKernel> lowerCompare(xla::CompareOp op) {
  TensorSpec operand = specOf(op.getLhs());
  TensorSpec spec = specOf(op.getResult());
  CompareKernel fn =
      getCompareKernel(toCompareOp(op.getDirection()), operand.type);
  if (!fn)
    return noKernel(op, operand.type);
  return OpKernel([fn, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                             MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    fn(in[0]->data(), in[1]->data(), out[0].data<uint8_t>(),
       out[0].getNumElements());
    return llvm::Error::success();
  });
}

static FailureOr<OpKernel> lowerSelect(SelectOp op) {
  TensorSpec spec = specOf(op.getResult());
  size_t width = byteWidth(spec.type);
  return OpKernel([spec, width](DeviceContext &, ArrayRef<const Tensor *> in,
                                MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    selectElements(in[0]->data<uint8_t>(), in[1]->data(), in[2]->data(),
                   out[0].data(), out[0].getNumElements(), width);
    return llvm::Error::success();
  });
}

static FailureOr<OpKernel> lowerConvert(ConvertOp op) {
  TensorSpec from = specOf(op.getInput());
  TensorSpec spec = specOf(op.getResult());
  ConvertKernel fn = getConvertKernel(from.type, spec.type);
  return OpKernel([fn, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                             MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    fn(in[0]->data(), out[0].data(), out[0].getNumElements());
    return llvm::Error::success();
  });
}

static FailureOr<OpKernel> lowerIsFinite(IsFiniteOp op) {
  TensorSpec operand = specOf(op.getInput());
  TensorSpec spec = specOf(op.getResult());
  PredicateKernel fn = getIsFiniteKernel(operand.type);
  if (!fn)
    return noKernel(op, operand.type);
  return OpKernel([fn, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                             MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    fn(in[0]->data(), out[0].data<uint8_t>(), out[0].getNumElements());
    return llvm::Error::success();
  });
}

static FailureOr<OpKernel> lowerClamp(ClampOp op) {
  TensorSpec spec = specOf(op.getResult());
  ClampKernel fn = getClampKernel(spec.type);
  if (!fn)
    return noKernel(op, spec.type);
  return OpKernel([fn, spec](DeviceContext &, ArrayRef<const Tensor *> in,
                             MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    fn(in[0]->data(), in[1]->data(), in[2]->data(), out[0].data(),
       out[0].getNumElements());
    return llvm::Error::success();
  });
}

/// The operand's storage seen as the result's element type (a view).
static OpKernel lowerBitcastConvert(BitcastConvertOp op) {
  ElementType type = specOf(op.getResult()).type;
  return [type](DeviceContext &, ArrayRef<const Tensor *> in,
                MutableArrayRef<Tensor> out) {
    out[0] = in[0]->bitcast(type);
    return llvm::Error::success();
  };
}

/// The value itself (the annotation only guides the partitioner).
static OpKernel forwardOperand() {
  return [](DeviceContext &, ArrayRef<const Tensor *> in,
            MutableArrayRef<Tensor> out) {
    out[0] = *in[0];
    return llvm::Error::success();
  };
}

FailureOr<OpKernel> lowerElementwiseOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<OpKernel>>(op)
      .Case([](AddOp op) { return lowerBinary(op, BinaryOp::add); })
      .Case([](SubOp op) { return lowerBinary(op, BinaryOp::sub); })
      .Case([](MulOp op) { return lowerBinary(op, BinaryOp::mul); })
      .Case([](DivOp op) { return lowerBinary(op, BinaryOp::div); })
      .Case([](MaxOp op) { return lowerBinary(op, BinaryOp::max); })
      .Case([](MinOp op) { return lowerBinary(op, BinaryOp::min); })
      .Case([](PowOp op) { return lowerBinary(op, BinaryOp::pow); })
      .Case([](AndOp op) { return lowerBinary(op, BinaryOp::and_); })
      .Case([](OrOp op) { return lowerBinary(op, BinaryOp::or_); })
      .Case([](XorOp op) { return lowerBinary(op, BinaryOp::xor_); })
      .Case([](NegOp op) { return lowerUnary(op, UnaryOp::neg); })
      .Case([](AbsOp op) { return lowerUnary(op, UnaryOp::abs); })
      .Case([](ExpOp op) { return lowerUnary(op, UnaryOp::exp); })
      .Case([](LogOp op) { return lowerUnary(op, UnaryOp::log); })
      .Case([](TanhOp op) { return lowerUnary(op, UnaryOp::tanh); })
      .Case([](SqrtOp op) { return lowerUnary(op, UnaryOp::sqrt); })
      .Case([](RsqrtOp op) { return lowerUnary(op, UnaryOp::rsqrt); })
      .Case([](SigmoidOp op) { return lowerUnary(op, UnaryOp::sigmoid); })
      .Case([](ReluOp op) { return lowerUnary(op, UnaryOp::relu); })
      .Case([](GeluOp op) { return lowerUnary(op, UnaryOp::gelu); })
      .Case([](NotOp op) { return lowerUnary(op, UnaryOp::not_); })
      .Case([](FloorOp op) { return lowerUnary(op, UnaryOp::floor); })
      .Case([](CeilOp op) { return lowerUnary(op, UnaryOp::ceil); })
      .Case([](RoundNearestAfzOp op) {
        return lowerUnary(op, UnaryOp::roundNearestAfz);
      })
      .Case([](RoundNearestEvenOp op) {
        return lowerUnary(op, UnaryOp::roundNearestEven);
      })
      .Case([](SignOp op) { return lowerUnary(op, UnaryOp::sign); })
      .Case([](ErfOp op) { return lowerUnary(op, UnaryOp::erf); })
      .Case([](CosOp op) { return lowerUnary(op, UnaryOp::cos); })
      .Case([](SinOp op) { return lowerUnary(op, UnaryOp::sin); })
      .Case([](TanOp op) { return lowerUnary(op, UnaryOp::tan); })
      .Case([](Log1pOp op) { return lowerUnary(op, UnaryOp::log1p); })
      .Case([](Expm1Op op) { return lowerUnary(op, UnaryOp::expm1); })
      .Case([](CbrtOp op) { return lowerUnary(op, UnaryOp::cbrt); })
      .Case([](Atan2Op op) { return lowerBinary(op, BinaryOp::atan2); })
      .Case([](RemOp op) { return lowerBinary(op, BinaryOp::rem); })
      .Case([](ShiftLeftOp op) { return lowerBinary(op, BinaryOp::shiftLeft); })
      .Case([](ShiftRightArithmeticOp op) {
        return lowerBinary(op, BinaryOp::shiftRightArithmetic);
      })
      .Case([](ShiftRightLogicalOp op) {
        return lowerBinary(op, BinaryOp::shiftRightLogical);
      })
      .Case([](IsFiniteOp op) { return lowerIsFinite(op); })
      .Case([](ClampOp op) { return lowerClamp(op); })
      .Case([](BitcastConvertOp op) { return lowerBitcastConvert(op); })
      .Case([](xla::CompareOp op) { return lowerCompare(op); })
      .Case([](SelectOp op) { return lowerSelect(op); })
      .Case([](ConvertOp op) { return lowerConvert(op); })
      .Case([](MarkShardingOp) { return forwardOperand(); })
      .Default([](Operation *op) -> FailureOr<OpKernel> {
        return op->emitOpError("is not an elementwise op");
      });
}

} // namespace xspmd::runtime
