//===- OpWorkTest.cpp - FLOPs and bytes of compiled ops -------------------===//

#include "lib/Session.h"
#include "runtime/exec/Executor.h"

#include "gtest/gtest.h"

using namespace xspmd;
using namespace xspmd::runtime;

namespace {

/// The entry function of `module` compiled for `devices` devices (the
/// session owns the program); no program, and a test failure, when it does
/// not compile.
struct Compiled {
  std::unique_ptr<Session> session;
  const Program *program = nullptr;
};

Compiled compile(const char *module, llvm::StringRef name, int64_t devices) {
  Compiled c;
  llvm::Expected<std::unique_ptr<Session>> session =
      Session::loadSource(module, name);
  if (!session) {
    ADD_FAILURE() << llvm::toString(session.takeError());
    return c;
  }
  c.session = std::move(*session);
  llvm::Expected<mlir::func::FuncOp> func = c.session->resolveFunction("");
  if (!func) {
    ADD_FAILURE() << llvm::toString(func.takeError());
    return c;
  }
  llvm::Expected<const Program *> program =
      c.session->getProgram(*func, devices);
  if (!program) {
    ADD_FAILURE() << llvm::toString(program.takeError());
    return c;
  }
  c.program = *program;
  return c;
}

const char *kModule = R"mlir(
xla.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>,
                %c: tensor<8x16xbf16>, %d: tensor<16x4xbf16>,
                %img: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x16xf32>,
                %table: tensor<100x8xf32>, %idx: tensor<5xi32>)
    -> (tensor<4x8x32xf32>, tensor<8xbf16>, tensor<1x6x6x16xf32>, tensor<4x8xf32>,
        tensor<5x8xf32>, tensor<4x8x32xf32>, tensor<16x32xf32>, tensor<4x8x16xf32>) {
  %0 = xla.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
  %1 = xla.einsum "ij,jk->i" %c, %d : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8xbf16>
  %2 = xla.convolution %img, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x6x6x16xf32>
  %3 = xla.reduce mean %a, dims = [2] : (tensor<4x8x16xf32>) -> tensor<4x8xf32>
  %4 = xla.gather %table, %idx : (tensor<100x8xf32>, tensor<5xi32>) -> tensor<5x8xf32>
  %5 = xla.gelu %0 : tensor<4x8x32xf32>
  %6 = xla.reshape %0 : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
  %7 = xla.all_slice %6, dim = 0 mesh_axes = @mesh["x"] : (tensor<32x32xf32>) -> tensor<16x32xf32>
  %8 = xla.all_reduce sum %a mesh_axes = @mesh["x"] : tensor<4x8x16xf32>
  return %0, %1, %2, %3, %4, %5, %7, %8 : tensor<4x8x32xf32>, tensor<8xbf16>, tensor<1x6x6x16xf32>, tensor<4x8xf32>, tensor<5x8xf32>, tensor<4x8x32xf32>, tensor<16x32xf32>, tensor<4x8x16xf32>
}
)mlir";

TEST(OpWork, CountsOfEachFamily) {
  Compiled c = compile(kModule, "work.mlir", 2);
  ASSERT_TRUE(c.program);
  const std::vector<Instruction> &inst = c.program->instructions;
  ASSERT_EQ(inst.size(), 9u);

  // dot_general: 2 B M N K = 2 x 4 x 8 x 32 x 16; reads 512 + 2048 floats,
  // writes 1024.
  EXPECT_EQ(inst[0].kind, InstructionKind::Compute);
  EXPECT_EQ(inst[0].work.unit, cost::ComputeUnit::Matrix);
  EXPECT_EQ(inst[0].work.flops, 2.0 * 4 * 8 * 32 * 16);
  EXPECT_EQ(inst[0].work.bytes, (512 + 2048 + 1024) * 4);
  ASSERT_TRUE(inst[0].work.matmul.has_value());
  EXPECT_EQ(inst[0].work.matmul->batch, 4);
  EXPECT_EQ(inst[0].work.matmul->m, 8);
  EXPECT_EQ(inst[0].work.matmul->n, 32);
  EXPECT_EQ(inst[0].work.matmul->k, 16);
  // einsum ij,jk->i: k is summed within the rhs first (64 adds), then
  // 2 x 8 x 16; bf16.
  EXPECT_EQ(inst[1].work.flops, 2.0 * 8 * 16 + 64);
  EXPECT_EQ(inst[1].work.type, cost::NumericType::BF16);
  // convolution: 2 x 36 output pixels x 16 features x 27 window taps.
  EXPECT_EQ(inst[2].work.flops, 2.0 * 36 * 16 * 27);
  EXPECT_EQ(inst[2].work.unit, cost::ComputeUnit::Matrix);
  // reduce mean: 512 combines + 32 divisions.
  EXPECT_EQ(inst[3].work.flops, 512 + 32);
  EXPECT_EQ(inst[3].work.unit, cost::ComputeUnit::Vector);
  EXPECT_EQ(inst[3].work.bytes, (512 + 32) * 4);
  // gather: reads 5 rows and the indices, writes 5 rows.
  EXPECT_EQ(inst[4].work.flops, 0);
  EXPECT_EQ(inst[4].work.bytes, 2 * 40 * 4 + 5 * 4);
  // gelu: 8 FLOPs per element.
  EXPECT_EQ(inst[5].work.flops, 8.0 * 1024);
  // reshape is a view; all_slice a local copy; all_reduce a collective.
  EXPECT_EQ(inst[6].kind, InstructionKind::View);
  EXPECT_EQ(inst[7].kind, InstructionKind::Compute);
  EXPECT_EQ(inst[7].work.bytes, (1024 + 512) * 4);
  EXPECT_EQ(inst[8].kind, InstructionKind::Collective);
  ASSERT_TRUE(inst[8].collective);
  EXPECT_EQ(inst[8].participants, "@mesh[\"x\"]");
  EXPECT_EQ(inst[8].opName, "xla.all_reduce");
  EXPECT_EQ(inst[8].location, "work.mlir:17:8");
}

} // namespace

namespace {

const char *kFusionModule = R"mlir(
func.func @main(%a: tensor<64x32xf32>, %w: tensor<32x32xf32>) -> (tensor<64xf32>, tensor<64x32xf32>, tensor<64x32xf32>) {
  %e = xla.exp %a : tensor<64x32xf32>
  %m = xla.mul %e, %a : tensor<64x32xf32>
  %v = xla.reshape %m : (tensor<64x32xf32>) -> tensor<2048xf32>
  %v2 = xla.reshape %v : (tensor<2048xf32>) -> tensor<64x32xf32>
  %r = xla.reduce sum %v2, dims = [1] : (tensor<64x32xf32>) -> tensor<64xf32>
  %t = xla.tanh %a : tensor<64x32xf32>
  %d = xla.matmul %t, %w : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %n = xla.neg %a : tensor<64x32xf32>
  return %r, %d, %n : tensor<64xf32>, tensor<64x32xf32>, tensor<64x32xf32>
}
)mlir";

TEST(OpWork, ElementwiseChainsFuse) {
  Compiled c = compile(kFusionModule, "fusion.mlir", 1);
  ASSERT_TRUE(c.program);
  const std::vector<Instruction> &inst = c.program->instructions;
  ASSERT_EQ(inst.size(), 8u);
  const double tile = 64 * 32 * 4; // one 64x32 f32 tensor
  // exp reads a; its result goes to mul only: fused, not written.
  EXPECT_EQ(inst[0].work.bytes, 2 * tile);
  EXPECT_EQ(inst[0].fusedBytes, tile);
  // mul reads e (fused) and a; its result reaches the reduce through two
  // views: fused too.
  EXPECT_EQ(inst[1].work.bytes, 3 * tile);
  EXPECT_EQ(inst[1].fusedBytes, tile);
  EXPECT_EQ(inst[2].kind, InstructionKind::View);
  // The reduce reads nothing from HBM but writes its 64 floats.
  EXPECT_EQ(inst[4].work.bytes, tile + 64 * 4);
  EXPECT_EQ(inst[4].fusedBytes, 64 * 4);
  // tanh feeds a matmul, which takes it as a fused operand (TPU's
  // convolution fusion): tanh only reads a, the matmul only reads w and
  // writes its (returned) result.
  EXPECT_EQ(inst[5].fusedBytes, tile);
  EXPECT_EQ(inst[6].fusion, FusionRole::Matrix);
  EXPECT_EQ(inst[6].fusedBytes, inst[6].work.bytes - tile);
  // neg is returned: written.
  EXPECT_EQ(inst[7].fusedBytes, 2 * tile);
}

const char *kOutputFusionModule = R"mlir(
func.func @main(%a: tensor<64x32xf32>, %w: tensor<32x32xf32>, %c: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64xf32>, tensor<64x32xf32>) {
  %d = xla.matmul %a, %w : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %b = xla.add %d, %c : tensor<64x32xf32>
  %d2 = xla.matmul %a, %w : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %e = xla.exp %d2 : tensor<64x32xf32>
  %r = xla.reduce sum %e, dims = [1] : (tensor<64x32xf32>) -> tensor<64xf32>
  %d3 = xla.matmul %a, %w : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %n = xla.neg %d3 : tensor<64x32xf32>
  %m = xla.mul %d3, %n : tensor<64x32xf32>
  return %b, %r, %m : tensor<64x32xf32>, tensor<64xf32>, tensor<64x32xf32>
}
)mlir";

TEST(OpWork, ContractionsFuseIntoOneElementwiseConsumer) {
  Compiled compiled = compile(kOutputFusionModule, "output.mlir", 1);
  ASSERT_NE(compiled.program, nullptr);
  const std::vector<Instruction> &inst = compiled.program->instructions;
  ASSERT_EQ(inst.size(), 8u);
  const double tile = 64 * 32 * 4, weights = 32 * 32 * 4;
  // Output fusion: the matmul's only consumer is an add that is written
  // (returned): the product stays on chip.
  EXPECT_EQ(inst[0].work.bytes, 2 * tile + weights);
  EXPECT_EQ(inst[0].fusedBytes, tile + weights);
  EXPECT_EQ(inst[1].fusedBytes, 2 * tile);
  // exp is fused into the reduce (input fusion): one hero per fusion, so
  // the matmul writes its result and exp reads it.
  EXPECT_EQ(inst[2].fusedBytes, inst[2].work.bytes);
  EXPECT_EQ(inst[3].fusedBytes, tile);
  EXPECT_EQ(inst[4].fusedBytes, 64 * 4);
  // A product read by two ops is written.
  EXPECT_EQ(inst[5].fusedBytes, inst[5].work.bytes);
  // FLOPs never change.
  EXPECT_EQ(inst[0].work.flops, 2.0 * 64 * 32 * 32);
}

const char *kSoftmaxModule = R"mlir(
func.func @main(%q: tensor<64x32xf32>, %k: tensor<32x64xf32>, %v: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x64xf32>) {
  %s = xla.matmul %q, %k : (tensor<64x32xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
  %p = xla.softmax %s, dim = 1 : tensor<64x64xf32>
  %c = xla.matmul %p, %v : (tensor<64x64xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %p2 = xla.softmax %s, dim = 1 : tensor<64x64xf32>
  return %c, %p2 : tensor<64x32xf32>, tensor<64x64xf32>
}
)mlir";

TEST(OpWork, SoftmaxNormalizesInItsReaders) {
  Compiled compiled = compile(kSoftmaxModule, "softmax.mlir", 1);
  ASSERT_NE(compiled.program, nullptr);
  const std::vector<Instruction> &inst = compiled.program->instructions;
  ASSERT_EQ(inst.size(), 4u);
  const double scores = 64 * 64 * 4;
  // Read by a matmul only: the probabilities are not written (the matmul
  // reads the scores instead, as many bytes).
  EXPECT_EQ(inst[1].work.bytes, 2 * scores);
  EXPECT_EQ(inst[1].fusedBytes, scores);
  EXPECT_EQ(inst[2].fusedBytes, inst[2].work.bytes);
  // Returned: written.
  EXPECT_EQ(inst[3].fusedBytes, inst[3].work.bytes);
}

const char *kSliceModule = R"mlir(
func.func @main(%a: tensor<8x4x16xf32>) -> (tensor<3x4x16xf32>, tensor<1x2x16xf32>, tensor<8x4x8xf32>) {
  %rows = xla.slice %a, start = [2, 0, 0], limit = [5, 4, 16], strides = [1, 1, 1] : (tensor<8x4x16xf32>) -> tensor<3x4x16xf32>
  %run = xla.slice %a, start = [6, 1, 0], limit = [7, 3, 16], strides = [1, 1, 1] : (tensor<8x4x16xf32>) -> tensor<1x2x16xf32>
  %cols = xla.slice %a, start = [0, 0, 0], limit = [8, 4, 8], strides = [1, 1, 1] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
  return %rows, %run, %cols : tensor<3x4x16xf32>, tensor<1x2x16xf32>, tensor<8x4x8xf32>
}
)mlir";

TEST(OpWork, ContiguousSlicesAreViews) {
  // A slice that is one run of its operand's storage shares it (tensors are
  // immutable); any other slice copies.
  Compiled compiled = compile(kSliceModule, "slice.mlir", 1);
  ASSERT_NE(compiled.program, nullptr);
  Tensor a = Tensor::allocate(ElementType::f32, {8, 4, 16});
  for (int64_t i = 0; i < a.getNumElements(); ++i)
    a.data<float>()[i] = static_cast<float>(i);
  DeviceContext device;
  llvm::Expected<TensorList> out = runOnDevice(*compiled.program, {a}, device);
  ASSERT_TRUE(static_cast<bool>(out)) << llvm::toString(out.takeError());
  const float *base = a.data<float>();
  EXPECT_EQ((*out)[0].data<float>(), base + 2 * 64);
  EXPECT_EQ((*out)[1].data<float>(), base + 6 * 64 + 16);
  EXPECT_EQ((*out)[1].data<float>()[0], 6 * 64 + 16);
  EXPECT_NE((*out)[2].data<float>(), base);
  EXPECT_EQ((*out)[2].data<float>()[8], 16);
}

const char *kMathModule = R"mlir(
func.func @main(%a: tensor<64x32xf32>, %lo: tensor<64x32xf32>,
                %hi: tensor<64x32xf32>, %n: tensor<64x32xi32>)
    -> (tensor<64x32xf32>, tensor<64x32xi1>, tensor<64x32xi32>, tensor<64x32xf32>, tensor<64x32xi32>) {
  %e = xla.erf %a : tensor<64x32xf32>
  %c = xla.clamp %lo, %e, %hi : tensor<64x32xf32>
  %f = xla.is_finite %a : tensor<64x32xf32>
  %s = xla.shift_left %n, %n : tensor<64x32xi32>
  %r = xla.reverse %c, dims = [0] : tensor<64x32xf32>
  %b = xla.bitcast_convert %a : tensor<64x32xf32> -> tensor<64x32xi32>
  return %r, %f, %s, %c, %b : tensor<64x32xf32>, tensor<64x32xi1>, tensor<64x32xi32>, tensor<64x32xf32>, tensor<64x32xi32>
}
)mlir";

TEST(OpWork, MathOpsCountAndFuseLikeElementwise) {
  Compiled compiled = compile(kMathModule, "math.mlir", 1);
  ASSERT_NE(compiled.program, nullptr);
  const std::vector<Instruction> &inst = compiled.program->instructions;
  ASSERT_EQ(inst.size(), 6u);
  const double n = 64 * 32, tile = n * 4;
  // erf: a transcendental counts one FLOP per element, as exp does; its
  // only consumer (clamp) fuses, so it writes nothing.
  EXPECT_EQ(inst[0].work.flops, n);
  EXPECT_EQ(inst[0].fusion, FusionRole::Loop);
  EXPECT_EQ(inst[0].fusedBytes, tile);
  // clamp: max then min, 2 FLOPs per element; reads 3 tensors, writes one
  // (returned, and read by reverse, which does not fuse).
  EXPECT_EQ(inst[1].work.flops, 2 * n);
  EXPECT_EQ(inst[1].work.bytes, 4 * tile);
  EXPECT_EQ(inst[1].fusedBytes, 3 * tile);
  // is_finite reads f32 and writes i1 bytes; shifts are one op each.
  EXPECT_EQ(inst[2].work.flops, n);
  EXPECT_EQ(inst[2].work.bytes, tile + n);
  EXPECT_EQ(inst[3].work.flops, n);
  // reverse moves data: no FLOPs, operand and result, no fusion.
  EXPECT_EQ(inst[4].work.flops, 0);
  EXPECT_EQ(inst[4].work.bytes, 2 * tile);
  EXPECT_EQ(inst[4].fusion, FusionRole::None);
  // bitcast_convert is a view of its operand.
  EXPECT_EQ(inst[5].kind, InstructionKind::View);
  EXPECT_EQ(inst[5].work.bytes, 0);
}

const char *kRegionModule = R"mlir(
func.func @main(%x: tensor<2x8x8x3xf32>, %dy: tensor<2x4x4x3xf32>, %v: tensor<4x8xf32>)
    -> (tensor<2x4x4x3xf32>, tensor<2x8x8x3xf32>, tensor<4xf32>, tensor<4xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %izero = xla.constant dense<0> : tensor<i32>
  %iota = xla.iota dim = 1 : tensor<4x8xi32>
  %y = xla.reduce_window(%x) init(%ninf) window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  } : (tensor<2x8x8x3xf32>, tensor<f32>) -> tensor<2x4x4x3xf32>
  %g = xla.select_and_scatter %x, %dy, %zero, window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<2x8x8x3xf32>, tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<2x8x8x3xf32>
  %mv, %mi = xla.reduce_region(%v, %iota) init(%ninf, %izero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %one = xla.constant dense<1> : tensor<i32>
    %sv = xla.select %gt, %av, %bv : tensor<f32>
    %si = xla.select %gt, %ai, %bi : tensor<i32>
    xla.yield %sv, %si : tensor<f32>, tensor<i32>
  } : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %y, %g, %mv, %mi : tensor<2x4x4x3xf32>, tensor<2x8x8x3xf32>, tensor<4xf32>, tensor<4xi32>
}
)mlir";

TEST(OpWork, ReductionsWithComputations) {
  Compiled c = compile(kRegionModule, "regions.mlir", 1);
  ASSERT_TRUE(c.program);
  const std::vector<Instruction> &inst = c.program->instructions;
  ASSERT_EQ(inst.size(), 4u); // iota and the three ops
  // reduce_window: 96 results x 4 window elements x 1 max; reads 384
  // floats and the init, writes 96.
  EXPECT_EQ(inst[1].work.flops, 96.0 * 4);
  EXPECT_EQ(inst[1].work.bytes, (384 + 1 + 96) * 4);
  EXPECT_EQ(inst[1].fusion, FusionRole::Input);
  // select_and_scatter: 96 sources x (4 window elements x 1 compare + 1
  // add); reads operand, source and init, writes the operand's shape.
  EXPECT_EQ(inst[2].work.flops, 96.0 * (4 + 1));
  EXPECT_EQ(inst[2].work.bytes, (384 + 96 + 1 + 384) * 4);
  // reduce_region: 32 elements x 3 body ops (the constant is free).
  EXPECT_EQ(inst[3].work.flops, 32.0 * 3);
  EXPECT_EQ(inst[3].work.bytes, (32 + 32 + 1 + 1 + 4 + 4) * 4);
  EXPECT_EQ(inst[3].work.unit, cost::ComputeUnit::Vector);
}

} // namespace
