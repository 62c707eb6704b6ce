//===- XlaShardingRuleCache.cpp - sharding rules computed once per kind ---===//

#include "dialects/xla/XlaShardingRuleCache.h"

#include "mlir/IR/OperationSupport.h"

using namespace mlir;

namespace xspmd::xla {

namespace {

constexpr auto kFlags = OperationEquivalence::IgnoreLocations |
                        OperationEquivalence::IgnoreDiscardableAttrs;

/// What a rule depends on: the op's name, properties, result types (hashed
/// by computeHash), operand types and an `xla.sharding_rule` override.
/// Other discardable attributes (`xla.sharding`) do not matter.
size_t kindHash(Operation *op) {
  llvm::hash_code h = OperationEquivalence::computeHash(
      op, [](Value v) { return hash_value(v.getType()); },
      OperationEquivalence::ignoreHashValue, kFlags);
  return llvm::hash_combine(h, op->getAttr(kShardingRuleAttrName));
}

bool sameKind(Operation *a, Operation *b) {
  return a->getAttr(kShardingRuleAttrName) ==
             b->getAttr(kShardingRuleAttrName) &&
         OperationEquivalence::isEquivalentTo(
             a, b,
             [](Value x, Value y) {
               return success(x.getType() == y.getType());
             },
             /*markEquivalent=*/nullptr, kFlags);
}

} // namespace

const OpShardingRule *ShardingRuleCache::lookup(Operation *op) {
  SmallVector<unsigned, 1> &bucket = buckets[kindHash(op)];
  for (unsigned i : bucket)
    if (sameKind(entries[i].representative, op))
      return entries[i].rule ? &*entries[i].rule : nullptr;
  bucket.push_back(entries.size());
  entries.push_back({op, getShardingRule(op)});
  return entries.back().rule ? &*entries.back().rule : nullptr;
}

} // namespace xspmd::xla
