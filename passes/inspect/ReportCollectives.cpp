//===- ReportCollectives.cpp - what a program communicates ----------------===//

#include "passes/Passes.h"
#include "passes/inspect/Traffic.h"

#include "llvm/Support/raw_ostream.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAREPORTCOLLECTIVESPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;
using xspmd::inspect::CollectiveTraffic;
using xspmd::inspect::collectiveTraffic;

namespace {

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
        CollectiveTraffic traffic = collectiveTraffic(op, mesh);
        int64_t g = traffic.groupSize, in = traffic.inBytes,
                sent = traffic.sentBytes;
        LinkClass link = traffic.link;
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
          line << " groups " << traffic.numGroups << "x" << g;
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
