//===- LowerDataMovement.cpp - shape and indexing ops to kernels ----------===//

#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/DataMovement.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

int64_t readIndex(const Tensor &t, int64_t i) {
  return t.getElementType() == ElementType::i64
             ? t.data<int64_t>()[i]
             : static_cast<int64_t>(t.data<int32_t>()[i]);
}

int64_t readIndexScalar(const Tensor &t) { return readIndex(t, 0); }

static Shape toShape(ArrayRef<int64_t> a) { return Shape(a.begin(), a.end()); }

/// A kernel that allocates the result and calls `fill(inputs, result)`.
template <typename Fill>
static OpKernel withResult(TensorSpec spec, Fill fill) {
  return [spec, fill](DeviceContext &, ArrayRef<const Tensor *> in,
                      MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    fill(in, out[0]);
    return llvm::Error::success();
  };
}

/// Whether a slice of `in` with unit strides giving `out` is one contiguous
/// run of the row-major operand: size 1 in the leading dims, any range in
/// one dim, whole in the dims after it.
static bool isContiguousSlice(ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                              ArrayRef<int64_t> strides) {
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }))
    return false;
  size_t d = 0;
  while (d < out.size() && out[d] == 1)
    ++d;
  for (++d; d < out.size(); ++d)
    if (out[d] != in[d])
      return false;
  return true;
}

static OpKernel lowerReshape(ReshapeOp op) {
  Shape shape = specOf(op.getResult()).shape;
  // A view: tensors are immutable, so sharing storage is safe.
  return [shape](DeviceContext &, ArrayRef<const Tensor *> in,
                 MutableArrayRef<Tensor> out) {
    out[0] = in[0]->reshaped(shape);
    return llvm::Error::success();
  };
}

static OpKernel lowerDynamicSlice(DynamicSliceOp op) {
  return withResult(specOf(op.getResult()),
                    [](ArrayRef<const Tensor *> in, Tensor &out) {
                      Shape offsets;
                      for (const Tensor *t : in.drop_front())
                        offsets.push_back(readIndexScalar(*t));
                      dynamicSlice(*in[0], offsets, out);
                    });
}

static OpKernel lowerDynamicUpdateSlice(DynamicUpdateSliceOp op) {
  return withResult(specOf(op.getResult()),
                    [](ArrayRef<const Tensor *> in, Tensor &out) {
                      Shape offsets;
                      for (const Tensor *t : in.drop_front(2))
                        offsets.push_back(readIndexScalar(*t));
                      dynamicUpdateSlice(*in[0], *in[1], offsets, out);
                    });
}

FailureOr<OpKernel> lowerDataMovementOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, FailureOr<OpKernel>>(op)
      .Case([](BroadcastInDimOp op) {
        Shape dims = toShape(op.getDims());
        return withResult(specOf(op.getResult()),
                          [dims](ArrayRef<const Tensor *> in, Tensor &out) {
                            broadcastInDim(*in[0], dims, out);
                          });
      })
      .Case([](ReshapeOp op) { return lowerReshape(op); })
      .Case([](TransposeOp op) {
        Shape perm = toShape(op.getPermutation());
        return withResult(specOf(op.getResult()),
                          [perm](ArrayRef<const Tensor *> in, Tensor &out) {
                            transpose(*in[0], perm, out);
                          });
      })
      .Case([](ReverseOp op) {
        Shape dims = toShape(op.getDims());
        return withResult(specOf(op.getResult()),
                          [dims](ArrayRef<const Tensor *> in, Tensor &out) {
                            reverse(*in[0], dims, out);
                          });
      })
      .Case([](SliceOp op) -> OpKernel {
        Shape start = toShape(op.getStart()),
              strides = toShape(op.getStrides());
        TensorSpec in = specOf(op.getOperand()), out = specOf(op.getResult());
        if (numElementsOf(out.shape) > 0 &&
            isContiguousSlice(in.shape, out.shape, strides)) {
          // One run of the operand's storage: a view, as reshape is
          // (tensors are immutable).
          int64_t offset = 0;
          Shape inStrides = stridesOf(in.shape);
          for (size_t d = 0; d < start.size(); ++d)
            offset += start[d] * inStrides[d];
          Shape shape = out.shape;
          return [offset, shape](DeviceContext &, ArrayRef<const Tensor *> in,
                                 MutableArrayRef<Tensor> out) {
            out[0] = in[0]->view(offset, shape);
            return llvm::Error::success();
          };
        }
        return withResult(
            specOf(op.getResult()),
            [start, strides](ArrayRef<const Tensor *> in, Tensor &out) {
              slice(*in[0], start, strides, out);
            });
      })
      .Case([](DynamicSliceOp op) { return lowerDynamicSlice(op); })
      .Case([](DynamicUpdateSliceOp op) { return lowerDynamicUpdateSlice(op); })
      .Case([](ConcatenateOp op) {
        int64_t dim = op.getDim();
        return withResult(specOf(op.getResult()),
                          [dim](ArrayRef<const Tensor *> in, Tensor &out) {
                            concatenate(in, dim, out);
                          });
      })
      .Case([](PadOp op) {
        Shape low = toShape(op.getLow()), interior = toShape(op.getInterior());
        double value = op.getValue().convertToDouble();
        return withResult(
            specOf(op.getResult()),
            [low, interior, value](ArrayRef<const Tensor *> in, Tensor &out) {
              pad(*in[0], low, interior, value, out);
            });
      })
      .Case([](GatherOp op) {
        return withResult(specOf(op.getResult()),
                          [](ArrayRef<const Tensor *> in, Tensor &out) {
                            gather(*in[0], *in[1], out);
                          });
      })
      .Default([](Operation *op) -> FailureOr<OpKernel> {
        return op->emitOpError("is not a data movement op");
      });
}

} // namespace xspmd::runtime
