//===- CollectiveEvaluator.cpp - per-device reference evaluator -----------===//

#include "CollectiveEvaluator.h"

#include "dialects/xla/XlaMesh.h"
#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

#include <map>
#include <random>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::testing {
namespace {

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n *= s;
  return n;
}

/// The multi-index of flat position `flat` in a row-major `shape`.
SmallVector<int64_t> unravel(ArrayRef<int64_t> shape, int64_t flat) {
  SmallVector<int64_t> index(shape.size());
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    index[d] = flat % shape[d];
    flat /= shape[d];
  }
  return index;
}

int64_t ravel(ArrayRef<int64_t> shape, ArrayRef<int64_t> index) {
  int64_t flat = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    flat = flat * shape[d] + index[d];
  return flat;
}

Array zeros(ArrayRef<int64_t> shape) {
  return {SmallVector<int64_t>(shape), std::vector<double>(product(shape))};
}

/// Block `index` of `count` equal blocks of `a` along `dim`.
Array block(const Array &a, int64_t dim, int64_t count, int64_t index) {
  SmallVector<int64_t> shape(a.shape);
  shape[dim] /= count;
  Array out = zeros(shape);
  for (int64_t i = 0, n = out.data.size(); i < n; ++i) {
    SmallVector<int64_t> idx = unravel(shape, i);
    idx[dim] += index * shape[dim];
    out.data[i] = a.data[ravel(a.shape, idx)];
  }
  return out;
}

Array concat(ArrayRef<Array> parts, int64_t dim) {
  SmallVector<int64_t> shape(parts.front().shape);
  shape[dim] = 0;
  for (const Array &p : parts)
    shape[dim] += p.shape[dim];
  Array out = zeros(shape);
  int64_t offset = 0;
  for (const Array &p : parts) {
    for (int64_t i = 0, n = p.data.size(); i < n; ++i) {
      SmallVector<int64_t> idx = unravel(p.shape, i);
      idx[dim] += offset;
      out.data[ravel(shape, idx)] = p.data[i];
    }
    offset += p.shape[dim];
  }
  return out;
}

double combine(ReductionKind kind, double a, double b) {
  switch (kind) {
  case ReductionKind::sum:
    return a + b;
  case ReductionKind::mul:
    return a * b;
  case ReductionKind::and_:
    return static_cast<double>(static_cast<int64_t>(a) &
                               static_cast<int64_t>(b));
  case ReductionKind::or_:
    return static_cast<double>(static_cast<int64_t>(a) |
                               static_cast<int64_t>(b));
  case ReductionKind::min:
    return std::min(a, b);
  case ReductionKind::max:
    return std::max(a, b);
  }
  return 0;
}

Array reduce(ReductionKind kind, double scale, ArrayRef<const Array *> in) {
  Array out = *in.front();
  for (const Array *a : in.drop_front())
    for (size_t i = 0; i < out.data.size(); ++i)
      out.data[i] = combine(kind, out.data[i], a->data[i]);
  for (double &v : out.data)
    v *= scale;
  return out;
}

SmallVector<int64_t> shapeOf(Value v) {
  return SmallVector<int64_t>(cast<RankedTensorType>(v.getType()).getShape());
}

/// Mesh coordinates of every device: coords[device][axis].
std::vector<SmallVector<int64_t>> coordinates(MeshAttr mesh) {
  SmallVector<int64_t> shape;
  for (MeshAxisAttr axis : mesh.getAxes())
    shape.push_back(axis.getSize());
  SmallVector<int64_t> devices = mesh.getDeviceArray();
  std::vector<SmallVector<int64_t>> coords(devices.size());
  for (size_t pos = 0; pos < devices.size(); ++pos)
    coords[devices[pos]] = unravel(shape, pos);
  return coords;
}

class Evaluator {
public:
  Evaluator(func::FuncOp func, std::string &error)
      : func(func), error(error), n(numDevices(func)) {}

  std::vector<DeviceValues> run(const std::vector<DeviceValues> &args) {
    Block &body = func.getBody().front();
    for (auto [arg, values] : llvm::zip(body.getArguments(), args))
      env[arg] = values;
    for (Operation &op : body) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        std::vector<DeviceValues> results;
        for (Value v : ret.getOperands())
          results.push_back(env[v]);
        return results;
      }
      if (failed(step(&op)))
        return {};
    }
    error = "no return";
    return {};
  }

private:
  LogicalResult fail(Operation *op, const Twine &why) {
    error = (op->getName().getStringRef() + ": " + why).str();
    return failure();
  }

  /// Applies `f` on every device.
  template <typename F>
  void local(Operation *op, F f) {
    DeviceValues out(n);
    for (int64_t d = 0; d < n; ++d)
      out[d] = f(d);
    env[op->getResult(0)] = std::move(out);
  }

  const Array &in(Operation *op, unsigned i, int64_t device) {
    return env[op->getOperand(i)][device];
  }

  DeviceGroups groups(Operation *op) {
    auto c = cast<CollectiveOpInterface>(op);
    MeshAttr mesh;
    if (c.getMeshAttr())
      mesh = lookupMesh(op, c.getMeshAttr()).getMesh();
    return resolveParticipantGroups(c, mesh, n);
  }

  LogicalResult step(Operation *op) {
    return llvm::TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](ConstantOp c) {
          auto attr = dyn_cast<DenseElementsAttr>(c.getValue());
          if (!attr)
            return fail(op, "non-dense constant");
          Array value = zeros(shapeOf(c));
          if (isa<FloatType>(attr.getElementType())) {
            auto values = llvm::to_vector(attr.getValues<APFloat>());
            for (size_t i = 0; i < value.data.size(); ++i)
              value.data[i] = values[attr.isSplat() ? 0 : i].convertToDouble();
          } else {
            auto values = llvm::to_vector(attr.getValues<APInt>());
            for (size_t i = 0; i < value.data.size(); ++i)
              value.data[i] = values[attr.isSplat() ? 0 : i].getSExtValue();
          }
          local(op, [&](int64_t) { return value; });
          return success();
        })
        .Case<AddOp, SubOp, MulOp>([&](auto) {
          local(op, [&](int64_t d) {
            Array out = in(op, 0, d);
            const Array &rhs = in(op, 1, d);
            for (size_t i = 0; i < out.data.size(); ++i)
              out.data[i] = isa<AddOp>(op)   ? out.data[i] + rhs.data[i]
                            : isa<SubOp>(op) ? out.data[i] - rhs.data[i]
                                             : out.data[i] * rhs.data[i];
            return out;
          });
          return success();
        })
        .Case([&](ReshapeOp) {
          local(op, [&](int64_t d) {
            return Array{shapeOf(op->getResult(0)), in(op, 0, d).data};
          });
          return success();
        })
        .Case([&](ConcatenateOp c) {
          local(op, [&](int64_t d) {
            SmallVector<Array> parts;
            for (unsigned i = 0; i < op->getNumOperands(); ++i)
              parts.push_back(in(op, i, d));
            return concat(parts, c.getDim());
          });
          return success();
        })
        .Case([&](SliceOp s) {
          SmallVector<int64_t> shape = shapeOf(s);
          local(op, [&](int64_t d) {
            const Array &a = in(op, 0, d);
            Array out = zeros(shape);
            for (int64_t i = 0, e = out.data.size(); i < e; ++i) {
              SmallVector<int64_t> idx = unravel(shape, i);
              for (size_t k = 0; k < idx.size(); ++k)
                idx[k] = s.getStart()[k] + idx[k] * s.getStrides()[k];
              out.data[i] = a.data[ravel(a.shape, idx)];
            }
            return out;
          });
          return success();
        })
        .Case([&](PadOp p) -> LogicalResult {
          // Edge padding only (what the hierarchical rewrite emits).
          if (llvm::any_of(p.getInterior(), [](int64_t i) { return i != 0; }) ||
              llvm::any_of(p.getLow(), [](int64_t l) { return l < 0; }))
            return fail(op, "only non-negative edge padding");
          SmallVector<int64_t> shape = shapeOf(p);
          double value = p.getValue().convertToDouble();
          local(op, [&](int64_t d) {
            const Array &a = in(op, 0, d);
            Array out = zeros(shape);
            for (int64_t i = 0, e = out.data.size(); i < e; ++i) {
              SmallVector<int64_t> idx = unravel(shape, i);
              bool inside = true;
              for (size_t k = 0; k < idx.size(); ++k) {
                idx[k] -= p.getLow()[k];
                inside &= idx[k] >= 0 && idx[k] < a.shape[k];
              }
              out.data[i] = inside ? a.data[ravel(a.shape, idx)] : value;
            }
            return out;
          });
          return success();
        })
        .Case([&](BroadcastInDimOp b) {
          SmallVector<int64_t> shape = shapeOf(b);
          local(op, [&](int64_t d) {
            const Array &a = in(op, 0, d);
            Array out = zeros(shape);
            for (int64_t i = 0, e = out.data.size(); i < e; ++i) {
              SmallVector<int64_t> idx = unravel(shape, i), src;
              for (auto [k, dim] : llvm::enumerate(b.getDims()))
                src.push_back(a.shape[k] == 1 ? 0 : idx[dim]);
              out.data[i] = a.data[ravel(a.shape, src)];
            }
            return out;
          });
          return success();
        })
        .Case([&](PartitionIdOp) {
          local(op, [&](int64_t d) { return Array{{}, {double(d)}}; });
          return success();
        })
        .Case([&](AxisIndexOp a) {
          MeshAttr mesh = lookupMesh(op, a.getMeshAttr()).getMesh();
          auto coords = coordinates(mesh);
          int64_t axis = mesh.getAxisIndex(a.getAxis());
          local(op, [&](int64_t d) {
            return Array{{}, {double(coords[d][axis])}};
          });
          return success();
        })
        .Case<AllReduceOp, ReduceScatterOp>([&](auto r) {
          DeviceValues out(n);
          int64_t dim = -1;
          if constexpr (std::is_same_v<decltype(r), ReduceScatterOp>)
            dim = r.getDim();
          double scale = r.getScale().convertToDouble();
          for (const auto &group : groups(op)) {
            SmallVector<const Array *> members;
            for (int64_t d : group)
              members.push_back(&in(op, 0, d));
            Array sum = reduce(r.getKind(), scale, members);
            for (auto [p, d] : llvm::enumerate(group))
              out[d] = dim < 0 ? sum : block(sum, dim, group.size(), p);
          }
          env[op->getResult(0)] = std::move(out);
          return success();
        })
        .Case([&](AllGatherOp g) {
          DeviceValues out(n);
          for (const auto &group : groups(op)) {
            SmallVector<Array> parts;
            for (int64_t d : group)
              parts.push_back(in(op, 0, d));
            Array all = concat(parts, g.getDim());
            for (int64_t d : group)
              out[d] = all;
          }
          env[op->getResult(0)] = std::move(out);
          return success();
        })
        .Case([&](AllSliceOp s) {
          DeviceValues out(n);
          for (const auto &group : groups(op))
            for (auto [p, d] : llvm::enumerate(group))
              out[d] = block(in(op, 0, d), s.getDim(), group.size(), p);
          env[op->getResult(0)] = std::move(out);
          return success();
        })
        .Case([&](AllToAllOp a) {
          DeviceValues out(n);
          for (const auto &group : groups(op)) {
            int64_t size = group.size();
            for (int64_t p = 0; p < size; ++p) {
              SmallVector<Array> parts;
              for (int64_t q = 0; q < size; ++q)
                parts.push_back(
                    block(in(op, 0, group[q]), a.getSplitDim(), size, p));
              out[group[p]] = concat(parts, a.getConcatDim());
            }
          }
          env[op->getResult(0)] = std::move(out);
          return success();
        })
        .Case([&](CollectivePermuteOp cp) {
          DeviceValues out(n, zeros(shapeOf(cp)));
          auto pairs = llvm::to_vector(cp.getPairs().getValues<int64_t>());
          bool positions = cp.getAxesAttr() || cp.getGroupsAttr();
          DeviceGroups all = positions ? groups(op) : DeviceGroups{{}};
          if (!positions)
            for (int64_t d = 0; d < n; ++d)
              all.front().push_back(d);
          for (const auto &group : all)
            for (size_t i = 0; i < pairs.size(); i += 2)
              out[group[pairs[i + 1]]] = in(op, 0, group[pairs[i]]);
          env[op->getResult(0)] = std::move(out);
          return success();
        })
        .Default([&](Operation *) { return fail(op, "not supported"); });
  }

  func::FuncOp func;
  std::string &error;
  int64_t n;
  llvm::DenseMap<Value, DeviceValues> env;
};

} // namespace

void PrintTo(const Array &a, std::ostream *os) {
  *os << "[";
  for (size_t i = 0; i < a.shape.size(); ++i)
    *os << (i ? "x" : "") << a.shape[i];
  *os << "]{";
  for (size_t i = 0; i < a.data.size(); ++i)
    *os << (i ? ", " : "") << a.data[i];
  *os << "}";
}

int64_t numDevices(func::FuncOp func) {
  MeshOp mesh = findFirstMesh(func);
  return mesh ? mesh.getMesh().getNumDevices() : 0;
}

std::vector<DeviceValues> makeInputs(func::FuncOp func, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(-3, 3);
  int64_t n = numDevices(func);
  std::vector<DeviceValues> inputs;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    SmallVector<int64_t> shape(cast<RankedTensorType>(type).getShape());
    auto sharding = func.getArgAttrOfType<ShardingAttr>(i, kShardingAttrName);
    // Devices with the same key hold the same data.
    std::vector<SmallVector<int64_t>> keys(n);
    if (sharding) {
      MeshAttr mesh = lookupMesh(func, sharding.getMesh()).getMesh();
      auto coords = coordinates(mesh);
      SmallVector<int64_t> used;
      for (DimShardingAttr dim : sharding.getDims())
        for (StringAttr axis : dim.getAxes())
          used.push_back(mesh.getAxisIndex(axis.getValue()));
      for (StringAttr axis : sharding.getPartialAxes())
        used.push_back(mesh.getAxisIndex(axis.getValue()));
      for (int64_t d = 0; d < n; ++d)
        for (int64_t a : used)
          keys[d].push_back(coords[d][a]);
    } else {
      for (int64_t d = 0; d < n; ++d)
        keys[d] = {d};
    }
    std::map<SmallVector<int64_t>, Array> byKey;
    DeviceValues values(n);
    for (int64_t d = 0; d < n; ++d) {
      auto [it, fresh] = byKey.try_emplace(keys[d], zeros(shape));
      if (fresh)
        for (double &v : it->second.data)
          v = value(rng);
      values[d] = it->second;
    }
    inputs.push_back(std::move(values));
  }
  return inputs;
}

std::vector<DeviceValues> evaluate(func::FuncOp func,
                                   const std::vector<DeviceValues> &args,
                                   std::string &error) {
  return Evaluator(func, error).run(args);
}

} // namespace xspmd::testing
