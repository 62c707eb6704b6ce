//===- TimelineTest.cpp - device clocks, timing-only vs numeric runs ------===//
//
// The timeline on hand-built programs (every time follows from the cost
// table), and the same modules run numerically (device threads +
// communicator) and timing-only (one thread, rounds), which must give the
// same events.
//
//===----------------------------------------------------------------------===//

#include "lib/Runner.h"
#include "lib/Timing.h"
#include "runtime/timeline/TimingSimulator.h"
#include "runtime/topology/TopologyParser.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace xspmd;
using namespace xspmd::runtime;
using namespace xspmd::timeline;

namespace {

/// Consumes `err`, printing it on failure.
bool succeeded(llvm::Error err) {
  if (!err)
    return true;
  ADD_FAILURE() << llvm::toString(std::move(err));
  return false;
}

const char *kModule = R"mlir(
xla.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<512x512xbf16>, %w: tensor<512x512xbf16>) -> (tensor<512x512xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %g = xla.all_gather %a, dim = 0 mesh_axes = @mesh["x"] : (tensor<512x512xbf16>) -> tensor<1024x512xbf16>
  %m = xla.matmul %w, %w : (tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<512x512xbf16>
  %r = xla.all_reduce sum %m mesh_axes = @mesh["y"] : tensor<512x512xbf16>
  %s = xla.slice %g, start = [0, 0], limit = [512, 512], strides = [1, 1] : (tensor<1024x512xbf16>) -> tensor<512x512xbf16>
  %t = xla.add %s, %r : tensor<512x512xbf16>
  %u = xla.tanh %t : tensor<512x512xbf16>
  return %u : tensor<512x512xbf16>
}
// Each device returns its own block: @other may compute something else.
func.func @other(%a: tensor<512x512xbf16>, %w: tensor<512x512xbf16>) -> (tensor<512x512xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>}) {
  %e = xla.exp %a : tensor<512x512xbf16>
  %m0 = xla.matmul %e, %w : (tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<512x512xbf16>
  %g = xla.all_gather %m0, dim = 0 mesh_axes = @mesh["x"] : (tensor<512x512xbf16>) -> tensor<1024x512xbf16>
  %m = xla.matmul %w, %w : (tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<512x512xbf16>
  %r = xla.all_reduce sum %m mesh_axes = @mesh["y"] : tensor<512x512xbf16>
  %s = xla.slice %g, start = [512, 0], limit = [1024, 512], strides = [1, 1] : (tensor<1024x512xbf16>) -> tensor<512x512xbf16>
  %t = xla.add %s, %r : tensor<512x512xbf16>
  return %t : tensor<512x512xbf16>
}
)mlir";

struct SimRun {
  std::unique_ptr<Session> session;
  std::optional<FunctionRunner> runner;
  std::unique_ptr<TimedRun> timed;
};

SimRun makeRun(bool async, bool mpmd,
               std::vector<int64_t> recordDevices = {0, 1, 2, 3}) {
  SimRun run;
  llvm::Expected<std::unique_ptr<Session>> session =
      Session::loadSource(kModule, "timeline.mlir");
  EXPECT_TRUE(static_cast<bool>(session));
  run.session = std::move(*session);
  llvm::Expected<FunctionRunner> runner =
      FunctionRunner::create(*run.session, "main", 0, "");
  EXPECT_TRUE(static_cast<bool>(runner)) << llvm::toString(runner.takeError());
  run.runner.emplace(std::move(*runner));
  if (mpmd) {
    llvm::Error err = run.runner->setDeviceFunction(*run.session, 2, "other");
    EXPECT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  }
  TimingOptions options;
  options.syncCollectives =
      async ? SyncCollectives::none() : SyncCollectives::all();
  options.recordDevices = std::move(recordDevices);
  llvm::Expected<std::unique_ptr<TimedRun>> timed =
      TimedRun::create(run.session->getModule(), *run.runner, options);
  EXPECT_TRUE(static_cast<bool>(timed)) << llvm::toString(timed.takeError());
  run.timed = std::move(*timed);
  return run;
}

/// Three steps of the same inputs: numerically on `numeric`'s device
/// threads, without numerics on `timing`.
void runThreeSteps(SimRun &numeric, SimRun &timing) {
  std::vector<Tensor> inputs;
  for (const ValueLayout &arg : numeric.runner->getArguments())
    inputs.push_back(generateInput(arg.global, 7, inputs.size()));
  for (int step = 0; step < 3; ++step) {
    llvm::Expected<std::vector<Tensor>> out =
        numeric.runner->run(inputs, numeric.timed->getObservers());
    ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
    llvm::Error err = timing.timed->runTimingOnlyStep();
    ASSERT_FALSE(static_cast<bool>(err)) << llvm::toString(std::move(err));
  }
}

class NumericVsTimingOnly
    : public ::testing::TestWithParam<std::tuple<bool, bool>> {};

TEST_P(NumericVsTimingOnly, SameEvents) {
  auto [async, mpmd] = GetParam();
  SimRun numeric = makeRun(async, mpmd);
  SimRun timing = makeRun(async, mpmd);
  runThreeSteps(numeric, timing);
  if (::testing::Test::HasFatalFailure())
    return;
  for (int64_t d = 0; d < 4; ++d) {
    const DeviceClock &a = numeric.timed->getClock(d);
    const DeviceClock &b = timing.timed->getClock(d);
    ASSERT_EQ(a.getEvents().size(), b.getEvents().size()) << "device " << d;
    EXPECT_GT(a.getEvents().size(), 0u);
    for (size_t i = 0; i < a.getEvents().size(); ++i)
      EXPECT_TRUE(a.getEvents()[i] == b.getEvents()[i])
          << "device " << d << " event " << i;
    ASSERT_EQ(a.getSteps().size(), 3u);
    for (size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(a.getSteps()[k].begin, b.getSteps()[k].begin);
      EXPECT_EQ(a.getSteps()[k].end, b.getSteps()[k].end);
    }
    EXPECT_EQ(a.getStats().busy, b.getStats().busy);
    EXPECT_EQ(a.getStats().groupWait, b.getStats().groupWait);
  }
  EXPECT_EQ(numeric.timed->renderTrace("t"), timing.timed->renderTrace("t"));
}

static void expectSameStats(const DeviceStats &a, const DeviceStats &b,
                            int64_t device) {
  EXPECT_EQ(a.compute, b.compute) << "device " << device;
  EXPECT_EQ(a.communication, b.communication) << "device " << device;
  EXPECT_EQ(a.busy, b.busy) << "device " << device;
  EXPECT_EQ(a.groupWait, b.groupWait) << "device " << device;
  EXPECT_EQ(a.stall, b.stall) << "device " << device;
  EXPECT_EQ(a.span, b.span) << "device " << device;
  EXPECT_EQ(a.computeOps, b.computeOps) << "device " << device;
  EXPECT_EQ(a.collectives, b.collectives) << "device " << device;
}

TEST_P(NumericVsTimingOnly, SharedClocksGiveEveryDeviceItsOwnTimeline) {
  // Only device 3 keeps events: the timing-only run walks devices 0-2 on
  // shared clocks while they stay in step (mpmd: device 2 runs @other, and
  // device 0's all-gather group waits for it while device 1's does not:
  // the class of devices 0 and 1 splits in the first round).
  auto [async, mpmd] = GetParam();
  SimRun numeric = makeRun(async, mpmd, {3});
  SimRun timing = makeRun(async, mpmd, {3});
  runThreeSteps(numeric, timing);
  if (::testing::Test::HasFatalFailure())
    return;
  for (int64_t d = 0; d < 4; ++d) {
    const DeviceClock &a = numeric.timed->getClock(d);
    const DeviceClock &b = timing.timed->getClock(d);
    EXPECT_EQ(b.getDevice(), d);
    ASSERT_TRUE(b.getProgram());
    EXPECT_EQ(a.getProgram()->name, b.getProgram()->name);
    EXPECT_EQ(a.getRuns(), b.getRuns());
    ASSERT_EQ(b.getSteps().size(), 3u);
    for (size_t k = 0; k < 3; ++k) {
      EXPECT_EQ(a.getSteps()[k].begin, b.getSteps()[k].begin);
      EXPECT_EQ(a.getSteps()[k].end, b.getSteps()[k].end);
    }
    expectSameStats(a.getStats(), b.getStats(), d);
  }
  // Devices 0 and 1 parted (async mpmd: they end at different points) or
  // stayed in step.
  if (async || !mpmd)
    EXPECT_EQ(timing.timed->getClock(0).sameTimeline(timing.timed->getClock(1)),
              !mpmd);
  EXPECT_EQ(numeric.timed->renderTrace("t"), timing.timed->renderTrace("t"));
}

INSTANTIATE_TEST_SUITE_P(Modes, NumericVsTimingOnly,
                         ::testing::Combine(::testing::Bool(),
                                            ::testing::Bool()));

/// The times of @main's instructions on the default topology.
struct MainTimes {
  double gather, matmul, reduce, slice, add, tanh;
};

MainTimes mainTimes(const SimRun &run) {
  const Program &p = *run.runner->getDevicePrograms()[0];
  const ProgramCosts &c = run.timed->getCostModel().costsOf(p);
  EXPECT_EQ(p.instructions.size(), 6u);
  return {c.seconds[0], c.seconds[1], c.seconds[2],
          c.seconds[3], c.seconds[4], c.seconds[5]};
}

TEST(DeviceClock, AsyncCollectivesOverlapCompute) {
  SimRun run = makeRun(/*async=*/true, /*mpmd=*/false);
  ASSERT_TRUE(succeeded(run.timed->runTimingOnlyStep()));
  MainTimes t = mainTimes(run);
  // The all-gather starts at 0 (its operand is an argument) while the matmul
  // runs; the all-reduce is issued when the matmul ends and the gather is
  // done (one collective queue).
  const std::vector<Event> &e = run.timed->getClock(0).getEvents();
  ASSERT_GE(e.size(), 6u);
  EXPECT_EQ(e[0].kind, EventKind::AsyncCollective);
  EXPECT_EQ(e[0].begin, 0);
  EXPECT_DOUBLE_EQ(e[0].end, t.gather);
  EXPECT_EQ(e[1].kind, EventKind::Compute);
  EXPECT_EQ(e[1].begin, 0);
  EXPECT_DOUBLE_EQ(e[1].end, t.matmul);
  EXPECT_EQ(e[2].kind, EventKind::AsyncCollective);
  EXPECT_DOUBLE_EQ(e[2].begin, std::max(t.matmul, t.gather));
  // The slice waits for the gather's done, the add for the reduce's.
  double reduceEnd = std::max(t.matmul, t.gather) + t.reduce;
  double end = std::max(std::max(t.gather, t.matmul) + t.slice, reduceEnd) +
               t.add + t.tanh;
  EXPECT_NEAR(run.timed->getClock(0).getSteps()[0].end, end, 1e-15);
  const DeviceStats &s = run.timed->getClock(0).getStats();
  EXPECT_DOUBLE_EQ(s.compute, t.matmul + t.slice + t.add + t.tanh);
  EXPECT_DOUBLE_EQ(s.communication, t.gather + t.reduce);
  EXPECT_EQ(s.groupWait, 0);
  // Never idle: one busy segment, the whole step.
  EXPECT_GT(s.busy, s.compute);
  EXPECT_EQ(s.busy, s.span);
  EXPECT_EQ(s.dutyCycle(), 1.0);
}

TEST(DeviceClock, SyncCollectivesBlockTheStream) {
  SimRun run = makeRun(/*async=*/false, /*mpmd=*/false);
  ASSERT_TRUE(succeeded(run.timed->runTimingOnlyStep()));
  MainTimes t = mainTimes(run);
  double sum = t.gather + t.matmul + t.reduce + t.slice + t.add + t.tanh;
  EXPECT_NEAR(run.timed->getClock(3).getSteps()[0].end, sum, 1e-15);
  const DeviceStats &s = run.timed->getClock(3).getStats();
  EXPECT_NEAR(s.busy, sum, 1e-15);
  EXPECT_EQ(s.stall, 0);
}

TEST(DeviceClock, GroupsWaitForTheirLastMember) {
  // Device 2 runs @other: an exp and a matmul before its all-gather. Its
  // x-group partner (device 3; x is the major axis: groups {0, 2}, {1, 3})
  // waits; the y-group {2, 3} all-reduce then waits for device 2's queue.
  SimRun run = makeRun(/*async=*/false, /*mpmd=*/true);
  ASSERT_TRUE(succeeded(run.timed->runTimingOnlyStep()));
  const Program &other = *run.runner->getDevicePrograms()[2];
  const ProgramCosts &c = run.timed->getCostModel().costsOf(other);
  double late = c.seconds[0] + c.seconds[1];
  const DeviceStats &waiting = run.timed->getClock(0).getStats();
  EXPECT_DOUBLE_EQ(waiting.groupWait, late);
  // Idle only while it waits for its group.
  EXPECT_DOUBLE_EQ(waiting.busy, waiting.span - late);
  EXPECT_DOUBLE_EQ(waiting.dutyCycle(), (waiting.span - late) / waiting.span);
  EXPECT_EQ(run.timed->getClock(2).getStats().groupWait, 0);
  // Devices 1 and 3 are in the other all-gather group: no wait there.
  EXPECT_LT(run.timed->getClock(1).getStats().dutyCycle(), 1.0);
  EXPECT_EQ(run.timed->getClock(2).getStats().dutyCycle(), 1.0);
}

/// Feeds a compute stream and a transfer stream (each in time order) into a
/// BusyUnion in the given interleaving, settling at the clock's horizon.
struct TwoStreams {
  BusyUnion busy;
  double computeFree = 0, queueFree = 0;
  void compute(double begin, double end) {
    busy.add(begin, end);
    computeFree = end;
    busy.settle(std::min(computeFree, queueFree));
  }
  void transfer(double begin, double end) {
    busy.add(begin, end);
    queueFree = end;
    busy.settle(std::min(computeFree, queueFree));
  }
};

TEST(BusyUnion, InterleavedComputeAndTransfers) {
  TwoStreams s;
  s.compute(0, 2);
  s.transfer(1, 4);   // overlaps [0, 2] and the next compute op
  s.compute(2, 3);    // touches [0, 2], inside [1, 4]
  s.compute(5, 8);    // disjoint: idle from 4 to 5
  s.transfer(6, 7);   // nested in [5, 8]
  s.transfer(8, 9);   // touches [5, 8]
  s.compute(10, 11);  // disjoint
  s.transfer(12, 13); // disjoint, after the compute stream ends
  // [0, 4] + [5, 9] + [10, 11] + [12, 13].
  EXPECT_EQ(s.busy.finish(), 10.0);
  // The next step starts over.
  s.compute(13, 14.5);
  EXPECT_EQ(s.busy.finish(), 1.5);
}

TEST(BusyUnion, EarlyTransferCoversComputeOpsAlreadyAdded) {
  // An async start issued at the step's start is added after the compute
  // ops it overlaps (its operand was an argument, the queue was free).
  TwoStreams s;
  s.compute(0, 1);
  s.compute(1, 2);
  s.compute(3, 4);
  s.compute(5, 6);
  // Nothing is final while the queue may still start at 0.
  EXPECT_EQ(s.busy.getOpenSegments(), 3u);
  s.transfer(0.5, 5.5);
  EXPECT_EQ(s.busy.getOpenSegments(), 1u);
  s.compute(6, 6); // takes no time
  s.compute(7, 8);
  s.transfer(9, 10);
  // [0, 6] + [7, 8] + [9, 10]. The horizon is 8 (the compute stream): [0, 6]
  // is final; a compute op starting at 8 could still extend [7, 8].
  EXPECT_EQ(s.busy.getOpenSegments(), 2u);
  EXPECT_EQ(s.busy.finish(), 8.0);
}

TEST(BusyUnion, MatchesSortedUnionOnRandomStreams) {
  // Integer times: every sum is exact, so the lengths must be equal.
  std::mt19937 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    auto stream = [&](int n) {
      std::vector<std::pair<double, double>> s;
      double t = 0;
      for (int i = 0; i < n; ++i) {
        t += static_cast<double>(rng() % 3); // 0: touching
        double end = t + static_cast<double>(rng() % 5);
        s.push_back({t, end});
        t = end;
      }
      return s;
    };
    std::vector<std::pair<double, double>> compute = stream(rng() % 20),
                                           transfers = stream(rng() % 8);
    TwoStreams s;
    size_t i = 0, j = 0;
    while (i < compute.size() || j < transfers.size()) {
      if (j == transfers.size() || (i < compute.size() && rng() % 2)) {
        s.compute(compute[i].first, compute[i].second);
        ++i;
      } else {
        s.transfer(transfers[j].first, transfers[j].second);
        ++j;
      }
    }
    std::vector<std::pair<double, double>> all = compute;
    all.insert(all.end(), transfers.begin(), transfers.end());
    std::sort(all.begin(), all.end());
    double expected = 0, reach = -1;
    for (auto [begin, end] : all) {
      if (begin > reach)
        expected += end - begin;
      else if (end > reach)
        expected += end - reach;
      reach = std::max(reach, end);
    }
    EXPECT_EQ(s.busy.finish(), expected) << "trial " << trial;
  }
}

TEST(ClockSlots, OnlyCollectiveTimesTakeSlots) {
  SimRun run = makeRun(/*async=*/true, /*mpmd=*/false);
  const Program &p = *run.runner->getDevicePrograms()[0];
  const ClockSlots &plan = run.timed->getCostModel().costsOf(p).slots;
  ASSERT_FALSE(plan.hasRegions);
  // %a, %w: never written.
  for (int32_t s : p.argSlots)
    EXPECT_EQ(plan.of[s], ClockSlots::kEntry);
  // Instructions: 0 all_gather %a, 1 matmul (read by 2), 2 all_reduce,
  // 3 slice of the gather, 4 add, 5 tanh.
  auto slotOf = [&](int i) { return plan.of[p.instructions[i].results[0]]; };
  ASSERT_EQ(p.instructions[2].kind, InstructionKind::Collective);
  int32_t gather = slotOf(0), matmul = slotOf(1), reduce = slotOf(2);
  EXPECT_GE(gather, 2);
  EXPECT_GE(matmul, 2);
  EXPECT_GE(reduce, 2);
  // Live at once: the gather (until the slice) with the matmul, and with
  // the reduce (written while the matmul is still read).
  EXPECT_NE(gather, matmul);
  EXPECT_NE(gather, reduce);
  EXPECT_NE(matmul, reduce);
  // The add and tanh results: no collective reads them.
  EXPECT_EQ(slotOf(4), ClockSlots::kSink);
  EXPECT_EQ(slotOf(5), ClockSlots::kSink);
  EXPECT_LT(plan.count, p.numSlots);
}

TEST(TimingSimulator, ReportsDevicesThatNeverJoin) {
  const char *module = R"mlir(
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = xla.all_reduce sum %a groups = [[0, 1]] : tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @alone(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
)mlir";
  llvm::Expected<std::unique_ptr<Session>> session =
      Session::loadSource(module, "never.mlir");
  ASSERT_TRUE(static_cast<bool>(session));
  llvm::Expected<FunctionRunner> runner =
      FunctionRunner::create(**session, "main", 0, "");
  ASSERT_TRUE(static_cast<bool>(runner));
  ASSERT_TRUE(succeeded(runner->setDeviceFunction(**session, 1, "alone")));
  llvm::Expected<std::unique_ptr<TimedRun>> timed =
      TimedRun::create((*session)->getModule(), *runner, TimingOptions());
  ASSERT_TRUE(static_cast<bool>(timed));
  llvm::Error err = (*timed)->runTimingOnlyStep();
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "device 0 waits in collective #1 (xla.all_reduce sum 4xf32 -> "
            "4xf32 groups [[0,1]] at never.mlir:3:8) for devices that will "
            "never join:\n  device 1 finished its program after 0 "
            "collectives");
}

} // namespace

TEST(SyncCollectives, ParsesKindsAsXlaNamesThem) {
  llvm::Expected<SyncCollectives> some =
      SyncCollectives::parse("reduce-scatter, all-gather");
  ASSERT_TRUE(static_cast<bool>(some)) << llvm::toString(some.takeError());
  EXPECT_TRUE(some->contains(CollectiveKind::allGather));
  EXPECT_TRUE(some->contains(CollectiveKind::reduceScatter));
  EXPECT_FALSE(some->contains(CollectiveKind::allReduce));
  EXPECT_EQ(some->describe(), "all-gather, reduce-scatter");

  llvm::Expected<SyncCollectives> all = SyncCollectives::parse("all");
  ASSERT_TRUE(static_cast<bool>(all));
  EXPECT_TRUE(all->contains(CollectiveKind::collectivePermute));
  EXPECT_EQ(all->describe(), "all");
  EXPECT_EQ(SyncCollectives::none().describe(), "none");

  llvm::Expected<SyncCollectives> bad = SyncCollectives::parse("all_gather");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError())
                .find("'all_gather' is not a "
                      "collective kind"),
            std::string::npos);
}
