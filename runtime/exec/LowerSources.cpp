//===- LowerSources.cpp - iota, rng, device ids and tables ----------------===//

#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/Random.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <vector>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

static OpKernel lowerIota(IotaOp op) {
  TensorSpec spec = specOf(op.getResult());
  int64_t dim = op.getDim();
  return [spec, dim](DeviceContext &, ArrayRef<const Tensor *>,
                     MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    iota(dim, out[0]);
    return llvm::Error::success();
  };
}

static OpKernel lowerRng(RngOp op) {
  TensorSpec spec = specOf(op.getResult());
  RandomDistribution distribution =
      op.getDistribution() == RngDistribution::uniform
          ? RandomDistribution::uniform
          : RandomDistribution::normal;
  uint64_t seed = static_cast<uint64_t>(op.getSeed());
  double a = op.getA().convertToDouble(), b = op.getB().convertToDouble();
  std::optional<Shape> global;
  if (std::optional<ArrayRef<int64_t>> g = op.getGlobalShape())
    global = Shape(g->begin(), g->end());
  return [spec, distribution, seed, a, b, global](DeviceContext &,
                                                  ArrayRef<const Tensor *> in,
                                                  MutableArrayRef<Tensor> out) {
    out[0] = spec.allocate();
    Shape offsets(spec.shape.size(), 0);
    if (global) {
      // Offsets beyond the global tensor (padding blocks) index past its
      // end; they still get deterministic values.
      for (size_t d = 0; d < offsets.size(); ++d)
        offsets[d] = readIndex(*in[0], d);
    }
    fillRandom(distribution, seed, a, b, global ? *global : spec.shape, offsets,
               out[0]);
    return llvm::Error::success();
  };
}

static OpKernel scalarPerDevice(std::vector<int32_t> valueOfDevice) {
  return [valueOfDevice](DeviceContext &device, ArrayRef<const Tensor *>,
                         MutableArrayRef<Tensor> out) {
    out[0] = Tensor::allocate(ElementType::i32, {});
    out[0].data<int32_t>()[0] = valueOfDevice[device.device];
    return llvm::Error::success();
  };
}

static FailureOr<OpKernel> lowerAxisIndex(AxisIndexOp op,
                                          LoweringContext &ctx) {
  MeshOp meshOp = lookupMesh(op, op.getMeshAttr(), &ctx.symbols);
  MeshAttr mesh = meshOp.getMesh();
  if (mesh.getNumDevices() != ctx.numDevices)
    return op.emitOpError()
           << "names mesh " << op.getMeshAttr() << " of "
           << mesh.getNumDevices() << " devices but the program runs on "
           << ctx.numDevices;
  int64_t axis = mesh.getAxisIndex(op.getAxis());
  int64_t stride = 1;
  for (int64_t a = mesh.getRank() - 1; a > axis; --a)
    stride *= mesh.getAxes()[a].getSize();
  int64_t size = mesh.getAxes()[axis].getSize();
  std::vector<int32_t> coordinate(ctx.numDevices, 0);
  for (auto [position, device] : llvm::enumerate(mesh.getDeviceArray()))
    coordinate[device] = static_cast<int32_t>((position / stride) % size);
  return scalarPerDevice(std::move(coordinate));
}

/// Device d reads entry d, stored in the result's element type.
static FailureOr<OpKernel> lowerDeviceTable(DeviceTableOp op,
                                            LoweringContext &ctx) {
  ArrayRef<int64_t> values = op.getValues();
  if (static_cast<int64_t>(values.size()) != ctx.numDevices)
    return op.emitOpError()
           << "holds " << values.size() << " values but the program runs on "
           << ctx.numDevices << " devices";
  TensorSpec spec = specOf(op.getResult());
  std::vector<Tensor> perDevice;
  perDevice.reserve(values.size());
  for (int64_t v : values) {
    Tensor t = spec.allocate();
    storeDoubleAs(static_cast<double>(v), spec.type, t.data<uint8_t>());
    perDevice.push_back(std::move(t));
  }
  return OpKernel([perDevice = std::move(perDevice)](
                      DeviceContext &device, ArrayRef<const Tensor *>,
                      MutableArrayRef<Tensor> out) {
    out[0] = perDevice[device.device];
    return llvm::Error::success();
  });
}

FailureOr<OpKernel> lowerSourceOp(Operation *op, LoweringContext &ctx) {
  return llvm::TypeSwitch<Operation *, FailureOr<OpKernel>>(op)
      .Case([](IotaOp op) { return lowerIota(op); })
      .Case([](RngOp op) { return lowerRng(op); })
      .Case([&](PartitionIdOp) {
        std::vector<int32_t> ids(ctx.numDevices);
        for (int64_t d = 0; d < ctx.numDevices; ++d)
          ids[d] = static_cast<int32_t>(d);
        return scalarPerDevice(std::move(ids));
      })
      .Case([&](AxisIndexOp op) { return lowerAxisIndex(op, ctx); })
      .Case([&](DeviceTableOp op) { return lowerDeviceTable(op, ctx); })
      .Default([](Operation *op) -> FailureOr<OpKernel> {
        return op->emitOpError("is not a source op");
      });
}

} // namespace xspmd::runtime
