//===- XlaMesh.cpp - device-array math of meshes --------------------------===//

#include "dialects/xla/XlaMesh.h"

#include "llvm/ADT/STLExtras.h"

#include <cassert>

using namespace llvm;

namespace xspmd::xla {

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

SmallVector<int64_t> hybridDeviceArray(ArrayRef<int64_t> ici,
                                       ArrayRef<int64_t> dcn) {
  assert(ici.size() == dcn.size() && "ici/dcn rank mismatch");
  size_t rank = ici.size();
  SmallVector<int64_t> shape(rank);
  int64_t sliceSize = 1, total = 1;
  for (size_t i = 0; i < rank; ++i) {
    shape[i] = ici[i] * dcn[i];
    sliceSize *= ici[i];
    total *= shape[i];
  }
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<int64_t> iciStrides = rowMajorStrides(ici);
  SmallVector<int64_t> dcnStrides = rowMajorStrides(dcn);
  SmallVector<int64_t> devices(total);
  SmallVector<int64_t> coord(rank, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat, slice = 0, local = 0;
    for (size_t i = 0; i < rank; ++i) {
      coord[i] = rest / strides[i];
      rest %= strides[i];
      slice += (coord[i] / ici[i]) * dcnStrides[i];
      local += (coord[i] % ici[i]) * iciStrides[i];
    }
    devices[flat] = slice * sliceSize + local;
  }
  return devices;
}

SmallVector<SmallVector<int64_t>> meshAxisGroups(ArrayRef<int64_t> shape,
                                                 ArrayRef<int64_t> deviceArray,
                                                 ArrayRef<int64_t> axes) {
  size_t rank = shape.size();
  SmallVector<int64_t> strides = rowMajorStrides(shape);
  SmallVector<bool> inGroup(rank, false);
  int64_t groupSize = 1;
  for (int64_t a : axes) {
    inGroup[a] = true;
    groupSize *= shape[a];
  }
  // Enumerate the other axes row-major to get one base position per group,
  // then walk the group's axes row-major in the listed order.
  SmallVector<int64_t> otherAxes;
  for (size_t i = 0; i < rank; ++i)
    if (!inGroup[i])
      otherAxes.push_back(i);
  int64_t numGroups = static_cast<int64_t>(deviceArray.size()) / groupSize;
  SmallVector<SmallVector<int64_t>> groups;
  groups.reserve(numGroups);
  for (int64_t g = 0; g < numGroups; ++g) {
    int64_t rest = g, base = 0;
    for (int64_t i = static_cast<int64_t>(otherAxes.size()) - 1; i >= 0; --i) {
      int64_t a = otherAxes[i];
      base += (rest % shape[a]) * strides[a];
      rest /= shape[a];
    }
    SmallVector<int64_t> group(groupSize);
    for (int64_t m = 0; m < groupSize; ++m) {
      int64_t r = m, pos = base;
      for (int64_t i = static_cast<int64_t>(axes.size()) - 1; i >= 0; --i) {
        int64_t a = axes[i];
        pos += (r % shape[a]) * strides[a];
        r /= shape[a];
      }
      group[m] = deviceArray[pos];
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

} // namespace xspmd::xla
