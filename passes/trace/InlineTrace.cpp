//===- InlineTrace.cpp - inline xla.trace, keep names in locations --------===//

#include "dialects/xla/XlaTrace.h"
#include "passes/Passes.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAINLINETRACEPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

namespace {

struct InlineTracePass : xspmd::impl::XlaInlineTracePassBase<InlineTracePass> {
  void runOnOperation() override { xspmd::xla::inlineTraceOps(getOperation()); }
};

} // namespace
