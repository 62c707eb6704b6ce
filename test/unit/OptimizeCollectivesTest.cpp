//===- OptimizeCollectivesTest.cpp - rewrites keep per-device values ------===//
//
// Each case runs --xla-optimize-collectives with only one rewrite enabled,
// checks that it changed the program, and runs the program before and after
// on every device with the reference evaluator (CollectiveEvaluator.h) on
// several random inputs: every device must compute the same values.
//
//===----------------------------------------------------------------------===//

#include "CollectiveEvaluator.h"

#include "dialects/xla/XlaOps.h"
#include "passes/Passes.h"
#include "passes/optimize/HierarchicalGroups.h"
#include "passes/optimize/Rewrites.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace mlir;
using namespace xspmd;
using namespace xspmd::testing;

namespace {

struct Case {
  const char *name;
  /// The only rewrite enabled; empty for all of them.
  const char *rewrite;
  const char *source;
};

std::ostream &operator<<(std::ostream &os, const Case &c) {
  return os << c.name;
}

std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

class Fixture {
public:
  Fixture() {
    ctx.loadDialect<xla::XlaDialect, func::FuncDialect>();
    ctx.printOpOnDiagnostic(true);
  }

  OwningOpRef<ModuleOp> parse(const char *source) {
    return parseSourceString<ModuleOp>(source, &ctx);
  }

  /// Runs the pass with only `rewrite` enabled (all when empty).
  LogicalResult optimize(ModuleOp module, StringRef rewrite) {
    XlaOptimizeCollectivesPassOptions options;
    for (size_t i = 0; i < optimize::kNumRewrites; ++i) {
      StringRef name = optimize::rewriteName(static_cast<optimize::Rewrite>(i));
      if (!rewrite.empty() && name != rewrite)
        options.disabled.push_back(name.str());
    }
    PassManager pm(&ctx);
    pm.addPass(createXlaOptimizeCollectivesPass(options));
    return pm.run(module);
  }

  MLIRContext ctx;
};

func::FuncOp firstFunc(ModuleOp module) {
  return *module.getOps<func::FuncOp>().begin();
}

/// Per-device results of `module`'s first function on inputs from `seed`
/// (drawn from `reference`'s argument shardings, so both sides get the same
/// inputs).
std::vector<DeviceValues> run(ModuleOp module, ModuleOp reference,
                              unsigned seed) {
  std::string error;
  auto results = evaluate(firstFunc(module),
                          makeInputs(firstFunc(reference), seed), error);
  EXPECT_TRUE(error.empty()) << error;
  return results;
}

class RewriteKeepsValues : public ::testing::TestWithParam<Case> {};

TEST_P(RewriteKeepsValues, OnEveryDevice) {
  const Case &c = GetParam();
  Fixture f;
  OwningOpRef<ModuleOp> before = f.parse(c.source);
  ASSERT_TRUE(before);
  OwningOpRef<ModuleOp> after = before->clone();
  ASSERT_TRUE(succeeded(f.optimize(*after, c.rewrite)));
  ASSERT_TRUE(succeeded(verify(*after)));
  ASSERT_NE(print(*before), print(*after)) << c.rewrite << " did not fire";
  for (unsigned seed = 0; seed < 4; ++seed) {
    std::vector<DeviceValues> expected = run(*before, *before, seed);
    std::vector<DeviceValues> actual = run(*after, *before, seed);
    ASSERT_FALSE(expected.empty());
    ASSERT_EQ(expected.size(), actual.size());
    for (size_t r = 0; r < expected.size(); ++r)
      for (size_t d = 0; d < expected[r].size(); ++d)
        ASSERT_EQ(expected[r][d], actual[r][d])
            << "result " << r << " differs on device " << d << " (seed " << seed
            << ")\n"
            << print(*after);
  }
}

#define MESHES                                                                 \
  "xla.mesh @mesh = <[\"x\"=2, \"y\"=4]>\n"                                    \
  "xla.mesh @perm = <[\"x\"=2, \"y\"=4], devices=[3, 0, 6, 1, 7, 2, 5, 4]>\n"  \
  "xla.mesh @unit = <[\"x\"=2, \"one\"=1, \"y\"=4]>\n"                         \
  "xla.mesh @h = hybrid<ici=[\"data\"=1, \"fsdp\"=4], dcn=[\"data\"=2, "       \
  "\"fsdp\"=1]>\n"                                                             \
  "xla.mesh @m = hybrid<ici=[\"d\"=2, \"t\"=2], dcn=[\"d\"=2, \"t\"=1]>\n"

const Case kCases[] = {
    // all_reduce + all_slice
    {"ReduceScatterSameAxes", "reduce-scatter", MESHES R"(
func.func @f(%x: tensor<16x3xf32>) -> tensor<2x3xf32> {
  %r = xla.all_reduce sum %x mesh_axes = @mesh["x", "y"] scale = 0.5 : tensor<16x3xf32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<16x3xf32>) -> tensor<2x3xf32>
  return %s : tensor<2x3xf32>
})"},
    {"ReduceScatterSubset", "reduce-scatter", MESHES R"(
func.func @f(%x: tensor<3x8xf32>) -> tensor<3x2xf32> {
  %r = xla.all_reduce max %x mesh_axes = @perm["x", "y"] scale = 2.0 : tensor<3x8xf32>
  %s = xla.all_slice %r, dim = 1 mesh_axes = @perm["y"] : (tensor<3x8xf32>) -> tensor<3x2xf32>
  return %s : tensor<3x2xf32>
})"},
    {"ReduceScatterReordered", "reduce-scatter", MESHES R"(
func.func @f(%x: tensor<8xi32>) -> tensor<1xi32> {
  %r = xla.all_reduce sum %x mesh_axes = @perm["y", "x"] : tensor<8xi32>
  %s = xla.all_slice %r, dim = 0 mesh_axes = @perm["x", "y"] : (tensor<8xi32>) -> tensor<1xi32>
  return %s : tensor<1xi32>
})"},
    {"ReduceScatterGroups", "reduce-scatter", MESHES R"(
func.func @f(%x: tensor<8xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %r = xla.all_reduce or %x groups = [[0, 3, 5, 6], [1, 2, 4, 7]] : tensor<8xi32>
  %s = xla.all_slice %r, dim = 0 groups = [[0, 3, 5, 6], [1, 2, 4, 7]] : (tensor<8xi32>) -> tensor<2xi32>
  %t = xla.all_slice %r, dim = 0 groups = [[0, 3, 5, 6], [1, 2, 4, 7]] : (tensor<8xi32>) -> tensor<2xi32>
  return %s, %t : tensor<2xi32>, tensor<2xi32>
})"},
    {"SliceBeforeReduce", "slice-before-reduce", MESHES R"(
func.func @f(%x: tensor<2x8xf32>) -> tensor<2x2xf32> {
  %r = xla.all_reduce mul %x mesh_axes = @perm["x"] : tensor<2x8xf32>
  %s = xla.all_slice %r, dim = 1 mesh_axes = @perm["y"] : (tensor<2x8xf32>) -> tensor<2x2xf32>
  return %s : tensor<2x2xf32>
})"},
    // chains
    {"GatherGather", "gather-gather", MESHES R"(
func.func @f(%x: tensor<1x2xf32>) -> (tensor<8x2xf32>, tensor<1x16xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @perm["y"] : (tensor<1x2xf32>) -> tensor<4x2xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @perm["x"] : (tensor<4x2xf32>) -> tensor<8x2xf32>
  %2 = xla.all_gather %x, dim = 1 mesh_axes = @h["data"] : (tensor<1x2xf32>) -> tensor<1x4xf32>
  %3 = xla.all_gather %2, dim = 1 mesh_axes = @h["fsdp"] : (tensor<1x4xf32>) -> tensor<1x16xf32>
  return %1, %3 : tensor<8x2xf32>, tensor<1x16xf32>
})"},
    {"SliceSlice", "slice-slice", MESHES R"(
func.func @f(%x: tensor<16x2xf32>) -> tensor<2x2xf32> {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @perm["y"] : (tensor<16x2xf32>) -> tensor<4x2xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @perm["x"] : (tensor<4x2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
})"},
    {"ReduceReduce", "reduce-reduce", MESHES R"(
func.func @f(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @perm["y"] scale = 0.25 : tensor<4xf32>
  %1 = xla.all_reduce sum %0 mesh_axes = @perm["x"] scale = 0.5 : tensor<4xf32>
  %2 = xla.all_reduce and %i mesh_axes = @m["t"] : tensor<4xi32>
  %3 = xla.all_reduce and %2 mesh_axes = @m["d"] : tensor<4xi32>
  return %1, %3 : tensor<4xf32>, tensor<4xi32>
})"},
    {"AllReduceCombiner", "all-reduce-combiner", MESHES R"(
func.func @f(%g0: tensor<2x3xf32>, %g1: tensor<4xf32>, %g2: tensor<f32>, %w: tensor<2x3xf32>)
    -> (tensor<2x3xf32>, tensor<4xf32>, tensor<f32>) {
  %r0 = xla.all_reduce sum %g0 mesh_axes = @mesh["x"] scale = 0.5 : tensor<2x3xf32>
  %u0 = xla.sub %w, %r0 : tensor<2x3xf32>
  %d0 = xla.add %u0, %u0 : tensor<2x3xf32>
  %r1 = xla.all_reduce sum %g1 mesh_axes = @mesh["x"] scale = 0.5 : tensor<4xf32>
  %r2 = xla.all_reduce sum %g2 mesh_axes = @mesh["x"] scale = 0.5 : tensor<f32>
  return %d0, %r1, %r2 : tensor<2x3xf32>, tensor<4xf32>, tensor<f32>
})"},
    // redundant reshards
    {"GatherSlice", "gather-slice", MESHES R"(
func.func @f(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<8xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @perm["x", "y"] : (tensor<2xf32>) -> tensor<16xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @perm["x", "y"] : (tensor<16xf32>) -> tensor<2xf32>
  %2 = xla.all_gather %x, dim = 0 mesh_axes = @h["data", "fsdp"] : (tensor<2xf32>) -> tensor<16xf32>
  %3 = xla.all_slice %2, dim = 0 mesh_axes = @h["data"] : (tensor<16xf32>) -> tensor<8xf32>
  return %1, %3 : tensor<2xf32>, tensor<8xf32>
})"},
    {"GatherSliceToAllToAll", "gather-slice-to-all-to-all", MESHES R"(
func.func @f(%x: tensor<2x8xf32>) -> (tensor<8x2xf32>, tensor<4x4xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @perm["y"] : (tensor<2x8xf32>) -> tensor<8x8xf32>
  %1 = xla.all_slice %0, dim = 1 mesh_axes = @perm["y"] : (tensor<8x8xf32>) -> tensor<8x2xf32>
  %2 = xla.all_gather %x, dim = 0 groups = [[5, 2], [0, 7], [1, 6], [3, 4]] : (tensor<2x8xf32>) -> tensor<4x8xf32>
  %3 = xla.all_slice %2, dim = 1 groups = [[5, 2], [0, 7], [1, 6], [3, 4]] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %1, %3 : tensor<8x2xf32>, tensor<4x4xf32>
})"},
    {"SliceGather", "slice-gather", MESHES R"(
func.func @f(%x: tensor<8xf32> {xla.sharding = #xla.sharding<@perm, [{"x"}]>},
             %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @perm["y"] : (tensor<8xf32>) -> tensor<2xf32>
  %1 = xla.all_gather %0, dim = 0 mesh_axes = @perm["y"] : (tensor<2xf32>) -> tensor<8xf32>
  %r = xla.all_reduce max %y mesh_axes = @perm["y"] : tensor<8xf32>
  %2 = xla.all_slice %r, dim = 0 mesh_axes = @perm["x", "y"] : (tensor<8xf32>) -> tensor<1xf32>
  %3 = xla.all_gather %2, dim = 0 mesh_axes = @perm["y"] : (tensor<1xf32>) -> tensor<4xf32>
  return %1, %3 : tensor<8xf32>, tensor<4xf32>
})"},
    {"IdentityPermute", "identity-permute", MESHES R"(
func.func @f(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = xla.collective_permute %x, pairs = [[1, 1], [0, 0]] mesh_axes = @perm["x"] : tensor<3xf32>
  %1 = xla.collective_permute %x, pairs = [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4], [5, 5], [6, 6], [7, 7]] : tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
})"},
    {"TrivialGroup", "trivial-group", MESHES R"(
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @unit["one"] : tensor<4xf32>
  %1 = xla.all_to_all %0, split_dim = 0, concat_dim = 0, split_count = 1 mesh_axes = @unit["one"] : (tensor<4xf32>) -> tensor<4xf32>
  %2 = xla.reduce_scatter max %x, dim = 0 groups = [[0], [1], [2], [3], [4], [5], [6], [7]] : (tensor<4xf32>) -> tensor<4xf32>
  %3 = xla.collective_permute %x, pairs = [[0, 0]] mesh_axes = @unit["one"] : tensor<4xf32>
  return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
})"},
    {"DeadCollective", "dead-collective", MESHES R"(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y"] : (tensor<4xf32>) -> tensor<16xf32>
  %1 = xla.collective_permute %x, pairs = [[0, 1]] mesh_axes = @mesh["x"] : tensor<4xf32>
  %2 = xla.all_reduce sum %x mesh_axes = @mesh["y"] : tensor<4xf32>
  return %2 : tensor<4xf32>
})"},
    {"DuplicateCollective", "duplicate-collective", MESHES R"(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = xla.collective_permute %x, pairs = [[0, 1], [1, 2]] mesh_axes = @mesh["y"] : tensor<4xf32>
  %1 = xla.collective_permute %x, pairs = [[0, 1], [1, 2]] mesh_axes = @mesh["y"] : tensor<4xf32>
  %2 = xla.add %0, %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
})"},
    // hierarchical
    {"HierarchicalAllReducePureAxes", "hierarchical-all-reduce", MESHES R"(
func.func @f(%x: tensor<8x3xf32>, %y: tensor<2x6xf32>) -> (tensor<8x3xf32>, tensor<2x6xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @h["fsdp", "data"] scale = 0.5 : tensor<8x3xf32>
  %1 = xla.all_reduce min %y mesh_axes = @h["data", "fsdp"] : tensor<2x6xf32>
  return %0, %1 : tensor<8x3xf32>, tensor<2x6xf32>
})"},
    {"HierarchicalAllReduceMixed", "hierarchical-all-reduce", MESHES R"(
func.func @f(%x: tensor<4x2xf32>, %y: tensor<4xi32>) -> (tensor<4x2xf32>, tensor<4xi32>) {
  %0 = xla.all_reduce max %x mesh_axes = @m["d"] : tensor<4x2xf32>
  %1 = xla.all_reduce sum %y : tensor<4xi32>
  return %0, %1 : tensor<4x2xf32>, tensor<4xi32>
})"},
    {"HierarchicalReduceScatter", "hierarchical-reduce-scatter", MESHES R"(
func.func @f(%x: tensor<16x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>) {
  %0 = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @h["data", "fsdp"] scale = 0.5 : (tensor<16x3xf32>) -> tensor<2x3xf32>
  %1 = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @h["fsdp", "data"] : (tensor<16x3xf32>) -> tensor<2x3xf32>
  %2 = xla.reduce_scatter max %x, dim = 0 mesh_axes = @m["d"] : (tensor<16x3xf32>) -> tensor<4x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>
})"},
    {"HierarchicalAllGather", "hierarchical-all-gather", MESHES R"(
func.func @f(%x: tensor<3x2xf32>) -> (tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x8xf32>) {
  %0 = xla.all_gather %x, dim = 1 mesh_axes = @h["data", "fsdp"] : (tensor<3x2xf32>) -> tensor<3x16xf32>
  %1 = xla.all_gather %x, dim = 1 mesh_axes = @h["fsdp", "data"] : (tensor<3x2xf32>) -> tensor<3x16xf32>
  %2 = xla.all_gather %x, dim = 1 mesh_axes = @m["d"] : (tensor<3x2xf32>) -> tensor<3x8xf32>
  return %0, %1, %2 : tensor<3x16xf32>, tensor<3x16xf32>, tensor<3x8xf32>
})"},
    // everything together, as the partitioner might leave it
    {"AllRewrites", "", MESHES R"(
func.func @f(%a: tensor<16x4xf32>, %b: tensor<1x4xf32>, %c: tensor<8xf32>, %d: tensor<6xf32>)
    -> (tensor<2x4xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<6xf32>) {
  %0 = xla.all_reduce sum %a mesh_axes = @h["data", "fsdp"] : tensor<16x4xf32>
  %1 = xla.all_slice %0, dim = 0 mesh_axes = @h["fsdp"] : (tensor<16x4xf32>) -> tensor<4x4xf32>
  %2 = xla.all_slice %1, dim = 0 mesh_axes = @h["data"] : (tensor<4x4xf32>) -> tensor<2x4xf32>
  %3 = xla.all_gather %b, dim = 0 mesh_axes = @h["fsdp"] : (tensor<1x4xf32>) -> tensor<4x4xf32>
  %4 = xla.all_gather %3, dim = 0 mesh_axes = @h["data"] : (tensor<4x4xf32>) -> tensor<8x4xf32>
  %5 = xla.all_reduce sum %c mesh_axes = @h["data", "fsdp"] : tensor<8xf32>
  %6 = xla.all_reduce sum %d mesh_axes = @h["data", "fsdp"] : tensor<6xf32>
  return %2, %4, %5, %6 : tensor<2x4xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<6xf32>
})"},
};

INSTANTIATE_TEST_SUITE_P(Optimize, RewriteKeepsValues,
                         ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case> &info) {
                           return std::string(info.param.name);
                         });

// Every rewrite has a case above.
TEST(RewriteKeepsValues, EveryRewriteIsCovered) {
  for (size_t i = 0; i < optimize::kNumRewrites; ++i) {
    StringRef name = optimize::rewriteName(static_cast<optimize::Rewrite>(i));
    EXPECT_TRUE(llvm::any_of(kCases, [&](const Case &c) {
      return name == c.rewrite;
    })) << name.str();
    EXPECT_EQ(optimize::parseRewrite(name), static_cast<optimize::Rewrite>(i));
  }
}

// The oracle tells wrong rewrites apart: gathering the axes in the other
// order changes the gathered values and the block each device slices.
TEST(Evaluator, DetectsWrongGroupOrder) {
  Fixture f;
  OwningOpRef<ModuleOp> right = f.parse(MESHES R"(
func.func @f(%x: tensor<1xf32>) -> (tensor<8xf32>, tensor<1xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<1xf32>) -> tensor<8xf32>
  %r = xla.all_reduce sum %0 mesh_axes = @mesh["y"] : tensor<8xf32>
  %1 = xla.all_slice %r, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<8xf32>) -> tensor<1xf32>
  return %0, %1 : tensor<8xf32>, tensor<1xf32>
})");
  OwningOpRef<ModuleOp> wrong = f.parse(MESHES R"(
func.func @f(%x: tensor<1xf32>) -> (tensor<8xf32>, tensor<1xf32>) {
  %0 = xla.all_gather %x, dim = 0 mesh_axes = @mesh["y", "x"] : (tensor<1xf32>) -> tensor<8xf32>
  %r = xla.all_reduce sum %0 mesh_axes = @mesh["y"] : tensor<8xf32>
  %1 = xla.all_slice %r, dim = 0 mesh_axes = @mesh["x", "y"] : (tensor<8xf32>) -> tensor<1xf32>
  return %0, %1 : tensor<8xf32>, tensor<1xf32>
})");
  ASSERT_TRUE(right && wrong);
  std::vector<DeviceValues> a = run(*right, *right, 1);
  std::vector<DeviceValues> b = run(*wrong, *right, 1);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_NE(a[0], b[0]);
  EXPECT_NE(a[1], b[1]);
}

// Concrete values of one collective, checked by hand.
TEST(Evaluator, ReduceScatterByHand) {
  Fixture f;
  OwningOpRef<ModuleOp> module = f.parse(R"(
xla.mesh @mesh = <["x"=2]>
func.func @f(%x: tensor<2xf32>) -> tensor<1xf32> {
  %0 = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @mesh["x"] scale = 0.5 : (tensor<2xf32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
})");
  ASSERT_TRUE(module);
  std::string error;
  std::vector<DeviceValues> args = {{{{2}, {1, 2}}, {{2}, {3, 6}}}};
  auto results = evaluate(firstFunc(*module), args, error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(results[0][0], (Array{{1}, {2}}));
  EXPECT_EQ(results[0][1], (Array{{1}, {4}}));
}

/// A random chain of collectives over a hybrid mesh with an ICI axis "a", a
/// mixed axis "b" and a DCN axis "c" (16 devices, 4 slices), returning the
/// last value and some others.
std::string randomProgram(std::mt19937 &rng) {
  const char *names[] = {"a", "b", "c"};
  struct Value {
    std::string name;
    SmallVector<int64_t> shape;
  };
  auto pick = [&](int64_t n) {
    return std::uniform_int_distribution<int64_t>(0, n - 1)(rng);
  };
  auto type = [](ArrayRef<int64_t> shape) {
    std::string t = "tensor<";
    for (int64_t s : shape)
      t += std::to_string(s) + "x";
    return t + "f32>";
  };
  std::vector<Value> values = {{"%arg0", {16, 4}}, {"%arg1", {16, 4}}};
  std::string body;
  for (int step = 0; step < 6; ++step) {
    const Value &in =
        pick(10) < 7 ? values.back() : values[pick(values.size())];
    // A random ordered, non-empty subset of the axes (sizes 2 and 4).
    SmallVector<int> order = {0, 1, 2};
    std::shuffle(order.begin(), order.end(), rng);
    order.resize(1 + pick(3));
    int64_t size = 1;
    std::string axes;
    for (int a : order) {
      size *= a == 1 ? 4 : 2;
      axes += std::string(axes.empty() ? "" : ", ") + "\"" + names[a] + "\"";
    }
    std::string parts = " mesh_axes = @h[" + axes + "]";
    int64_t dim = pick(2);
    SmallVector<int64_t> shape = in.shape;
    std::string name = "%v" + std::to_string(step), op;
    switch (pick(4)) {
    case 0:
      op = std::string("xla.all_reduce ") + (pick(2) ? "sum " : "max ") +
           in.name + parts + " : " + type(shape);
      break;
    case 1:
      if (shape[dim] * size > 64)
        continue;
      shape[dim] *= size;
      op = "xla.all_gather " + in.name + ", dim = " + std::to_string(dim) +
           parts + " : (" + type(in.shape) + ") -> " + type(shape);
      break;
    default:
      if (shape[dim] % size != 0)
        continue;
      shape[dim] /= size;
      op = (pick(2) ? "xla.all_slice " : "xla.reduce_scatter sum ") + in.name +
           ", dim = " + std::to_string(dim) + parts + " : (" + type(in.shape) +
           ") -> " + type(shape);
      break;
    }
    body += "  " + name + " = " + op + "\n";
    values.push_back({name, shape});
  }
  std::vector<const Value *> results = {&values.back()};
  for (size_t i = 2; i + 1 < values.size(); ++i)
    if (pick(4) == 0)
      results.push_back(&values[i]);
  std::string names_, types;
  for (const Value *v : results) {
    names_ += (names_.empty() ? "" : ", ") + v->name;
    types += (types.empty() ? "" : ", ") + type(v->shape);
  }
  return "xla.mesh @h = hybrid<ici=[\"a\"=2, \"b\"=2, \"c\"=1], "
         "dcn=[\"a\"=1, \"b\"=2, \"c\"=2]>\n"
         "func.func @f(%arg0: tensor<16x4xf32>, %arg1: tensor<16x4xf32>) -> (" +
         types + ") {\n" + body + "  return " + names_ + " : " + types +
         "\n}\n";
}

// Random chains of collectives, all rewrites on: same values everywhere.
TEST(RandomPrograms, KeepValues) {
  std::mt19937 rng(2026);
  int changed = 0;
  for (int i = 0; i < 150; ++i) {
    std::string source = randomProgram(rng);
    Fixture f;
    OwningOpRef<ModuleOp> before = f.parse(source.c_str());
    ASSERT_TRUE(before) << source;
    OwningOpRef<ModuleOp> after = before->clone();
    ASSERT_TRUE(succeeded(f.optimize(*after, "")));
    ASSERT_TRUE(succeeded(verify(*after))) << source;
    changed += print(*before) != print(*after);
    std::vector<DeviceValues> expected = run(*before, *before, i);
    std::vector<DeviceValues> actual = run(*after, *before, i);
    ASSERT_FALSE(expected.empty()) << source;
    ASSERT_EQ(expected, actual) << source << "\n" << print(*after);
  }
  // Most programs give the pass something to do.
  EXPECT_GT(changed, 100);
}

TEST(SplitByLinks, LayoutsAndSubgroups) {
  // Two slices of four; a group over both slices, slice-major.
  auto split = optimize::splitByLinks({{0, 1, 4, 5}, {2, 3, 6, 7}}, 4);
  ASSERT_TRUE(split);
  EXPECT_EQ(split->iciSize, 2);
  EXPECT_EQ(split->dcnSize, 2);
  EXPECT_EQ(split->layout, optimize::GroupLayout::DcnMajor);
  EXPECT_EQ(split->ici, (xla::DeviceGroups{{0, 1}, {4, 5}, {2, 3}, {6, 7}}));
  EXPECT_EQ(split->dcn, (xla::DeviceGroups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));

  auto iciMajor = optimize::splitByLinks({{0, 4, 1, 5}, {2, 6, 3, 7}}, 4);
  ASSERT_TRUE(iciMajor);
  EXPECT_EQ(iciMajor->layout, optimize::GroupLayout::IciMajor);

  auto interleaved = optimize::splitByLinks({{0, 4, 5, 1}, {2, 6, 7, 3}}, 4);
  ASSERT_TRUE(interleaved);
  EXPECT_EQ(interleaved->layout, optimize::GroupLayout::Interleaved);

  // Three members in one slice, one in the other: no even split.
  EXPECT_FALSE(optimize::splitByLinks({{0, 1, 2, 4}, {3, 5, 6, 7}}, 4));
}

} // namespace
