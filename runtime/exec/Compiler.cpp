//===- Compiler.cpp - func.func to Program --------------------------------===//

#include "runtime/exec/Compiler.h"
#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace xspmd::runtime {

namespace {

class FunctionCompiler {
public:
  FunctionCompiler(func::FuncOp func, const CompileOptions &options)
      : func(func) {
    ctx.numDevices = options.numDevices;
    program.numDevices = options.numDevices;
    program.name = func.getSymName().str();
  }

  FailureOr<Program> compile();

private:
  int32_t slotOf(Value v) {
    auto [it, inserted] = slots.try_emplace(v, program.numSlots);
    if (inserted)
      ++program.numSlots;
    return it->second;
  }
  LogicalResult checkType(Operation *anchor, Type type, const Twine &what);
  void computeReleases();

  func::FuncOp func;
  LoweringContext ctx;
  Program program;
  llvm::DenseMap<Value, int32_t> slots;
};

} // namespace

LogicalResult FunctionCompiler::checkType(Operation *anchor, Type type,
                                          const Twine &what) {
  if (std::optional<TensorSpec> spec = toTensorSpec(type)) {
    if (checkedByteSize(spec->shape, spec->type))
      return success();
    return anchor->emitOpError() << what << " of type " << type
                                 << " is larger than this host's memory";
  }
  return anchor->emitOpError()
         << what << " has type " << type
         << "; the simulator runs statically shaped tensors of f32, f64, bf16, "
            "f16, i1, i8, i32 or i64";
}

FailureOr<Program> FunctionCompiler::compile() {
  if (func.isExternal())
    return func.emitOpError("is a declaration without a body");
  if (!func.getBody().hasOneBlock())
    return func.emitOpError(
        "has several blocks; the simulator runs straight-line functions");
  Block &body = func.getBody().front();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (failed(checkType(func, arg.getType(), "argument " + Twine(i))))
      return failure();
    program.argSpecs.push_back(specOf(arg));
    program.argSlots.push_back(slotOf(arg));
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    if (failed(checkType(func, type, "result " + Twine(i))))
      return failure();
    program.resultSpecs.push_back(*toTensorSpec(type));
  }

  for (Operation &op : body.getOperations()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        program.resultSlots.push_back(slotOf(v));
      continue;
    }
    if (op.getNumRegions() != 0)
      return op.emitOpError("has regions; the simulator runs straight-line "
                            "xla ops");
    for (auto [i, result] : llvm::enumerate(op.getResults()))
      if (failed(checkType(&op, result.getType(), "result " + Twine(i))))
        return failure();
    if (auto constant = dyn_cast<xla::ConstantOp>(op)) {
      std::optional<Tensor> value = tensorFromAttr(constant.getValue());
      if (!value)
        return op.emitOpError("holds a constant the simulator cannot read "
                              "(only dense elements are supported)");
      program.constants.push_back({slotOf(constant.getResult()), *value});
      continue;
    }
    FailureOr<OpKernel> kernel = lowerOperation(&op, ctx);
    if (failed(kernel))
      return failure();
    program.isSpmd |= isDeviceDependent(&op);
    Instruction inst;
    inst.kernel = std::move(*kernel);
    for (Value v : op.getOperands())
      inst.operands.push_back(slotOf(v));
    for (Value v : op.getResults())
      inst.results.push_back(slotOf(v));
    inst.description = op.getName().getStringRef().str() + " at " +
                       formatLocation(op.getLoc());
    program.instructions.push_back(std::move(inst));
  }
  computeReleases();
  return std::move(program);
}

void FunctionCompiler::computeReleases() {
  // A slot dies after its last reader (or its producer, when unread), unless
  // the function returns it.
  std::vector<int64_t> lastUse(program.numSlots, -1);
  for (auto [i, inst] : llvm::enumerate(program.instructions)) {
    for (int32_t s : inst.results)
      lastUse[s] = i;
    for (int32_t s : inst.operands)
      lastUse[s] = i;
  }
  for (int32_t s : program.resultSlots)
    lastUse[s] = -1;
  for (int32_t s = 0; s < program.numSlots; ++s)
    if (lastUse[s] >= 0)
      program.instructions[lastUse[s]].releases.push_back(s);
}

FailureOr<Program> compileFunction(func::FuncOp func,
                                   const CompileOptions &options) {
  return FunctionCompiler(func, options).compile();
}

} // namespace xspmd::runtime
