//===- GlobalBlocksTest.cpp - splitting and assembling global tensors -----===//

#include "runtime/exec/GlobalBlocks.h"

#include <gtest/gtest.h>

using namespace xspmd::runtime;

namespace {

MeshModel mesh2x3(llvm::SmallVector<int64_t> devices = {0, 1, 2, 3, 4, 5}) {
  MeshModel m;
  m.axisNames = {"a", "b"};
  m.axisSizes = {2, 3};
  m.axisLinks = {xspmd::xla::LinkClass::ici, xspmd::xla::LinkClass::ici};
  m.deviceArray = std::move(devices);
  return m;
}

/// The canonical layout of a tensor of `shape` split as `dimAxes`.
ShardLayout makeLayout(const MeshModel &mesh,
                       llvm::SmallVector<llvm::SmallVector<int, 2>> dimAxes,
                       llvm::ArrayRef<int64_t> shape,
                       llvm::SmallVector<int, 2> partial = {}) {
  ShardLayout layout;
  layout.dimAxes = dimAxes;
  for (size_t d = 0; d < shape.size(); ++d) {
    layout.paddedSize.push_back(0);
    layout.paddedSize[d] =
        xspmd::xla::paddedDimSize(shape[d], layout.numShards(mesh, d));
  }
  layout.partialAxes = partial;
  return layout;
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
  MeshModel mesh = mesh2x3();
  // dim 0 over ("b", "a"): 6 shards, b major
  ShardLayout layout = makeLayout(mesh, {{1, 0}}, {6});
  Tensor global = iotaTensor({6});
  // Device 1 is (a=0, b=1): shard index b*2 + a = 2.
  EXPECT_EQ(values(extractBlock(global, layout, mesh, 1)),
            (std::vector<int32_t>{3}));
  // Device 3 is (a=1, b=0): shard index 1.
  EXPECT_EQ(values(extractBlock(global, layout, mesh, 3)),
            (std::vector<int32_t>{2}));
}

TEST(ShardLayout, ContiguousBlocksAreViewsOthersCopies) {
  MeshModel mesh = mesh2x3();
  Tensor global = iotaTensor({6, 4});
  const int32_t *base = global.data<int32_t>();
  ShardLayout rows = makeLayout(mesh, {{1}, {}}, {6, 4}); // contiguous
  Tensor r = extractBlock(global, rows, mesh, 2);
  EXPECT_EQ(r.data<int32_t>(), base + 2 * 2 * 4);
  EXPECT_EQ(values(r), (std::vector<int32_t>{17, 18, 19, 20, 21, 22, 23, 24}));
  // columns over a: strided, copied
  ShardLayout cols = makeLayout(mesh, {{}, {0}}, {6, 4});
  Tensor c = extractBlock(global, cols, mesh, 3);
  EXPECT_NE(c.data<int32_t>(), base + 2);
  EXPECT_EQ(values(c),
            (std::vector<int32_t>{3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23, 24}));
  ShardLayout whole = ShardLayout::replicated({6, 4});
  EXPECT_EQ(extractBlock(global, whole, mesh, 5).data<int32_t>(), base);
}

TEST(ShardLayout, NonDivisibleDimsArePaddedAtTheEnd) {
  MeshModel mesh = mesh2x3();
  // 7 rows over b (3 shards): blocks of 3
  ShardLayout layout = makeLayout(mesh, {{1}, {}}, {7, 2});
  Tensor global = iotaTensor({7, 2});
  EXPECT_EQ(Shape(layout.localShape(mesh)), (Shape{3, 2}));
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
  MeshModel mesh = mesh2x3({5, 3, 1, 0, 2, 4});
  Tensor global = iotaTensor({5, 4});
  std::vector<llvm::SmallVector<llvm::SmallVector<int, 2>>> layouts = {
      {{0}, {1}}, {{1}, {0}}, {{0, 1}, {}}, {{}, {1, 0}}, {{}, {}}, {{}, {0}}};
  for (const auto &dimAxes : layouts) {
    ShardLayout layout = makeLayout(mesh, dimAxes, {5, 4});
    std::vector<Tensor> locals(6);
    for (int64_t d = 0; d < 6; ++d)
      locals[d] = extractBlock(global, layout, mesh, d);
    llvm::Expected<Tensor> back = assembleGlobal(locals, layout, mesh, {5, 4});
    ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
    EXPECT_TRUE(back->bitwiseEquals(global));
  }
}

TEST(ShardLayout, PartialValuesFoldAndSplit) {
  MeshModel mesh = mesh2x3();
  ShardLayout layout = makeLayout(mesh, {{0}}, {4}, {1}); // pending sum over b
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
  MeshModel mesh = mesh2x3();
  ShardLayout layout = makeLayout(mesh, {{0}}, {4}); // replicated over b
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
