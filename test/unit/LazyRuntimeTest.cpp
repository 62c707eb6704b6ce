//===- LazyRuntimeTest.cpp - the lazy-tensor frontend ---------------------===//
//
// Records torch_xla-style programs, runs them with markStep and checks the
// numbers against values computed here, the compilation cache (in memory and
// on disk), recompilation reasons and sharding specs.
//
//===----------------------------------------------------------------------===//

#include "lib/lazy/Runtime.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace xspmd;
using namespace xspmd::lazy;
using runtime::ElementType;

namespace {

template <typename T>
T unwrap(llvm::Expected<T> value) {
  if (!value) {
    ADD_FAILURE() << llvm::toString(value.takeError());
    std::abort();
  }
  return std::move(*value);
}

runtime::Tensor hostTensor(llvm::ArrayRef<int64_t> shape,
                           const std::vector<float> &values) {
  runtime::Tensor t = runtime::Tensor::allocate(ElementType::f32, shape);
  std::copy(values.begin(), values.end(), t.data<float>());
  return t;
}

std::vector<float> valuesOf(const runtime::Tensor &t) {
  return std::vector<float>(t.data<float>(),
                            t.data<float>() + t.getNumElements());
}

std::unique_ptr<Runtime> makeRuntime(RuntimeOptions options = {}) {
  options.numDevices = 4;
  return unwrap(Runtime::create(options));
}

TEST(LazyMesh, TorchXlaMeshAndSpecs) {
  Mesh mesh =
      unwrap(Mesh::create({0, 1, 2, 3, 4, 5, 6, 7}, {2, 4}, {"data", "model"}));
  EXPECT_EQ(mesh.size(), 8);
  EXPECT_EQ(mesh.describe(),
            "Mesh(shape=(2, 4), axis_names=('data', 'model'))");
  EXPECT_EQ(unwrap(mesh.resolveAxis(1)), "model");
  EXPECT_FALSE(static_cast<bool>(mesh.resolveAxis("tensor")));
  llvm::consumeError(mesh.resolveAxis("tensor").takeError());

  Mesh unnamed = unwrap(Mesh::create({3, 2, 1, 0}, {4}, {}));
  EXPECT_EQ(unwrap(unnamed.resolveAxis("0")), "axis0");

  llvm::Expected<Mesh> bad = Mesh::create({0, 1, 1, 3}, {2, 2}, {"a", "b"});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("not a permutation"),
            std::string::npos);

  Mesh hybrid = unwrap(Mesh::hybrid({1, 4}, {2, 1}, {"data", "fsdp"}));
  EXPECT_EQ(hybrid.size(), 8);
  EXPECT_EQ(hybrid.getShape()[0], 2);
}

TEST(LazyRuntime, RecordsAndRunsAtMarkStep) {
  auto rt = makeRuntime();
  Tensor x = unwrap(rt->fromHost(hostTensor({2, 2}, {1, 2, 3, 4})));
  Tensor w = unwrap(rt->fromHost(hostTensor({2, 2}, {1, 0, 0, 2})));
  Tensor y = unwrap(rt->matmul(x, w));
  Tensor z = unwrap(rt->binary(BinaryOp::add, y, 1.0));
  EXPECT_TRUE(z.isPending());
  EXPECT_EQ(rt->getNumSteps(), 0);
  ASSERT_FALSE(static_cast<bool>(rt->markStep()));
  EXPECT_FALSE(z.isPending());
  EXPECT_EQ(rt->getLastStep().numOutputs, 2); // y and z are alive
  EXPECT_EQ(valuesOf(unwrap(z.toHost())), (std::vector<float>{2, 5, 4, 9}));
}

TEST(LazyRuntime, ShapeErrorsComeBackWhenRecorded) {
  auto rt = makeRuntime();
  Tensor x = unwrap(rt->fromHost(hostTensor({2, 3}, {1, 2, 3, 4, 5, 6})));
  llvm::Expected<Tensor> bad = rt->matmul(x, x);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_NE(llvm::toString(bad.takeError()).find("xla.matmul"),
            std::string::npos);
  llvm::Expected<Tensor> noBroadcast =
      rt->binary(BinaryOp::add, x, unwrap(rt->full({4}, 1, ElementType::f32)));
  ASSERT_FALSE(static_cast<bool>(noBroadcast));
  EXPECT_NE(llvm::toString(noBroadcast.takeError()).find("do not broadcast"),
            std::string::npos);
  // The graph is still usable.
  Tensor ok = unwrap(rt->unary(UnaryOp::neg, x));
  ASSERT_FALSE(static_cast<bool>(rt->markStep()));
  EXPECT_EQ(valuesOf(unwrap(ok.toHost()))[5], -6);
}

/// One data-parallel step: the loss of x @ w with x sharded over "data".
void step(Runtime &rt, const Mesh &mesh, Tensor &w, int64_t batch, float lr) {
  std::vector<float> xs(batch * 4);
  for (size_t i = 0; i < xs.size(); ++i)
    xs[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
  Tensor x = unwrap(rt.fromHost(hostTensor({batch, 4}, xs)));
  x = unwrap(rt.markSharding(x, mesh, {{"data"}, {}}));
  Tensor y = unwrap(rt.matmul(x, w));
  Tensor grad = unwrap(rt.matmul(unwrap(rt.transpose(x, {1, 0})), y));
  w = unwrap(
      rt.binary(BinaryOp::sub, w, unwrap(rt.binary(BinaryOp::mul, grad, lr))));
  ASSERT_FALSE(static_cast<bool>(rt.markStep()));
}

TEST(LazyRuntime, SameGraphCompilesOnceNewShapeIsExplained) {
  auto rt = makeRuntime();
  Mesh mesh = unwrap(Mesh::get1d(4, "data"));
  std::vector<float> w0(16);
  for (int i = 0; i < 16; ++i)
    w0[i] = (i % 5) * 0.1f;
  Tensor w = unwrap(rt->fromHost(hostTensor({4, 4}, w0)));
  step(*rt, mesh, w, 8, 0.01f);
  EXPECT_FALSE(rt->getLastStep().cached);
  EXPECT_TRUE(rt->getLastStep().partitioned);
  EXPECT_NE(rt->getLastStep().collectives.find("all_reduce"),
            std::string::npos);
  EXPECT_GT(rt->getLastStep().stepSeconds, 0);
  step(*rt, mesh, w, 8, 0.01f);
  // w's layout after step 1 may differ from its initial one: by step 3 the
  // graph is stable and cached.
  step(*rt, mesh, w, 8, 0.01f);
  EXPECT_TRUE(rt->getLastStep().cached);
  EXPECT_GE(rt->getMetrics().getCounter("CachedCompile"), 1);
  int64_t uncached = rt->getMetrics().getCounter("UncachedCompile");

  step(*rt, mesh, w, 16, 0.01f);
  EXPECT_FALSE(rt->getLastStep().cached);
  EXPECT_EQ(rt->getMetrics().getCounter("UncachedCompile"), uncached + 1);
  EXPECT_NE(rt->getLastStep().recompileReason.find("tensor<16x4xf32>"),
            std::string::npos)
      << rt->getLastStep().recompileReason;
}

TEST(LazyRuntime, CheckedShardedRunMatchesReference) {
  RuntimeOptions options;
  options.check = true;
  auto rt = makeRuntime(options);
  Mesh mesh = unwrap(Mesh::create({0, 1, 2, 3}, {2, 2}, {"x", "y"}));
  Tensor a = unwrap(rt->randNormal({8, 16}, 1, 0, 1, ElementType::f32));
  Tensor b = unwrap(rt->randNormal({16, 8}, 2, 0, 1, ElementType::f32));
  a = unwrap(rt->markSharding(a, mesh, {{"x"}, {"y"}}));
  b = unwrap(rt->markSharding(b, mesh, {{"y"}, {}}));
  Tensor c = unwrap(rt->unary(UnaryOp::relu, unwrap(rt->matmul(a, b))));
  Tensor s = unwrap(rt->reduce(ReduceOp::sum, c, {-1}, /*keepDims=*/true));
  EXPECT_EQ(s.getShape().size(), 2u);
  ASSERT_FALSE(static_cast<bool>(rt->markStep()));
  EXPECT_TRUE(rt->getLastStep().partitioned);
  EXPECT_EQ(unwrap(rt->getShardingSpec(a)), "{devices=[2,2]0,1,2,3}");
}

TEST(LazyRuntime, PersistentCacheSkipsTheCompilerInANewRuntime) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("xspmd-cache", dir));
  RuntimeOptions options;
  options.cacheDir = std::string(dir);
  auto program = [](Runtime &rt) {
    Mesh mesh = unwrap(Mesh::get1d(4, "data"));
    Tensor x = unwrap(rt.fromHost(hostTensor(
        {8, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})));
    x = unwrap(rt.markSharding(x, mesh, {{"data"}, {}}));
    Tensor s = unwrap(rt.reduce(ReduceOp::sum, x, {0}, false));
    if (llvm::Error err = rt.markStep()) {
      ADD_FAILURE() << llvm::toString(std::move(err));
      return std::vector<float>();
    }
    return valuesOf(unwrap(s.toHost()));
  };
  {
    auto first = makeRuntime(options);
    EXPECT_EQ(program(*first), (std::vector<float>{64, 72}));
    EXPECT_EQ(first->getMetrics().getCounter("PersistentCacheMiss"), 1);
  }
  {
    options.cacheReadOnly = true;
    auto second = makeRuntime(options);
    EXPECT_EQ(program(*second), (std::vector<float>{64, 72}));
    EXPECT_EQ(second->getMetrics().getCounter("PersistentCacheHit"), 1);
    EXPECT_EQ(second->getMetrics().getCounter("UncachedCompile"), 0);
    EXPECT_TRUE(second->getLastStep().persistentCacheHit);
  }
  llvm::sys::fs::remove_directories(dir);
}

TEST(LazyRuntime, CollectivesWithReplicaGroups) {
  auto rt = makeRuntime();
  Tensor x = unwrap(rt->full({2}, 1.5, ElementType::f32));
  Tensor r = unwrap(rt->allReduce(x, ReduceOp::sum, 1.0, {{0, 1}, {2, 3}}));
  ASSERT_FALSE(static_cast<bool>(rt->markStep()));
  EXPECT_EQ(valuesOf(unwrap(r.toHost())), (std::vector<float>{3, 3}));
  EXPECT_NE(rt->getLastStep().collectives.find("all_reduce"),
            std::string::npos);
}

} // namespace
