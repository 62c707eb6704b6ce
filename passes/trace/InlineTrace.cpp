//===- InlineTrace.cpp - inline xla.trace, keep names in locations --------===//

#include "dialects/xla/XlaTrace.h"
#include "passes/Passes.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAINLINETRACEPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

namespace {

struct InlineTracePass : xspmd::impl::XlaInlineTracePassBase<InlineTracePass> {
  void runOnOperation() override {
    // Untouched IR need not be verified again (the pass manager skips the
    // verifier when all analyses are preserved).
    if (xspmd::xla::inlineTraceOps(getOperation()) == 0)
      markAllAnalysesPreserved();
  }
};

} // namespace
