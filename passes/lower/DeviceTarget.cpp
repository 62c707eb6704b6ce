//===- DeviceTarget.cpp - the devices a program is lowered for ------------===//

#include "passes/lower/DeviceTarget.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::lower {

LinkClass DeviceTarget::classify(llvm::ArrayRef<int64_t> devices) const {
  return linkClassOfDevices(devices, sliceSize);
}

FailureOr<int64_t> DeviceTarget::sliceSizeOf(ModuleOp module) {
  std::optional<int64_t> size;
  MeshOp first;
  for (MeshOp meshOp : module.getOps<MeshOp>()) {
    MeshAttr mesh = meshOp.getMesh();
    if (!mesh.isHybrid())
      continue;
    int64_t s = mesh.getSliceSize();
    if (size && *size != s)
      return meshOp.emitOpError()
             << "has slices of " << s << " devices but mesh @"
             << first.getSymName() << " has slices of " << *size
             << "; the hybrid meshes of a module must agree on its slices";
    if (!size) {
      size = s;
      first = meshOp;
    }
  }
  return size.value_or(0);
}

} // namespace xspmd::lower
