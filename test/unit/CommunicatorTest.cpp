//===- CommunicatorTest.cpp - rendezvous of device threads ----------------===//

#include "runtime/collectives/Communicator.h"
#include "runtime/collectives/CollectiveKernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace xspmd::runtime;

namespace {

CollectiveCall allReduce(ReductionKind kind, DeviceGroupList groups,
                         int64_t n) {
  CollectiveCall call;
  call.kind = CollectiveKind::allReduce;
  call.reduction = kind;
  call.groups = std::move(groups);
  call.inputShape = call.resultShape = {n};
  call.opName = "all_reduce";
  return call;
}

/// Runs `body(device)` on `numDevices` threads; returns each device's error
/// text (empty on success).
template <typename Body>
std::vector<std::string> onDevices(int64_t numDevices, Body body) {
  std::vector<std::string> errors(numDevices);
  std::vector<std::thread> threads;
  for (int64_t d = 0; d < numDevices; ++d)
    threads.emplace_back([&, d] { errors[d] = body(d); });
  for (std::thread &t : threads)
    t.join();
  return errors;
}

TEST(Communicator, AllReduceFoldsInGroupOrderManyRounds) {
  int64_t n = 4;
  Communicator comm(n);
  CollectiveCall call = allReduce(ReductionKind::sum, {{0, 1}, {2, 3}}, 3);
  std::vector<std::vector<float>> results(n);
  auto errors = onDevices(n, [&](int64_t d) -> std::string {
    Tensor x = Tensor::allocate(ElementType::f32, {3});
    for (int i = 0; i < 3; ++i)
      x.data<float>()[i] = static_cast<float>(10 * d + i);
    // Many rounds exercise slot reuse between consecutive collectives.
    for (int round = 0; round < 100; ++round) {
      llvm::Expected<Tensor> r = comm.execute(d, call, x);
      if (!r)
        return llvm::toString(r.takeError());
      x = *r;
    }
    results[d].assign(x.data<float>(), x.data<float>() + 3);
    comm.deviceExited(d, std::nullopt);
    return "";
  });
  for (const std::string &e : errors)
    EXPECT_EQ(e, "");
  // Each round doubles the group sum: (a + b) * 2^199 stays exact in f32.
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[2], results[3]);
  // Group {0, 1} starts from [0 1 2] + [10 11 12] = [10 12 14]; the sum
  // doubles every later round: 2^99 * [10 12 14] after 100 rounds.
  EXPECT_EQ(results[0][1], std::ldexp(12.0f, 99));
  EXPECT_EQ(results[2][0], std::ldexp(50.0f, 99));
}

TEST(Communicator, GroupMembersShareOneAllReduceResult) {
  // All-reduce (and all-gather) give every member of a group the same
  // value: it is computed once and its storage shared within the group, not
  // across groups; a reduce-scatter gives each member its own block.
  int64_t n = 4;
  Communicator comm(n);
  CollectiveCall call = allReduce(ReductionKind::sum, {{0, 1}, {2, 3}}, 3);
  CollectiveCall scatter = allReduce(ReductionKind::sum, {{0, 1, 2, 3}}, 4);
  scatter.kind = CollectiveKind::reduceScatter;
  scatter.resultShape = {1};
  // Results stay alive to the end, so distinct buffers have distinct
  // addresses.
  std::vector<Tensor> reduced(n), scattered(n);
  auto errors = onDevices(n, [&](int64_t d) -> std::string {
    Tensor x = Tensor::allocate(ElementType::f32, {3});
    for (int i = 0; i < 3; ++i)
      x.data<float>()[i] = static_cast<float>(10 * d + i);
    llvm::Expected<Tensor> r = comm.execute(d, call, x);
    if (!r)
      return llvm::toString(r.takeError());
    reduced[d] = *r;
    Tensor y = Tensor::allocate(ElementType::f32, {4});
    for (int i = 0; i < 4; ++i)
      y.data<float>()[i] = static_cast<float>(d);
    llvm::Expected<Tensor> s = comm.execute(d, scatter, y);
    if (!s)
      return llvm::toString(s.takeError());
    scattered[d] = *s;
    comm.deviceExited(d, std::nullopt);
    return "";
  });
  for (const std::string &e : errors)
    EXPECT_EQ(e, "");
  EXPECT_EQ(reduced[0].data(), reduced[1].data());
  EXPECT_EQ(reduced[2].data(), reduced[3].data());
  EXPECT_NE(reduced[0].data(), reduced[2].data());
  EXPECT_EQ(reduced[0].data<float>()[0], 10.0f);
  EXPECT_EQ(reduced[3].data<float>()[0], 50.0f);
  EXPECT_NE(scattered[0].data(), scattered[1].data());
  // Block d of the sum 0 + 1 + 2 + 3.
  EXPECT_EQ(scattered[2].data<float>()[0], 6.0f);
}

TEST(Communicator, MismatchNamesDevicesAndOps) {
  Communicator comm(3);
  CollectiveCall sum = allReduce(ReductionKind::sum, {{0, 1, 2}}, 2);
  CollectiveCall max = allReduce(ReductionKind::max, {{0, 1, 2}}, 2);
  max.location = "prog.mlir:7:3";
  auto errors = onDevices(3, [&](int64_t d) -> std::string {
    Tensor x = Tensor::zeros(ElementType::f32, {2});
    llvm::Expected<Tensor> r = comm.execute(d, d == 1 ? max : sum, x);
    std::string e = r ? "" : llvm::toString(r.takeError());
    comm.deviceExited(d, e.empty() ? std::nullopt : std::optional(e));
    return e;
  });
  for (const std::string &e : errors) {
    EXPECT_NE(e.find("collective mismatch"), std::string::npos) << e;
    EXPECT_NE(e.find("devices 0, 2: all_reduce sum"), std::string::npos) << e;
    EXPECT_NE(e.find("device 1: all_reduce max 2xf32 -> 2xf32 groups "
                     "[[0,1,2]] at prog.mlir:7:3"),
              std::string::npos)
        << e;
  }
}

TEST(Communicator, ShapeAndGroupDifferencesAreMismatches) {
  CollectiveCall a = allReduce(ReductionKind::sum, {{0, 1}}, 2);
  CollectiveCall b = a;
  b.inputShape = b.resultShape = {3};
  EXPECT_FALSE(a.matches(b));
  CollectiveCall c = a;
  c.groups = {{1, 0}};
  EXPECT_FALSE(a.matches(c));
  CollectiveCall d = a;
  d.opName = "other name";
  EXPECT_TRUE(a.matches(d));
}

TEST(Communicator, DeviceThatLeavesNeverHangsThePeers) {
  Communicator comm(4);
  CollectiveCall call = allReduce(ReductionKind::sum, {{0, 1, 2, 3}}, 1);
  auto errors = onDevices(4, [&](int64_t d) -> std::string {
    if (d == 2) { // finishes without the collective
      comm.deviceExited(d, std::nullopt);
      return "";
    }
    Tensor x = Tensor::zeros(ElementType::f32, {1});
    llvm::Expected<Tensor> r = comm.execute(d, call, x);
    std::string e = r ? "" : llvm::toString(r.takeError());
    comm.deviceExited(d, e.empty() ? std::nullopt : std::optional(e));
    return e;
  });
  EXPECT_EQ(errors[2], "");
  for (int64_t d : {0, 1, 3})
    EXPECT_EQ(errors[d],
              "devices 0, 1, 3 wait in collective #1 (all_reduce sum 1xf32 -> "
              "1xf32 groups [[0,1,2,3]]) for devices that will never join:\n"
              "  device 2 finished its program after 0 collectives");
}

TEST(Communicator, FailedDeviceAbortsLaterArrivals) {
  Communicator comm(2);
  CollectiveCall call = allReduce(ReductionKind::sum, {{0, 1}}, 1);
  comm.deviceExited(0, std::string("kernel exploded"));
  llvm::Expected<Tensor> r =
      comm.execute(1, call, Tensor::zeros(ElementType::f32, {1}));
  ASSERT_FALSE(static_cast<bool>(r));
  EXPECT_NE(llvm::toString(r.takeError())
                .find("device 0 failed: kernel "
                      "exploded"),
            std::string::npos);
}

TEST(CollectiveKernels, AllToAllAndPermute) {
  // 2 devices, input [4] each: device p gets block p of every device.
  CollectiveCall a2a;
  a2a.kind = CollectiveKind::allToAll;
  a2a.splitDim = a2a.concatDim = 0;
  a2a.splitCount = 2;
  a2a.groups = {{1, 0}}; // group order: device 1 first
  a2a.inputShape = a2a.resultShape = {4};
  a2a.elementType = ElementType::i32;
  Tensor x0 = Tensor::allocate(ElementType::i32, {4});
  Tensor x1 = Tensor::allocate(ElementType::i32, {4});
  for (int i = 0; i < 4; ++i) {
    x0.data<int32_t>()[i] = i;
    x1.data<int32_t>()[i] = 10 + i;
  }
  // Device 1 is position 0: block 0 of device 1 then of device 0.
  Tensor r1 = computeCollectiveResult(a2a, 1, {&x0, &x1});
  EXPECT_EQ(std::vector<int32_t>(r1.data<int32_t>(), r1.data<int32_t>() + 4),
            (std::vector<int32_t>{10, 11, 0, 1}));
  CollectiveCall cp = a2a;
  cp.kind = CollectiveKind::collectivePermute;
  cp.pairs = {{0, 1}}; // position 0 (device 1) -> position 1 (device 0)
  Tensor p0 = computeCollectiveResult(cp, 0, {&x0, &x1});
  Tensor p1 = computeCollectiveResult(cp, 1, {&x0, &x1});
  EXPECT_EQ(p0.data<int32_t>()[0], 10);
  EXPECT_EQ(p1.data<int32_t>()[3], 0); // no source: zeros
}

} // namespace
