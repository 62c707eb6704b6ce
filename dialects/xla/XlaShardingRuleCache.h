//===- XlaShardingRuleCache.h - sharding rules computed once per kind -----===//
//
// A model repeats its layers: thousands of ops differ only in their SSA
// values. The cache computes the sharding rule of one op of each kind (same
// name, operand and result types, properties and `xla.sharding_rule`) and
// hands it to the others.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLASHARDINGRULECACHE_H
#define XSPMD_DIALECTS_XLA_XLASHARDINGRULECACHE_H

#include "dialects/xla/XlaShardingRule.h"

#include "llvm/ADT/DenseMap.h"

#include <deque>

namespace xspmd::xla {

class ShardingRuleCache {
public:
  /// The rule of `op` (as getShardingRule), or null if it has none. The
  /// pointer stays valid as long as the cache; ops looked up must stay alive
  /// while the cache is used (they represent their kind).
  const OpShardingRule *lookup(mlir::Operation *op);

private:
  struct Entry {
    mlir::Operation *representative;
    std::optional<OpShardingRule> rule;
  };
  std::deque<Entry> entries;
  llvm::DenseMap<size_t, llvm::SmallVector<unsigned, 1>> buckets;
};

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLASHARDINGRULECACHE_H
