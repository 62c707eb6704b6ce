//===- ReshardPlannerTest.cpp - reshard plans move the right data ---------===//
//
// Every plan is checked by moving real values: each device holds its block
// of a global tensor (with junk in padding and random splits of partial
// values), the steps are applied with the collectives' semantics, and the
// result must be the target layout's blocks of the same global tensor.
//
//===----------------------------------------------------------------------===//

#include "passes/partition/ReshardPlanner.h"

#include "dialects/xla/XlaMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

using namespace xspmd;
using namespace xspmd::partition;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

struct Local {
  SmallVector<int64_t> shape;
  std::vector<int64_t> data;
};

constexpr int64_t kJunk = -777777;

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

/// Calls f(multi-index, flat index) for every element of `shape`.
void forEachIndex(ArrayRef<int64_t> shape,
                  const std::function<void(ArrayRef<int64_t>, int64_t)> &f) {
  SmallVector<int64_t> idx(shape.size(), 0);
  int64_t n = numElements(shape);
  for (int64_t flat = 0; flat < n; ++flat) {
    f(idx, flat);
    for (int64_t d = shape.size() - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
}

int64_t flatIndex(ArrayRef<int64_t> shape, ArrayRef<int64_t> idx) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + idx[d];
  return flat;
}

/// Chunk `index` of `count` equal chunks of `t` along `dim`.
Local chunk(const Local &t, int64_t dim, int64_t count, int64_t index) {
  Local out{t.shape, {}};
  out.shape[dim] /= count;
  out.data.resize(numElements(out.shape));
  forEachIndex(out.shape, [&](ArrayRef<int64_t> idx, int64_t flat) {
    SmallVector<int64_t> src(idx);
    src[dim] += index * out.shape[dim];
    out.data[flat] = t.data[flatIndex(t.shape, src)];
  });
  return out;
}

Local concat(ArrayRef<Local> parts, int64_t dim) {
  Local out{parts.front().shape, {}};
  out.shape[dim] *= parts.size();
  out.data.resize(numElements(out.shape));
  int64_t part = parts.front().shape[dim];
  forEachIndex(out.shape, [&](ArrayRef<int64_t> idx, int64_t flat) {
    SmallVector<int64_t> src(idx);
    src[dim] %= part;
    const Local &p = parts[idx[dim] / part];
    out.data[flat] = p.data[flatIndex(p.shape, src)];
  });
  return out;
}

int64_t combine(xla::ReductionKind kind, int64_t a, int64_t b) {
  if (a == kJunk || b == kJunk)
    return kJunk;
  return kind == xla::ReductionKind::max ? std::max(a, b) : a + b;
}

class Simulation {
public:
  Simulation(const MeshModel &mesh, SmallVector<int64_t> shape, uint64_t seed)
      : mesh(mesh), shape(std::move(shape)), rng(seed) {
    global.resize(numElements(this->shape));
    for (int64_t &v : global)
      v = rng() % 1000;
  }

  /// Each device's block of the global tensor under `layout`.
  std::vector<Local> distribute(const ShardLayout &layout) {
    std::vector<Local> locals(mesh.numDevices());
    SmallVector<int64_t> localShape = layout.localShape(mesh);
    for (int64_t pos = 0; pos < mesh.numDevices(); ++pos) {
      SmallVector<int64_t> coords = mesh.coordsOfPosition(pos);
      int64_t partialIndex = 0;
      for (int a : layout.partialAxes)
        partialIndex = partialIndex * mesh.axisSizes[a] + coords[a];
      Local &t = locals[mesh.deviceArray[pos]];
      t.shape = localShape;
      t.data.resize(numElements(localShape));
      forEachIndex(localShape, [&](ArrayRef<int64_t> idx, int64_t flat) {
        int64_t g = globalIndex(layout, coords, idx);
        if (g < 0) {
          t.data[flat] = kJunk;
          return;
        }
        t.data[flat] = partialShare(layout, partialIndex, g);
      });
    }
    return locals;
  }

  /// Checks that `locals` hold `layout`'s blocks (reducing partial groups).
  void expectLayout(const std::vector<Local> &locals, const ShardLayout &layout,
                    const std::string &what) {
    SmallVector<int64_t> localShape = layout.localShape(mesh);
    SmallVector<int64_t> shapeOfMesh(mesh.axisSizes);
    auto groups =
        xla::meshAxisGroups(shapeOfMesh, mesh.deviceArray,
                            SmallVector<int64_t>(layout.partialAxes.begin(),
                                                 layout.partialAxes.end()));
    SmallVector<int64_t> positions = mesh.positionsOfDevices();
    for (const auto &group : groups) {
      const Local &first = locals[group.front()];
      ASSERT_EQ(first.shape, localShape) << what;
      std::vector<int64_t> reduced = first.data;
      for (int64_t dev : ArrayRef<int64_t>(group).drop_front())
        for (size_t i = 0; i < reduced.size(); ++i)
          reduced[i] =
              combine(layout.partialKind, reduced[i], locals[dev].data[i]);
      SmallVector<int64_t> coords = mesh.coordsOfPosition(positions[group[0]]);
      forEachIndex(localShape, [&](ArrayRef<int64_t> idx, int64_t flat) {
        int64_t g = globalIndex(layout, coords, idx);
        if (g >= 0) {
          ASSERT_EQ(reduced[flat], global[g])
              << what << " device " << group[0] << " element " << flat;
        }
      });
    }
  }

  std::vector<Local> apply(const ReshardStep &step,
                           const std::vector<Local> &in) {
    std::vector<Local> out(in.size());
    SmallVector<int64_t> meshShape(mesh.axisSizes);
    auto groupsOf = [&](ArrayRef<int> axes) {
      return xla::meshAxisGroups(
          meshShape, mesh.deviceArray,
          SmallVector<int64_t>(axes.begin(), axes.end()));
    };
    switch (step.kind) {
    case ReshardKind::AllGather:
      for (const auto &g : groupsOf(step.axes)) {
        SmallVector<Local> parts;
        for (int64_t d : g)
          parts.push_back(in[d]);
        Local joined = concat(parts, step.dim);
        for (int64_t d : g)
          out[d] = joined;
      }
      break;
    case ReshardKind::AllSlice:
      for (const auto &g : groupsOf(step.axes))
        for (auto [p, d] : llvm::enumerate(g))
          out[d] = chunk(in[d], step.dim, g.size(), p);
      break;
    case ReshardKind::AllToAll:
      for (const auto &g : groupsOf(step.axes))
        for (auto [p, d] : llvm::enumerate(g)) {
          SmallVector<Local> received;
          for (int64_t src : g)
            received.push_back(chunk(in[src], step.toDim, g.size(), p));
          out[d] = concat(received, step.dim);
        }
      break;
    case ReshardKind::AllToAllPair: {
      std::vector<Local> cur = in;
      for (const AllToAllPairPart &part : allToAllPairParts(step)) {
        std::vector<Local> next(cur.size());
        for (const auto &g : groupsOf({part.axis}))
          for (auto [p, d] : llvm::enumerate(g)) {
            SmallVector<Local> received;
            for (int64_t src : g)
              received.push_back(chunk(cur[src], part.splitDim, g.size(), p));
            next[d] = concat(received, part.concatDim);
          }
        cur = std::move(next);
      }
      out = std::move(cur);
      break;
    }
    case ReshardKind::AllReduce:
    case ReshardKind::ReduceScatter:
      for (const auto &g : groupsOf(step.axes)) {
        Local sum = in[g.front()];
        for (int64_t d : ArrayRef<int64_t>(g).drop_front())
          for (size_t i = 0; i < sum.data.size(); ++i)
            sum.data[i] =
                combine(step.before.partialKind, sum.data[i], in[d].data[i]);
        for (auto [p, d] : llvm::enumerate(g))
          out[d] = step.kind == ReshardKind::AllReduce
                       ? sum
                       : chunk(sum, step.dim, g.size(), p);
      }
      break;
    case ReshardKind::Permute: {
      SmallVector<int64_t> sources =
          permuteSources(mesh, step.before, step.after);
      for (size_t d = 0; d < in.size(); ++d)
        out[d] = in[sources[d]];
      break;
    }
    case ReshardKind::Repad:
      for (size_t d = 0; d < in.size(); ++d) {
        Local t{in[d].shape, {}};
        t.shape[step.dim] = step.after.paddedSize[step.dim];
        t.data.assign(numElements(t.shape), kJunk);
        forEachIndex(t.shape, [&](ArrayRef<int64_t> idx, int64_t flat) {
          if (idx[step.dim] < in[d].shape[step.dim] &&
              idx[step.dim] < shape[step.dim])
            t.data[flat] = in[d].data[flatIndex(in[d].shape, idx)];
        });
        out[d] = std::move(t);
      }
      break;
    case ReshardKind::MakePartial: {
      SmallVector<int64_t> positions = mesh.positionsOfDevices();
      for (size_t d = 0; d < in.size(); ++d) {
        out[d] = in[d];
        SmallVector<int64_t> coords = mesh.coordsOfPosition(positions[d]);
        if (coords[step.axes.front()] != 0 &&
            step.after.partialKind == xla::ReductionKind::sum)
          for (int64_t &v : out[d].data)
            if (v != kJunk)
              v = 0;
      }
      break;
    }
    }
    return out;
  }

private:
  /// Flat global index of local index `idx` on a device, or -1 for padding.
  int64_t globalIndex(const ShardLayout &layout, ArrayRef<int64_t> coords,
                      ArrayRef<int64_t> idx) const {
    SmallVector<int64_t> localShape = layout.localShape(mesh);
    SmallVector<int64_t> g;
    for (int64_t d = 0; d < layout.rank(); ++d) {
      int64_t v = layout.shardIndex(mesh, d, coords) * localShape[d] + idx[d];
      if (v >= shape[d])
        return -1;
      g.push_back(v);
    }
    return flatIndex(shape, g);
  }

  /// Share of element g held by partial position q (shares reduce to the
  /// global value).
  int64_t partialShare(const ShardLayout &layout, int64_t q, int64_t g) {
    if (layout.partialAxes.empty())
      return global[g];
    int64_t count = 1;
    for (int a : layout.partialAxes)
      count *= mesh.axisSizes[a];
    auto noise = [&](int64_t i) { return (g * 7919 + i * 104729) % 50 + 1; };
    if (layout.partialKind == xla::ReductionKind::max)
      return q == 0 ? global[g] : global[g] - noise(q);
    if (q > 0)
      return noise(q);
    int64_t rest = 0;
    for (int64_t i = 1; i < count; ++i)
      rest += noise(i);
    return global[g] - rest;
  }

  const MeshModel &mesh;
  SmallVector<int64_t> shape;
  std::mt19937_64 rng;
  std::vector<int64_t> global;
};

MeshModel makeMesh(SmallVector<int64_t> sizes,
                   SmallVector<xla::LinkClass> links = {},
                   SmallVector<int64_t> devices = {}) {
  MeshModel mesh;
  mesh.axisSizes = sizes;
  static const char *names[] = {"x", "y", "z", "w"};
  for (size_t i = 0; i < sizes.size(); ++i) {
    mesh.axisNames.push_back(names[i]);
    mesh.axisLinks.push_back(i < links.size() ? links[i] : xla::LinkClass::ici);
  }
  if (devices.empty())
    for (int64_t i = 0, n = numElements(sizes); i < n; ++i)
      devices.push_back(i);
  mesh.deviceArray = devices;
  return mesh;
}

ShardLayout makeLayout(const MeshModel &mesh, ArrayRef<int64_t> shape,
                       SmallVector<SmallVector<int, 2>> dims,
                       SmallVector<int, 2> partial = {},
                       xla::ReductionKind kind = xla::ReductionKind::sum) {
  ShardLayout layout;
  layout.dimAxes = dims;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    int64_t n = 1;
    for (int a : dims[d])
      n *= mesh.axisSizes[a];
    layout.paddedSize.push_back(paddedDimSize(shape[d], n));
  }
  layout.partialAxes = partial;
  llvm::sort(layout.partialAxes);
  layout.partialKind = kind;
  return layout;
}

/// Every layout of a rank-`rank` tensor where each mesh axis is unused,
/// partial, or appended to one dimension (in every order).
std::vector<ShardLayout> allLayouts(const MeshModel &mesh,
                                    ArrayRef<int64_t> shape,
                                    xla::ReductionKind kind) {
  std::vector<ShardLayout> layouts;
  int64_t rank = shape.size();
  SmallVector<int> axes;
  for (int a = 0; a < mesh.rank(); ++a)
    axes.push_back(a);
  do {
    // choice[a] in [0, rank + 2): unused, partial, or dimension.
    SmallVector<int64_t> choice(axes.size(), 0);
    while (true) {
      SmallVector<SmallVector<int, 2>> dims(rank);
      SmallVector<int, 2> partial;
      for (size_t i = 0; i < axes.size(); ++i) {
        if (choice[i] == 1)
          partial.push_back(axes[i]);
        else if (choice[i] >= 2)
          dims[choice[i] - 2].push_back(axes[i]);
      }
      ShardLayout l = makeLayout(mesh, shape, dims, partial, kind);
      if (llvm::none_of(layouts, [&](const ShardLayout &o) { return o == l; }))
        layouts.push_back(l);
      size_t i = 0;
      while (i < choice.size() && ++choice[i] == rank + 2)
        choice[i++] = 0;
      if (i == choice.size())
        break;
    }
  } while (std::next_permutation(axes.begin(), axes.end()));
  return layouts;
}

void checkAllPairs(const MeshModel &mesh, SmallVector<int64_t> shape,
                   xla::ReductionKind kind = xla::ReductionKind::sum) {
  std::vector<ShardLayout> layouts = allLayouts(mesh, shape, kind);
  ReshardPlanner planner(mesh);
  Simulation sim(mesh, shape, 42);
  for (const ShardLayout &src : layouts)
    for (const ShardLayout &tgt : layouts) {
      const ReshardPlan &plan = planner.plan(shape, 4, src, tgt);
      std::string what = src.key() + " -> " + tgt.key();
      std::vector<Local> locals = sim.distribute(src);
      ShardLayout current = src;
      for (const ReshardStep &step : plan.steps) {
        ASSERT_TRUE(step.before == current) << what;
        locals = sim.apply(step, locals);
        current = step.after;
      }
      ASSERT_TRUE(current == tgt) << what;
      sim.expectLayout(locals, tgt, what);
      if (::testing::Test::HasFatalFailure())
        return;
    }
}

TEST(ReshardPlanner, AllPairsOn2x2Mesh) {
  checkAllPairs(makeMesh({2, 2}), {4, 6});
}

TEST(ReshardPlanner, AllPairsNonDivisible) {
  checkAllPairs(makeMesh({2, 3}), {5, 7});
}

TEST(ReshardPlanner, AllPairsMaxPartial) {
  checkAllPairs(makeMesh({2, 2}), {3, 4}, xla::ReductionKind::max);
}

TEST(ReshardPlanner, AllPairsOn3AxisMeshWithPermutedDevices) {
  checkAllPairs(makeMesh({2, 2, 2}, {}, {0, 4, 2, 6, 1, 5, 3, 7}), {4, 5});
}

TEST(ReshardPlanner, AllPairsRank3) {
  checkAllPairs(makeMesh({2, 2}), {2, 3, 4});
}

// The canonical cases take exactly one collective.
TEST(ReshardPlanner, CanonicalSingleSteps) {
  MeshModel mesh = makeMesh({4, 2});
  SmallVector<int64_t> shape{8, 16};
  ReshardPlanner planner(mesh);
  auto only = [&](const ShardLayout &a, const ShardLayout &b) {
    const ReshardPlan &plan = planner.plan(shape, 4, a, b);
    EXPECT_EQ(plan.steps.size(), 1u);
    return plan.steps.empty() ? ReshardKind::Repad : plan.steps[0].kind;
  };
  EXPECT_EQ(only(makeLayout(mesh, shape, {{0}, {}}),
                 makeLayout(mesh, shape, {{}, {}})),
            ReshardKind::AllGather);
  EXPECT_EQ(only(makeLayout(mesh, shape, {{0}, {}}),
                 makeLayout(mesh, shape, {{}, {0}})),
            ReshardKind::AllToAll);
  EXPECT_EQ(only(makeLayout(mesh, shape, {{}, {}}, {1}),
                 makeLayout(mesh, shape, {{}, {}})),
            ReshardKind::AllReduce);
  EXPECT_EQ(only(makeLayout(mesh, shape, {{}, {}}, {1}),
                 makeLayout(mesh, shape, {{}, {1}})),
            ReshardKind::ReduceScatter);
}

TEST(ReshardPlanner, SlicingIsFree) {
  MeshModel mesh = makeMesh({4, 2});
  SmallVector<int64_t> shape{8, 16};
  ReshardPlanner planner(mesh);
  const ReshardPlan &plan =
      planner.plan(shape, 4, makeLayout(mesh, shape, {{}, {}}),
                   makeLayout(mesh, shape, {{0}, {1}}));
  EXPECT_EQ(plan.cost, 0.0);
  for (const ReshardStep &step : plan.steps)
    EXPECT_EQ(step.kind, ReshardKind::AllSlice);
}

TEST(ReshardPlanner, SwappingEqualAxesIsOnePermute) {
  MeshModel mesh = makeMesh({2, 2});
  SmallVector<int64_t> shape{8, 8};
  ReshardPlanner planner(mesh);
  const ReshardPlan &plan =
      planner.plan(shape, 4, makeLayout(mesh, shape, {{0}, {1}}),
                   makeLayout(mesh, shape, {{1}, {0}}));
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(plan.steps[0].kind, ReshardKind::Permute);
}

TEST(ReshardPlanner, AvoidsDcnBytes) {
  // x crosses DCN, y stays on ICI. Gathering dim 0 sharded {x, y}: the plan
  // must not send more over DCN than gathering x alone requires.
  MeshModel mesh = makeMesh({2, 4}, {xla::LinkClass::dcn, xla::LinkClass::ici});
  SmallVector<int64_t> shape{64, 64};
  ReshardPlanner planner(mesh);
  const ReshardPlan &plan =
      planner.plan(shape, 4, makeLayout(mesh, shape, {{1}, {0}}),
                   makeLayout(mesh, shape, {{0}, {1}}));
  int64_t dcnBytes = 0;
  for (const ReshardStep &step : plan.steps)
    if (step.link != xla::LinkClass::ici)
      dcnBytes += step.bytesPerDevice;
  // Any correct plan must move half of a device's 64x64/8 block over DCN at
  // least once; a gather-everything plan moves far more.
  EXPECT_LE(dcnBytes, 64 * 64 / 8 * 4);
}

} // namespace

// [{}, {x, y}] -> [{x}, {y}] on a 2x2 mesh: x is not minor-most, so one
// all-to-all cannot move it; two all-to-alls (x to dim 0, then y within dim
// 1) send half the block each (24 of 48 B), less than an all-to-all and a
// permute of the whole block. Inward is the reverse.
TEST(ReshardPlanner, MovingAnInnerAxisIsTwoAllToAlls) {
  MeshModel mesh = makeMesh({2, 2});
  SmallVector<int64_t> shape{2, 24};
  ReshardPlanner planner(mesh);
  Simulation sim(mesh, shape, 7);
  ShardLayout cols = makeLayout(mesh, shape, {{}, {0, 1}});
  ShardLayout both = makeLayout(mesh, shape, {{0}, {1}});
  for (auto [src, tgt] : {std::pair(cols, both), std::pair(both, cols)}) {
    const ReshardPlan &plan = planner.plan(shape, 4, src, tgt);
    ASSERT_EQ(plan.steps.size(), 1u);
    EXPECT_EQ(plan.steps[0].kind, ReshardKind::AllToAllPair);
    EXPECT_EQ(plan.steps[0].bytesPerDevice, 48);
    std::vector<Local> locals = sim.apply(plan.steps[0], sim.distribute(src));
    sim.expectLayout(locals, tgt, src.key() + " -> " + tgt.key());
  }
}
