//===- ConvolutionTest.cpp - im2col convolution vs direct loops -----------===//

#include "runtime/kernels/Convolution.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/Random.h"

#include <gtest/gtest.h>

#include <vector>

using namespace xspmd::runtime;

namespace {

struct Case {
  Shape input;  // [N, S..., C]
  Shape kernel; // [K..., C/G, O]
  ConvolutionParams params;
};

Tensor randomTensor(ElementType type, llvm::ArrayRef<int64_t> shape,
                    uint64_t seed) {
  Tensor t = Tensor::allocate(type, shape);
  for (int64_t i = 0; i < t.getNumElements(); ++i)
    storeDoubleAs(static_cast<double>(randomBits(seed, i, 0) % 5) - 2.0, type,
                  t.data<uint8_t>() + i * byteWidth(type));
  return t;
}

/// Direct definition: out[n, o..., f] = sum over k..., c in f's group of
/// in_dilated_padded[n, o*stride + k*rhs_dilation, c] * kernel[k..., c, f].
Shape outputShape(const Case &c) {
  int64_t spatial = c.input.size() - 2;
  Shape out{c.input[0]};
  for (int64_t s = 0; s < spatial; ++s) {
    int64_t in = (c.input[1 + s] - 1) * c.params.lhsDilation[s] + 1;
    int64_t k = (c.kernel[s] - 1) * c.params.rhsDilation[s] + 1;
    int64_t padded = in + c.params.padding[2 * s] + c.params.padding[2 * s + 1];
    out.push_back((padded - k) / c.params.strides[s] + 1);
  }
  out.push_back(c.kernel.back());
  return out;
}

std::vector<double> direct(const Case &c, const Tensor &in, const Tensor &k) {
  int64_t spatial = c.input.size() - 2;
  Shape out = outputShape(c);
  int64_t channels = c.input.back(), groups = c.params.featureGroups;
  int64_t groupChannels = channels / groups;
  int64_t features = c.kernel.back(), groupFeatures = features / groups;
  std::vector<double> result(numElementsOf(out), 0.0);
  Shape inStrides(c.input.size()), kStrides(c.kernel.size()),
      outStrides(out.size());
  for (int64_t d = c.input.size() - 1, s = 1; d >= 0; s *= c.input[d--])
    inStrides[d] = s;
  for (int64_t d = c.kernel.size() - 1, s = 1; d >= 0; s *= c.kernel[d--])
    kStrides[d] = s;
  for (int64_t d = out.size() - 1, s = 1; d >= 0; s *= out[d--])
    outStrides[d] = s;
  for (int64_t o = 0; o < static_cast<int64_t>(result.size()); ++o) {
    Shape oi(out.size());
    for (size_t d = 0; d < out.size(); ++d)
      oi[d] = (o / outStrides[d]) % out[d];
    int64_t f = oi.back(), g = f / groupFeatures;
    int64_t kPositions = 1;
    for (int64_t s = 0; s < spatial; ++s)
      kPositions *= c.kernel[s];
    for (int64_t kp = 0; kp < kPositions; ++kp) {
      Shape ki(spatial);
      for (int64_t s = spatial - 1, r = kp; s >= 0; r /= c.kernel[s--])
        ki[s] = r % c.kernel[s];
      bool inside = true;
      int64_t inOff = oi[0] * inStrides[0];
      for (int64_t s = 0; s < spatial; ++s) {
        int64_t x = oi[1 + s] * c.params.strides[s] +
                    ki[s] * c.params.rhsDilation[s] - c.params.padding[2 * s];
        int64_t dilated = (c.input[1 + s] - 1) * c.params.lhsDilation[s] + 1;
        if (x < 0 || x >= dilated || x % c.params.lhsDilation[s]) {
          inside = false;
          break;
        }
        inOff += (x / c.params.lhsDilation[s]) * inStrides[1 + s];
      }
      if (!inside)
        continue;
      for (int64_t ci = 0; ci < groupChannels; ++ci) {
        int64_t kOff = ci * kStrides[spatial] + f;
        for (int64_t s = 0; s < spatial; ++s)
          kOff += ki[s] * kStrides[s];
        result[o] += loadAsDouble(in.data(), in.getElementType(),
                                  inOff + g * groupChannels + ci) *
                     loadAsDouble(k.data(), k.getElementType(), kOff);
      }
    }
  }
  return result;
}

TEST(Convolution, MatchesDirectLoops) {
  std::vector<Case> cases = {
      {{2, 7, 3}, {3, 3, 4}, {{1}, {0, 0}, {1}, {1}, 1}},
      {{1, 9, 2}, {3, 2, 2}, {{2}, {1, 2}, {1}, {1}, 1}},
      {{1, 5, 2}, {2, 2, 3}, {{1}, {0, 0}, {2}, {1}, 1}}, // lhs dilation
      {{1, 8, 1}, {3, 1, 2}, {{1}, {2, 0}, {1}, {3}, 1}}, // rhs dilation
      {{2, 4, 5, 4}, {3, 2, 2, 6}, {{1, 2}, {1, 1, 0, 1}, {1, 1}, {1, 1}, 2}},
      {{1, 4, 4, 3}, {3, 3, 1, 3}, {{1, 1}, {1, 1, 1, 1}, {1, 1}, {1, 1}, 3}},
      {{1, 6, 5, 2}, {2, 3, 2, 2}, {{2, 1}, {-1, 0, 2, 1}, {1, 2}, {2, 1}, 1}},
      {{1, 3, 3, 2, 2},
       {2, 2, 2, 2, 1},
       {{1, 1, 1}, {0, 0, 0, 0, 0, 0}, {1, 1, 1}, {1, 1, 1}, 1}},
  };
  for (const Case &c : cases) {
    for (ElementType type : {ElementType::f32, ElementType::f64,
                             ElementType::bf16, ElementType::i32}) {
      Tensor in = randomTensor(type, c.input, 3);
      Tensor k = randomTensor(type, c.kernel, 4);
      Tensor out = Tensor::zeros(type, outputShape(c));
      convolution(in, k, c.params, out);
      std::vector<double> expected = direct(c, in, k);
      for (int64_t i = 0; i < out.getNumElements(); ++i)
        ASSERT_EQ(loadAsDouble(out.data(), type, i), expected[i])
            << "element " << i << " of a " << toString(type).str()
            << " case with input rank " << c.input.size();
    }
  }
}

} // namespace
