//===- XlaAttrVerifyTest.cpp - verifier rules the parser cannot reach -----===//
//
// The textual parser already rejects some inputs before the attributes'
// verifiers run (a hybrid mesh with a device list, a negative priority, a
// sharding without a mesh). Passes build attributes in C++, so these rules
// are checked here through the builders.
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlir;
using namespace xspmd::xla;

namespace {

class XlaAttrVerifyTest : public ::testing::Test {
protected:
  XlaAttrVerifyTest()
      : handler(&ctx, [this](Diagnostic &d) {
          messages += d.str() + "\n";
          return success();
        }) {
    ctx.loadDialect<XlaDialect>();
  }

  InFlightDiagnostic emitError() {
    return mlir::emitError(UnknownLoc::get(&ctx));
  }

  MeshAxisAttr axis(StringRef name, int64_t size) {
    return MeshAxisAttr::get(&ctx, StringAttr::get(&ctx, name), size);
  }

  DimShardingAttr dim(ArrayRef<StringRef> names, bool open = false,
                      std::optional<int64_t> priority = std::nullopt) {
    SmallVector<StringAttr> axes;
    for (StringRef n : names)
      axes.push_back(StringAttr::get(&ctx, n));
    return DimShardingAttr::get(&ctx, axes, open, priority);
  }

  MLIRContext ctx;
  std::string messages;
  ScopedDiagnosticHandler handler;
};

TEST_F(XlaAttrVerifyTest, ValidMeshesBuild) {
  EXPECT_TRUE(MeshAttr::getChecked([&] { return emitError(); }, &ctx,
                                   {axis("x", 2), axis("y", 2)}, {3, 2, 1, 0},
                                   {}));
  EXPECT_TRUE(MeshAttr::getChecked([&] { return emitError(); }, &ctx,
                                   {axis("x", 4)}, {}, {2}));
  EXPECT_EQ(messages, "");
}

TEST_F(XlaAttrVerifyTest, HybridMeshCannotListDevices) {
  EXPECT_FALSE(MeshAttr::getChecked([&] { return emitError(); }, &ctx,
                                    {axis("x", 4)}, {0, 1, 2, 3}, {2}));
  EXPECT_NE(messages.find("a hybrid mesh orders its devices itself"),
            std::string::npos)
      << messages;
}

TEST_F(XlaAttrVerifyTest, HybridMeshDcnRank) {
  EXPECT_FALSE(MeshAttr::getChecked([&] { return emitError(); }, &ctx,
                                    {axis("x", 4), axis("y", 2)}, {}, {2}));
  EXPECT_NE(messages.find("hybrid mesh has 2 ICI axes but 1 DCN axes"),
            std::string::npos)
      << messages;
}

TEST_F(XlaAttrVerifyTest, HybridMeshDcnMustDivideAxis) {
  EXPECT_FALSE(MeshAttr::getChecked([&] { return emitError(); }, &ctx,
                                    {axis("x", 4)}, {}, {3}));
  EXPECT_NE(messages.find("hybrid mesh axis \"x\" has DCN size 3"),
            std::string::npos)
      << messages;
}

TEST_F(XlaAttrVerifyTest, HybridMeshDcnPositive) {
  EXPECT_FALSE(MeshAttr::getChecked([&] { return emitError(); }, &ctx,
                                    {axis("x", 4)}, {}, {0}));
  EXPECT_NE(messages.find("has DCN size 0"), std::string::npos) << messages;
}

TEST_F(XlaAttrVerifyTest, ShardingNeedsMesh) {
  EXPECT_FALSE(ShardingAttr::getChecked([&] { return emitError(); }, &ctx,
                                        FlatSymbolRefAttr(), {dim({})}, {},
                                        ReductionKind::sum));
  EXPECT_NE(messages.find("sharding needs a mesh"), std::string::npos)
      << messages;
}

TEST_F(XlaAttrVerifyTest, NegativePriority) {
  auto mesh = FlatSymbolRefAttr::get(&ctx, "mesh");
  EXPECT_FALSE(ShardingAttr::getChecked([&] { return emitError(); }, &ctx, mesh,
                                        {dim({}), dim({"x"}, false, -1)}, {},
                                        ReductionKind::sum));
  EXPECT_NE(messages.find("dimension 1 has negative priority"),
            std::string::npos)
      << messages;
}

TEST_F(XlaAttrVerifyTest, OpenReplicatedDimMayCarryPriority) {
  auto mesh = FlatSymbolRefAttr::get(&ctx, "mesh");
  EXPECT_TRUE(ShardingAttr::getChecked([&] { return emitError(); }, &ctx, mesh,
                                       {dim({}, /*open=*/true, 0)}, {},
                                       ReductionKind::sum));
  EXPECT_EQ(messages, "");
}

TEST_F(XlaAttrVerifyTest, ArgumentAttributesOnlyOnFunctions) {
  OpBuilder builder(&ctx);
  auto module = ModuleOp::create(builder, UnknownLoc::get(&ctx));
  auto *dialect = ctx.getLoadedDialect<XlaDialect>();
  NamedAttribute donate(StringAttr::get(&ctx, kDonateAttrName),
                        UnitAttr::get(&ctx));
  EXPECT_TRUE(failed(dialect->verifyRegionArgAttribute(module, 0, 0, donate)));
  EXPECT_NE(messages.find("'xla.donate' is only valid on function arguments"),
            std::string::npos)
      << messages;
  EXPECT_TRUE(
      failed(dialect->verifyRegionResultAttribute(module, 0, 0, donate)));
  EXPECT_NE(messages.find("'xla.donate' is only valid on function results"),
            std::string::npos)
      << messages;
  module->erase();
}

} // namespace
