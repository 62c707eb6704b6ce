//===- HloShardingTest.cpp - HloSharding text round trips -----------------===//
//
// Every partition spec over a set of meshes exports (explicit and iota
// forms) to tile assignments that agree with each other and import back to
// the same spec.
//
//===----------------------------------------------------------------------===//

#include "passes/interop/HloSharding.h"
#include "dialects/xla/XlaOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace mlir;
using namespace xspmd::xla;
using namespace xspmd::interop;

namespace {

class HloShardingTest : public ::testing::Test {
protected:
  HloShardingTest() { ctx.loadDialect<XlaDialect>(); }

  MeshAttr mesh(StringRef text) {
    return cast<MeshAttr>(
        parseAttribute(("#xla.mesh<" + text + ">").str(), &ctx));
  }

  /// Every partition spec of a rank-`rank` tensor over the mesh's axes of
  /// size > 1: each axis unused or on one dimension, in every order.
  std::vector<ShardingAttr> allSpecs(MeshAttr m, int64_t rank) {
    SmallVector<int64_t> axes;
    for (auto [i, axis] : llvm::enumerate(m.getAxes()))
      if (axis.getSize() > 1)
        axes.push_back(i);
    std::vector<ShardingAttr> specs;
    int64_t choices = 1;
    for (size_t i = 0; i < axes.size(); ++i)
      choices *= rank + 1;
    auto ref = FlatSymbolRefAttr::get(&ctx, "m");
    for (int64_t code = 0; code < choices; ++code) {
      std::vector<std::vector<int64_t>> dims(rank);
      int64_t c = code;
      for (int64_t a : axes) {
        int64_t where = c % (rank + 1);
        c /= rank + 1;
        if (where < rank)
          dims[where].push_back(a);
      }
      // All orders within each dimension.
      std::function<void(int64_t)> orders = [&](int64_t d) {
        if (d == rank) {
          SmallVector<DimShardingAttr> attrs;
          for (const auto &dim : dims) {
            SmallVector<StringAttr> names;
            for (int64_t a : dim)
              names.push_back(m.getAxes()[a].getName());
            attrs.push_back(
                DimShardingAttr::get(&ctx, names, false, std::nullopt));
          }
          specs.push_back(
              ShardingAttr::get(&ctx, ref, attrs, {}, ReductionKind::sum));
          return;
        }
        std::sort(dims[d].begin(), dims[d].end());
        do
          orders(d + 1);
        while (std::next_permutation(dims[d].begin(), dims[d].end()));
      };
      orders(0);
    }
    return specs;
  }

  void roundTrip(StringRef meshText, int64_t maxRank) {
    MeshAttr m = mesh(meshText);
    ASSERT_TRUE(m) << meshText.str();
    auto ref = FlatSymbolRefAttr::get(&ctx, "m");
    int64_t checked = 0;
    for (int64_t rank = 0; rank <= maxRank; ++rank) {
      for (ShardingAttr spec : allSpecs(m, rank)) {
        std::string explicitText, iotaText, error;
        ASSERT_TRUE(exportHloSharding(spec, m, false, explicitText, error));
        ASSERT_TRUE(exportHloSharding(spec, m, true, iotaText, error));
        HloSharding a, b;
        ASSERT_TRUE(parseHloSharding(explicitText, a, error)) << error;
        ASSERT_TRUE(parseHloSharding(iotaText, b, error)) << error;
        EXPECT_EQ(a.tileDims, b.tileDims) << explicitText << " " << iotaText;
        // The iota form's groups may list devices in another order.
        if (a.lastTileDimReplicate && !a.devices.empty()) {
          int64_t g = a.tileDims.back();
          for (size_t i = 0; i < b.devices.size(); i += g)
            std::sort(b.devices.begin() + i, b.devices.begin() + i + g);
        }
        EXPECT_EQ(a.devices, b.devices) << explicitText << " " << iotaText;
        for (const std::string &text : {explicitText, iotaText}) {
          FailureOr<ShardingAttr> back =
              importHloSharding(text, m, ref, rank, [&] {
                return emitError(UnknownLoc::get(&ctx));
              });
          ASSERT_TRUE(succeeded(back)) << text;
          EXPECT_EQ(*back, spec) << text;
        }
        ++checked;
      }
    }
    EXPECT_GT(checked, 0);
  }

  /// A closed sharding over mesh @m naming `dims`' axes (sub-axes as
  /// "x:(m)k").
  ShardingAttr spec(std::vector<std::vector<StringRef>> dims) {
    SmallVector<DimShardingAttr> attrs;
    for (auto &dim : dims) {
      SmallVector<StringAttr> names;
      for (StringRef n : dim)
        names.push_back(StringAttr::get(&ctx, n));
      attrs.push_back(DimShardingAttr::get(&ctx, names, false, std::nullopt));
    }
    return ShardingAttr::get(&ctx, FlatSymbolRefAttr::get(&ctx, "m"), attrs, {},
                             ReductionKind::sum);
  }

  MLIRContext ctx;
};

TEST_F(HloShardingTest, PlainMeshes) {
  roundTrip(R"(["x"=8])", 2);
  roundTrip(R"(["x"=2, "y"=4])", 3);
  roundTrip(R"(["a"=2, "b"=2, "c"=2])", 3);
  roundTrip(R"(["data"=2, "fsdp"=4, "tensor"=1])", 2);
}

TEST_F(HloShardingTest, ExplicitDeviceOrder) {
  roundTrip(R"(["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7])", 2);
  roundTrip(R"(["x"=2, "y"=2], devices=[3, 1, 0, 2])", 2);
}

TEST_F(HloShardingTest, HybridMeshes) {
  roundTrip(R"(hybrid ici=["x"=2, "y"=2], dcn=["x"=1, "y"=2])", 2);
  roundTrip(R"(hybrid ici=["data"=1, "fsdp"=4], dcn=["data"=2, "fsdp"=1])", 2);
  roundTrip(R"(hybrid ici=["a"=2, "b"=2], dcn=["a"=2, "b"=2])", 2);
}

TEST_F(HloShardingTest, IotaCanonicalForm) {
  // Merged adjacent dimensions, no T() for the identity, size-1 dropped.
  MeshAttr m = mesh(R"(["a"=3, "b"=1, "c"=4, "d"=5])");
  std::string text, error;
  ASSERT_TRUE(exportHloSharding(spec({{"a", "c", "d"}}), m, true, text, error));
  EXPECT_EQ(text, "{devices=[60]<=[60]}");
  ASSERT_TRUE(
      exportHloSharding(spec({{"c"}, {"d", "a"}}), m, true, text, error));
  // XLA's own example (tile_assignment.cc): [3,4,5]T(1,2,0) => [3,20]T(1,0).
  EXPECT_EQ(text, "{devices=[4,15]<=[3,20]T(1,0)}");
  ASSERT_TRUE(exportHloSharding(spec({{"d"}, {}}), m, true, text, error));
  EXPECT_EQ(text, "{devices=[5,1,12]<=[12,5]T(1,0) last_tile_dim_replicate}");
}

/// Sub-axes export as the tile assignment of the refined mesh and import
/// back: a tile assignment no whole-axis spec gives is found over parts of
/// axes.
TEST_F(HloShardingTest, SubAxes) {
  MeshAttr m = mesh(R"(["x"=4, "y"=2])");
  auto ref = FlatSymbolRefAttr::get(&ctx, "m");
  auto importBack = [&](StringRef text, int64_t rank) {
    return importHloSharding(text, m, ref, rank,
                             [&] { return emitError(UnknownLoc::get(&ctx)); });
  };
  std::string text, error;
  // Devices row-major over [x0=2, x1=2, y=2]: dim 0 on the major half of
  // "x", dim 1 on its minor half, "y" replicates.
  ShardingAttr parts = spec({{"x:(1)2"}, {"x:(2)2"}});
  ASSERT_TRUE(exportHloSharding(parts, m, false, text, error)) << error;
  EXPECT_EQ(text, "{devices=[2,2,2]0,1,2,3,4,5,6,7 last_tile_dim_replicate}");
  FailureOr<ShardingAttr> back = importBack(text, 2);
  ASSERT_TRUE(succeeded(back));
  EXPECT_EQ(*back, parts);
  // Minor half on dim 0, major half with "y" on dim 1.
  ShardingAttr swapped = spec({{"x:(2)2"}, {"x:(1)2", "y"}});
  ASSERT_TRUE(exportHloSharding(swapped, m, true, text, error)) << error;
  back = importBack(text, 2);
  ASSERT_TRUE(succeeded(back)) << text;
  EXPECT_EQ(*back, swapped) << text;
  // Adjacent parts in one dimension are the whole axis.
  ASSERT_TRUE(exportHloSharding(spec({{"x:(1)2", "x:(2)2"}, {}}), m, false,
                                text, error));
  back = importBack(text, 2);
  ASSERT_TRUE(succeeded(back));
  EXPECT_EQ(*back, spec({{"x"}, {}}));
}

} // namespace
