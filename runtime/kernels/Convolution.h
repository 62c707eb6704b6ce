//===- Convolution.h - N-d convolution by im2col + gemm ---------*- C++ -*-===//
//
// xla.convolution: input [N, S1..Sd, C], kernel [K1..Kd, C/G, O], result
// [N, S'1..S'd, O]. For each feature group the input patches are unrolled
// into a [N*S', K*C/G] matrix (zeros where padding or lhs dilation leaves
// holes) and multiplied by the group's [K*C/G, O/G] slice of the kernel.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_CONVOLUTION_H
#define XSPMD_RUNTIME_KERNELS_CONVOLUTION_H

#include "runtime/kernels/Tensor.h"

namespace xspmd::runtime {

struct ConvolutionParams {
  Shape strides;
  /// [lo0, hi0, lo1, hi1, ...].
  Shape padding;
  Shape lhsDilation;
  Shape rhsDilation;
  int64_t featureGroups = 1;
};

void convolution(const Tensor &input, const Tensor &kernel,
                 const ConvolutionParams &params, Tensor &out);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_CONVOLUTION_H
