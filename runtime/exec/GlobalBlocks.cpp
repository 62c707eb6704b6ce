//===- GlobalBlocks.cpp - global tensors as per-device blocks -------------===//

#include "runtime/exec/GlobalBlocks.h"
#include "runtime/collectives/CollectiveKernels.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/DataMovement.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace xspmd::runtime {

static ReductionKind toReductionKind(xla::ReductionKind kind) {
  switch (kind) {
  case xla::ReductionKind::sum:
    return ReductionKind::sum;
  case xla::ReductionKind::mul:
    return ReductionKind::mul;
  case xla::ReductionKind::and_:
    return ReductionKind::and_;
  case xla::ReductionKind::or_:
    return ReductionKind::or_;
  case xla::ReductionKind::min:
    return ReductionKind::min;
  case xla::ReductionKind::max:
    return ReductionKind::max;
  }
  llvm_unreachable("unknown reduction kind");
}

/// Mixed-radix index of `coords` over `axes` (first axis most major).
static int64_t indexOver(llvm::ArrayRef<int64_t> axes, const MeshModel &mesh,
                         llvm::ArrayRef<int64_t> coords) {
  int64_t index = 0;
  for (int64_t axis : axes)
    index = index * mesh.axisSizes[axis] + coords[axis];
  return index;
}

/// The part of a block at `offsets` that lies inside `global`.
static Shape validExtent(llvm::ArrayRef<int64_t> offsets,
                         llvm::ArrayRef<int64_t> local,
                         llvm::ArrayRef<int64_t> global) {
  Shape extent;
  for (size_t d = 0; d < global.size(); ++d)
    extent.push_back(std::clamp<int64_t>(global[d] - offsets[d], 0, local[d]));
  return extent;
}

static int64_t linearOffset(llvm::ArrayRef<int64_t> offsets,
                            llvm::ArrayRef<int64_t> shape) {
  Shape strides = stridesOf(shape);
  int64_t offset = 0;
  for (size_t d = 0; d < offsets.size(); ++d)
    offset += offsets[d] * strides[d];
  return offset;
}

/// Whether the block at `offsets` of extent `extent` is one contiguous run
/// of a row-major `global` buffer: whole in every dim after the first one
/// that is cut.
static bool isContiguousBlock(llvm::ArrayRef<int64_t> extent,
                              llvm::ArrayRef<int64_t> global) {
  size_t d = 0;
  while (d < global.size() && extent[d] == 1)
    ++d;
  for (++d; d < global.size(); ++d)
    if (extent[d] != global[d])
      return false;
  return true;
}

Tensor extractBlock(const Tensor &global, const ShardLayout &layout,
                    const MeshModel &mesh, int64_t device) {
  Shape local(layout.localShape(mesh));
  ReductionKind kind = toReductionKind(layout.partialKind);
  bool idempotent = kind != ReductionKind::sum && kind != ReductionKind::mul;
  Shape coords(mesh.coordsOfDevice(device));
  if (!idempotent && layout.partialIndex(mesh, coords) != 0) {
    Tensor block = Tensor::allocate(global.getElementType(), local);
    fillWith(block, kind == ReductionKind::mul ? 1.0 : 0.0);
    return block;
  }
  Shape offsets(layout.blockOffsets(mesh, coords));
  Shape extent = validExtent(offsets, local, global.getShape());
  size_t width = byteWidth(global.getElementType());
  int64_t start = linearOffset(offsets, global.getShape());
  bool padded = !llvm::equal(extent, local);
  // Unpadded contiguous blocks (replicated values, row blocks) are views of
  // the global tensor: tensors are immutable, so no copy is needed.
  if (!padded && isContiguousBlock(extent, global.getShape()))
    return global.view(start, local);
  Tensor block = padded ? Tensor::zeros(global.getElementType(), local)
                        : Tensor::allocate(global.getElementType(), local);
  copyStrided(global.data<uint8_t>() + start * width,
              stridesOf(global.getShape()), block.data(), stridesOf(local),
              extent, width);
  return block;
}

static std::string firstDifference(const Tensor &a, const Tensor &b) {
  size_t width = byteWidth(a.getElementType());
  for (int64_t i = 0, n = a.getNumElements(); i < n; ++i)
    if (std::memcmp(a.data<uint8_t>() + i * width,
                    b.data<uint8_t>() + i * width, width) != 0)
      return fmt::format("element {}: {} vs {}", i,
                         loadAsDouble(a.data(), a.getElementType(), i),
                         loadAsDouble(b.data(), b.getElementType(), i));
  return "no difference";
}

llvm::Expected<Tensor> assembleGlobal(llvm::ArrayRef<Tensor> locals,
                                      const ShardLayout &layout,
                                      const MeshModel &mesh,
                                      llvm::ArrayRef<int64_t> globalShape) {
  ElementType type = locals.front().getElementType();
  Shape local(layout.localShape(mesh));
  // Axes that neither split a dimension nor hold a partial value replicate.
  std::vector<bool> used(mesh.axisSizes.size(), false);
  for (const auto &axes : layout.dimAxes)
    for (int64_t a : axes)
      used[a] = true;
  for (int64_t a : layout.partialAxes)
    used[a] = true;
  Shape replicaAxes;
  for (size_t a = 0; a < used.size(); ++a)
    if (!used[a])
      replicaAxes.push_back(a);

  // (block offsets, replica index) -> members ordered by partial position.
  std::map<std::pair<std::vector<int64_t>, int64_t>, std::map<int64_t, int64_t>>
      groups;
  for (int64_t d = 0; d < mesh.numDevices(); ++d) {
    Shape coords(mesh.coordsOfDevice(d));
    Shape offsets(layout.blockOffsets(mesh, coords));
    groups[{std::vector<int64_t>(offsets.begin(), offsets.end()),
            indexOver(replicaAxes, mesh, coords)}]
          [layout.partialIndex(mesh, coords)] = d;
  }

  Tensor global = Tensor::zeros(type, globalShape);
  size_t width = byteWidth(type);
  // The folded block of replica 0 of each block position, to compare with.
  std::map<std::vector<int64_t>, std::pair<Tensor, int64_t>> firstReplica;
  for (auto &[key, members] : groups) {
    const std::vector<int64_t> &offsets = key.first;
    Tensor value = locals[members.begin()->second];
    if (members.size() > 1) {
      std::vector<const void *> buffers;
      for (auto [position, device] : members)
        buffers.push_back(locals[device].data());
      value = Tensor::allocate(type, local);
      foldBuffers(toReductionKind(layout.partialKind), type, 1.0, buffers,
                  value.getNumElements(), value.data());
    }
    int64_t device = members.begin()->second;
    auto [it, inserted] = firstReplica.try_emplace(offsets, value, device);
    if (!inserted) {
      if (!it->second.first.bitwiseEquals(value))
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            fmt::format("devices {} and {} should hold the same replicated "
                        "block but differ ({})",
                        it->second.second, device,
                        firstDifference(it->second.first, value)));
      continue;
    }
    Shape extent = validExtent(offsets, local, globalShape);
    copyStrided(value.data(), stridesOf(local),
                global.data<uint8_t>() +
                    linearOffset(offsets, globalShape) * width,
                stridesOf(globalShape), extent, width);
  }
  return global;
}

} // namespace xspmd::runtime
