//===- DumpMeshes.cpp - print meshes, link classes, device arrays ---------===//

#include "passes/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace xspmd {
#define GEN_PASS_DEF_XLADUMPMESHESPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;

namespace {

/// Prints `devices` (row-major over `shape`) as nested lists.
void printNested(llvm::raw_ostream &os, ArrayRef<int64_t> shape,
                 ArrayRef<int64_t> devices) {
  if (shape.empty()) {
    os << devices.front();
    return;
  }
  int64_t inner = devices.size() / shape.front();
  os << '[';
  for (int64_t i = 0; i < shape.front(); ++i) {
    if (i)
      os << ", ";
    printNested(os, shape.drop_front(), devices.slice(i * inner, inner));
  }
  os << ']';
}

struct DumpMeshesPass : xspmd::impl::XlaDumpMeshesPassBase<DumpMeshesPass> {
  void runOnOperation() override {
    llvm::raw_ostream &os = llvm::outs();
    for (auto meshOp : getOperation().getOps<MeshOp>()) {
      MeshAttr mesh = meshOp.getMesh();
      SmallVector<int64_t> shape;
      for (MeshAxisAttr axis : mesh.getAxes())
        shape.push_back(axis.getSize());
      if (mesh.isMaximal()) {
        os << "mesh @" << meshOp.getSymName() << ": maximal on device "
           << mesh.getMaximalDevice() << "\n";
        continue;
      }
      os << "mesh @" << meshOp.getSymName() << ": " << mesh.getNumDevices()
         << " devices, shape [";
      llvm::interleaveComma(shape, os);
      os << "]" << (mesh.isHybrid() ? ", hybrid" : "") << "\n";
      for (auto [i, axis] : llvm::enumerate(mesh.getAxes())) {
        os << "  axis \"" << axis.getName().getValue() << "\" size "
           << axis.getSize();
        if (mesh.isHybrid())
          os << " (ici " << mesh.getIciSize(i) << " x dcn "
             << mesh.getDcnSize(i) << ")";
        os << " link " << stringifyLinkClass(mesh.getLinkClass(i)) << "\n";
      }
      SmallVector<int64_t> devices = mesh.getDeviceArray();
      os << "  devices (row-major):";
      for (int64_t d : devices)
        os << ' ' << d;
      os << "\n  logical array: ";
      printNested(os, shape, devices);
      os << "\n";
    }
    os.flush();
    markAllAnalysesPreserved();
  }
};

} // namespace
