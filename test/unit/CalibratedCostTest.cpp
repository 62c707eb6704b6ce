//===- CalibratedCostTest.cpp - the calibrated alpha-beta model -----------===//
//
// The default collective model: a per-collective launch cost, each step's
// latency added to its bandwidth time, and the generation's achieved ICI
// fraction (docs/topology.md 4.6). Expected times are the closed forms of
// the research notes with those three changes written out; the measured
// numbers are the notes' section 5.1.
//
//===----------------------------------------------------------------------===//

#include "CostTestUtils.h"

#include "runtime/topology/Generation.h"

using namespace xspmd::cost;
using namespace xspmd::cost::testing;

namespace {

// T_dcn: the presets' fitted DCN latency (docs/topology.md 4.7).
constexpr double T_min = 1e-6, T_dcn = 85e-6;
constexpr double W_uni_v5e = 4.5e10;
constexpr double NIC_v5e = 2.5e10;
// The calibration (docs/topology.md 4.6).
constexpr double T_launch = 2.8e-6, E_ici = 0.83;

CollectiveEstimate calibrated(const xspmd::topology::Topology &t,
                              CollectiveKind kind, Groups groups,
                              double bytesPerDevice) {
  return estimate(t, kind, std::move(groups), bytesPerDevice,
                  CollectiveCostOptions());
}

TEST(Calibrated, PresetsCarryTheFittedParameters) {
  for (const auto &spec : xspmd::topology::allGenerationSpecs()) {
    if (spec.generation == xspmd::topology::Generation::Tpu7x) {
      // Its own fit (amb's 2x2x1 and 2x2x2 all-gather curves).
      EXPECT_DOUBLE_EQ(spec.collectiveLaunchLatency, 0);
      EXPECT_DOUBLE_EQ(spec.collectiveStepLatency, 3.5e-6);
      EXPECT_DOUBLE_EQ(spec.iciEfficiency, 0.89);
      continue;
    }
    EXPECT_DOUBLE_EQ(spec.collectiveLaunchLatency, T_launch) << spec.name.str();
    EXPECT_DOUBLE_EQ(spec.collectiveStepLatency, 0) << spec.name.str();
    EXPECT_DOUBLE_EQ(spec.iciEfficiency, E_ici) << spec.name.str();
  }
}

TEST(Calibrated, PopQuizAllGathersWithinFifteenPercentOfMeasured) {
  // SB-shard Pop Quiz 2 on a v5e 8x4, AllGather_Y (Y = 4, no wraparound):
  // T = T_launch + (N-1) T_min + (N-1) (V/N) / (E_ici W_uni).
  auto t = makeTopology("v5e:8x4");
  double N = 4;
  for (auto [E, F, measured] :
       {std::tuple{2048.0, 8192.0, 680e-6}, std::tuple{256.0, 256.0, 8e-6}}) {
    double V = E * F * 2;
    auto e = calibrated(t, CollectiveKind::AllGather, torusLines(t, 1), V / N);
    double expected =
        T_launch + (N - 1) * T_min + (N - 1) * (V / N) / (E_ici * W_uni_v5e);
    EXPECT_WITHIN_2PCT(e.seconds, expected);
    EXPECT_NEAR(e.seconds, measured, 0.15 * measured);
    EXPECT_DOUBLE_EQ(e.launchSeconds, T_launch);
  }
}

TEST(Calibrated, SmallMessagesAchieveLessBandwidth) {
  // Achieved bandwidth (bytes received / time) rises with the message size
  // towards E_ici W_uni on a line; at 32 kB shards it is under half of that.
  auto t = makeTopology("v5e:8x4");
  double previous = 0;
  for (double shard : {32e3, 256e3, 2e6, 16e6, 128e6}) {
    auto e = calibrated(t, CollectiveKind::AllGather, torusLines(t, 1), shard);
    double achieved = 3 * shard / e.seconds;
    EXPECT_GT(achieved, previous);
    EXPECT_LT(achieved, E_ici * W_uni_v5e);
    previous = achieved;
    if (shard == 32e3)
      EXPECT_LT(achieved, 0.5 * E_ici * W_uni_v5e);
    if (shard == 128e6)
      EXPECT_GT(achieved, 0.99 * E_ici * W_uni_v5e);
  }
}

TEST(Calibrated, DcnLatencyAddsToEveryRingStep) {
  // The example: an all-reduce of 917.5 kB over 32 v5e slices
  // between corresponding chips (pure DCN axis). 2 (S-1) = 62 ring steps of
  // V/32; a host's 8 chips share its NIC: 8 (V/32) / NIC = 9.2 us per step.
  // Closed form: 62 max(T_dcn, 9.2 us) = 5270 us; calibrated:
  // T_launch + 62 (T_dcn + 9.2 us) = 5843 us.
  auto t = makeTopology("v5e:16x16", 32);
  Groups dcnAxis;
  for (int64_t d = 0; d < 256; ++d) {
    llvm::SmallVector<int64_t> group;
    for (int64_t s = 0; s < 32; ++s)
      group.push_back(s * 256 + d);
    dcnAxis.push_back(group);
  }
  double V = 917.5e3, step = 8 * (V / 32) / NIC_v5e;
  auto closed = estimate(t, CollectiveKind::AllReduce, dcnAxis, V);
  EXPECT_WITHIN_2PCT(closed.seconds, 62 * std::max(T_dcn, step));
  auto e = calibrated(t, CollectiveKind::AllReduce, dcnAxis, V);
  EXPECT_WITHIN_2PCT(e.seconds, T_launch + 62 * (T_dcn + step));
}

TEST(Calibrated, PointToPointPaysTheLaunchOnce) {
  // SB-tpus Q5 (notes 2.9): v5e 4x4, (0,0) -> (3,3), 17 MB over 2 ports:
  // T_launch + 6 T_min + 17e6 / (2 E_ici W_uni).
  auto t = makeTopology("v5e:4x4");
  CollectiveCostModel model(t);
  CollectiveOp op;
  op.kind = CollectiveKind::CollectivePermute;
  op.pairs = {{0, 15}};
  op.bytesPerDevice = 17e6;
  auto e = llvm::cantFail(model.estimate(op));
  EXPECT_WITHIN_2PCT(e.seconds,
                     T_launch + 6 * T_min + 17e6 / (2 * E_ici * W_uni_v5e));
}

TEST(Calibrated, Tpu7xAllGatherCurvesRunAsOneRing) {
  // amb's all-gather of f32[n,8,128] per JAX device over TPU7x 2x2x1 and
  // 2x2x2 (notes 5.1); a simulated device is a chip (2 JAX devices), so a
  // chip's shard is 2 S (V = 2 S N). Both grids run one bidirectional ring
  // over their N chips: N - 1 steps of one hop plus 3.5 us each, and
  // (N-1)/N V at 2 x 0.89 x 1e11 B/s. amb's bus bandwidth is (2N - 2) S /
  // time: the two curves coincide, as measured.
  for (auto [shape, N] : {std::pair{"tpu7x:2x2x1", 4.0},
                          std::pair{"tpu7x:2x2x2", 8.0}}) {
    auto t = makeTopology(shape);
    for (auto [n, measured] :
         {std::pair{64.0, 71.8e9}, std::pair{16384.0, 178.8e9}}) {
      double S = n * 8 * 128 * 4, V = 2 * S * N;
      auto e = calibrated(t, CollectiveKind::AllGather, everything(t), 2 * S);
      EXPECT_WITHIN_2PCT(e.seconds, (N - 1) * (T_min + 3.5e-6) +
                                        (N - 1) / N * V / (0.89 * 2e11));
      EXPECT_NEAR((2 * N - 2) * S / e.seconds, measured, 0.04 * measured)
          << shape;
    }
  }
}

TEST(Calibrated, GroupsOfOneCostNothing) {
  auto t = makeTopology("v5e:4x4");
  auto e = calibrated(t, CollectiveKind::AllReduce, {{0}, {1}}, 1e6);
  EXPECT_EQ(e.seconds, 0);
}

} // namespace
