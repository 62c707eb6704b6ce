//===- ReportCollectives.cpp - what a program communicates ----------------===//

#include "passes/Passes.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAREPORTCOLLECTIVESPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;

namespace {

int64_t bytesOf(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

/// Bytes each device sends for `op` with the ring algorithms (input block
/// `in`, group size `g`).
int64_t bytesSent(Operation *op, int64_t in, int64_t g) {
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([&](AllGatherOp) { return (g - 1) * in; })
      .Case<ReduceScatterOp, AllToAllOp>([&](auto) { return in * (g - 1) / g; })
      .Case([&](AllReduceOp) { return 2 * in * (g - 1) / g; })
      .Case([&](CollectivePermuteOp cp) -> int64_t {
        // Every pair whose source and target differ moves the block.
        auto flat = llvm::to_vector(cp.getPairs().getValues<int64_t>());
        for (size_t i = 0; i + 1 < flat.size(); i += 2)
          if (flat[i] != flat[i + 1])
            return in;
        return 0;
      })
      .Default([](Operation *) { return int64_t(0); });
}

struct ReportCollectivesPass
    : xspmd::impl::XlaReportCollectivesPassBase<ReportCollectivesPass> {
  void runOnOperation() override {
    llvm::raw_ostream &os = llvm::outs();
    SymbolTableCollection symbols;
    MeshOp anyMesh = findFirstMesh(getOperation());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      struct Line {
        std::string text;
        LinkClass link;
        int64_t sent;
      };
      SmallVector<Line> lines;
      func.walk([&](CollectiveOpInterface op) {
        Operation *o = op.getOperation();
        MeshOp meshOp = op.getMeshAttr()
                            ? lookupMesh(o, op.getMeshAttr(), &symbols)
                            : anyMesh;
        MeshAttr mesh = meshOp ? meshOp.getMesh() : MeshAttr();
        int64_t numDevices = mesh ? mesh.getNumDevices() : 1;
        DeviceGroups groups = resolveParticipantGroups(op, mesh, numDevices);
        int64_t g = groups.empty() ? 1 : groups.front().size();
        LinkClass link;
        if (LinkClassAttr tag = op.getLinkAttr())
          link = tag.getValue();
        else if (ArrayAttr axes = op.getAxesAttr())
          link = mesh.getLinkClassOfAxes(
              llvm::to_vector(axes.getAsValueRange<StringAttr>()));
        else
          link = mesh ? mesh.getLinkClassOfGroups(groups) : LinkClass::ici;
        int64_t in = bytesOf(o->getOperand(0));
        int64_t sent = bytesSent(o, in, g);
        std::string text;
        llvm::raw_string_ostream line(text);
        line << o->getName().stripDialect();
        if (auto ar = dyn_cast<AllReduceOp>(o))
          line << ' ' << stringifyReductionKind(ar.getKind());
        if (auto rs = dyn_cast<ReduceScatterOp>(o))
          line << ' ' << stringifyReductionKind(rs.getKind());
        if (ArrayAttr axes = op.getAxesAttr()) {
          line << " mesh_axes [";
          llvm::interleaveComma(axes.getAsValueRange<StringAttr>(), line,
                                [&](StringRef a) { line << '"' << a << '"'; });
          line << "] (group " << g << ")";
        } else {
          line << " groups " << groups.size() << "x" << g;
        }
        line << ' ' << stringifyLinkClass(link) << " in " << in << " B sends "
             << sent << " B";
        lines.push_back({text, link, sent});
      });
      int64_t total = 0, ici = 0, dcn = 0;
      for (const Line &l : lines) {
        total += l.sent;
        (l.link == LinkClass::ici ? ici : dcn) += l.sent;
      }
      os << '@' << func.getSymName() << ": " << lines.size()
         << (lines.size() == 1 ? " collective" : " collectives") << ", sends "
         << total << " B per device (ici " << ici << " B, dcn or mixed " << dcn
         << " B)\n";
      for (const Line &l : lines)
        os << "  " << l.text << "\n";
    }
    os.flush();
    markAllAnalysesPreserved();
  }
};

} // namespace
