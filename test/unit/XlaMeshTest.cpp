//===- XlaMeshTest.cpp - device-array math of meshes ----------------------===//

#include "dialects/xla/XlaMesh.h"

#include <gtest/gtest.h>

#include <vector>

using namespace xspmd::xla;

namespace {

std::vector<int64_t> vec(llvm::ArrayRef<int64_t> a) {
  return std::vector<int64_t>(a.begin(), a.end());
}

TEST(HybridDeviceArray, SliceMajorAlongDcnAxis) {
  // 2 slices of 4 chips: ici [1,4,1] x dcn [2,1,1] -> [2,4,1], row 0 slice 0.
  EXPECT_EQ(vec(hybridDeviceArray({1, 4, 1}, {2, 1, 1})),
            (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(HybridDeviceArray, SliceOneInRowsTwoAndThree) {
  // ici [2,2] x dcn [2,1] -> [4,2]; slice 1 (devices 4..7) in rows 2-3.
  EXPECT_EQ(vec(hybridDeviceArray({2, 2}, {2, 1})),
            (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(HybridDeviceArray, DcnOnMinorAxisInterleavesSlices) {
  // ici [2,2] x dcn [1,2] -> [2,4]: columns 0-1 slice 0, 2-3 slice 1.
  EXPECT_EQ(vec(hybridDeviceArray({2, 2}, {1, 2})),
            (std::vector<int64_t>{0, 1, 4, 5, 2, 3, 6, 7}));
}

TEST(HybridDeviceArray, MixedAxis) {
  // ici [2] x dcn [3]: 6 devices along one axis, slice-major.
  EXPECT_EQ(vec(hybridDeviceArray({2}, {3})),
            (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(MeshAxisGroups, SingleAxis) {
  // mesh [data=4, model=2] row-major: groups along "model" are pairs.
  auto groups = meshAxisGroups({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}, {1});
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(vec(groups[0]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(vec(groups[3]), (std::vector<int64_t>{6, 7}));
  // Along "data": columns.
  groups = meshAxisGroups({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7}, {0});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(vec(groups[0]), (std::vector<int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(vec(groups[1]), (std::vector<int64_t>{1, 3, 5, 7}));
}

TEST(MeshAxisGroups, AxisOrderDecidesGroupOrder) {
  // Listing model before data makes model the major part of the position.
  auto groups = meshAxisGroups({2, 2}, {0, 1, 2, 3}, {1, 0});
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(vec(groups[0]), (std::vector<int64_t>{0, 2, 1, 3}));
}

TEST(MeshAxisGroups, FollowsExplicitDeviceOrder) {
  auto groups = meshAxisGroups({4, 2}, {0, 2, 4, 6, 1, 3, 5, 7}, {0});
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(vec(groups[0]), (std::vector<int64_t>{0, 4, 1, 5}));
  EXPECT_EQ(vec(groups[1]), (std::vector<int64_t>{2, 6, 3, 7}));
}

TEST(MeshAxisGroups, NoAxesGivesSingletons) {
  auto groups = meshAxisGroups({2, 2}, {0, 1, 2, 3}, {});
  ASSERT_EQ(groups.size(), 4u);
  EXPECT_EQ(vec(groups[2]), (std::vector<int64_t>{2}));
}

} // namespace
