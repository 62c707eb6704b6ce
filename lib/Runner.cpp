//===- Runner.cpp - run a function on global inputs -----------------------===//

#include "lib/Runner.h"

#include "dialects/xla/XlaSubAxes.h"
#include "runtime/exec/Executor.h"
#include "runtime/kernels/Convert.h"
#include "runtime/kernels/Random.h"

#include "dialects/xla/XlaOps.h"

#include <fmt/format.h>

#include <map>

using namespace mlir;
using namespace xspmd::runtime;

namespace xspmd {

static llvm::Error runnerError(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// One axis holding every device: the mesh of values without a sharding.

/// The layout of one argument or result. `globalHint` is the reference's
/// type for this value, if any.
static llvm::Expected<ValueLayout>
bindValue(func::FuncOp func, xla::ShardingAttr sharding,
          const TensorSpec &local, const std::optional<TensorSpec> &globalHint,
          int64_t numDevices, const std::string &what) {
  ValueLayout value;
  value.local = local;
  xla::MeshAttr mesh;
  if (sharding) {
    xla::MeshOp meshOp = xla::lookupMesh(func, sharding.getMesh());
    mesh = meshOp.getMesh();
    if (mesh.isMaximal()) {
      // The whole value, on one device: fed to it and read from it.
      int64_t device = mesh.getMaximalDevice();
      if (device >= numDevices)
        return runnerError(fmt::format(
            "{} is on device {} (maximal mesh @{}) but the run uses {} devices",
            what, device, meshOp.getSymName().str(), numDevices));
      value.mesh = xla::MeshModel::flat(numDevices);
      value.global = globalHint ? *globalHint : local;
      value.shards = xla::ShardLayout::maximal(value.global.shape, device);
      if (!llvm::equal(value.global.shape, local.shape) ||
          value.global.type != local.type)
        return runnerError(fmt::format(
            "{} is on one device, so the function must take it whole ({}), "
            "not {}",
            what, value.global.toString(), local.toString()));
      return value;
    }
    if (mesh.getNumDevices() != numDevices)
      return runnerError(fmt::format(
          "{} is sharded over @{} ({} devices) but the run uses {} devices",
          what, meshOp.getSymName().str(), mesh.getNumDevices(), numDevices));
    // Sub-axes are whole axes of the refined mesh (same devices).
    std::string error;
    auto refined = xla::refineForSharding(mesh, sharding, error);
    if (!refined)
      return runnerError(fmt::format("{}: {}", what, error));
    std::tie(mesh, sharding) = *refined;
    value.mesh = xla::MeshModel::fromAttr(mesh);
  } else {
    value.mesh = xla::MeshModel::flat(numDevices);
  }
  auto layoutFor = [&](llvm::ArrayRef<int64_t> global) {
    return sharding
               ? xla::ShardLayout::fromSharding(sharding, value.mesh, global)
               : xla::ShardLayout::replicated(global);
  };
  if (!globalHint) {
    // Without a global type, each local dimension is one unpadded block.
    value.global = local;
    value.shards = layoutFor(local.shape);
    for (size_t d = 0; d < local.shape.size(); ++d)
      value.global.shape[d] *= value.shards.numShards(value.mesh, d);
    value.shards = layoutFor(value.global.shape);
    return value;
  }
  value.global = *globalHint;
  if (globalHint->type != local.type ||
      globalHint->shape.size() != local.shape.size())
    return runnerError(fmt::format("{} is {} but the reference's is {}", what,
                                   local.toString(), globalHint->toString()));
  value.shards = layoutFor(globalHint->shape);
  Shape expected(value.shards.localShape(value.mesh));
  if (!llvm::equal(expected, local.shape))
    return runnerError(fmt::format(
        "{}: the reference's {} splits into blocks of {} but the function "
        "takes {}{}",
        what, globalHint->toString(), formatTensorType(expected, local.type),
        local.toString(),
        sharding ? "" : " (it has no xla.sharding, so it is replicated)"));
  return value;
}

/// The global type the partitioner recorded for a value (`xla.global_type`).
static std::optional<TensorSpec> globalTypeOf(DictionaryAttr attrs,
                                              const TensorSpec &local) {
  auto attr =
      attrs ? dyn_cast_or_null<TypeAttr>(attrs.get(xla::kGlobalTypeAttrName))
            : TypeAttr();
  if (!attr)
    return std::nullopt;
  auto type = cast<RankedTensorType>(attr.getValue());
  return TensorSpec{local.type, Shape(type.getShape())};
}

llvm::Expected<FunctionRunner>
FunctionRunner::create(Session &session, llvm::StringRef function,
                       int64_t requestedDevices,
                       llvm::StringRef referenceFunction) {
  llvm::Expected<func::FuncOp> func = session.resolveFunction(function);
  if (!func)
    return func.takeError();
  FunctionRunner runner;
  runner.functionName = func->getSymName().str();
  llvm::Expected<int64_t> devices =
      session.resolveDeviceCount(*func, requestedDevices);
  if (!devices)
    return devices.takeError();
  runner.numDevices = *devices;
  llvm::Expected<std::vector<const Program *>> programs =
      session.getDevicePrograms(*func, runner.numDevices);
  if (!programs)
    return programs.takeError();
  runner.devicePrograms = std::move(*programs);
  runner.program = runner.devicePrograms.front();

  // The reference's global argument and result types.
  std::optional<std::vector<TensorSpec>> refArgs, refResults;
  if (!referenceFunction.empty()) {
    llvm::Expected<func::FuncOp> refFunc =
        session.resolveFunction(referenceFunction);
    if (!refFunc)
      return refFunc.takeError();
    if (Session::hasManualCode(*refFunc)) {
      llvm::Expected<func::FuncOp> manual = session.manualReference(*refFunc);
      if (!manual)
        return manual.takeError();
      llvm::Expected<FunctionRunner> nested = create(
          session, manual->getSymName(), runner.numDevices, /*reference=*/"");
      if (!nested)
        return nested.takeError();
      runner.manualReference =
          std::make_shared<const FunctionRunner>(std::move(*nested));
      refArgs.emplace();
      refResults.emplace();
      for (const ValueLayout &arg : runner.manualReference->args)
        refArgs->push_back(arg.global);
      for (const ValueLayout &result : runner.manualReference->results)
        refResults->push_back(result.global);
    } else {
      llvm::Expected<const Program *> refProgram =
          session.getProgram(*refFunc, /*numDevices=*/1);
      if (!refProgram)
        return refProgram.takeError();
      runner.reference = *refProgram;
      refArgs = runner.reference->argSpecs;
      refResults = runner.reference->resultSpecs;
    }
    if (refArgs->size() != runner.program->argSpecs.size() ||
        refResults->size() != runner.program->resultSpecs.size())
      return runnerError(fmt::format(
          "reference @{} has {} arguments and {} results but @{} has {} and "
          "{}",
          refFunc->getSymName().str(), refArgs->size(), refResults->size(),
          runner.functionName, runner.program->argSpecs.size(),
          runner.program->resultSpecs.size()));
  }

  auto shardingOf = [](DictionaryAttr attrs) -> xla::ShardingAttr {
    return attrs ? dyn_cast_or_null<xla::ShardingAttr>(
                       attrs.get(xla::kShardingAttrName))
                 : xla::ShardingAttr();
  };
  int64_t n = runner.numDevices;
  for (size_t i = 0; i < runner.program->argSpecs.size(); ++i) {
    std::optional<TensorSpec> hint =
        globalTypeOf(func->getArgAttrDict(i), runner.program->argSpecs[i]);
    if (!hint && refArgs)
      hint = (*refArgs)[i];
    xla::ShardingAttr sharding =
        n > 1 ? shardingOf(func->getArgAttrDict(i)) : xla::ShardingAttr();
    llvm::Expected<ValueLayout> value =
        bindValue(*func, sharding, runner.program->argSpecs[i], hint, n,
                  fmt::format("argument {}", i));
    if (!value)
      return value.takeError();
    runner.args.push_back(std::move(*value));
  }
  for (size_t i = 0; i < runner.program->resultSpecs.size(); ++i) {
    std::optional<TensorSpec> hint = globalTypeOf(
        func->getResultAttrDict(i), runner.program->resultSpecs[i]);
    if (!hint && refResults)
      hint = (*refResults)[i];
    xla::ShardingAttr sharding =
        n > 1 ? shardingOf(func->getResultAttrDict(i)) : xla::ShardingAttr();
    llvm::Expected<ValueLayout> value =
        bindValue(*func, sharding, runner.program->resultSpecs[i], hint, n,
                  fmt::format("result {}", i));
    if (!value)
      return value.takeError();
    runner.results.push_back(std::move(*value));
  }
  return runner;
}

static llvm::Error checkInputs(llvm::StringRef name,
                               const std::vector<ValueLayout> &args,
                               llvm::ArrayRef<Tensor> inputs) {
  if (inputs.size() != args.size())
    return runnerError(fmt::format("@{} takes {} input{}, got {}", name.str(),
                                   args.size(), args.size() == 1 ? "" : "s",
                                   inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!args[i].global.matches(inputs[i]))
      return runnerError(fmt::format("input {} must be {}, got {}", i,
                                     args[i].global.toString(),
                                     inputs[i].getTypeString()));
  return llvm::Error::success();
}

llvm::Expected<std::vector<Tensor>>
FunctionRunner::run(llvm::ArrayRef<Tensor> inputs,
                    llvm::ArrayRef<ExecutionObserver *> observers) const {
  if (llvm::Error err = checkInputs(functionName, args, inputs))
    return std::move(err);
  std::vector<TensorList> perDevice(numDevices);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (numDevices == 1) {
      perDevice[0].push_back(inputs[i]);
      continue;
    }
    if (args[i].shards.isMaximal()) {
      // Only its device holds the value; the others get zeros of the same
      // shape (the program masks them out where it broadcasts it).
      Tensor zeros =
          Tensor::zeros(inputs[i].getElementType(), inputs[i].getShape());
      for (int64_t d = 0; d < numDevices; ++d)
        perDevice[d].push_back(d == args[i].shards.maximalDevice ? inputs[i]
                                                                 : zeros);
      continue;
    }
    // Replicas of a block share one copy (tensors are immutable).
    std::map<std::vector<int64_t>, Tensor> blocks;
    for (int64_t d = 0; d < numDevices; ++d) {
      Shape offsets = args[i].shards.blockOffsets(
          args[i].mesh, args[i].mesh.coordsOfDevice(d));
      std::vector<int64_t> key(offsets.begin(), offsets.end());
      key.push_back(args[i].shards.partialIndex(
          args[i].mesh, args[i].mesh.coordsOfDevice(d)));
      auto [it, inserted] = blocks.try_emplace(key);
      if (inserted)
        it->second = extractBlock(inputs[i], args[i].shards, args[i].mesh, d);
      perDevice[d].push_back(it->second);
    }
  }
  llvm::Expected<std::vector<TensorList>> outputs =
      runOnDevices(devicePrograms, std::move(perDevice), observers);
  if (!outputs)
    return outputs.takeError();
  if (numDevices == 1)
    return std::move((*outputs)[0]);
  std::vector<Tensor> global;
  for (size_t r = 0; r < results.size(); ++r) {
    // The blocks of a result are freed as soon as it is assembled.
    if (results[r].shards.isMaximal()) {
      global.push_back(
          std::move((*outputs)[results[r].shards.maximalDevice][r]));
      continue;
    }
    std::vector<Tensor> locals;
    for (int64_t d = 0; d < numDevices; ++d)
      locals.push_back(std::move((*outputs)[d][r]));
    llvm::Expected<Tensor> assembled = assembleGlobal(
        locals, results[r].shards, results[r].mesh, results[r].global.shape);
    if (!assembled)
      return runnerError(fmt::format("result {}: {}", r,
                                     llvm::toString(assembled.takeError())));
    global.push_back(std::move(*assembled));
  }
  return global;
}

double FunctionRunner::transferToDeviceBytes() const {
  double bytes = 0;
  for (const Program *program : devicePrograms)
    for (const TensorSpec &spec : program->argSpecs) {
      double b = static_cast<double>(byteWidth(spec.type));
      for (int64_t d : spec.shape)
        b *= static_cast<double>(d);
      bytes += b;
    }
  return bytes;
}

llvm::Error FunctionRunner::setDeviceFunction(Session &session, int64_t device,
                                              llvm::StringRef function) {
  if (device < 0 || device >= numDevices)
    return runnerError(fmt::format("device {} does not exist (the run uses {} "
                                   "device{})",
                                   device, numDevices,
                                   numDevices == 1 ? "" : "s"));
  llvm::Expected<func::FuncOp> func = session.resolveFunction(function);
  if (!func)
    return func.takeError();
  llvm::Expected<const Program *> other = session.getProgram(*func, numDevices);
  if (!other)
    return other.takeError();
  auto specsMatch = [](const std::vector<TensorSpec> &a,
                       const std::vector<TensorSpec> &b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](auto &x, auto &y) {
             return x.type == y.type && llvm::equal(x.shape, y.shape);
           });
  };
  if (!specsMatch((*other)->argSpecs, program->argSpecs) ||
      !specsMatch((*other)->resultSpecs, program->resultSpecs))
    return runnerError(fmt::format("@{} cannot stand in for @{} on device {}: "
                                   "their signatures differ",
                                   (*other)->name, functionName, device));
  devicePrograms[device] = *other;
  return llvm::Error::success();
}

llvm::Expected<std::vector<Tensor>>
FunctionRunner::runReference(llvm::ArrayRef<Tensor> inputs) const {
  if (manualReference)
    return manualReference->run(inputs);
  if (!reference)
    return runnerError("no reference function was given");
  DeviceContext device{0, 1, nullptr};
  return runOnDevice(*reference, inputs, device);
}

Tensor generateInput(const TensorSpec &spec, uint64_t seed, int64_t index) {
  Tensor t = spec.allocate();
  uint64_t stream = seed * 0x9e3779b97f4a7c15ull + static_cast<uint64_t>(index);
  size_t width = byteWidth(spec.type);
  for (int64_t i = 0, n = t.getNumElements(); i < n; ++i) {
    uint64_t bits = randomBits(stream, i, 0);
    double value;
    if (isFloat(spec.type))
      value = -1.0 + 2.0 * (static_cast<double>(bits >> 11) * 0x1.0p-53);
    else if (spec.type == ElementType::i1)
      value = static_cast<double>(bits & 1);
    else
      value = static_cast<double>(static_cast<int64_t>(bits % 9) - 4);
    storeDoubleAs(value, spec.type, t.data<uint8_t>() + i * width);
  }
  return t;
}

} // namespace xspmd
