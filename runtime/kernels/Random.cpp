//===- Random.cpp - counter-based random numbers --------------------------===//

#include "runtime/kernels/Random.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/DataMovement.h"

#include <cmath>

namespace xspmd::runtime {

namespace {

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// u in [0, 1) with 53 random bits.
double unitInterval(uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

/// The next value of `type` below `v` (a value of that type).
double stepDown(double v, ElementType type) {
  switch (type) {
  case ElementType::f64:
    return std::nextafter(v, -INFINITY);
  case ElementType::f32:
    return std::nextafter(static_cast<float>(v), -INFINITY);
  case ElementType::bf16:
  case ElementType::f16: {
    uint16_t bits;
    storeDoubleAs(v, type, &bits);
    if (bits & 0x8000u)
      bits += 1; // negative: the magnitude grows
    else if (bits == 0)
      bits = 0x8001u; // +0: the smallest negative subnormal
    else
      bits -= 1;
    return loadAsDouble(&bits, type, 0);
  }
  default:
    return v;
  }
}

/// The largest value of `type` below `limit`: uniform draws that round up
/// to b are replaced by it, keeping the range half-open.
double largestBelow(double limit, ElementType type) {
  uint8_t buffer[8];
  storeDoubleAs(limit, type, buffer);
  double rounded = loadAsDouble(buffer, type, 0);
  return rounded < limit ? rounded : stepDown(rounded, type);
}

} // namespace

uint64_t randomBits(uint64_t seed, uint64_t index, uint64_t lane) {
  uint64_t key = mix(seed ^ 0x9e3779b97f4a7c15ull);
  return mix(key + (2 * index + lane) * 0xd1b54a32d192ed03ull);
}

void fillRandom(RandomDistribution distribution, uint64_t seed, double a,
                double b, llvm::ArrayRef<int64_t> globalShape,
                llvm::ArrayRef<int64_t> offsets, Tensor &out) {
  ElementType type = out.getElementType();
  size_t width = byteWidth(type);
  uint8_t *dst = out.data<uint8_t>();
  Shape globalStrides = stridesOf(globalShape);
  int64_t rank = out.getRank();
  Shape index(rank, 0);
  double below =
      distribution == RandomDistribution::uniform ? largestBelow(b, type) : 0.0;
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i) {
    uint64_t global = 0;
    for (int64_t d = 0; d < rank; ++d)
      global += (offsets[d] + index[d]) * globalStrides[d];
    double value;
    if (distribution == RandomDistribution::uniform) {
      value = a + (b - a) * unitInterval(randomBits(seed, global, 0));
      storeDoubleAs(value, type, dst + i * width);
      if (loadAsDouble(dst, type, i) >= b)
        storeDoubleAs(below, type, dst + i * width);
    } else {
      // 1 - u lies in (0, 1], so the logarithm is finite.
      double u1 = 1.0 - unitInterval(randomBits(seed, global, 0));
      double u2 = unitInterval(randomBits(seed, global, 1));
      value =
          a + b * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
      storeDoubleAs(value, type, dst + i * width);
    }
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < out.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
}

} // namespace xspmd::runtime
