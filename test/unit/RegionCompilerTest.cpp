//===- RegionCompilerTest.cpp - scalar bodies to ScalarComputation --------===//

#include "runtime/exec/RegionCompiler.h"

#include "dialects/xla/XlaDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace xspmd::runtime;

namespace {

/// Parses `body` as the region of an unregistered op (not verified: no op of
/// the dialect is needed to hold it) and compiles it; `error` receives the
/// diagnostic of a failure.
class RegionCompilerTest : public ::testing::Test {
protected:
  RegionCompilerTest() {
    ctx.loadDialect<xspmd::xla::XlaDialect, func::FuncDialect>();
    ctx.allowUnregisteredDialects();
  }

  FailureOr<ScalarComputation> compile(StringRef body) {
    std::string source =
        ("\"test.body\"() ({\n" + body + "\n}) : () -> ()").str();
    ParserConfig config(&ctx, /*verifyAfterParse=*/false);
    module = parseSourceString<ModuleOp>(source, config);
    if (!module)
      return failure();
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      error = diag.str();
      return success();
    });
    Operation &holder = module->getBody()->front();
    return compileScalarComputation(holder.getRegion(0));
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  std::string error;
};

TEST_F(RegionCompilerTest, AddIsRecognised) {
  FailureOr<ScalarComputation> c = compile(R"(
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = xla.add %a, %b : tensor<f32>
      xla.yield %0 : tensor<f32>)");
  ASSERT_TRUE(succeeded(c)) << error;
  EXPECT_EQ(c->asBinaryOp(), BinaryOp::add);
  Scalar out;
  c->run({Scalar::ofFloat(1.5), Scalar::ofFloat(2)}, out);
  EXPECT_EQ(out.f, 3.5);
}

TEST_F(RegionCompilerTest, ArgmaxWithConstantsRuns) {
  FailureOr<ScalarComputation> c = compile(R"(
    ^bb0(%v0: tensor<bf16>, %i0: tensor<i32>, %v1: tensor<bf16>, %i1: tensor<i32>):
      %gt = xla.compare gt, %v0, %v1 : tensor<bf16>
      %eq = xla.compare eq, %v0, %v1 : tensor<bf16>
      %v = xla.select %gt, %v0, %v1 : tensor<bf16>
      %m = xla.min %i0, %i1 : tensor<i32>
      %t = xla.select %eq, %m, %i1 : tensor<i32>
      %i = xla.select %gt, %i0, %t : tensor<i32>
      %k = xla.constant dense<1> : tensor<i32>
      %j = xla.add %i, %k : tensor<i32>
      %f = xla.convert %j : tensor<i32> -> tensor<f32>
      xla.yield %v, %i, %f : tensor<bf16>, tensor<i32>, tensor<f32>)");
  ASSERT_TRUE(succeeded(c)) << error;
  ASSERT_EQ(c->getResultTypes().size(), 3u);
  EXPECT_EQ(c->getResultTypes()[0], ElementType::bf16);
  Scalar out[3];
  c->run({Scalar::ofFloat(2), Scalar::ofInt(3), Scalar::ofFloat(2),
          Scalar::ofInt(1)},
         out);
  EXPECT_EQ(out[0].f, 2);
  EXPECT_EQ(out[1].i, 1);
  EXPECT_EQ(out[2].f, 2);
}

TEST_F(RegionCompilerTest, ComparatorIsRecognised) {
  FailureOr<ScalarComputation> c = compile(R"(
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %0 = xla.compare ge, %b, %a : tensor<i32>
      xla.yield %0 : tensor<i1>)");
  ASSERT_TRUE(succeeded(c)) << error;
  EXPECT_EQ(c->asComparison(), CompareOp::le);
}

TEST_F(RegionCompilerTest, NonScalarOpIsALocatedError) {
  FailureOr<ScalarComputation> c = compile(R"(
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %0 = xla.dot_general %a, %b, batch = [] x [], contract = [] x []
          : (tensor<f32>, tensor<f32>) -> tensor<f32>
      xla.yield %0 : tensor<f32>)");
  EXPECT_TRUE(failed(c));
  EXPECT_NE(error.find("xla.dot_general cannot appear in a scalar computation"),
            std::string::npos)
      << error;
}

TEST_F(RegionCompilerTest, NonScalarValuesAreRefused) {
  FailureOr<ScalarComputation> c = compile(R"(
    ^bb0(%a: tensor<2xf32>):
      xla.yield %a : tensor<2xf32>)");
  EXPECT_TRUE(failed(c));
  EXPECT_NE(error.find("argument 0 is 'tensor<2xf32>'"), std::string::npos)
      << error;
}

TEST_F(RegionCompilerTest, MissingYieldIsRefused) {
  FailureOr<ScalarComputation> c = compile(R"(
    ^bb0(%a: tensor<f32>):
      %0 = xla.neg %a : tensor<f32>)");
  EXPECT_TRUE(failed(c));
  EXPECT_NE(error.find("does not end in xla.yield"), std::string::npos)
      << error;
}

} // namespace
