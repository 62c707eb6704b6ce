//===- CollectiveCall.h - one collective, fully resolved --------*- C++ -*-===//
//
// What a device brings to a collective besides its buffer: the kind, its
// attributes, the participant groups resolved to device ids, and the types.
// Made once per op when a program is compiled; every device executing the
// op passes the same description, and the rendezvous compares them to catch
// programs whose collectives disagree.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COLLECTIVES_COLLECTIVECALL_H
#define XSPMD_RUNTIME_COLLECTIVES_COLLECTIVECALL_H

#include "runtime/kernels/Tensor.h"

#include <string>
#include <utility>
#include <vector>

namespace xspmd::runtime {

enum class CollectiveKind {
  allReduce,
  allGather,
  reduceScatter,
  allToAll,
  collectivePermute
};

/// xm.REDUCE_SUM, REDUCE_MUL, REDUCE_AND, REDUCE_OR, REDUCE_MIN, REDUCE_MAX.
enum class ReductionKind { sum, mul, and_, or_, min, max };

llvm::StringRef toString(CollectiveKind kind);
llvm::StringRef toString(ReductionKind kind);

using DeviceGroupList = std::vector<std::vector<int64_t>>;

struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::allReduce;
  ReductionKind reduction = ReductionKind::sum;
  double scale = 1.0;
  /// all_gather / reduce_scatter dimension.
  int64_t dim = 0;
  int64_t splitDim = 0, concatDim = 0, splitCount = 0;
  /// collective_permute: (source, target) positions within each group.
  std::vector<std::pair<int64_t, int64_t>> pairs;
  /// Participant groups (device ids, in group order); they partition the
  /// devices.
  DeviceGroupList groups;
  ElementType elementType = ElementType::f32;
  Shape inputShape, resultShape;
  /// For messages: the op as written and where.
  std::string opName, location;

  /// Same collective (everything but opName/location).
  bool matches(const CollectiveCall &other) const;
  /// "xla.all_reduce sum 4xf32 -> 4xf32 groups [[0,1],[2,3]] at f.mlir:3:8".
  std::string describe() const;
  /// Group index and position of `device`, or {-1, -1}.
  std::pair<int64_t, int64_t> locate(int64_t device) const;
};

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_COLLECTIVES_COLLECTIVECALL_H
