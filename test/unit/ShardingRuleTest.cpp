//===- ShardingRuleTest.cpp - op sharding rules as data -------------------===//

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaShardingRule.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace xspmd::xla;

namespace {

std::string reshape(llvm::ArrayRef<int64_t> in, llvm::ArrayRef<int64_t> out) {
  return reshapeRule(in, out).str();
}

TEST(ReshapeRule, MergeKeepsMajorFactor) {
  EXPECT_EQ(reshape({8, 4}, {32}), "([i, j])->([ij]) {i=8, j=4}");
}

TEST(ReshapeRule, SplitGivesCompoundOperand) {
  EXPECT_EQ(reshape({32}, {4, 8}), "([ij])->([i, j]) {i=4, j=8}");
}

TEST(ReshapeRule, CompoundOnBothSides) {
  EXPECT_EQ(reshape({8, 4}, {2, 16}), "([ij, k])->([i, jk]) {i=2, j=4, k=4}");
}

TEST(ReshapeRule, SizeOneDimensionsHaveNoFactor) {
  EXPECT_EQ(reshape({1, 8, 1, 4}, {32, 1}),
            "([1, i, 1, j])->([ij, 1]) {i=8, j=4}");
}

TEST(ReshapeRule, HeadsSplit) {
  // [B, S, H*Dh] -> [B, S, H, Dh], as in attention.
  EXPECT_EQ(reshape({2, 16, 64}, {2, 16, 4, 16}),
            "([i, j, kl])->([i, j, k, l]) {i=2, j=16, k=4, l=16}");
}

TEST(ReshapeRule, CoprimeRemaindersNeedReplication) {
  // 6 = 2*3 and 4 = 2*2 share their major 2; the rest cannot be shared.
  EXPECT_EQ(reshape({6, 4}, {4, 6}),
            "([ij, m])->([ik, l]) {i=2, j=3, k=2, l=6, m=4} "
            "need_replication={j, k, l, m}");
}

TEST(ReshapeRule, ResynchronisesAfterEntangledGroup) {
  // [3,4,5] -> [2,6,5]: 12 elements entangled, then 5 shared again.
  OpShardingRule rule = reshapeRule({3, 4, 5}, {2, 6, 5});
  EXPECT_EQ(rule.operands[0][2], rule.results[0][2]);
  EXPECT_EQ(rule.factorKinds[rule.operands[0][2].front()],
            FactorKind::passThrough);
}

class RuleFixture : public ::testing::Test {
protected:
  RuleFixture() { ctx.loadDialect<XlaDialect>(); }
  mlir::MLIRContext ctx;
};

TEST_F(RuleFixture, EveryComputationalOpHasARule) {
  for (mlir::RegisteredOperationName name : ctx.getRegisteredOperations()) {
    if (name.getDialectNamespace() != "xla" ||
        name.getStringRef() == "xla.mesh")
      continue;
    EXPECT_TRUE(name.hasInterface<ShardingRuleOpInterface>())
        << name.getStringRef().str() << " has no sharding rule";
  }
}

TEST_F(RuleFixture, TextFormRoundTripsThroughTheAttribute) {
  // A max-reduction over dimension 1 of a [6,4] reshaped from [4,6].
  OpShardingRule rule = reshapeRule({6, 4}, {4, 6});
  OpShardingRuleBuilder b({{6, 4}, {4, 6}}, {{6}});
  b.setReductionKind(ReductionKind::max);
  b.addFactor({0, -1}, {0}, 6);
  b.addFactor({1, -1}, {}, 4, FactorKind::reduction);
  b.addFactor({-1, 0}, {}, 4, FactorKind::needReplication);
  b.addFactor({-1, 1}, {}, 6, FactorKind::permutation);
  rule = b.build();
  EXPECT_EQ(rule.str(), "([i, j], [k, l])->([i]) {i=6, j=4, k=4, l=6} "
                        "reduction<max>={j} need_replication={k} "
                        "permutation={l}");
  OpShardingRuleAttr attr = ruleToAttr(&ctx, rule);
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::Attribute(attr).print(os);
  auto parsed = llvm::dyn_cast_if_present<OpShardingRuleAttr>(
      mlir::parseAttribute(text, &ctx));
  ASSERT_TRUE(parsed) << text;
  EXPECT_EQ(parsed, attr);
  EXPECT_TRUE(ruleFromAttr(parsed) == rule);
}

TEST(FactorName, LettersThenNumbered) {
  EXPECT_EQ(factorName(0), "i");
  EXPECT_EQ(factorName(17), "z");
  EXPECT_EQ(factorName(18), "z_1");
}

} // namespace
