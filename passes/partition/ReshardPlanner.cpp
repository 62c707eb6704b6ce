//===- ReshardPlanner.cpp - cheapest collectives between layouts ----------===//

#include "passes/partition/ReshardPlanner.h"

#include "passes/partition/Maximal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <queue>
#include <tuple>
#include <vector>

using namespace llvm;

namespace xspmd::partition {

StringRef stringifyReshardKind(ReshardKind kind) {
  switch (kind) {
  case ReshardKind::AllReduce:
    return "all-reduce";
  case ReshardKind::ReduceScatter:
    return "reduce-scatter";
  case ReshardKind::AllGather:
    return "all-gather";
  case ReshardKind::AllSlice:
    return "all-slice";
  case ReshardKind::AllToAll:
    return "all-to-all";
  case ReshardKind::AllToAllPair:
    return "all-to-all-pair";
  case ReshardKind::Permute:
    return "permute";
  case ReshardKind::Repad:
    return "repad";
  case ReshardKind::MakePartial:
    return "make-partial";
  }
  return "unknown";
}

int ReshardStep::numCollectives() const {
  return kind == ReshardKind::AllToAllPair ? 2 : 1;
}

bool ReshardStep::communicates() const {
  switch (kind) {
  case ReshardKind::AllSlice:
  case ReshardKind::Repad:
  case ReshardKind::MakePartial:
    return false;
  default:
    return bytesPerDevice > 0;
  }
}

std::array<AllToAllPairPart, 2> allToAllPairParts(const ReshardStep &step) {
  int a = step.axes[0], b = step.axes[1];
  if (step.inward)
    return {AllToAllPairPart{step.dim, step.dim, b},
            AllToAllPairPart{step.dim, step.toDim, a}};
  return {AllToAllPairPart{step.toDim, step.dim, a},
          AllToAllPairPart{step.dim, step.dim, b}};
}

namespace {

/// Generates the steps leaving one layout, towards one target.
class StepGenerator {
public:
  StepGenerator(const MeshModel &mesh, ArrayRef<int64_t> shape,
                int64_t elementBytes, const ShardLayout &target)
      : mesh(mesh), shape(shape), elementBytes(elementBytes), target(target) {
    for (const auto &axes : target.dimAxes)
      for (int a : axes)
        targetDimAxes.push_back(a);
  }

  void generate(const ShardLayout &s, std::vector<ReshardStep> &out) {
    int64_t bytes = s.localElements(mesh) * elementBytes;
    // Partial axes to reduce: those the target does not keep partial, or
    // all of them when the target's reduction kind differs.
    SmallVector<int, 2> toReduce;
    bool sameKind = s.partialKind == target.partialKind;
    for (int a : s.partialAxes)
      if (!sameKind || target.partialAxes.empty() ||
          !llvm::is_contained(target.partialAxes, a))
        toReduce.push_back(a);
    if (!toReduce.empty()) {
      if (toReduce.size() > 1)
        addAllReduce(s, toReduce, bytes, out);
      for (int a : toReduce) {
        addAllReduce(s, {a}, bytes, out);
        for (int64_t d = 0; d < s.rank(); ++d)
          if (divides(s, d, a))
            addReduceScatter(s, a, d, bytes, out);
      }
    } else {
      for (int a : target.partialAxes)
        if (!s.usesAxis(a) && (s.partialAxes.empty() || sameKind))
          addMakePartial(s, a, out);
    }
    for (int64_t d = 0; d < s.rank(); ++d) {
      if (!s.dimAxes[d].empty()) {
        int a = s.dimAxes[d].back();
        ReshardStep step = makeStep(ReshardKind::AllGather, s, {a});
        step.dim = d;
        step.after.dimAxes[d].pop_back();
        step.bytesPerDevice = (mesh.axisSizes[a] - 1) * bytes;
        out.push_back(std::move(step));
        // all-to-all of the minor-most axes to another dimension: one
        // collective over all of them keeps their order (moving them one at
        // a time would reverse it, or gather and slice again).
        const auto &axes = s.dimAxes[d];
        for (size_t k = 1; k <= axes.size(); ++k) {
          ArrayRef<int> moved = ArrayRef<int>(axes).take_back(k);
          if (!llvm::is_contained(targetDimAxes, moved.front()))
            break;
          int64_t size = 1;
          for (int m : moved)
            size *= mesh.axisSizes[m];
          for (int64_t j = 0; j < s.rank(); ++j)
            if (j != d && dividesBy(s, j, size)) {
              ReshardStep move = makeStep(ReshardKind::AllToAll, s, moved);
              move.dim = d;
              move.toDim = j;
              move.after.dimAxes[d].resize(axes.size() - k);
              move.after.dimAxes[j].append(moved.begin(), moved.end());
              move.bytesPerDevice = bytes * (size - 1) / size;
              out.push_back(std::move(move));
            }
        }
        addAllToAllPairs(s, d, bytes, out);
      } else if (s.paddedSize[d] != target.paddedSize[d]) {
        ReshardStep step = makeStep(ReshardKind::Repad, s, {});
        step.dim = d;
        step.after.paddedSize[d] = target.paddedSize[d];
        out.push_back(std::move(step));
      }
      for (int a : targetDimAxes)
        if (!s.usesAxis(a) && divides(s, d, a)) {
          ReshardStep step = makeStep(ReshardKind::AllSlice, s, {a});
          step.dim = d;
          step.after.dimAxes[d].push_back(a);
          out.push_back(std::move(step));
        }
    }
    if (samePlacementShape(s) && !(s == target)) {
      ReshardStep step = makeStep(ReshardKind::Permute, s, {});
      step.after = target;
      step.bytesPerDevice = bytes;
      step.link = mesh.linkOf(allAxes(s, target));
      out.push_back(std::move(step));
    }
  }

private:
  /// Moves of an axis `a` next to the minor-most `b` of dimension `d` (of
  /// the same size) to or from the minor end of another dimension by two
  /// all-to-alls, where one all-to-all cannot (a is not minor-most, or must
  /// land before b) and the alternative is a permute of the whole block or
  /// a gather (e.g. a reshape whose split is carried by parts of an axis:
  /// [{}, {x0, x1}] -> [{x0}, {x1}]).
  void addAllToAllPairs(const ShardLayout &s, int64_t d, int64_t bytes,
                        std::vector<ReshardStep> &out) const {
    const auto &axes = s.dimAxes[d];
    int b = axes.back();
    int64_t size = mesh.axisSizes[b];
    if (size < 2)
      return;
    auto add = [&](int a, int64_t j, bool inward) {
      ReshardStep step = makeStep(ReshardKind::AllToAllPair, s, {a, b});
      step.dim = d;
      step.toDim = j;
      step.inward = inward;
      if (inward) {
        step.after.dimAxes[j].pop_back();
        step.after.dimAxes[d].insert(step.after.dimAxes[d].end() - 1, a);
      } else {
        step.after.dimAxes[d].erase(step.after.dimAxes[d].end() - 2);
        step.after.dimAxes[j].push_back(a);
      }
      step.bytesPerDevice = 2 * (bytes * (size - 1) / size);
      out.push_back(std::move(step));
    };
    for (int64_t j = 0; j < s.rank(); ++j) {
      if (j == d)
        continue;
      if (axes.size() >= 2) {
        int a = axes[axes.size() - 2];
        if (mesh.axisSizes[a] == size && llvm::is_contained(targetDimAxes, a) &&
            dividesBy(s, j, size))
          add(a, j, /*inward=*/false);
      }
      if (!s.dimAxes[j].empty()) {
        int a = s.dimAxes[j].back();
        if (mesh.axisSizes[a] == size && dividesBy(s, d, size))
          add(a, j, /*inward=*/true);
      }
    }
  }

  bool divides(const ShardLayout &s, int64_t d, int a) const {
    return dividesBy(s, d, mesh.axisSizes[a]);
  }
  bool dividesBy(const ShardLayout &s, int64_t d, int64_t size) const {
    return s.paddedSize[d] % (s.numShards(mesh, d) * size) == 0;
  }

  ReshardStep makeStep(ReshardKind kind, const ShardLayout &s,
                       ArrayRef<int> axes) const {
    ReshardStep step;
    step.kind = kind;
    step.axes.assign(axes.begin(), axes.end());
    step.before = s;
    step.after = s;
    step.link = mesh.linkOf(axes);
    return step;
  }

  void addAllReduce(const ShardLayout &s, ArrayRef<int> axes, int64_t bytes,
                    std::vector<ReshardStep> &out) const {
    ReshardStep step = makeStep(ReshardKind::AllReduce, s, axes);
    int64_t group = 1;
    for (int a : axes) {
      group *= mesh.axisSizes[a];
      llvm::erase(step.after.partialAxes, a);
    }
    step.bytesPerDevice = 2 * bytes * (group - 1) / group;
    out.push_back(std::move(step));
  }

  void addReduceScatter(const ShardLayout &s, int a, int64_t d, int64_t bytes,
                        std::vector<ReshardStep> &out) const {
    ReshardStep step = makeStep(ReshardKind::ReduceScatter, s, {a});
    step.dim = d;
    llvm::erase(step.after.partialAxes, a);
    step.after.dimAxes[d].push_back(a);
    int64_t size = mesh.axisSizes[a];
    step.bytesPerDevice = bytes * (size - 1) / size;
    out.push_back(std::move(step));
  }

  void addMakePartial(const ShardLayout &s, int a,
                      std::vector<ReshardStep> &out) const {
    ReshardStep step = makeStep(ReshardKind::MakePartial, s, {a});
    step.after.partialAxes.push_back(a);
    llvm::sort(step.after.partialAxes);
    step.after.partialKind = target.partialKind;
    out.push_back(std::move(step));
  }

  /// True if `s` and the target place equally sized blocks (so one permute
  /// reaches the target).
  bool samePlacementShape(const ShardLayout &s) const {
    if (s.paddedSize != target.paddedSize ||
        s.partialAxes != target.partialAxes)
      return false;
    if (!s.partialAxes.empty() && s.partialKind != target.partialKind)
      return false;
    for (int64_t d = 0; d < s.rank(); ++d)
      if (s.numShards(mesh, d) != target.numShards(mesh, d))
        return false;
    return true;
  }

  static SmallVector<int> allAxes(const ShardLayout &a, const ShardLayout &b) {
    SmallVector<int> axes;
    for (const ShardLayout *l : {&a, &b})
      for (const auto &dim : l->dimAxes)
        for (int x : dim)
          if (!llvm::is_contained(axes, x))
            axes.push_back(x);
    return axes;
  }

  const MeshModel &mesh;
  ArrayRef<int64_t> shape;
  int64_t elementBytes;
  const ShardLayout &target;
  SmallVector<int> targetDimAxes;
};

} // namespace

const ReshardPlan &ReshardPlanner::plan(ArrayRef<int64_t> shape,
                                        int64_t elementBytes,
                                        const ShardLayout &source,
                                        const ShardLayout &target) {
  // A value on one device moves masked (passes/partition/Maximal.h): what
  // is planned is the reshard of the masked value, wherever it is priced.
  if (source.isMaximal() || target.isMaximal()) {
    MaximalReshard masked = planMaximalReshard(source, target, getMesh());
    return plan(shape, elementBytes, masked.from, masked.to);
  }
  std::string key =
      source.key() + "->" + target.key() + "/" + std::to_string(elementBytes);
  for (int64_t s : shape)
    key += ',' + std::to_string(s);
  auto [it, inserted] = cache.try_emplace(key);
  if (!inserted)
    return *it->second;
  it->second = std::make_unique<ReshardPlan>();
  ReshardPlan &result = *it->second;
  if (source == target)
    return result;

  // Dijkstra over layouts. Ties break on fewer steps, then on the layout key,
  // so plans are deterministic.
  struct Node {
    ShardLayout layout;
    double cost;
    int64_t steps;
    int64_t parent;
    ReshardStep via;
  };
  std::vector<Node> nodes;
  StringMap<int64_t> best;
  using Entry = std::tuple<double, int64_t, std::string, int64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  nodes.push_back({source, 0.0, 0, -1, {}});
  best[source.key()] = 0;
  queue.push({0.0, 0, source.key(), 0});
  StepGenerator generator(mesh, shape, elementBytes, target);
  int64_t goal = -1;
  while (!queue.empty()) {
    auto [cost, steps, layoutKey, index] = queue.top();
    queue.pop();
    if (best.lookup(layoutKey) != index)
      continue;
    if (nodes[index].layout == target) {
      goal = index;
      break;
    }
    std::vector<ReshardStep> next;
    ShardLayout current = nodes[index].layout;
    generator.generate(current, next);
    for (ReshardStep &step : next) {
      double stepCost =
          step.communicates()
              ? step.bytesPerDevice * costs.byteCost(step.link) +
                    step.numCollectives() * costs.perCollectiveCost
              : 0.0;
      double total = cost + stepCost;
      std::string nextKey = step.after.key();
      auto found = best.find(nextKey);
      if (found != best.end()) {
        const Node &old = nodes[found->second];
        if (std::make_tuple(old.cost, old.steps) <=
            std::make_tuple(total, steps + 1))
          continue;
      }
      int64_t nextIndex = nodes.size();
      ShardLayout after = step.after;
      nodes.push_back(
          {std::move(after), total, steps + 1, index, std::move(step)});
      best[nextKey] = nextIndex;
      queue.push({total, steps + 1, nextKey, nextIndex});
    }
  }
  assert(goal >= 0 && "every target layout is reachable");
  result.cost = nodes[goal].cost;
  for (int64_t i = goal; nodes[i].parent >= 0; i = nodes[i].parent)
    result.steps.push_back(nodes[i].via);
  std::reverse(result.steps.begin(), result.steps.end());
  return result;
}

SmallVector<int64_t> permuteSources(const MeshModel &mesh,
                                    const ShardLayout &before,
                                    const ShardLayout &after) {
  // A device's block is identified by its shard index in every dimension
  // and its coordinates along the partial axes. Match the k-th device
  // needing a block with the k-th device holding it, preferring the device
  // itself, so that devices already in place do not move.
  int64_t n = mesh.numDevices();
  auto blockOf = [&](const ShardLayout &layout, ArrayRef<int64_t> coords) {
    SmallVector<int64_t> block;
    for (int64_t d = 0; d < layout.rank(); ++d)
      block.push_back(layout.shardIndex(mesh, d, coords));
    for (int a : layout.partialAxes)
      block.push_back(coords[a]);
    return block;
  };
  std::map<SmallVector<int64_t>, SmallVector<int64_t>> holders;
  SmallVector<SmallVector<int64_t>> needs(n);
  SmallVector<int64_t> sources(n, -1);
  for (int64_t pos = 0; pos < n; ++pos) {
    SmallVector<int64_t> coords = mesh.coordsOfPosition(pos);
    int64_t device = mesh.deviceArray[pos];
    holders[blockOf(before, coords)].push_back(device);
    needs[device] = blockOf(after, coords);
  }
  // Devices that already hold what they need keep it.
  for (int64_t d = 0; d < n; ++d) {
    auto &list = holders[needs[d]];
    auto it = llvm::find(list, d);
    if (it != list.end()) {
      sources[d] = d;
      list.erase(it);
    }
  }
  for (int64_t d = 0; d < n; ++d) {
    if (sources[d] >= 0)
      continue;
    auto &list = holders[needs[d]];
    assert(!list.empty() && "permute between layouts of different shape");
    sources[d] = list.front();
    list.erase(list.begin());
  }
  return sources;
}

} // namespace xspmd::partition
