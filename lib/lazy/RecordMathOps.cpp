//===- RecordMathOps.cpp - torch's math ops built from several xla ops ----===//
//
// torch.remainder, isfinite, clamp and flip, recorded with the ops of
// XlaMathOps.td (the math ops that are one xla op each, such as floor or
// fmod, are cases of Runtime::unary and Runtime::binary in RecordOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "lib/lazy/RuntimeImpl.h"

#include "dialects/xla/XlaOps.h"

#include <fmt/format.h>

using namespace mlir;

namespace xspmd::lazy {

llvm::Expected<Tensor> Runtime::remainder(const Tensor &lhs,
                                          const Tensor &rhs) {
  // fmod has the dividend's sign; torch's remainder has the divisor's: add
  // the divisor where fmod is nonzero and its sign differs from it.
  llvm::Expected<Tensor> r = binary(BinaryOp::fmod, lhs, rhs);
  if (!r)
    return r.takeError();
  llvm::Expected<Tensor> divisor = broadcastTo(rhs, r->getShape());
  if (!divisor)
    return divisor.takeError();
  llvm::Expected<Tensor> zero = full({}, 0, r->getElementType());
  if (!zero)
    return zero.takeError();
  llvm::Expected<Tensor> rNegative = compare(CompareOp::lt, *r, *zero);
  if (!rNegative)
    return rNegative.takeError();
  llvm::Expected<Tensor> divisorNegative =
      compare(CompareOp::lt, *divisor, *zero);
  if (!divisorNegative)
    return divisorNegative.takeError();
  llvm::Expected<Tensor> differ =
      compare(CompareOp::ne, *rNegative, *divisorNegative);
  if (!differ)
    return differ.takeError();
  llvm::Expected<Tensor> nonzero = compare(CompareOp::ne, *r, *zero);
  if (!nonzero)
    return nonzero.takeError();
  // nonzero ? differ : false (nonzero is false there).
  llvm::Expected<Tensor> fix = select(*nonzero, *differ, *nonzero);
  if (!fix)
    return fix.takeError();
  llvm::Expected<Tensor> shifted = binary(BinaryOp::add, *r, *divisor);
  if (!shifted)
    return shifted.takeError();
  return select(*fix, *shifted, *r);
}

llvm::Expected<Tensor> Runtime::isFinite(const Tensor &x) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  if (!runtime::isFloat(x.getElementType()))
    return full(x.getShape(), 1, runtime::ElementType::i1);
  auto type = cast<RankedTensorType>(v->getType());
  return impl->finish(xla::IsFiniteOp::create(
      impl->builder, impl->loc(), type.clone(impl->builder.getI1Type()), *v));
}

llvm::Expected<Tensor> Runtime::clamp(const Tensor &x, const Tensor *min,
                                      const Tensor *max) {
  if (!min && !max)
    return recordError("clamp needs a min or a max");
  if (!max)
    return binary(BinaryOp::max, x, *min);
  if (!min)
    return binary(BinaryOp::min, x, *max);
  if (!x.isValid() || !min->isValid() || !max->isValid())
    return recordError("an operand of clamp is an empty tensor handle");
  llvm::Expected<SmallVector<int64_t>> shape =
      broadcastShape(x.getShape(), min->getShape());
  if (!shape)
    return shape.takeError();
  shape = broadcastShape(*shape, max->getShape());
  if (!shape)
    return shape.takeError();
  SmallVector<Value, 3> values;
  for (const Tensor *t : {min, &x, max}) {
    llvm::Expected<Tensor> wide = broadcastTo(*t, *shape);
    if (!wide)
      return wide.takeError();
    llvm::Expected<Value> v = impl->valueOf(*wide);
    if (!v)
      return v.takeError();
    values.push_back(*v);
  }
  return impl->finish(xla::ClampOp::create(impl->builder, impl->loc(),
                                           values[1].getType(), values[0],
                                           values[1], values[2]));
}

llvm::Expected<Tensor> Runtime::flip(const Tensor &x,
                                     llvm::ArrayRef<int64_t> dims) {
  llvm::Expected<Value> v = impl->valueOf(x);
  if (!v)
    return v.takeError();
  int64_t rank = x.getRank();
  SmallVector<int64_t> normalized;
  for (int64_t d : dims) {
    int64_t dim = d < 0 ? d + rank : d;
    if (dim < 0 || dim >= rank)
      return recordError(fmt::format("flip dimension {} is out of range for {}",
                                     d, x.getTypeString()));
    normalized.push_back(dim);
  }
  return impl->finish(
      xla::ReverseOp::create(impl->builder, impl->loc(), v->getType(), *v,
                             impl->builder.getDenseI64ArrayAttr(normalized)));
}

} // namespace xspmd::lazy
