//===- Float16.cpp - bf16 and f16 conversions -----------------------------===//

#include "runtime/kernels/Float16.h"

#include <cmath>

namespace xspmd::runtime {

namespace {

/// Rounds a double to a binary format with `ExpBits` exponent bits and
/// `MantBits` stored mantissa bits (IEEE layout, 1 + ExpBits + MantBits <=
/// 16), to nearest, ties to even, with gradual underflow.
template <int ExpBits, int MantBits>
uint16_t roundDouble(double d) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr uint32_t maxExp = (1u << ExpBits) - 1;
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  uint16_t sign = static_cast<uint16_t>((bits >> 63) << 15);
  uint64_t exp = (bits >> 52) & 0x7ff;
  uint64_t mant = bits & ((uint64_t{1} << 52) - 1);
  if (exp == 0x7ff) {
    if (mant == 0)
      return sign | static_cast<uint16_t>(maxExp << MantBits);
    // Quiet NaN keeping the top payload bits.
    return sign | static_cast<uint16_t>(maxExp << MantBits) |
           static_cast<uint16_t>(1u << (MantBits - 1)) |
           static_cast<uint16_t>(mant >> (52 - MantBits));
  }
  if (exp == 0 && mant == 0)
    return sign;
  // value = sig * 2^(e - 52) with the leading one of a normal at bit 52.
  int64_t e = exp == 0 ? -1022 : static_cast<int64_t>(exp) - 1023;
  uint64_t sig = exp == 0 ? mant : (mant | (uint64_t{1} << 52));
  int64_t outExp = e + bias;
  int64_t shift = 52 - MantBits;
  if (outExp < 1) {
    // Subnormal result: value = kept * 2^(1 - bias - MantBits).
    shift += 1 - outExp;
    outExp = 0;
  }
  if (shift > 63)
    return sign;
  uint64_t kept = sig >> shift;
  uint64_t rest = sig & ((uint64_t{1} << shift) - 1);
  uint64_t half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  if (outExp == 0) // A carry into bit MantBits encodes the smallest normal.
    return sign | static_cast<uint16_t>(kept);
  if (kept >> (MantBits + 1)) {
    kept >>= 1;
    ++outExp;
  }
  if (outExp >= static_cast<int64_t>(maxExp))
    return sign | static_cast<uint16_t>(maxExp << MantBits);
  return sign | static_cast<uint16_t>(outExp << MantBits) |
         static_cast<uint16_t>(kept & ((uint64_t{1} << MantBits) - 1));
}

} // namespace

float f16ToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits >> 15) << 31;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  float magnitude;
  if (exp == 0)
    magnitude = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31) {
    uint32_t u = 0x7f800000u | (mant << 13);
    std::memcpy(&magnitude, &u, sizeof u);
  } else {
    uint32_t u = ((exp + 112) << 23) | (mant << 13);
    std::memcpy(&magnitude, &u, sizeof u);
  }
  uint32_t u;
  std::memcpy(&u, &magnitude, sizeof u);
  u |= sign;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

uint16_t floatToF16(float f) { return roundDouble<5, 10>(f); }
uint16_t doubleToF16(double d) { return roundDouble<5, 10>(d); }
uint16_t doubleToBf16(double d) { return roundDouble<8, 7>(d); }

double int64ToDoubleRoundToOdd(int64_t v) {
  uint64_t magnitude =
      v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  if (magnitude <= (uint64_t{1} << 53))
    return static_cast<double>(v);
  // Keep the top 53 significant bits; fold the rest into a sticky last bit.
  int drop = 64 - 53 - __builtin_clzll(magnitude);
  uint64_t kept = magnitude >> drop;
  if (magnitude & ((uint64_t{1} << drop) - 1))
    kept |= 1;
  double r = std::ldexp(static_cast<double>(kept), drop);
  return v < 0 ? -r : r;
}

} // namespace xspmd::runtime
