//===- DeviceTarget.cpp - the devices a program is lowered for ------------===//

#include "passes/lower/DeviceTarget.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::lower {

LinkClass DeviceTarget::classify(llvm::ArrayRef<int64_t> devices) const {
  if (sliceSize <= 0)
    return LinkClass::ici;
  llvm::SmallDenseSet<int64_t, 8> slices;
  for (int64_t d : devices)
    slices.insert(d / sliceSize);
  if (slices.size() <= 1)
    return LinkClass::ici;
  if (slices.size() == devices.size())
    return LinkClass::dcn;
  return LinkClass::mixed;
}

FailureOr<int64_t> DeviceTarget::sliceSizeOf(ModuleOp module) {
  std::optional<int64_t> size;
  MeshOp first;
  for (MeshOp meshOp : module.getOps<MeshOp>()) {
    MeshAttr mesh = meshOp.getMesh();
    if (!mesh.isHybrid())
      continue;
    int64_t s = 1;
    for (int64_t i = 0; i < mesh.getRank(); ++i)
      s *= mesh.getIciSize(i);
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
