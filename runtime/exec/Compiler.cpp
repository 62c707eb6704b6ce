//===- Compiler.cpp - func.func to Program --------------------------------===//

#include "runtime/exec/Compiler.h"
#include "runtime/exec/Fusion.h"
#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaTrace.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <map>

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
    if (inserted) {
      ++program.numSlots;
      program.slotSpecs.push_back(
          toTensorSpec(v.getType()).value_or(TensorSpec{}));
      program.slotOrigins.emplace_back();
    }
    return it->second;
  }
  LogicalResult checkType(Operation *anchor, Type type, const Twine &what);
  /// Compiles the ops of `block`; `regionScopes` are the names of the
  /// xla.trace ops around it.
  LogicalResult compileBlock(Block &block,
                             SmallVectorImpl<std::string> &regionScopes);
  LogicalResult compileOp(Operation &op, int32_t scope);
  /// The scope of an op inside `regionScopes` whose location records
  /// `locScopes` (creating the scopes on first use); -1 for none.
  int32_t scopeOf(ArrayRef<std::string> regionScopes,
                  ArrayRef<StringRef> locScopes);
  void computeReleases();

  func::FuncOp func;
  LoweringContext ctx;
  Program program;
  llvm::DenseMap<Value, int32_t> slots;
  std::map<std::vector<std::string>, int32_t> scopeIds;
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
    int32_t slot = slotOf(arg);
    program.argSlots.push_back(slot);
    program.slotOrigins[slot] = "argument " + std::to_string(i);
    auto alias = func.getArgAttrOfType<IntegerAttr>(i, xla::kAliasesAttrName);
    program.argAliases.push_back(alias ? alias.getInt() : -1);
  }
  for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
    if (failed(checkType(func, type, "result " + Twine(i))))
      return failure();
    program.resultSpecs.push_back(*toTensorSpec(type));
  }
  SmallVector<std::string> regionScopes;
  if (failed(compileBlock(body, regionScopes)))
    return failure();
  computeReleases();
  computeFusedBytes(program);
  std::string bytecode;
  llvm::raw_string_ostream os(bytecode);
  if (succeeded(writeBytecodeToFile(func, os)))
    program.programBytes = static_cast<int64_t>(bytecode.size());
  return std::move(program);
}

int32_t FunctionCompiler::scopeOf(ArrayRef<std::string> regionScopes,
                                  ArrayRef<StringRef> locScopes) {
  std::vector<std::string> path(regionScopes.begin(), regionScopes.end());
  for (StringRef name : locScopes)
    path.push_back(name.str());
  int32_t parent = -1;
  std::vector<std::string> prefix;
  for (const std::string &name : path) {
    prefix.push_back(name);
    auto [it, inserted] = scopeIds.try_emplace(prefix, -1);
    if (inserted) {
      it->second = static_cast<int32_t>(program.scopes.size());
      program.scopes.push_back(
          TraceScope{name, parent, static_cast<int32_t>(prefix.size()) - 1});
    }
    parent = it->second;
  }
  return parent;
}

LogicalResult
FunctionCompiler::compileBlock(Block &block,
                               SmallVectorImpl<std::string> &regionScopes) {
  for (Operation &op : block.getOperations()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        program.resultSlots.push_back(slotOf(v));
      continue;
    }
    if (isa<xla::YieldOp>(op))
      continue; // Its parent trace maps its results onto these values.
    if (auto trace = dyn_cast<xla::TraceOp>(op)) {
      regionScopes.push_back(trace.getName().str());
      Block &traceBody = trace.getBody().front();
      if (failed(compileBlock(traceBody, regionScopes)))
        return failure();
      regionScopes.pop_back();
      auto yield = cast<xla::YieldOp>(traceBody.getTerminator());
      for (auto [result, value] :
           llvm::zip(trace.getResults(), yield.getValues()))
        slots[result] = slotOf(value);
      continue;
    }
    if (op.getNumRegions() != 0)
      return op.emitOpError("has regions; the simulator runs straight-line "
                            "xla ops (and xla.trace regions)");
    if (failed(compileOp(
            op, scopeOf(regionScopes, xla::getTraceScopes(op.getLoc())))))
      return failure();
  }
  return success();
}

LogicalResult FunctionCompiler::compileOp(Operation &op, int32_t scope) {
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    if (failed(checkType(&op, result.getType(), "result " + Twine(i))))
      return failure();
  std::string location = formatLocation(op.getLoc());
  std::string opName = op.getName().getStringRef().str();
  if (auto constant = dyn_cast<xla::ConstantOp>(op)) {
    std::optional<Tensor> value = tensorFromAttr(constant.getValue());
    if (!value)
      return op.emitOpError("holds a constant the simulator cannot read "
                            "(only dense elements are supported)");
    int32_t slot = slotOf(constant.getResult());
    program.slotOrigins[slot] = "constant at " + location;
    program.constants.push_back({slot, *value});
    return success();
  }
  Instruction inst;
  inst.kind = classifyInstruction(&op);
  if (inst.kind == InstructionKind::Collective) {
    FailureOr<std::shared_ptr<const CollectiveCall>> call =
        describeCollectiveOp(&op, ctx);
    if (failed(call))
      return failure();
    inst.collective = *call;
    inst.kernel = makeCollectiveKernel(*call);
    inst.participants = describeParticipants(&op);
  } else {
    FailureOr<OpKernel> kernel = lowerOperation(&op, ctx);
    if (failed(kernel))
      return failure();
    inst.kernel = std::move(*kernel);
    inst.work = describeWork(&op);
    inst.fusion = fusionRoleOf(&op);
  }
  program.isSpmd |= isDeviceDependent(&op);
  for (Value v : op.getOperands())
    inst.operands.push_back(slotOf(v));
  inst.description = opName + " at " + location;
  for (Value v : op.getResults()) {
    int32_t slot = slotOf(v);
    inst.results.push_back(slot);
    program.slotOrigins[slot] = inst.description;
  }
  inst.opName = std::move(opName);
  inst.location = std::move(location);
  inst.scope = scope;
  program.instructions.push_back(std::move(inst));
  return success();
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
