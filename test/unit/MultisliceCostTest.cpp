//===- MultisliceCostTest.cpp - DCN, permutes, irregular groups -----------===//
//
// Expected values are written out from the research notes' formulas
// (shared/research/tpu-and-collectives.md): point-to-point 2.9 / 8.8,
// hierarchical multislice all-reduce 8.9 with DCN shared by a host's chips
// (1.3: 2.5e10 B/s per v5p host, 1.5e10 B/s PCIe per chip), and the per-hop
// ring of 8.1 for groups without a closed form.
//
//===----------------------------------------------------------------------===//

#include "CostTestUtils.h"

using namespace xspmd::cost;
using namespace xspmd::cost::testing;
using xspmd::topology::LinkClass;

namespace {

constexpr double T_min = 1e-6;
constexpr double MiB = 1024.0 * 1024.0;
constexpr double W_uni_v5e = 4.5e10, W_uni_v6e = 9e10, W_uni_v5p = 9e10;
// v5p host: 4 chips x 50 Gb/s = 2.5e10 B/s NIC; PCIe 1.5e10 B/s per chip.
constexpr double NIC_v5p = 2.5e10, PCIe_v5p = 1.5e10;
// DCN latency of the presets (fitted, docs/topology.md 4.7).
constexpr double T_dcn = 85e-6;

CollectiveEstimate permute(const xspmd::topology::Topology &t,
                           llvm::SmallVector<std::pair<int64_t, int64_t>> pairs,
                           double bytes) {
  CollectiveCostModel model(t, CollectiveCostOptions::closedForms());
  CollectiveOp op;
  op.kind = CollectiveKind::CollectivePermute;
  op.pairs = std::move(pairs);
  op.bytesPerDevice = bytes;
  return llvm::cantFail(model.estimate(op));
}

std::string estimateError(const xspmd::topology::Topology &t,
                          const CollectiveOp &op) {
  llvm::Expected<CollectiveEstimate> e =
      CollectiveCostModel(t, CollectiveCostOptions::closedForms()).estimate(op);
  if (e) {
    ADD_FAILURE() << "expected an error, got " << e->describe();
    return "";
  }
  return llvm::toString(e.takeError());
}

//===----------------------------------------------------------------------===//
// Collective-permute
//===----------------------------------------------------------------------===//

TEST(Permute, PointToPointOverKHops) {
  // SB-tpus Q5 (notes 2.9): v5e 4x4, (0,0) -> (3,3), 17 MB over both ports:
  // T = k T_hop + bytes / (ports W_uni) = 6 us + 17e6 / (2 x 4.5e10).
  auto t = makeTopology("v5e:4x4");
  auto e = permute(t, {{0, 15}}, 17e6);
  EXPECT_WITHIN_2PCT(e.seconds, 6 * T_min + 17e6 / (2 * W_uni_v5e));
  EXPECT_EQ(e.algorithm, "point-to-point, up to 6 hops over 2 ports");
}

TEST(Permute, ShiftAlongRingAndLine) {
  // Every chip sends to its +x neighbour: one hop, one message per link.
  auto ring = makeTopology("v6e:16x16");
  llvm::SmallVector<std::pair<int64_t, int64_t>> shift;
  for (int64_t x = 0; x < 16; ++x)
    shift.push_back({x, (x + 1) % 16});
  double bytes = 8 * MiB;
  EXPECT_WITHIN_2PCT(permute(ring, shift, bytes).seconds,
                     T_min + bytes / W_uni_v6e);
  // On a line the wrapping message 7 -> 0 walks back 7 hops; it shares no
  // link direction with the others: 7 T_min + bytes / W_uni.
  auto line = makeTopology("v5e:8x4");
  llvm::SmallVector<std::pair<int64_t, int64_t>> lineShift;
  for (int64_t x = 0; x < 8; ++x)
    lineShift.push_back({x, (x + 1) % 8});
  EXPECT_WITHIN_2PCT(permute(line, lineShift, bytes).seconds,
                     7 * T_min + bytes / W_uni_v5e);
}

TEST(Permute, AcrossSlicesSharesTheHostNic) {
  // v5p 2x2x1 x 2: chip d of slice 0 sends to chip d of slice 1. Host 0's
  // four chips share its NIC: T = T_dcn + 4 bytes / NIC.
  auto t = makeTopology("v5p:2x2x1", 2);
  double bytes = 16 * MiB;
  auto e = permute(t, {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, bytes);
  EXPECT_WITHIN_2PCT(e.seconds, T_dcn + 4 * bytes / NIC_v5p);
  EXPECT_EQ(e.linkClass, LinkClass::Dcn);
  EXPECT_DOUBLE_EQ(e.bytesSentPerDevice.dcn, bytes);
  EXPECT_DOUBLE_EQ(e.linkBytes.dcn, 4 * bytes);
}

//===----------------------------------------------------------------------===//
// DCN and hierarchical collectives
//===----------------------------------------------------------------------===//

TEST(Multislice, DcnAllReduceSharedByHost) {
  // A pure DCN axis: groups {d, d+4}. Ring all-reduce over S = 2 slices,
  // 2(S-1)/S V per chip; the host's 4 chips share its NIC, so each gets
  // NIC/4 (notes 8.9): T = 2(S-1)/S V / (NIC / 4).
  auto t = makeTopology("v5p:2x2x1", 2);
  double V = 64 * MiB, S = 2;
  Groups dcnAxis = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
  auto e = estimate(t, CollectiveKind::AllReduce, dcnAxis, V);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * (S - 1) / S * V / (NIC_v5p / 4));
  EXPECT_EQ(e.linkClass, LinkClass::Dcn);
  EXPECT_EQ(e.algorithm, "DCN ring over 2 slices, 4 chips per host sharing "
                         "the NIC");
  EXPECT_DOUBLE_EQ(e.bytesSentPerDevice.dcn, 2 * (S - 1) / S * V);
  EXPECT_DOUBLE_EQ(e.bytesSentPerDevice.ici, 0);

  // One chip per host alone is limited by its PCIe link instead:
  // T = 2(S-1)/S V / min(PCIe, NIC).
  auto alone = estimate(t, CollectiveKind::AllReduce, {{1, 5}}, V);
  EXPECT_WITHIN_2PCT(alone.seconds, 2 * (S - 1) / S * V / PCIe_v5p);
}

TEST(Multislice, HierarchicalAllReduce) {
  // Two v5p 4x4x4 slices, one group of all 128 chips (notes 8.9):
  //   ICI reduce-scatter over 3 wrapped axes: V / (W_bidi 3)      (2.3, 2.5)
  //   DCN all-reduce of the V/64 shard over S = 2 slices, 4 chips per host:
  //       2(S-1)/S (V/64) / (NIC / 4)
  //   ICI all-gather: V / (W_bidi 3)
  auto t = makeTopology("v5p:4x4x4", 2);
  double V = 64 * MiB, S = 2;
  auto e = estimate(t, CollectiveKind::AllReduce, everything(t), V);
  double ici = V / (2 * W_uni_v5p * 3);
  double dcn = 2 * (S - 1) / S * (V / 64) / (NIC_v5p / 4);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * ici + dcn);
  ASSERT_EQ(e.phases.size(), 3u);
  EXPECT_EQ(e.phases[1].link, LinkClass::Dcn);
  EXPECT_WITHIN_2PCT(e.phases[1].seconds, dcn);
  EXPECT_EQ(e.linkClass, LinkClass::Mixed);
  EXPECT_EQ(e.algorithm, "hierarchical: ICI reduce-scatter, then DCN "
                         "all-reduce, then ICI all-gather");
  EXPECT_DOUBLE_EQ(e.bytesSentPerDevice.dcn, 2 * (S - 1) / S * V / 64);
  // Latency path: 2 x (4+4+4)/2 ICI hops, 2 (S-1) DCN ring steps.
  EXPECT_EQ(e.iciHops, 12);
  EXPECT_EQ(e.dcnSteps, 2);
}

TEST(Multislice, HierarchicalAllGatherAndReduceScatter) {
  // v5p 2x2x1 x 2, one group of 8 (k = 4 per slice). All-gather: DCN first,
  // each chip's ring moves V/k over S = 2 slices, then ICI over the 2x2
  // block (lines of 2, no wraparound): (N-1)/N V / (W_uni n_axes) with
  // N = 4, n_axes = 2.
  auto t = makeTopology("v5p:2x2x1", 2);
  double shard = 8 * MiB, V = 8 * shard, S = 2, k = 4;
  double dcn = (S - 1) / S * (V / k) / (NIC_v5p / 4);
  double ici = (k - 1) / k * V / (W_uni_v5p * 2);
  auto gather = estimate(t, CollectiveKind::AllGather, everything(t), shard);
  EXPECT_WITHIN_2PCT(gather.seconds, dcn + ici);
  EXPECT_EQ(gather.phases.front().link, LinkClass::Dcn);
  auto scatter = estimate(t, CollectiveKind::ReduceScatter, everything(t), V);
  EXPECT_WITHIN_2PCT(scatter.seconds, ici + dcn);
  EXPECT_EQ(scatter.phases.back().link, LinkClass::Dcn);
}

TEST(Multislice, HierarchicalAllToAllOverlapsIciAndDcn) {
  // Each chip sends (S-1)/S of its buffer over the DCN; the host's 4 chips
  // share the NIC. The local quarter moves over ICI at the same time.
  auto t = makeTopology("v5p:2x2x1", 2);
  double B = 64 * MiB, S = 2;
  auto e = estimate(t, CollectiveKind::AllToAll, everything(t), B);
  double dcn = 4 * (S - 1) / S * B / NIC_v5p;
  EXPECT_WITHIN_2PCT(e.seconds, dcn);
  ASSERT_EQ(e.phases.size(), 2u);
  EXPECT_TRUE(e.phases[1].concurrentWithPrevious);
  EXPECT_EQ(e.algorithm,
            "hierarchical: ICI all-to-all alongside DCN all-to-all");
}

//===----------------------------------------------------------------------===//
// Groups without a closed form
//===----------------------------------------------------------------------===//

TEST(StridedGroups, InterleavedRingsShareLinks) {
  // v6e 16x16, groups {r, r+4, r+8, r+12} along each row: rings of N = 4
  // whose hops cross 4 links each; the 4 interleaved groups of a row use the
  // same links, so each gets W_uni / 4. Notes 2.4 (finite bidirectional
  // ring) with that bandwidth: (N-1)/N V / (2 W_uni / 4); latency-bound:
  // N/2 member hops of 4 links, T_min each (notes 2.2).
  auto t = makeTopology("v6e:16x16");
  Groups strided;
  for (int64_t y = 0; y < 16; ++y)
    for (int64_t r = 0; r < 4; ++r)
      strided.push_back(
          {16 * y + r, 16 * y + r + 4, 16 * y + r + 8, 16 * y + r + 12});
  double shard = 4 * MiB, N = 4, V = N * shard;
  auto e = estimate(t, CollectiveKind::AllGather, strided, shard);
  EXPECT_WITHIN_2PCT(e.seconds, (N - 1) / N * V / (2 * W_uni_v6e / 4));
  EXPECT_EQ(e.algorithm, "bidirectional ring over x (4 chips, every 4th "
                         "chip, links shared by 4 groups)");
  auto small = estimate(t, CollectiveKind::AllGather, strided, 256);
  EXPECT_WITHIN_2PCT(small.seconds, N / 2 * 4 * T_min);
  // One such group alone has the links to itself.
  auto alone = estimate(t, CollectiveKind::AllGather, {strided[0]}, shard);
  EXPECT_WITHIN_2PCT(alone.seconds, (N - 1) / N * V / (2 * W_uni_v6e));
}

TEST(RoutedFallback, IrregularGroupRingOverRoutedHops) {
  // Group {0, 1, 3} on a 16-ring: no even spacing. Ring 0 -> 1 -> 3 -> 0
  // with hops of 1, 2 and 3 links; no directed link carries more than one
  // V/3 chunk per step (a bidirectional ring does no better here), so each
  // of the N-1 = 2 steps costs max(3 T_min, (V/3) / W_uni) (notes 8.1).
  auto t = makeTopology("v6e:16x16");
  double V = 48 * MiB;
  auto e = estimate(t, CollectiveKind::ReduceScatter, {{0, 1, 3}}, V);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * std::max(3 * T_min, (V / 3) / W_uni_v6e));
  EXPECT_EQ(e.algorithm,
            "unidirectional ring over the group order (3 members, routed "
            "hops)");
  auto small = estimate(t, CollectiveKind::ReduceScatter, {{0, 1, 3}}, 96);
  EXPECT_WITHIN_2PCT(small.seconds, 2 * 3 * T_min);
}

TEST(RoutedFallback, UnevenSlicesGoThroughPcie) {
  // Group {0, 1, 4} on v5p 2x2x1 x 2: ring 0 -> 1 (ICI), 1 -> 4 and 4 -> 0
  // (DCN). Each DCN sender moves one V/3 chunk per step through its PCIe
  // link (1.5e10 < NIC): 2 steps of max(T_dcn, (V/3) / PCIe).
  auto t = makeTopology("v5p:2x2x1", 2);
  double V = 48 * MiB;
  auto e = estimate(t, CollectiveKind::ReduceScatter, {{0, 1, 4}}, V);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * std::max(T_dcn, (V / 3) / PCIe_v5p));
  EXPECT_EQ(e.linkClass, LinkClass::Mixed);
  ASSERT_EQ(e.phases.size(), 2u);
  EXPECT_EQ(e.phases[0].link, LinkClass::Ici);
  EXPECT_EQ(e.phases[1].link, LinkClass::Dcn);
}

TEST(RoutedFallback, OrderInsideASubgridDoesNotMatter) {
  // The closed forms depend on the set of chips, not on the rank order: a
  // row listed in a scrambled order costs what the row costs.
  auto t = makeTopology("v6e:16x16");
  llvm::SmallVector<int64_t> row, scrambled;
  for (int64_t x = 0; x < 16; ++x) {
    row.push_back(x);
    scrambled.push_back((5 * x) % 16);
  }
  double V = 32 * MiB;
  auto ordered = estimate(t, CollectiveKind::AllReduce, {row}, V);
  auto shuffled = estimate(t, CollectiveKind::AllReduce, {scrambled}, V);
  EXPECT_DOUBLE_EQ(ordered.seconds, shuffled.seconds);
  EXPECT_EQ(ordered.algorithm, shuffled.algorithm);
}

//===----------------------------------------------------------------------===//
// Each group its own time
//===----------------------------------------------------------------------===//

TEST(PerGroupTimes, IciPairsAreNotChargedTheDcnPairsTime) {
  // The example: v5p 4x4x4 x 2, groups [0,64], [63,127] across the
  // DCN and ICI neighbours [1,2], [3,4], ... in each slice. An all-reduce of
  // V over a pair is 2 ring steps of V/2. [0,64] is one chip per host:
  // PCIe-bound, 2 x max(T_dcn, (V/2) / PCIe). [1,2] crosses one x link each
  // way, used by no other pair: 2 x max(T_min, (V/2) / W_uni).
  auto t = makeTopology("v5p:4x4x4", 2);
  Groups groups = {{0, 64}, {63, 127}};
  for (int64_t base : {0, 64})
    for (int64_t d = base + 1; d < base + 63; d += 2)
      groups.push_back({d, d + 1});
  double V = 2048.0 * 4096 * 2;
  auto e = estimate(t, CollectiveKind::AllReduce, groups, V);
  double dcn = 2 * std::max(T_dcn, (V / 2) / PCIe_v5p);
  double ici = 2 * std::max(T_min, (V / 2) / W_uni_v5p);
  EXPECT_WITHIN_2PCT(e.seconds, dcn);
  ASSERT_EQ(e.groupSeconds.size(), groups.size());
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(0), dcn);
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(1), dcn);
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(2), ici); // [1, 2]
  EXPECT_LT(e.secondsOfGroup(2), e.seconds / 5);
}

TEST(PerGroupTimes, UniformGroupsAndPermutePairs) {
  // v5e 8x4 (no wraparound): groups of 4 along y are lines of 4 on one
  // axis; a uniform collective keeps no per-group table.
  auto t = makeTopology("v5e:8x4");
  auto uniform = estimate(t, CollectiveKind::AllGather, torusLines(t, 1), MiB);
  EXPECT_TRUE(uniform.groupSeconds.empty());
  // Permute pairs: a one-hop pair and a six-hop pair each take their own
  // route's time (notes 2.9: k T_min + bytes / (ports W_uni)).
  auto e = permute(makeTopology("v5e:4x4"), {{0, 1}, {5, 15}}, 17e6);
  ASSERT_EQ(e.groupSeconds.size(), 2u);
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(0), T_min + 17e6 / W_uni_v5e);
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(1), 4 * T_min + 17e6 / (2 * W_uni_v5e));
  EXPECT_DOUBLE_EQ(e.seconds, e.secondsOfGroup(0));
}

//===----------------------------------------------------------------------===//
// Injected faults
//===----------------------------------------------------------------------===//

CollectiveCostOptions withFaults(const xspmd::topology::FaultSet &faults) {
  CollectiveCostOptions options = CollectiveCostOptions::closedForms();
  options.faults = &faults;
  return options;
}

TEST(Faults, SlowLinkSlowsOnlyTheRingsThroughIt) {
  // v6e 16x16, rows are x rings of 16 (notes 2.4): (N-1)/N V / W_bidi. A
  // link of row 0 at 1/4 of its bandwidth divides that ring's by 4; the
  // other rows keep theirs.
  auto t = makeTopology("v6e:16x16");
  xspmd::topology::FaultSet faults;
  ASSERT_FALSE(static_cast<bool>(faults.add(t, "link:5:x+:slow=4")));
  double V = 64 * MiB, N = 16;
  auto e = estimate(t, CollectiveKind::AllGather, torusLines(t, 0), V / N,
                    withFaults(faults));
  double healthy = (N - 1) / N * V / (2 * W_uni_v6e);
  ASSERT_EQ(e.groupSeconds.size(), 16u);
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(0), 4 * healthy);
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(1), healthy);
  EXPECT_WITHIN_2PCT(e.seconds, 4 * healthy);
}

TEST(Faults, FailedLinksReroutedOrReported) {
  auto t = makeTopology("v6e:16x16");
  double V = 64 * MiB, N = 16;
  // One failed link on a ring: a line of 16, (N-1) (V/N) / W_uni.
  xspmd::topology::FaultSet one;
  ASSERT_FALSE(static_cast<bool>(one.add(t, "link:15:x+:fail")));
  auto e = estimate(t, CollectiveKind::AllGather, torusLines(t, 0), V / N,
                    withFaults(one));
  EXPECT_WITHIN_2PCT(e.secondsOfGroup(0), (N - 1) * (V / N) / W_uni_v6e);
  // Two on the same ring: an error naming the first.
  xspmd::topology::FaultSet two;
  ASSERT_FALSE(static_cast<bool>(two.add(t, "link:3:x+:fail")));
  ASSERT_FALSE(static_cast<bool>(two.add(t, "link:9:x-:fail")));
  CollectiveOp op;
  op.kind = CollectiveKind::AllReduce;
  op.groups = torusLines(t, 0);
  op.bytesPerDevice = V;
  auto failed = CollectiveCostModel(t, withFaults(two)).estimate(op);
  ASSERT_FALSE(static_cast<bool>(failed));
  EXPECT_NE(llvm::toString(failed.takeError())
                .find("needs link 3 x+ (device 3 <-> device 4) failed"),
            std::string::npos);
  // A permute routed over the failed link, and a failed device.
  CollectiveOp permute;
  permute.kind = CollectiveKind::CollectivePermute;
  permute.pairs = {{2, 5}};
  permute.bytesPerDevice = V;
  auto blocked = CollectiveCostModel(t, withFaults(two)).estimate(permute);
  ASSERT_FALSE(static_cast<bool>(blocked));
  EXPECT_NE(llvm::toString(blocked.takeError()).find("2 -> 5: needs link 3"),
            std::string::npos);
  xspmd::topology::FaultSet device;
  ASSERT_FALSE(static_cast<bool>(device.add(t, "device:17:fail")));
  auto down = CollectiveCostModel(t, withFaults(device)).estimate(op);
  ASSERT_FALSE(static_cast<bool>(down));
  EXPECT_NE(llvm::toString(down.takeError())
                .find("all-reduce over [16, 17, 18, 19, 20, 21, 22, 23, ...] "
                      "(16 devices): needs device 17 failed"),
            std::string::npos);
}

TEST(Faults, DegradedDcnDividesNicAndPcie) {
  // As DcnAllReduceSharedByHost, with the DCN at 1/3.
  auto t = makeTopology("v5p:2x2x1", 2);
  xspmd::topology::FaultSet faults;
  ASSERT_FALSE(static_cast<bool>(faults.add(t, "dcn:slow=3")));
  double V = 64 * MiB, S = 2;
  auto e = estimate(t, CollectiveKind::AllReduce,
                    {{0, 4}, {1, 5}, {2, 6}, {3, 7}}, V, withFaults(faults));
  EXPECT_WITHIN_2PCT(e.seconds, 3 * 2 * (S - 1) / S * V / (NIC_v5p / 4));
  // Malformed or impossible faults are errors.
  for (const char *bad : {"dcn:2:slow=2", "link:0:z+:slow=2", "link:0:q+:fail",
                          "device:0:slow=2", "link:0:x+:slow=x"})
    EXPECT_TRUE(static_cast<bool>(llvm::errorToBool(faults.add(t, bad))))
        << bad;
}

//===----------------------------------------------------------------------===//
// Requests
//===----------------------------------------------------------------------===//

TEST(CollectiveRequests, Errors) {
  auto t = makeTopology("v5p:2x2x1", 2);
  CollectiveOp op;
  op.kind = CollectiveKind::AllReduce;
  op.bytesPerDevice = 1024;
  EXPECT_NE(estimateError(t, op).find("has no participant groups"),
            std::string::npos);
  op.groups = {{0, 1}, {2, 3, 4}};
  EXPECT_NE(estimateError(t, op).find("groups must have the same size"),
            std::string::npos);
  op.groups = {{0, 1}, {1, 2}};
  EXPECT_NE(estimateError(t, op).find("device 1 is in two groups"),
            std::string::npos);
  op.groups = {{0, 9}};
  EXPECT_NE(estimateError(t, op).find("device 9 is outside the topology"),
            std::string::npos);
  op.groups = {{0, 1}};
  op.bytesPerDevice = -1;
  EXPECT_NE(estimateError(t, op).find("must be a non-negative number"),
            std::string::npos);
  op.bytesPerDevice = 1024;
  op.kind = CollectiveKind::CollectivePermute;
  op.pairs = {{0, 1}, {2, 1}};
  EXPECT_NE(estimateError(t, op).find("device 1 is the target of two pairs"),
            std::string::npos);
}

TEST(CollectiveRequests, SingleDeviceGroupsAreFree) {
  auto t = makeTopology("v5p:2x2x1", 2);
  auto e = estimate(t, CollectiveKind::AllReduce, {{0}, {1}, {5}}, 1e9);
  EXPECT_EQ(e.seconds, 0);
  EXPECT_EQ(e.algorithm, "local (groups of one device)");
  EXPECT_TRUE(e.phases.empty());
}

} // namespace
