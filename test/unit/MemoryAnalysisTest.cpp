//===- MemoryAnalysisTest.cpp - liveness of a hand-built program ----------===//

#include "runtime/report/MemoryAnalysis.h"

#include "gtest/gtest.h"

using namespace xspmd;
using namespace xspmd::runtime;
using namespace xspmd::report;

namespace {

Instruction inst(InstructionKind kind, std::vector<int32_t> operands,
                 std::vector<int32_t> results) {
  Instruction i;
  i.kind = kind;
  i.operands.assign(operands.begin(), operands.end());
  i.results.assign(results.begin(), results.end());
  i.description = "op";
  return i;
}

/// Arguments a (1000 B) and b (400 B, donated to result 0), a constant c
/// (40 B); t = f(a) (1000 B), v = view(t), g = gather(v) (2000 B),
/// o = f(g, c) (result 0, 400 B, aliases b), o2 = f(a) (result 1, 200 B).
Program sample() {
  Program p;
  auto f32 = [](int64_t n) { return TensorSpec{ElementType::f32, Shape{n}}; };
  p.slotSpecs = {f32(250), f32(100), f32(10),  f32(250),
                 f32(250), f32(500), f32(100), f32(50)};
  p.numSlots = p.slotSpecs.size();
  p.slotOrigins = {"argument 0", "argument 1", "constant", "t",
                   "v",          "g",          "o",        "o2"};
  p.argSlots = {0, 1};
  p.argAliases = {-1, 0};
  p.constants.push_back({2, Tensor()});
  p.instructions.push_back(inst(InstructionKind::Compute, {0}, {3}));
  p.instructions.push_back(inst(InstructionKind::View, {3}, {4}));
  p.instructions.push_back(inst(InstructionKind::Collective, {4}, {5}));
  p.instructions.push_back(inst(InstructionKind::Compute, {5, 2}, {6}));
  p.instructions.push_back(inst(InstructionKind::Compute, {0}, {7}));
  p.resultSlots = {6, 7};
  return p;
}

double category(const MemoryProfile &m, MemoryCategory c) {
  return m.peakByCategory[static_cast<int>(c)];
}

TEST(MemoryAnalysis, PeakCategoriesAndSizes) {
  MemoryProfile m = analyzeMemory(sample());
  // At the gather: a, b, c, t (kept alive by its view) and g.
  EXPECT_EQ(m.peakBytes, 1000 + 400 + 40 + 1000 + 2000);
  EXPECT_EQ(m.peakInstruction, 2);
  EXPECT_EQ(category(m, MemoryCategory::Argument), 1400);
  EXPECT_EQ(category(m, MemoryCategory::Constant), 40);
  EXPECT_EQ(category(m, MemoryCategory::Temporary), 1000);
  EXPECT_EQ(category(m, MemoryCategory::CollectiveBuffer), 2000);
  EXPECT_EQ(category(m, MemoryCategory::Output), 0);
  EXPECT_EQ(m.argumentBytes, 1400);
  EXPECT_EQ(m.outputBytes, 600);
  EXPECT_EQ(m.aliasedBytes, 400);
  EXPECT_EQ(m.constantBytes, 40);
  EXPECT_EQ(m.intermediateBytes, 3000);
  ASSERT_EQ(m.largestAtPeak.size(), 5u);
  EXPECT_EQ(m.largestAtPeak[0].origin, "g");
  EXPECT_EQ(m.largestAtPeak[0].category, MemoryCategory::CollectiveBuffer);
  EXPECT_EQ(m.largestAtPeak[1].origin, "argument 0");
  EXPECT_EQ(m.largestAtPeak[2].origin, "t");
  EXPECT_EQ(m.largestAtPeak[2].type, "250xf32");
}

TEST(MemoryAnalysis, OutputsLiveToTheEnd) {
  Program p = sample();
  // Without the donation, result 0 takes its own 400 bytes.
  p.argAliases = {-1, -1};
  MemoryProfile m = analyzeMemory(p);
  EXPECT_EQ(m.aliasedBytes, 0);
  EXPECT_EQ(m.peakBytes, 4440);
  // A program that keeps everything: the peak is at its last op.
  p.resultSlots = {3, 5, 6, 7};
  m = analyzeMemory(p, 2);
  EXPECT_EQ(m.peakInstruction, 4);
  EXPECT_EQ(m.peakBytes, 1440 + 1000 + 2000 + 400 + 200);
  EXPECT_EQ(category(m, MemoryCategory::Output), 3600);
  EXPECT_EQ(m.largestAtPeak.size(), 2u);
}

TEST(MemoryAnalysis, Formatting) {
  EXPECT_EQ(formatMemoryBytes(512), "512 B");
  EXPECT_EQ(formatMemoryBytes(1536), "1.50 KiB");
  EXPECT_EQ(formatMemoryBytes(95.0 * 1024 * 1024 * 1024), "95.00 GiB");
}

} // namespace
