//===- CollectiveCall.cpp - one collective, fully resolved ----------------===//

#include "runtime/collectives/CollectiveCall.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace xspmd::runtime {

llvm::StringRef toString(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::allReduce:
    return "all_reduce";
  case CollectiveKind::allGather:
    return "all_gather";
  case CollectiveKind::reduceScatter:
    return "reduce_scatter";
  case CollectiveKind::allToAll:
    return "all_to_all";
  case CollectiveKind::collectivePermute:
    return "collective_permute";
  }
  llvm_unreachable("unknown collective kind");
}

llvm::StringRef toString(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::sum:
    return "sum";
  case ReductionKind::mul:
    return "mul";
  case ReductionKind::and_:
    return "and";
  case ReductionKind::or_:
    return "or";
  case ReductionKind::min:
    return "min";
  case ReductionKind::max:
    return "max";
  }
  llvm_unreachable("unknown reduction kind");
}

bool CollectiveCall::matches(const CollectiveCall &o) const {
  if (kind != o.kind || elementType != o.elementType ||
      !llvm::equal(inputShape, o.inputShape) ||
      !llvm::equal(resultShape, o.resultShape) || groups != o.groups)
    return false;
  switch (kind) {
  case CollectiveKind::allReduce:
    return reduction == o.reduction && scale == o.scale;
  case CollectiveKind::reduceScatter:
    return reduction == o.reduction && scale == o.scale && dim == o.dim;
  case CollectiveKind::allGather:
    return dim == o.dim;
  case CollectiveKind::allToAll:
    return splitDim == o.splitDim && concatDim == o.concatDim &&
           splitCount == o.splitCount;
  case CollectiveKind::collectivePermute:
    return pairs == o.pairs;
  }
  return false;
}

std::string CollectiveCall::describe() const {
  std::string attrs;
  switch (kind) {
  case CollectiveKind::allReduce:
    attrs = fmt::format(" {}", toString(reduction).str());
    if (scale != 1.0)
      attrs += fmt::format(" scale={}", scale);
    break;
  case CollectiveKind::reduceScatter:
    attrs = fmt::format(" {} dim={}", toString(reduction).str(), dim);
    if (scale != 1.0)
      attrs += fmt::format(" scale={}", scale);
    break;
  case CollectiveKind::allGather:
    attrs = fmt::format(" dim={}", dim);
    break;
  case CollectiveKind::allToAll:
    attrs = fmt::format(" split_dim={} concat_dim={} split_count={}", splitDim,
                        concatDim, splitCount);
    break;
  case CollectiveKind::collectivePermute: {
    std::vector<std::string> p;
    for (auto [s, t] : pairs)
      p.push_back(fmt::format("[{},{}]", s, t));
    attrs = fmt::format(" pairs=[{}]", fmt::join(p, ","));
    break;
  }
  }
  std::vector<std::string> g;
  for (const auto &group : groups)
    g.push_back(fmt::format("[{}]", fmt::join(group, ",")));
  std::string text = fmt::format(
      "{}{} {} -> {} groups [{}]",
      opName.empty() ? toString(kind).str() : opName, attrs,
      formatTensorType(inputShape, elementType),
      formatTensorType(resultShape, elementType), fmt::join(g, ","));
  if (!location.empty())
    text += " at " + location;
  return text;
}

std::pair<int64_t, int64_t> CollectiveCall::locate(int64_t device) const {
  for (auto [g, group] : llvm::enumerate(groups))
    for (auto [p, d] : llvm::enumerate(group))
      if (d == device)
        return {static_cast<int64_t>(g), static_cast<int64_t>(p)};
  return {-1, -1};
}

} // namespace xspmd::runtime
