//===- Convert.h - element type conversion ----------------------*- C++ -*-===//
//
// xla.convert: float to float rounds to nearest even (once); float to
// integer truncates toward zero and saturates, NaN giving 0; integer to
// integer wraps (keeps the low bits); anything to i1 is `x != 0` (NaN gives
// 1); i1 to anything is 0 or 1.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_CONVERT_H
#define XSPMD_RUNTIME_KERNELS_CONVERT_H

#include "runtime/kernels/ElementType.h"

#include <cstdint>

namespace xspmd::runtime {

using ConvertKernel = void (*)(const void *in, void *out, int64_t n);

ConvertKernel getConvertKernel(ElementType from, ElementType to);

/// Converts one value given as a double (exact for every element type but
/// large i64) into storage of `to` at `out`, with the rules above.
void storeDoubleAs(double value, ElementType to, void *out);

/// Reads element `index` of a buffer of `type` as a double.
double loadAsDouble(const void *data, ElementType type, int64_t index);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_CONVERT_H
