//===- AnnotateShardingRules.cpp - write op sharding rules as attributes --===//

#include "dialects/xla/XlaShardingRule.h"
#include "passes/Passes.h"

namespace xspmd {
#define GEN_PASS_DEF_XLAANNOTATESHARDINGRULESPASS
#include "passes/Passes.h.inc"
} // namespace xspmd

using namespace mlir;
using namespace xspmd::xla;

namespace {

struct AnnotateShardingRulesPass
    : xspmd::impl::XlaAnnotateShardingRulesPassBase<AnnotateShardingRulesPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation().walk([&](Operation *op) {
      if (isInScalarBody(op))
        return;
      if (std::optional<OpShardingRule> rule = getShardingRule(op))
        op->setAttr(kShardingRuleAttrName, ruleToAttr(ctx, *rule));
    });
  }
};

} // namespace
