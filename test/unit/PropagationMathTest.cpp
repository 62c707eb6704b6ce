//===- PropagationMathTest.cpp - factor projection and mesh refinement ----===//

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaSubAxes.h"
#include "passes/propagation/AxisSharding.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace xspmd::prop;

namespace {

class PropagationMath : public ::testing::Test {
protected:
  PropagationMath() { ctx.loadDialect<xspmd::xla::XlaDialect>(); }

  MeshAxes mesh(StringRef text) {
    return MeshAxes(cast<xspmd::xla::MeshAttr>(
        parseAttribute(("#xla.mesh<" + text + ">").str(), &ctx)));
  }
  AxisList axes(std::initializer_list<StringRef> names) {
    AxisList list;
    for (StringRef n : names)
      list.push_back(StringAttr::get(&ctx, n));
    return list;
  }

  MLIRContext ctx;
};

TEST_F(PropagationMath, ProjectFillsFactorsMajorToMinor) {
  MeshAxes m = mesh(R"(["x"=2, "y"=2, "z"=4])");
  SmallVector<AxisList> factors(2);
  // A dimension [f0=4, f1=8] sharded over x, y, z: x and y cover f0.
  EXPECT_EQ(projectDim(axes({"x", "y", "z"}), {0, 1}, {4, 8}, m, factors), 3u);
  EXPECT_EQ(factors[0], axes({"x", "y"}));
  EXPECT_EQ(factors[1], axes({"z"}));
  EXPECT_EQ(composeDim({0, 1}, factors, {4, 8}, m), axes({"x", "y", "z"}));
}

TEST_F(PropagationMath, ProjectSplitsAnAxisIntoSubAxes) {
  MeshAxes m = mesh(R"(["x"=4, "y"=2])");
  SmallVector<AxisList> factors(2);
  // [f0=2, f1=16]: x (4) gives 2 to f0 and 2 to f1, as sub-axes.
  EXPECT_EQ(projectDim(axes({"x"}), {0, 1}, {2, 16}, m, factors), 1u);
  EXPECT_EQ(factors[0], axes({"x:(1)2"}));
  EXPECT_EQ(factors[1], axes({"x:(2)2"}));
  // And back into the dimension: the whole axis.
  EXPECT_EQ(composeDim({0, 1}, factors, {2, 16}, m), axes({"x"}));
  // Not when the dimension is padded (6 rows over 4 shards): the shards of
  // the rows are not even ranges of the factors.
  SmallVector<AxisList> padded(2);
  EXPECT_EQ(projectDim(axes({"x"}), {0, 1}, {2, 3}, m, padded), 0u);
  EXPECT_TRUE(padded[0].empty());
  EXPECT_TRUE(padded[1].empty());
}

TEST_F(PropagationMath, ComposeStopsAfterAPartlyCoveredFactor) {
  MeshAxes m = mesh(R"(["x"=2, "y"=2])");
  SmallVector<AxisList> factors = {axes({"x"}), axes({"y"})};
  // f0 has size 4 but only x (2) on it: y on f1 would not be contiguous.
  EXPECT_EQ(composeDim({0, 1}, factors, {4, 8}, m), axes({"x"}));
  // A single-factor dimension takes its axes, divisible or not.
  SmallVector<AxisList> single = {axes({"x", "y"})};
  EXPECT_EQ(composeDim({0}, single, {6}, m), axes({"x", "y"}));
  // A non-dividing axis never enters a compound dimension.
  SmallVector<AxisList> uneven = {axes({"x", "y"}), axes({})};
  EXPECT_TRUE(composeDim({0, 1}, uneven, {6, 4}, m).empty());
}

TEST_F(PropagationMath, RefinementMapsSubAxesToAtoms) {
  using xspmd::xla::MeshRefinement;
  auto m = cast<xspmd::xla::MeshAttr>(
      parseAttribute(R"(#xla.mesh<["x"=8, "y"=4]>)", &ctx));
  xspmd::xla::SubAxisCuts cuts;
  for (StringRef name : {"x:(2)2", "x", "y"})
    xspmd::xla::noteSubAxisCuts(m, StringAttr::get(&ctx, name), cuts);
  std::string error;
  std::optional<MeshRefinement> r = MeshRefinement::build(m, cuts, error);
  ASSERT_TRUE(r) << error;
  // x splits at 2 and 4 into three atoms, row-major; y stays whole.
  EXPECT_EQ(r->getRefined().getRank(), 4);
  EXPECT_EQ(r->expand(StringAttr::get(&ctx, "x")),
            axes({"x:(1)2", "x:(2)2", "x:(4)2"}));
  EXPECT_EQ(r->expand(StringAttr::get(&ctx, "x:(2)4")),
            axes({"x:(2)2", "x:(4)2"}));
  EXPECT_EQ(r->expand(StringAttr::get(&ctx, "y")), axes({"y"}));
  EXPECT_EQ(r->expand(StringAttr::get(&ctx, "x:(1)4")),
            axes({"x:(1)2", "x:(2)2"}));
  // A part whose ends are not cuts has no atoms: y is not split.
  EXPECT_TRUE(r->expand(StringAttr::get(&ctx, "y:(1)2")).empty());
  std::optional<MeshRefinement> coarse =
      MeshRefinement::build(m, xspmd::xla::SubAxisCuts{{1, 4, 8}}, error);
  ASSERT_TRUE(coarse);
  // Nor one starting inside an atom (x split at 4 only).
  EXPECT_TRUE(coarse->expand(StringAttr::get(&ctx, "x:(2)2")).empty());
  // Cuts that are no divisibility chain are rejected.
  auto six =
      cast<xspmd::xla::MeshAttr>(parseAttribute(R"(#xla.mesh<["x"=6]>)", &ctx));
  EXPECT_FALSE(
      MeshRefinement::build(six, xspmd::xla::SubAxisCuts{{2, 3}}, error));
  EXPECT_NE(error.find("incompatible"), std::string::npos);
}

} // namespace
