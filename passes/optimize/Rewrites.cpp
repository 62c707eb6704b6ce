//===- Rewrites.cpp - names of the collective rewrites --------------------===//

#include "passes/optimize/Rewrites.h"

namespace xspmd::optimize {

llvm::StringRef rewriteName(Rewrite rewrite) {
  switch (rewrite) {
  case Rewrite::ReduceScatter:
    return "reduce-scatter";
  case Rewrite::SliceBeforeReduce:
    return "slice-before-reduce";
  case Rewrite::GatherGather:
    return "gather-gather";
  case Rewrite::SliceSlice:
    return "slice-slice";
  case Rewrite::ReduceReduce:
    return "reduce-reduce";
  case Rewrite::GatherSlice:
    return "gather-slice";
  case Rewrite::GatherSliceToAllToAll:
    return "gather-slice-to-all-to-all";
  case Rewrite::SliceGather:
    return "slice-gather";
  case Rewrite::IdentityPermute:
    return "identity-permute";
  case Rewrite::TrivialGroup:
    return "trivial-group";
  case Rewrite::DeadCollective:
    return "dead-collective";
  case Rewrite::DuplicateCollective:
    return "duplicate-collective";
  case Rewrite::AllReduceCombiner:
    return "all-reduce-combiner";
  case Rewrite::HierarchicalAllReduce:
    return "hierarchical-all-reduce";
  case Rewrite::HierarchicalReduceScatter:
    return "hierarchical-reduce-scatter";
  case Rewrite::HierarchicalAllGather:
    return "hierarchical-all-gather";
  }
  llvm_unreachable("unknown rewrite");
}

std::optional<Rewrite> parseRewrite(llvm::StringRef name) {
  for (size_t i = 0; i < kNumRewrites; ++i)
    if (rewriteName(static_cast<Rewrite>(i)) == name)
      return static_cast<Rewrite>(i);
  return std::nullopt;
}

} // namespace xspmd::optimize
