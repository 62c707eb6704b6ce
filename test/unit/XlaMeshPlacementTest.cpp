//===- XlaMeshPlacementTest.cpp - xla meshes on topologies ----------------===//

#include "runtime/topology/XlaMeshPlacement.h"
#include "runtime/topology/TopologyParser.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace xspmd;
using namespace xspmd::topology;

namespace {

class XlaMeshPlacementTest : public ::testing::Test {
protected:
  XlaMeshPlacementTest() { context.loadDialect<xla::XlaDialect>(); }

  xla::MeshAttr mesh(llvm::StringRef text) {
    auto attr = llvm::dyn_cast_or_null<xla::MeshAttr>(
        mlir::parseAttribute(text, &context));
    EXPECT_TRUE(attr) << text.str();
    return attr;
  }

  mlir::MLIRContext context;
};

TEST_F(XlaMeshPlacementTest, HybridMeshAxesGetTheirLinks) {
  // torch_xla's HybridMesh docstring: 2 slices of v4-8,
  // ici (data=1, fsdp=4, tensor=1), dcn (2, 1, 1).
  Topology topology = cantFail(parseTopology("v4-8", 2));
  auto placements = cantFail(
      placeMesh(topology, mesh("#xla.mesh<hybrid ici=[\"data\"=1, \"fsdp\"=4, "
                               "\"tensor\"=1], dcn=[\"data\"=2, \"fsdp\"=1, "
                               "\"tensor\"=1]>")));
  ASSERT_EQ(placements.size(), 3u);
  EXPECT_EQ(placements[0].linkClass, LinkClass::Dcn);
  EXPECT_EQ(placements[0].slicesSpanned, 2);
  EXPECT_EQ(placements[0].describe(), "data=2: dcn across 2 slices");
  EXPECT_EQ(placements[1].linkClass, LinkClass::Ici);
  // The 4 chips of one v4-8 host form a 2x2 block.
  EXPECT_EQ(placements[1].describe(),
            "fsdp=4: ici, torus x (line of 2) x y (line of 2)");
  EXPECT_EQ(placements[2].describe(), "tensor=1: ici");
}

TEST_F(XlaMeshPlacementTest, MixedAxisAndRings) {
  // v6e 16x16 x 2 slices; "data" = 2 slices x 16 chips along x (a ring).
  Topology topology = cantFail(parseTopology("v6e:16x16", 2));
  auto placements = cantFail(placeMesh(
      topology, mesh("#xla.mesh<hybrid ici=[\"data\"=16, \"model\"=16], "
                     "dcn=[\"data\"=2, \"model\"=1]>")));
  // Row-major over (data, model): model varies fastest = torus x.
  EXPECT_EQ(placements[1].describe(), "model=16: ici, torus x (ring of 16)");
  EXPECT_EQ(placements[0].linkClass, LinkClass::Mixed);
  EXPECT_EQ(placements[0].describe(),
            "data=32: mixed across 2 slices, torus y (ring of 16)");
}

TEST_F(XlaMeshPlacementTest, PlainMeshOverSlicesAndIrregularOrder) {
  Topology topology = cantFail(parseTopology("v5p:2x2x1", 2));
  // A plain mesh over two slices: the major axis crosses DCN.
  auto plain =
      cantFail(placeMesh(topology, mesh("#xla.mesh<[\"a\"=2, \"b\"=4]>")));
  EXPECT_EQ(plain[0].linkClass, LinkClass::Dcn);
  EXPECT_EQ(plain[1].linkClass, LinkClass::Ici);
  // An explicit order that pairs chips across slices inside axis "b".
  auto shuffled = cantFail(placeMesh(
      topology,
      mesh("#xla.mesh<[\"a\"=2, \"b\"=4], devices=[0,4,1,5,2,6,3,7]>")));
  EXPECT_EQ(shuffled[1].linkClass, LinkClass::Mixed);
  EXPECT_EQ(shuffled[0].linkClass, LinkClass::Ici);
}

TEST_F(XlaMeshPlacementTest, MeshThatDoesNotFit) {
  Topology topology = cantFail(parseTopology("v5p:4x4x4", 2));
  llvm::Expected<llvm::SmallVector<MeshAxisPlacement>> tooSmall =
      placeMesh(topology, mesh("#xla.mesh<[\"data\"=64]>"));
  ASSERT_FALSE(static_cast<bool>(tooSmall));
  EXPECT_NE(llvm::toString(tooSmall.takeError())
                .find("has 64 devices but the topology v5p 4x4x4"),
            std::string::npos);
  llvm::Expected<llvm::SmallVector<MeshAxisPlacement>> wrongSlices = placeMesh(
      topology, mesh("#xla.mesh<hybrid ici=[\"data\"=1, \"fsdp\"=32], "
                     "dcn=[\"data\"=4, \"fsdp\"=1]>"));
  ASSERT_FALSE(static_cast<bool>(wrongSlices));
  EXPECT_NE(llvm::toString(wrongSlices.takeError())
                .find("DCN shape [4,1] lays out 4 slices but the topology has "
                      "2"),
            std::string::npos);
}

} // namespace
