//===- Rewrites.h - the rewrites of --xla-optimize-collectives --*- C++ -*-===//
//
// Each rewrite of --xla-optimize-collectives has a name (used by the pass's
// `disable` option and its statistics) and lives in one of the files of
// passes/optimize/. docs/optimize.md describes them.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_OPTIMIZE_REWRITES_H
#define XSPMD_PASSES_OPTIMIZE_REWRITES_H

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>

namespace xspmd::optimize {

enum class Rewrite {
  // all_reduce + all_slice
  ReduceScatter, // same or fewer slice axes -> reduce_scatter (+ all_reduce)
  SliceBeforeReduce, // slice axes disjoint from the reduction -> slice first
  // combining
  GatherGather, // all_gather of an all_gather on the same dim
  SliceSlice,   // all_slice of an all_slice on the same dim
  ReduceReduce, // all_reduce of an all_reduce over disjoint axes
  // redundant reshards
  GatherSlice,           // all_slice of an all_gather (prefix) -> less or none
  GatherSliceToAllToAll, // all_slice of an all_gather on another dim
  SliceGather,           // all_gather of an all_slice of a replicated value
  IdentityPermute,       // collective_permute sending every device to itself
  TrivialGroup,          // collectives over groups of one device
  DeadCollective,        // collectives whose result is unused
  DuplicateCollective,   // identical collectives of the same operand
  // independent all_reduces -> one on a concatenation
  AllReduceCombiner,
  // hierarchical ICI/DCN decomposition
  HierarchicalAllReduce,
  HierarchicalReduceScatter,
  HierarchicalAllGather,
};

inline constexpr size_t kNumRewrites =
    static_cast<size_t>(Rewrite::HierarchicalAllGather) + 1;

/// The option spelling of a rewrite (`reduce-scatter`, ...).
llvm::StringRef rewriteName(Rewrite rewrite);
std::optional<Rewrite> parseRewrite(llvm::StringRef name);

/// Which rewrites run, how many times each fired, and the all-reduce
/// combiner's threshold.
class RewriteConfig {
public:
  RewriteConfig() { enabledFlags.fill(true); }

  bool enabled(Rewrite r) const { return enabledFlags[index(r)]; }
  void setEnabled(Rewrite r, bool on) { enabledFlags[index(r)] = on; }
  void fired(Rewrite r, int64_t times = 1) { counts[index(r)] += times; }
  int64_t count(Rewrite r) const { return counts[index(r)]; }

  /// Largest combined all_reduce the combiner builds, in bytes.
  int64_t combineThresholdBytes = 30 * 1024 * 1024;

private:
  static size_t index(Rewrite r) { return static_cast<size_t>(r); }
  std::array<bool, kNumRewrites> enabledFlags;
  std::array<int64_t, kNumRewrites> counts = {};
};

/// Greedy patterns (ReduceScatterPatterns.cpp, CombinePatterns.cpp,
/// RedundantPatterns.cpp). Disabled rewrites add no pattern.
void populateReduceScatterPatterns(mlir::RewritePatternSet &patterns,
                                   RewriteConfig &config);
void populateCombinePatterns(mlir::RewritePatternSet &patterns,
                             RewriteConfig &config);
void populateRedundantPatterns(mlir::RewritePatternSet &patterns,
                               RewriteConfig &config);

/// Replaces every collective that repeats an identical, dominating one (same
/// operands and attributes) by it (CollectiveCSE.cpp).
void eraseDuplicateCollectives(mlir::Operation *root, RewriteConfig &config);

/// Combines independent all_reduces of each block (AllReduceCombiner.cpp).
void combineAllReduces(mlir::Operation *root, RewriteConfig &config);

/// Decomposes collectives over groups spanning ICI and DCN
/// (Hierarchical.cpp).
void decomposeHierarchically(mlir::Operation *root, RewriteConfig &config);

} // namespace xspmd::optimize

#endif // XSPMD_PASSES_OPTIMIZE_REWRITES_H
