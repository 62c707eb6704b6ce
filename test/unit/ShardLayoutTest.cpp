//===- ShardLayoutTest.cpp - splitting and assembling global tensors ------===//

#include "runtime/exec/ShardLayout.h"

#include <gtest/gtest.h>

using namespace xspmd::runtime;

namespace {

MeshLayout mesh2x3(std::vector<int64_t> devices = {0, 1, 2, 3, 4, 5}) {
  MeshLayout m;
  m.axisNames = {"a", "b"};
  m.axisSizes = {2, 3};
  m.deviceArray = std::move(devices);
  return m;
}

Tensor iotaTensor(Shape shape) {
  Tensor t = Tensor::allocate(ElementType::i32, shape);
  for (int64_t i = 0; i < t.getNumElements(); ++i)
    t.data<int32_t>()[i] = static_cast<int32_t>(i + 1);
  return t;
}

std::vector<int32_t> values(const Tensor &t) {
  return std::vector<int32_t>(t.data<int32_t>(),
                              t.data<int32_t>() + t.getNumElements());
}

TEST(ShardLayout, TupleOfAxesIsMajorToMinor) {
  MeshLayout mesh = mesh2x3();
  ShardLayout layout;
  layout.dimAxes = {{1, 0}}; // dim 0 over ("b", "a"): 6 shards, b major
  Tensor global = iotaTensor({6});
  // Device 1 is (a=0, b=1): shard index b*2 + a = 2.
  EXPECT_EQ(values(extractBlock(global, layout, mesh, 1)),
            (std::vector<int32_t>{3}));
  // Device 3 is (a=1, b=0): shard index 1.
  EXPECT_EQ(values(extractBlock(global, layout, mesh, 3)),
            (std::vector<int32_t>{2}));
}

TEST(ShardLayout, ContiguousBlocksAreViewsOthersCopies) {
  MeshLayout mesh = mesh2x3();
  Tensor global = iotaTensor({6, 4});
  const int32_t *base = global.data<int32_t>();
  ShardLayout rows;
  rows.dimAxes = {{1}, {}}; // rows over b: contiguous
  Tensor r = extractBlock(global, rows, mesh, 2);
  EXPECT_EQ(r.data<int32_t>(), base + 2 * 2 * 4);
  EXPECT_EQ(values(r), (std::vector<int32_t>{17, 18, 19, 20, 21, 22, 23, 24}));
  ShardLayout cols;
  cols.dimAxes = {{}, {0}}; // columns over a: strided, copied
  Tensor c = extractBlock(global, cols, mesh, 3);
  EXPECT_NE(c.data<int32_t>(), base + 2);
  EXPECT_EQ(values(c),
            (std::vector<int32_t>{3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23, 24}));
  ShardLayout whole = ShardLayout::replicated(2);
  EXPECT_EQ(extractBlock(global, whole, mesh, 5).data<int32_t>(), base);
}

TEST(ShardLayout, NonDivisibleDimsArePaddedAtTheEnd) {
  MeshLayout mesh = mesh2x3();
  ShardLayout layout;
  layout.dimAxes = {{1}, {}}; // 7 rows over b (3 shards): blocks of 3
  Tensor global = iotaTensor({7, 2});
  EXPECT_EQ(layout.localShape(mesh, {7, 2}), (Shape{3, 2}));
  EXPECT_EQ(values(extractBlock(global, layout, mesh, 2)),
            (std::vector<int32_t>{13, 14, 0, 0, 0, 0}));
  // Round trip, with replicas along a agreeing.
  std::vector<Tensor> locals;
  for (int64_t d = 0; d < 6; ++d)
    locals.push_back(extractBlock(global, layout, mesh, d));
  llvm::Expected<Tensor> back = assembleGlobal(locals, layout, mesh, {7, 2});
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_TRUE(back->bitwiseEquals(global));
}

TEST(ShardLayout, RoundTripsEveryLayoutOfAPermutedMesh) {
  MeshLayout mesh = mesh2x3({5, 3, 1, 0, 2, 4});
  Tensor global = iotaTensor({5, 4});
  std::vector<std::vector<Shape>> layouts = {
      {{0}, {1}}, {{1}, {0}}, {{0, 1}, {}}, {{}, {1, 0}}, {{}, {}}, {{}, {0}}};
  for (const auto &dimAxes : layouts) {
    ShardLayout layout;
    layout.dimAxes = dimAxes;
    std::vector<Tensor> locals(6);
    for (int64_t d = 0; d < 6; ++d)
      locals[d] = extractBlock(global, layout, mesh, d);
    llvm::Expected<Tensor> back = assembleGlobal(locals, layout, mesh, {5, 4});
    ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
    EXPECT_TRUE(back->bitwiseEquals(global));
  }
}

TEST(ShardLayout, PartialValuesFoldAndSplit) {
  MeshLayout mesh = mesh2x3();
  ShardLayout layout;
  layout.dimAxes = {{0}};
  layout.partialAxes = {1}; // pending sum over b
  Tensor global = iotaTensor({4});
  std::vector<Tensor> locals(6);
  for (int64_t d = 0; d < 6; ++d)
    locals[d] = extractBlock(global, layout, mesh, d);
  // Only b = 0 holds the value; the others hold zeros.
  EXPECT_EQ(values(locals[0]), (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(values(locals[1]), (std::vector<int32_t>{0, 0}));
  EXPECT_EQ(values(locals[4]), (std::vector<int32_t>{0, 0}));
  llvm::Expected<Tensor> back = assembleGlobal(locals, layout, mesh, {4});
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_TRUE(back->bitwiseEquals(global));
  // Partial sums that do not split evenly still fold.
  locals[1].data<int32_t>()[0] = 5;
  locals[2].data<int32_t>()[0] = -5;
  back = assembleGlobal(locals, layout, mesh, {4});
  ASSERT_TRUE(static_cast<bool>(back));
  EXPECT_TRUE(back->bitwiseEquals(global));
}

TEST(ShardLayout, DisagreeingReplicasAreReported) {
  MeshLayout mesh = mesh2x3();
  ShardLayout layout;
  layout.dimAxes = {{0}}; // replicated over b
  Tensor global = iotaTensor({4});
  std::vector<Tensor> locals(6);
  for (int64_t d = 0; d < 6; ++d)
    locals[d] = extractBlock(global, layout, mesh, d).clone();
  locals[4].data<int32_t>()[1] = 99;
  llvm::Expected<Tensor> back = assembleGlobal(locals, layout, mesh, {4});
  ASSERT_FALSE(static_cast<bool>(back));
  EXPECT_EQ(llvm::toString(back.takeError()),
            "devices 3 and 4 should hold the same replicated block but differ "
            "(element 1: 4 vs 99)");
}

} // namespace
