//===- XspmdPython.cpp - the `xspmd._xspmd` extension module --------------===//
//
// pybind11 bindings of the lazy-tensor frontend (lib/lazy): the Python
// package in python/xspmd builds torch_xla's API (xs.Mesh, xm.mark_step,
// met.metrics_report, ...) on these. An llvm::Error becomes a Python
// exception with its message: ValueError for a bad argument, RuntimeError
// for a failed step.
//
//===----------------------------------------------------------------------===//

#include "lib/lazy/Runtime.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>

namespace py = pybind11;
using namespace xspmd;
using namespace xspmd::lazy;
using runtime::ElementType;

namespace {

/// Unwraps an llvm::Expected, raising ValueError with its message.
template <typename T>
T check(llvm::Expected<T> value) {
  if (!value)
    throw py::value_error(llvm::toString(value.takeError()));
  return std::move(*value);
}

void checkStep(llvm::Error err) {
  if (err)
    throw std::runtime_error(llvm::toString(std::move(err)));
}

ElementType elementTypeOf(const py::dtype &dtype) {
  char kind = dtype.kind();
  size_t size = dtype.itemsize();
  if (kind == 'f' && size == 4)
    return ElementType::f32;
  if (kind == 'f' && size == 8)
    return ElementType::f64;
  if (kind == 'f' && size == 2)
    return ElementType::f16;
  if (kind == 'b')
    return ElementType::i1;
  if (kind == 'i' && size == 1)
    return ElementType::i8;
  if (kind == 'i' && size == 4)
    return ElementType::i32;
  if (kind == 'i' && size == 8)
    return ElementType::i64;
  throw py::type_error(
      "unsupported dtype " +
      py::str(static_cast<py::object>(dtype)).cast<std::string>() +
      ": use float32, float64, float16, bool, int8, int32 "
      "or int64");
}

ElementType elementTypeNamed(const std::string &name) {
  static const std::pair<const char *, ElementType> names[] = {
      {"float32", ElementType::f32}, {"float64", ElementType::f64},
      {"float16", ElementType::f16}, {"bfloat16", ElementType::bf16},
      {"bool", ElementType::i1},     {"int8", ElementType::i8},
      {"int32", ElementType::i32},   {"int64", ElementType::i64}};
  for (auto [n, type] : names)
    if (name == n)
      return type;
  throw py::value_error("unknown dtype '" + name + "'");
}

std::string elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::f32:
    return "float32";
  case ElementType::f64:
    return "float64";
  case ElementType::f16:
    return "float16";
  case ElementType::bf16:
    return "bfloat16";
  case ElementType::i1:
    return "bool";
  case ElementType::i8:
    return "int8";
  case ElementType::i32:
    return "int32";
  case ElementType::i64:
    return "int64";
  }
  return "?";
}

runtime::Tensor fromNumpy(py::array array) {
  ElementType type = elementTypeOf(array.dtype());
  py::array contiguous =
      py::array::ensure(array, py::array::c_style | py::array::forcecast);
  std::vector<int64_t> shape(contiguous.shape(),
                             contiguous.shape() + contiguous.ndim());
  runtime::Tensor t = runtime::Tensor::allocate(type, shape);
  std::memcpy(t.data(), contiguous.data(), t.getByteSize());
  return t;
}

py::array toNumpy(const runtime::Tensor &t) {
  std::vector<ssize_t> shape(t.getShape().begin(), t.getShape().end());
  auto make = [&](auto tag) {
    using T = decltype(tag);
    py::array_t<T> out(shape);
    std::memcpy(out.mutable_data(), t.data(), t.getByteSize());
    return static_cast<py::array>(out);
  };
  switch (t.getElementType()) {
  case ElementType::f32:
    return make(float());
  case ElementType::f64:
    return make(double());
  case ElementType::i1:
    return make(bool());
  case ElementType::i8:
    return make(int8_t());
  case ElementType::i32:
    return make(int32_t());
  case ElementType::i64:
    return make(int64_t());
  case ElementType::f16: {
    py::array out(py::dtype("float16"), shape);
    std::memcpy(out.mutable_data(), t.data(), t.getByteSize());
    return out;
  }
  case ElementType::bf16: {
    // NumPy has no bfloat16: widen to float32 (bf16 is f32's top half).
    py::array_t<float> out(shape);
    const uint16_t *in = t.data<uint16_t>();
    float *dst = out.mutable_data();
    for (int64_t i = 0; i < t.getNumElements(); ++i) {
      uint32_t bits = static_cast<uint32_t>(in[i]) << 16;
      std::memcpy(&dst[i], &bits, sizeof(float));
    }
    return out;
  }
  }
  throw std::runtime_error("unknown element type");
}

PartitionSpec specFrom(const py::sequence &spec) {
  PartitionSpec result;
  for (py::handle entry : spec) {
    PartitionSpecEntry axes;
    auto addAxis = [&](py::handle axis) {
      if (py::isinstance<py::str>(axis))
        axes.push_back(axis.cast<std::string>());
      else if (py::isinstance<py::int_>(axis))
        axes.push_back(std::to_string(axis.cast<int64_t>()));
      else
        throw py::type_error("a partition spec entry is None, an axis name "
                             "or index, or a tuple of them");
    };
    if (entry.is_none()) {
    } else if (py::isinstance<py::tuple>(entry) ||
               py::isinstance<py::list>(entry)) {
      for (py::handle axis : entry)
        addAxis(axis);
    } else {
      addAxis(entry);
    }
    result.push_back(std::move(axes));
  }
  return result;
}

/// Axis indices of an unnamed mesh are given as integers; resolve them
/// against the mesh so the runtime sees names.
PartitionSpec resolveSpec(const Mesh &mesh, const py::sequence &spec) {
  PartitionSpec resolved = specFrom(spec);
  for (PartitionSpecEntry &entry : resolved)
    for (std::string &axis : entry) {
      int64_t index;
      if (!llvm::StringRef(axis).getAsInteger(10, index))
        axis = check(mesh.resolveAxis(index));
    }
  return resolved;
}

py::dict stepReport(const StepReport &step) {
  py::dict d;
  d["graph_hash"] = step.graphHash;
  d["cached"] = step.cached;
  d["persistent_cache_hit"] = step.persistentCacheHit;
  d["partitioned"] = step.partitioned;
  d["num_devices"] = step.numDevices;
  d["num_outputs"] = step.numOutputs;
  d["recompile_reason"] = step.recompileReason;
  d["collectives"] = step.collectives;
  d["step_time_s"] = step.stepSeconds;
  d["topology"] = step.topology;
  d["max_check_error"] = step.maxCheckError;
  return d;
}

std::vector<int64_t> dimsOf(const py::object &dims, int64_t rank) {
  std::vector<int64_t> out;
  if (dims.is_none()) {
    for (int64_t d = 0; d < rank; ++d)
      out.push_back(d);
  } else if (py::isinstance<py::int_>(dims)) {
    out.push_back(dims.cast<int64_t>());
  } else {
    out = dims.cast<std::vector<int64_t>>();
  }
  return out;
}

/// torch_xla's reduce types ("sum", "mul", "max", "min").
ReduceOp collectiveOp(const std::string &op) {
  static const std::pair<const char *, ReduceOp> ops[] = {
      {"sum", ReduceOp::sum},
      {"mul", ReduceOp::prod},
      {"max", ReduceOp::max},
      {"min", ReduceOp::min}};
  for (auto [name, kind] : ops)
    if (op == name)
      return kind;
  throw py::value_error("unknown reduce type '" + op +
                        "' (sum, mul, max or min)");
}

llvm::SmallVector<llvm::SmallVector<int64_t>>
groupsFrom(const std::vector<std::vector<int64_t>> &groups) {
  llvm::SmallVector<llvm::SmallVector<int64_t>> out;
  for (const auto &group : groups)
    out.emplace_back(group.begin(), group.end());
  return out;
}

} // namespace

PYBIND11_MODULE(_xspmd, m) {
  m.doc() = "xspmd: lazy tensors recorded as xla ops, partitioned by "
            "sharding and run on a simulator of TPU slices";

  py::class_<Mesh>(m, "Mesh")
      .def(py::init([](std::vector<int64_t> deviceIds,
                       std::vector<int64_t> shape,
                       std::vector<std::string> names) {
             return check(Mesh::create(deviceIds, shape, names));
           }),
           py::arg("device_ids"), py::arg("mesh_shape"),
           py::arg("axis_names") = std::vector<std::string>())
      .def_static(
          "hybrid",
          [](std::vector<int64_t> ici, std::vector<int64_t> dcn,
             std::vector<std::string> names) {
            return check(Mesh::hybrid(ici, dcn, names));
          },
          py::arg("ici_mesh_shape"), py::arg("dcn_mesh_shape"),
          py::arg("axis_names") = std::vector<std::string>())
      .def("size", &Mesh::size)
      .def_property_readonly("mesh_shape",
                             [](const Mesh &mesh) {
                               return std::vector<int64_t>(
                                   mesh.getShape().begin(),
                                   mesh.getShape().end());
                             })
      .def_property_readonly("axis_names",
                             [](const Mesh &mesh) {
                               return std::vector<std::string>(
                                   mesh.getAxisNames().begin(),
                                   mesh.getAxisNames().end());
                             })
      .def_property_readonly("named", &Mesh::hasNamedAxes)
      .def_property_readonly("device_ids",
                             [](const Mesh &mesh) {
                               auto ids = mesh.getDeviceIds();
                               return std::vector<int64_t>(ids.begin(),
                                                           ids.end());
                             })
      .def("__repr__", &Mesh::describe);

  py::class_<Tensor>(m, "Tensor")
      .def_property_readonly("shape",
                             [](const Tensor &t) {
                               return py::tuple(py::cast(std::vector<int64_t>(
                                   t.getShape().begin(), t.getShape().end())));
                             })
      .def_property_readonly(
          "dtype",
          [](const Tensor &t) { return elementTypeName(t.getElementType()); })
      .def_property_readonly("is_pending", &Tensor::isPending)
      .def("numpy", [](const Tensor &t) { return toNumpy(check(t.toHost())); })
      .def("__repr__", [](const Tensor &t) {
        return "xspmd.Tensor(" + t.getTypeString() +
               (t.isPending() ? ", pending)" : ")");
      });

  py::class_<Runtime>(m, "Runtime")
      .def(py::init([](int64_t devices, std::string topology, int64_t slices,
                       bool timing, std::string cacheDir, bool readOnly,
                       bool check_) {
             RuntimeOptions options;
             options.numDevices = devices;
             options.topology = topology;
             options.slices = slices;
             options.timing = timing;
             options.cacheDir = cacheDir;
             options.cacheReadOnly = readOnly;
             options.check = check_;
             return check(Runtime::create(options)).release();
           }),
           py::arg("num_devices") = 8, py::arg("topology") = "",
           py::arg("slices") = 0, py::arg("timing") = true,
           py::arg("cache_dir") = "", py::arg("cache_readonly") = false,
           py::arg("check") = false)
      .def_property_readonly("num_devices", &Runtime::getNumDevices)
      .def("tensor",
           [](Runtime &rt, py::array array) {
             return check(rt.fromHost(fromNumpy(array)));
           })
      .def(
          "full",
          [](Runtime &rt, std::vector<int64_t> shape, double value,
             const std::string &dtype) {
            return check(rt.full(shape, value, elementTypeNamed(dtype)));
          },
          py::arg("shape"), py::arg("value"), py::arg("dtype") = "float32")
      .def(
          "rand",
          [](Runtime &rt, std::vector<int64_t> shape, uint64_t seed,
             const std::string &dist, double a, double b,
             const std::string &dtype) {
            ElementType type = elementTypeNamed(dtype);
            if (dist == "normal")
              return check(rt.randNormal(shape, seed, a, b, type));
            if (dist == "uniform")
              return check(rt.randUniform(shape, seed, a, b, type));
            throw py::value_error("distribution is 'normal' or 'uniform'");
          },
          py::arg("shape"), py::arg("seed"), py::arg("distribution"),
          py::arg("a"), py::arg("b"), py::arg("dtype") = "float32")
      .def(
          "iota",
          [](Runtime &rt, std::vector<int64_t> shape, int64_t dim,
             const std::string &dtype) {
            return check(rt.iota(shape, dim, elementTypeNamed(dtype)));
          },
          py::arg("shape"), py::arg("dim"), py::arg("dtype") = "int32")
      .def("binary",
           [](Runtime &rt, const std::string &op, const Tensor &a,
              py::object b) {
             static const std::pair<const char *, BinaryOp> ops[] = {
                 {"add", BinaryOp::add}, {"sub", BinaryOp::sub},
                 {"mul", BinaryOp::mul}, {"div", BinaryOp::div},
                 {"max", BinaryOp::max}, {"min", BinaryOp::min},
                 {"pow", BinaryOp::pow}};
             for (auto [name, kind] : ops)
               if (op == name) {
                 if (py::isinstance<Tensor>(b))
                   return check(rt.binary(kind, a, b.cast<Tensor>()));
                 return check(rt.binary(kind, a, b.cast<double>()));
               }
             throw py::value_error("unknown binary op '" + op + "'");
           })
      .def("unary",
           [](Runtime &rt, const std::string &op, const Tensor &x) {
             static const std::pair<const char *, UnaryOp> ops[] = {
                 {"neg", UnaryOp::neg},     {"abs", UnaryOp::abs},
                 {"exp", UnaryOp::exp},     {"log", UnaryOp::log},
                 {"tanh", UnaryOp::tanh},   {"sqrt", UnaryOp::sqrt},
                 {"rsqrt", UnaryOp::rsqrt}, {"sigmoid", UnaryOp::sigmoid},
                 {"relu", UnaryOp::relu},   {"gelu", UnaryOp::gelu}};
             for (auto [name, kind] : ops)
               if (op == name)
                 return check(rt.unary(kind, x));
             throw py::value_error("unknown unary op '" + op + "'");
           })
      .def("compare",
           [](Runtime &rt, const std::string &op, const Tensor &a,
              const Tensor &b) {
             static const std::pair<const char *, CompareOp> ops[] = {
                 {"eq", CompareOp::eq}, {"ne", CompareOp::ne},
                 {"lt", CompareOp::lt}, {"le", CompareOp::le},
                 {"gt", CompareOp::gt}, {"ge", CompareOp::ge}};
             for (auto [name, kind] : ops)
               if (op == name)
                 return check(rt.compare(kind, a, b));
             throw py::value_error("unknown comparison '" + op + "'");
           })
      .def("where", [](Runtime &rt, const Tensor &p, const Tensor &a,
                       const Tensor &b) { return check(rt.select(p, a, b)); })
      .def("matmul", [](Runtime &rt, const Tensor &a,
                        const Tensor &b) { return check(rt.matmul(a, b)); })
      .def("einsum", [](Runtime &rt, const std::string &eq, const Tensor &a,
                        const Tensor &b) { return check(rt.einsum(eq, a, b)); })
      .def(
          "reduce",
          [](Runtime &rt, const std::string &op, const Tensor &x,
             py::object dims, bool keepdim) {
            static const std::pair<const char *, ReduceOp> ops[] = {
                {"sum", ReduceOp::sum},
                {"mean", ReduceOp::mean},
                {"max", ReduceOp::max},
                {"min", ReduceOp::min},
                {"prod", ReduceOp::prod}};
            for (auto [name, kind] : ops)
              if (op == name)
                return check(
                    rt.reduce(kind, x, dimsOf(dims, x.getRank()), keepdim));
            throw py::value_error("unknown reduction '" + op + "'");
          },
          py::arg("op"), py::arg("x"), py::arg("dims") = py::none(),
          py::arg("keepdim") = false)
      .def("softmax", [](Runtime &rt, const Tensor &x,
                         int64_t dim) { return check(rt.softmax(x, dim)); })
      .def("transpose",
           [](Runtime &rt, const Tensor &x, std::vector<int64_t> perm) {
             return check(rt.transpose(x, perm));
           })
      .def("reshape",
           [](Runtime &rt, const Tensor &x, std::vector<int64_t> shape) {
             return check(rt.reshape(x, shape));
           })
      .def("broadcast_to",
           [](Runtime &rt, const Tensor &x, std::vector<int64_t> shape) {
             return check(rt.broadcastTo(x, shape));
           })
      .def("convert",
           [](Runtime &rt, const Tensor &x, const std::string &dtype) {
             return check(rt.convert(x, elementTypeNamed(dtype)));
           })
      .def("slice",
           [](Runtime &rt, const Tensor &x, std::vector<int64_t> start,
              std::vector<int64_t> limit, std::vector<int64_t> strides) {
             return check(rt.slice(x, start, limit, strides));
           })
      .def("concatenate",
           [](Runtime &rt, std::vector<Tensor> xs, int64_t dim) {
             return check(rt.concatenate(xs, dim));
           })
      .def(
          "all_reduce",
          [](Runtime &rt, const std::string &op, const Tensor &x, double scale,
             std::vector<std::vector<int64_t>> groups) {
            return check(
                rt.allReduce(x, collectiveOp(op), scale, groupsFrom(groups)));
          },
          py::arg("op"), py::arg("x"), py::arg("scale") = 1.0,
          py::arg("groups") = std::vector<std::vector<int64_t>>())
      .def(
          "reduce_scatter",
          [](Runtime &rt, const std::string &op, const Tensor &x, int64_t dim,
             double scale, std::vector<std::vector<int64_t>> groups) {
            return check(rt.reduceScatter(x, collectiveOp(op), dim, scale,
                                          groupsFrom(groups)));
          },
          py::arg("op"), py::arg("x"), py::arg("dim"), py::arg("scale") = 1.0,
          py::arg("groups") = std::vector<std::vector<int64_t>>())
      .def(
          "all_to_all",
          [](Runtime &rt, const Tensor &x, int64_t splitDim, int64_t concatDim,
             int64_t splitCount, std::vector<std::vector<int64_t>> groups) {
            return check(rt.allToAll(x, splitDim, concatDim, splitCount,
                                     groupsFrom(groups)));
          },
          py::arg("x"), py::arg("split_dimension"), py::arg("concat_dimension"),
          py::arg("split_count"),
          py::arg("groups") = std::vector<std::vector<int64_t>>())
      .def(
          "all_gather",
          [](Runtime &rt, const Tensor &x, int64_t dim,
             std::vector<std::vector<int64_t>> groups) {
            return check(rt.allGather(x, dim, groupsFrom(groups)));
          },
          py::arg("x"), py::arg("dim") = 0,
          py::arg("groups") = std::vector<std::vector<int64_t>>())
      .def("mark_sharding",
           [](Runtime &rt, const Tensor &t, const Mesh &mesh,
              py::sequence spec) {
             return check(rt.markSharding(t, mesh, resolveSpec(mesh, spec)));
           })
      .def("enable_manual_sharding",
           [](Runtime &rt, const Tensor &t, const Mesh &mesh,
              py::sequence spec) {
             return check(
                 rt.enableManualSharding(t, mesh, resolveSpec(mesh, spec)));
           })
      .def("disable_manual_sharding",
           [](Runtime &rt, const Tensor &t, const Mesh &mesh,
              py::sequence spec, std::vector<int64_t> fullShape) {
             return check(rt.disableManualSharding(
                 t, mesh, resolveSpec(mesh, spec), fullShape));
           })
      .def("clear_sharding",
           [](Runtime &rt, const Tensor &t) {
             if (llvm::Error err = rt.clearSharding(t))
               throw py::value_error(llvm::toString(std::move(err)));
           })
      .def("sharding_spec",
           [](Runtime &rt, const Tensor &t) {
             return check(rt.getShardingSpec(t));
           })
      .def("mark_step",
           [](Runtime &rt) {
             py::gil_scoped_release release;
             checkStep(rt.markStep());
           })
      .def("last_step",
           [](Runtime &rt) { return stepReport(rt.getLastStep()); })
      .def_property_readonly("num_steps", &Runtime::getNumSteps)
      .def("metrics_report", &Runtime::metricsReport)
      .def("short_metrics_report", &Runtime::shortMetricsReport)
      .def("counter_value",
           [](Runtime &rt, const std::string &name) {
             return rt.getMetrics().getCounter(name);
           })
      .def("metric_samples",
           [](Runtime &rt, const std::string &name) {
             return rt.getMetrics().getTotalSamples(name);
           })
      .def("set_cache",
           [](Runtime &rt, const std::string &dir, bool readOnly) {
             if (llvm::Error err = rt.setPersistentCache(dir, readOnly))
               throw py::value_error(llvm::toString(std::move(err)));
           })
      .def("pending_graph", &Runtime::pendingGraphText);
}
