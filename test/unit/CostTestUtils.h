//===- CostTestUtils.h - helpers for the cost model tests -------*- C++ -*-===//

#ifndef XSPMD_TEST_UNIT_COSTTESTUTILS_H
#define XSPMD_TEST_UNIT_COSTTESTUTILS_H

#include "runtime/cost/CollectiveCost.h"
#include "runtime/topology/TopologyParser.h"

#include <gtest/gtest.h>

namespace xspmd::cost::testing {

using Groups = llvm::SmallVector<llvm::SmallVector<int64_t>>;

inline topology::Topology makeTopology(llvm::StringRef text,
                                       int64_t slices = 1) {
  return llvm::cantFail(topology::parseTopology(text, slices));
}

/// Every line of chips along torus `axis`, in every slice, in axis order.
inline Groups torusLines(const topology::Topology &t, int axis) {
  Groups groups;
  for (int64_t slice = 0; slice < t.getNumSlices(); ++slice)
    for (int64_t z = 0; z < t.getAxisLength(2); ++z)
      for (int64_t y = 0; y < t.getAxisLength(1); ++y)
        for (int64_t x = 0; x < t.getAxisLength(0); ++x) {
          topology::ChipCoords c = {x, y, z};
          if (c[axis] != 0)
            continue;
          llvm::SmallVector<int64_t> line;
          for (int64_t i = 0; i < t.getAxisLength(axis); ++i) {
            c[axis] = i;
            line.push_back(t.getDevice(slice, c));
          }
          groups.push_back(line);
        }
  return groups;
}

/// One group holding every device of the topology.
inline Groups everything(const topology::Topology &t) {
  llvm::SmallVector<int64_t> all;
  for (int64_t d = 0; d < t.getNumDevices(); ++d)
    all.push_back(d);
  return {all};
}

inline CollectiveEstimate
estimate(const topology::Topology &t, CollectiveKind kind, Groups groups,
         double bytesPerDevice,
         CollectiveCostOptions options = CollectiveCostOptions::closedForms()) {
  CollectiveCostModel model(t, options);
  CollectiveOp op;
  op.kind = kind;
  op.groups = std::move(groups);
  op.bytesPerDevice = bytesPerDevice;
  llvm::Expected<CollectiveEstimate> result = model.estimate(op);
  if (!result) {
    ADD_FAILURE() << llvm::toString(result.takeError());
    return {};
  }
  return std::move(*result);
}

/// Within 2% of `expected` (the tolerance against closed forms).
#define EXPECT_WITHIN_2PCT(actual, expected)                                   \
  EXPECT_NEAR((actual), (expected), 0.02 * (expected))

} // namespace xspmd::cost::testing

#endif // XSPMD_TEST_UNIT_COSTTESTUTILS_H
