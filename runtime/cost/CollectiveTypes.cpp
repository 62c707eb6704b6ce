//===- CollectiveTypes.cpp - collective requests and estimates ------------===//

#include "runtime/cost/CollectiveTypes.h"

#include "llvm/Support/FormatVariadic.h"

namespace xspmd::cost {

llvm::StringRef stringifyCollectiveKind(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllGather:
    return "all-gather";
  case CollectiveKind::ReduceScatter:
    return "reduce-scatter";
  case CollectiveKind::AllReduce:
    return "all-reduce";
  case CollectiveKind::AllToAll:
    return "all-to-all";
  case CollectiveKind::CollectivePermute:
    return "collective-permute";
  }
  return "?";
}

std::string CollectiveEstimate::describe() const {
  return llvm::formatv(
      "{0} [{1}] {2}: {3:f2} us; sent per device: ICI {4} B, "
      "DCN {5} B",
      stringifyCollectiveKind(kind), topology::stringifyLinkClass(linkClass),
      algorithm, seconds * 1e6, bytesSentPerDevice.ici, bytesSentPerDevice.dcn);
}

} // namespace xspmd::cost
