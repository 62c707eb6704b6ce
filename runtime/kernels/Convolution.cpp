//===- Convolution.cpp - N-d convolution by im2col + gemm -----------------===//

#include "runtime/kernels/Convolution.h"
#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/Gemm.h"

#include <cstring>

namespace xspmd::runtime {

void convolution(const Tensor &input, const Tensor &kernel,
                 const ConvolutionParams &params, Tensor &out) {
  int64_t rank = input.getRank(), spatial = rank - 2;
  int64_t batchSize = input.getDimSize(0);
  int64_t channels = input.getDimSize(rank - 1);
  int64_t groups = params.featureGroups;
  int64_t groupChannels = channels / groups;
  int64_t outFeatures = out.getDimSize(rank - 1);
  int64_t groupFeatures = outFeatures / groups;
  size_t width = byteWidth(input.getElementType());

  Shape inSpatial, outSpatial, kernelSpatial, dilatedIn;
  for (int64_t s = 0; s < spatial; ++s) {
    inSpatial.push_back(input.getDimSize(1 + s));
    outSpatial.push_back(out.getDimSize(1 + s));
    kernelSpatial.push_back(kernel.getDimSize(s));
    int64_t size = inSpatial.back();
    dilatedIn.push_back(size == 0 ? 0 : (size - 1) * params.lhsDilation[s] + 1);
  }
  int64_t outPositions = numElementsOf(outSpatial);
  int64_t kernelPositions = numElementsOf(kernelSpatial);
  int64_t rows = batchSize * outPositions;
  int64_t cols = kernelPositions * groupChannels;
  if (rows == 0 || outFeatures == 0)
    return;
  Shape inStrides = stridesOf(input.getShape());
  Shape outIndex(spatial), kernelIndex(spatial);
  Tensor patchMatrix = Tensor::allocate(input.getElementType(), {rows, cols});
  uint8_t *patches = patchMatrix.data<uint8_t>();
  const uint8_t *in = input.data<uint8_t>();

  for (int64_t g = 0; g < groups; ++g) {
    // Unroll the patches of group g: row (n, s'), column (k, c).
    uint8_t *row = patches;
    for (int64_t r = 0; r < rows; ++r, row += cols * width) {
      int64_t nIndex = r / outPositions, rest = r % outPositions;
      for (int64_t s = spatial - 1; s >= 0; --s) {
        outIndex[s] = rest % outSpatial[s];
        rest /= outSpatial[s];
      }
      for (int64_t kp = 0; kp < kernelPositions; ++kp) {
        int64_t kRest = kp;
        for (int64_t s = spatial - 1; s >= 0; --s) {
          kernelIndex[s] = kRest % kernelSpatial[s];
          kRest /= kernelSpatial[s];
        }
        int64_t offset = nIndex * inStrides[0] + g * groupChannels;
        bool inside = true;
        for (int64_t s = 0; s < spatial && inside; ++s) {
          int64_t x = outIndex[s] * params.strides[s] +
                      kernelIndex[s] * params.rhsDilation[s] -
                      params.padding[2 * s];
          if (x < 0 || x >= dilatedIn[s] || x % params.lhsDilation[s] != 0)
            inside = false;
          else
            offset += (x / params.lhsDilation[s]) * inStrides[1 + s];
        }
        uint8_t *dst = row + kp * groupChannels * width;
        if (inside)
          std::memcpy(dst, in + offset * width, groupChannels * width);
        else
          std::memset(dst, 0, groupChannels * width);
      }
    }
    // [rows, cols] x kernel[cols, O] restricted to the group's columns.
    gemm(input.getElementType(), rows, groupFeatures, cols,
         GemmOperand{patches, cols, false},
         GemmOperand{kernel.data<uint8_t>() + g * groupFeatures * width,
                     outFeatures, false},
         out.data<uint8_t>() + g * groupFeatures * width, outFeatures);
  }
}

} // namespace xspmd::runtime
