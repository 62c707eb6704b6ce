//===- IciCollectiveCostTest.cpp - collectives inside a slice -------------===//
//
// Each expected time is a closed form of shared/research/tpu-and-collectives.md
// (section 2, "How To Scale Your Model"), written out with the notes'
// numbers, never taken from the model's code. Notation as in the notes:
// V = array bytes (all-gather: the gathered array; reduce-scatter and
// all-reduce: each device's unreduced array), W_uni = one direction of one
// link, W_bidi = 2 W_uni, T_min = 1 us per hop.
//
//===----------------------------------------------------------------------===//

#include "CostTestUtils.h"

using namespace xspmd::cost;
using namespace xspmd::cost::testing;

namespace {

constexpr double T_min = 1e-6;
constexpr double MiB = 1024.0 * 1024.0;
// SB-tpus table (notes 1.2 / 7): one-way ICI bandwidth per link.
constexpr double W_uni_v5e = 4.5e10, W_uni_v6e = 9e10, W_uni_v5p = 9e10;

//===----------------------------------------------------------------------===//
// All-gather
//===----------------------------------------------------------------------===//

TEST(AllGather, OneAxisWithWraparound) {
  // v6e 16x16: x is a full 16 axis, so it has wraparound (notes 1.2).
  auto t = makeTopology("v6e:16x16");
  double shard = 4 * MiB, N = 16, V = N * shard;
  auto e = estimate(t, CollectiveKind::AllGather, torusLines(t, 0), shard);
  // Notes 2.4 (finite axis): T = (V / W_bidi) (N-1)/N.
  double W_bidi = 2 * W_uni_v6e;
  EXPECT_WITHIN_2PCT(e.seconds, V / W_bidi * (N - 1) / N);
  EXPECT_EQ(e.algorithm, "bidirectional ring over x (16 chips)");
  EXPECT_EQ(e.linkClass, xspmd::topology::LinkClass::Ici);
  // Each device receives, and forwards, every other shard once.
  EXPECT_DOUBLE_EQ(e.bytesSentPerDevice.ici, (N - 1) * shard);
  EXPECT_DOUBLE_EQ(e.bytesSentPerDevice.dcn, 0);
}

TEST(AllGather, V3PodAxisIsARingAndSmallerSlicesALine) {
  // v3 (notes 1.1, 1.2): 1e11 B/s one way per link (SB-tpus). The 32x32 pod
  // wraps (notes 2.4: (V / W_bidi) (N-1)/N); a 16x16 slice does not (notes
  // 2.8: (N-1) (V/N) / W_uni).
  constexpr double W_uni_v3 = 1e11;
  double shard = 4 * MiB;
  auto pod = makeTopology("v3:32x32");
  double N = 32, V = N * shard;
  auto ring =
      estimate(pod, CollectiveKind::AllGather, torusLines(pod, 0), shard);
  EXPECT_WITHIN_2PCT(ring.seconds, V / (2 * W_uni_v3) * (N - 1) / N);
  EXPECT_EQ(ring.algorithm, "bidirectional ring over x (32 chips)");
  auto slice = makeTopology("v3:16x16");
  N = 16, V = N * shard;
  auto line =
      estimate(slice, CollectiveKind::AllGather, torusLines(slice, 1), shard);
  EXPECT_WITHIN_2PCT(line.seconds, (N - 1) * (V / N) / W_uni_v3);
  EXPECT_EQ(line.algorithm, "line over y (16 chips)");
}

TEST(AllGather, OneAxisWithWraparoundLatencyBound) {
  auto t = makeTopology("v6e:16x16");
  double shard = 1024, N = 16;
  auto e = estimate(t, CollectiveKind::AllGather, torusLines(t, 1), shard);
  // Notes 2.2: T = max[T_min |X| / 2, V / W_bidi]; the first term wins.
  ASSERT_LT(N * shard / (2 * W_uni_v6e), T_min * N / 2);
  EXPECT_WITHIN_2PCT(e.seconds, T_min * N / 2);
}

TEST(AllGather, OneAxisWithoutWraparound) {
  // SB-shard Pop Quiz 2 (notes 2.8 and 5.1): v5e mesh {X: 8, Y: 4},
  // AllGather_Y of bf16[2048, 8192]; Y = 4 < 16 has no wraparound.
  auto t = makeTopology("v5e:8x4");
  double V = 2048.0 * 8192 * 2, N = 4;
  auto e = estimate(t, CollectiveKind::AllGather, torusLines(t, 1), V / N);
  // T = (N-1) (V/N) / W_uni = 3 * 8.4e6 / 4.5e10 = 560 us.
  double expected = (N - 1) * (V / N) / W_uni_v5e;
  EXPECT_WITHIN_2PCT(e.seconds, expected);
  EXPECT_WITHIN_2PCT(e.seconds, 560e-6);
  EXPECT_EQ(e.algorithm, "line over y (4 chips)");
}

TEST(AllGather, OneAxisWithoutWraparoundLatencyBound) {
  // Same quiz, E = F = 256: "model ~3 us (3 hops x 1 us)".
  auto t = makeTopology("v5e:8x4");
  double V = 256.0 * 256 * 2, N = 4;
  auto e = estimate(t, CollectiveKind::AllGather, torusLines(t, 1), V / N);
  EXPECT_WITHIN_2PCT(e.seconds, (N - 1) * T_min);
  EXPECT_EQ(e.iciHops, 3);
  EXPECT_EQ(e.dcnSteps, 0);
}

TEST(AllGather, TwoAxesWithWraparound) {
  // Notes 2.3: AllGather_XY, T = max[T_min sum|X_i|/2, V / (W_bidi n_axes)].
  auto t = makeTopology("v6e:16x16");
  double shard = 1 * MiB, V = 256 * shard;
  auto e = estimate(t, CollectiveKind::AllGather, everything(t), shard);
  EXPECT_WITHIN_2PCT(e.seconds, V / (2 * W_uni_v6e * 2));
  EXPECT_EQ(e.algorithm, "multi-axis over x (ring of 16), y (ring of 16)");
  // Latency bound: the longest path T_min (16 + 16) / 2.
  auto small = estimate(t, CollectiveKind::AllGather, everything(t), 64);
  EXPECT_WITHIN_2PCT(small.seconds, T_min * (16 + 16) / 2);
}

TEST(AllGather, TwoAxesWithoutWraparound) {
  // v5e 8x8: no wraparound, which "typically doubles the time" (SB-tpus):
  // notes 2.3 with one-way bandwidth, V / (W_uni n_axes).
  auto t = makeTopology("v5e:8x8");
  double shard = 1 * MiB, V = 64 * shard;
  auto e = estimate(t, CollectiveKind::AllGather, everything(t), shard);
  EXPECT_WITHIN_2PCT(e.seconds, V / (W_uni_v5e * 2));
}

TEST(AllGather, ThreeAxesWithWraparound) {
  // v5p 4x4x4: whole cube, wraparound on every axis (notes 1.2).
  auto t = makeTopology("v5p:4x4x4");
  double shard = 1 * MiB, V = 64 * shard;
  auto e = estimate(t, CollectiveKind::AllGather, everything(t), shard);
  EXPECT_WITHIN_2PCT(e.seconds, V / (2 * W_uni_v5p * 3));
  auto small = estimate(t, CollectiveKind::AllGather, everything(t), 64);
  EXPECT_WITHIN_2PCT(small.seconds, T_min * (4 + 4 + 4) / 2);
}

TEST(AllGather, ThreeAxesWithoutWraparoundRunAsOneRing) {
  // v5p 2x2x2: lines of 2 chips. A grid without wraparound holds one
  // Hamiltonian cycle (its corner chips have one link per axis): XLA's ring
  // over all 8 chips, half of each shard each way, two links per chip (amb's
  // TPU7x 2x2x2 curve, notes 5.1): (N-1)/N V / (2 W_uni), not the
  // multi-axis (N-1)/N V / (3 W_uni).
  auto t = makeTopology("v5p:2x2x2");
  double shard = 8 * MiB, N = 8, V = N * shard;
  auto e = estimate(t, CollectiveKind::AllGather, everything(t), shard);
  EXPECT_WITHIN_2PCT(e.seconds, (N - 1) / N * V / (2 * W_uni_v5p));
  EXPECT_EQ(e.algorithm, "1 bidirectional ring embedded in x (line of 2), y "
                         "(line of 2), z (line of 2)");
  // Latency bound: the ring's N-1 steps of one hop.
  auto small = estimate(t, CollectiveKind::AllGather, everything(t), 64);
  EXPECT_WITHIN_2PCT(small.seconds, (N - 1) * T_min);
  EXPECT_EQ(small.iciHops, 7);
}

TEST(AllGather, TwoLinesRunAsOneRingAtTheMultiAxisBandwidth) {
  // A 2x2 (no wraparound) is a ring of 4: two links per chip, as the
  // multi-axis schedule over two lines also has.
  auto t = makeTopology("v5p:2x2x1");
  double shard = 8 * MiB, N = 4, V = N * shard;
  auto e = estimate(t, CollectiveKind::AllGather, everything(t), shard);
  EXPECT_WITHIN_2PCT(e.seconds, (N - 1) / N * V / (2 * W_uni_v5p));
  EXPECT_EQ(e.algorithm,
            "1 bidirectional ring embedded in x (line of 2), y (line of 2)");
}

TEST(AllGather, OddGridsKeepTheMultiAxisSchedule) {
  // 3 x 3 chips of a v5e 4x4 (no wraparound): 9 members, no Hamiltonian
  // cycle, so the multi-axis schedule over the two lines.
  auto t = makeTopology("v5e:4x4");
  Groups groups = {{0, 1, 2, 4, 5, 6, 8, 9, 10}};
  auto e = estimate(t, CollectiveKind::AllGather, groups, 1 * MiB);
  EXPECT_EQ(e.algorithm, "multi-axis over x (line of 3), y (line of 3)");
}

//===----------------------------------------------------------------------===//
// Reduce-scatter and all-reduce
//===----------------------------------------------------------------------===//

TEST(ReduceScatter, SameAsAllGather) {
  // Notes 2.5: T = V / W_bidi for a full ring (finite form as in 2.4).
  auto t = makeTopology("v6e:16x16");
  double V = 64 * MiB, N = 16;
  auto ring = estimate(t, CollectiveKind::ReduceScatter, torusLines(t, 1), V);
  EXPECT_WITHIN_2PCT(ring.seconds, V / (2 * W_uni_v6e) * (N - 1) / N);
  // No wraparound: v5e 8x4 along x (8 chips), notes 2.8.
  auto m = makeTopology("v5e:8x4");
  auto line = estimate(m, CollectiveKind::ReduceScatter, torusLines(m, 0), V);
  EXPECT_WITHIN_2PCT(line.seconds, (8 - 1) * (V / 8) / W_uni_v5e);
  EXPECT_EQ(line.phases.front().operation, "reduce-scatter");
}

TEST(ReduceScatter, TwoAxesWithWraparound) {
  auto t = makeTopology("v6e:16x16");
  double V = 256 * MiB;
  auto e = estimate(t, CollectiveKind::ReduceScatter, everything(t), V);
  EXPECT_WITHIN_2PCT(e.seconds, V / (2 * W_uni_v6e * 2));
}

TEST(AllReduce, OneAxisWithoutWraparound) {
  // Notes 2.6: all-reduce = reduce-scatter + all-gather = 2 x all-gather.
  auto t = makeTopology("v5e:8x4");
  double V = 32 * MiB, N = 4;
  auto e = estimate(t, CollectiveKind::AllReduce, torusLines(t, 1), V);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * (N - 1) * (V / N) / W_uni_v5e);
  ASSERT_EQ(e.phases.size(), 2u);
  EXPECT_EQ(e.phases[0].operation, "reduce-scatter");
  EXPECT_EQ(e.phases[1].operation, "all-gather");
  EXPECT_EQ(e.algorithm, "reduce-scatter + all-gather, line over y (4 chips)");
}

TEST(AllReduce, OneAxisWithWraparoundLatencyBound) {
  // Notes 2.6 with latency terms doubled: 2 x T_min |X| / 2.
  auto t = makeTopology("v6e:16x16");
  auto e = estimate(t, CollectiveKind::AllReduce, torusLines(t, 0), 4096);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * T_min * 16 / 2);
}

TEST(AllReduce, ThreeAxesWithWraparound) {
  // Notes 2.6 + 2.3: 2 V / (W_bidi n_axes).
  auto t = makeTopology("v5p:4x4x4");
  double V = 128 * MiB;
  auto e = estimate(t, CollectiveKind::AllReduce, everything(t), V);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * V / (2 * W_uni_v5p * 3));
}

TEST(AllReduce, IciEfficiencyScalesBandwidthTerm) {
  auto t = makeTopology("v5p:4x4x4");
  double V = 128 * MiB;
  auto options = CollectiveCostOptions::closedForms();
  options.iciEfficiency = 0.8; // notes 7: ~0.8 of peak for large messages
  auto e = estimate(t, CollectiveKind::AllReduce, everything(t), V, options);
  EXPECT_WITHIN_2PCT(e.seconds, 2 * V / (0.8 * 2 * W_uni_v5p * 3));
}

//===----------------------------------------------------------------------===//
// All-to-all
//===----------------------------------------------------------------------===//

TEST(AllToAll, OneAxisWithWraparound) {
  // Notes 2.7: T = V / (4 W_bidi), V the whole array = N x per-device bytes.
  auto t = makeTopology("v6e:16x16");
  double B = 16 * MiB, V = 16 * B;
  auto e = estimate(t, CollectiveKind::AllToAll, torusLines(t, 0), B);
  EXPECT_WITHIN_2PCT(e.seconds, V / (4 * 2 * W_uni_v6e));
  // Latency bound: the farthest chunk travels |X| / 2 hops.
  auto small = estimate(t, CollectiveKind::AllToAll, torusLines(t, 0), 1024);
  EXPECT_WITHIN_2PCT(small.seconds, T_min * 16 / 2);
}

/// amb's theoretical all-to-all bound (notes 2, last paragraph):
/// bus bytes S (R-1)/R over 4 W_uni link_multiplier (R-1)/R^2.
double ambAllToAll(double S, double R, double linkMultiplier, double W_uni) {
  return S * (R - 1) / R / (4 * W_uni * linkMultiplier * (R - 1) / (R * R));
}

TEST(AllToAll, OneAxisWithoutWraparound) {
  // No wraparound: link_multiplier = wrap = 1; twice the ring time.
  auto t = makeTopology("v5e:8x4");
  double B = 16 * MiB;
  auto e = estimate(t, CollectiveKind::AllToAll, torusLines(t, 0), B);
  EXPECT_WITHIN_2PCT(e.seconds, ambAllToAll(B, 8, 1, W_uni_v5e));
}

TEST(AllToAll, TwoAxes) {
  // 2D: link_multiplier = d_min x wrap.
  auto ring = makeTopology("v6e:16x16");
  double B = 16 * MiB;
  auto e = estimate(ring, CollectiveKind::AllToAll, everything(ring), B);
  EXPECT_WITHIN_2PCT(e.seconds, ambAllToAll(B, 256, 16 * 2, W_uni_v6e));
  auto mesh = makeTopology("v5e:8x8");
  auto m = estimate(mesh, CollectiveKind::AllToAll, everything(mesh), B);
  EXPECT_WITHIN_2PCT(m.seconds, ambAllToAll(B, 64, 8 * 1, W_uni_v5e));
}

TEST(AllToAll, ThreeAxesWithWraparound) {
  // 3D: link_multiplier = d_min x d_mid x wrap.
  auto t = makeTopology("v5p:4x4x4");
  double B = 16 * MiB;
  auto e = estimate(t, CollectiveKind::AllToAll, everything(t), B);
  EXPECT_WITHIN_2PCT(e.seconds, ambAllToAll(B, 64, 4 * 4 * 2, W_uni_v5p));
  // Every byte of a chunk is counted once per hop it travels.
  EXPECT_GT(e.linkBytes.ici, e.bytesSentPerDevice.ici * 64);
}

} // namespace
