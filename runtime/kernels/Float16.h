//===- Float16.h - bf16 and f16 conversions ---------------------*- C++ -*-===//
//
// bf16 and f16 are stored as their 16-bit patterns and computed in f32, as
// TPUs do. Every narrowing conversion rounds to nearest, ties to even, once:
// f64 narrows directly (never through f32, which would round twice).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_FLOAT16_H
#define XSPMD_RUNTIME_KERNELS_FLOAT16_H

#include <cstdint>
#include <cstring>

namespace xspmd::runtime {

/// Tag types so that templates tell the two 16-bit formats apart.
struct BF16 {
  uint16_t bits;
};
struct F16 {
  uint16_t bits;
};

inline float bf16ToFloat(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

/// Round to nearest even; NaN stays a (quiet) NaN, overflow gives infinity.
inline uint16_t floatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

float f16ToFloat(uint16_t bits);
uint16_t floatToF16(float f);
uint16_t doubleToBf16(double d);
uint16_t doubleToF16(double d);

/// The double nearest to `v` with round-to-odd: exact when |v| <= 2^53,
/// otherwise the dropped bits are ORed into the last kept bit. Narrowing the
/// result to any format with at least two bits less precision then rounds
/// exactly as narrowing `v` itself would.
double int64ToDoubleRoundToOdd(int64_t v);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_FLOAT16_H
