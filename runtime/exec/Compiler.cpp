//===- Compiler.cpp - func.func to Program --------------------------------===//

#include "runtime/exec/Compiler.h"
#include "runtime/exec/Fusion.h"
#include "runtime/exec/Lowering.h"
#include "runtime/exec/TypeMapping.h"

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaTrace.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

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
  /// Compiles `loop` as a Loop instruction followed by its regions.
  LogicalResult compileWhile(xla::WhileOp loop,
                             SmallVectorImpl<std::string> &regionScopes);
  /// Compiles `select` as a Case instruction followed by its branches.
  LogicalResult compileCase(xla::CaseOp select,
                            SmallVectorImpl<std::string> &regionScopes);
  /// Compiles `call` as its callee's body in place, on fresh slots.
  LogicalResult compileCall(func::CallOp call,
                            SmallVectorImpl<std::string> &regionScopes);
  /// The scope of an op inside `regionScopes` whose location records
  /// `locScopes` (creating the scopes on first use); -1 for none.
  int32_t scopeOf(ArrayRef<std::string> regionScopes,
                  ArrayRef<StringRef> locScopes);
  void computeReleases();

  func::FuncOp func;
  LoweringContext ctx;
  Program program;
  llvm::DenseMap<Value, int32_t> slots;
  /// The `xla.trace ... kernel` bodies compiled so far (their numbering).
  int32_t numKernels = 0;
  std::map<std::vector<std::string>, int32_t> scopeIds;
  /// Callees being compiled, to refuse recursion.
  llvm::SmallPtrSet<Operation *, 4> activeCallees;
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
      // A callee's return is mapped by its call (compileCall).
      if (ret->getParentOp() == func)
        for (Value v : ret.getOperands())
          program.resultSlots.push_back(slotOf(v));
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (failed(compileCall(call, regionScopes)))
        return failure();
      continue;
    }
    if (auto loop = dyn_cast<xla::WhileOp>(op)) {
      if (failed(compileWhile(loop, regionScopes)))
        return failure();
      continue;
    }
    if (auto select = dyn_cast<xla::CaseOp>(op)) {
      if (failed(compileCase(select, regionScopes)))
        return failure();
      continue;
    }
    if (isa<xla::YieldOp>(op))
      continue; // Its parent trace or loop maps the values it yields.
    if (auto trace = dyn_cast<xla::TraceOp>(op)) {
      regionScopes.push_back(trace.getName().str());
      Block &traceBody = trace.getBody().front();
      size_t first = program.instructions.size();
      if (failed(compileBlock(traceBody, regionScopes)))
        return failure();
      regionScopes.pop_back();
      // The verifier keeps kernels flat: every instruction compiled from
      // the body belongs to this kernel.
      if (trace.getKernel()) {
        for (size_t i = first; i < program.instructions.size(); ++i)
          program.instructions[i].kernelIndex = numKernels;
        ++numKernels;
      }
      auto yield = cast<xla::YieldOp>(traceBody.getTerminator());
      for (auto [result, value] :
           llvm::zip(trace.getResults(), yield.getValues()))
        slots[result] = slotOf(value);
      continue;
    }
    // Scalar bodies (a combiner, a comparator) are compiled by the op's
    // kernel; other regions run in line only for the ops handled above.
    if (op.getNumRegions() != 0 && !op.hasTrait<xla::ScalarBodies>())
      return op.emitOpError("has regions; the simulator runs straight-line "
                            "xla ops (and xla.trace regions)");
    if (failed(compileOp(
            op, scopeOf(regionScopes, xla::getTraceScopes(op.getLoc())))))
      return failure();
  }
  return success();
}

LogicalResult
FunctionCompiler::compileWhile(xla::WhileOp loop,
                               SmallVectorImpl<std::string> &regionScopes) {
  for (auto [i, result] : llvm::enumerate(loop.getResults()))
    if (failed(checkType(loop, result.getType(), "result " + Twine(i))))
      return failure();
  int32_t index = static_cast<int32_t>(program.instructions.size());
  Instruction inst;
  inst.kind = InstructionKind::Loop;
  inst.opName = loop->getName().getStringRef().str();
  inst.location = formatLocation(loop.getLoc());
  inst.description = inst.opName + " at " + inst.location;
  inst.scope = scopeOf(regionScopes, xla::getTraceScopes(loop.getLoc()));
  for (Value init : loop.getInits())
    inst.operands.push_back(slotOf(init));
  // The carried slots are the results and both regions' arguments.
  for (auto [i, result] : llvm::enumerate(loop.getResults())) {
    int32_t slot = slotOf(result);
    slots[loop.getCond().getArgument(i)] = slot;
    slots[loop.getBody().getArgument(i)] = slot;
    inst.results.push_back(slot);
    program.slotOrigins[slot] =
        "carried value " + std::to_string(i) + " of " + inst.description;
  }
  program.instructions.push_back(std::move(inst));
  auto info = std::make_shared<LoopInfo>();
  info->condBegin = index + 1;
  if (failed(compileBlock(loop.getCond().front(), regionScopes)))
    return failure();
  info->condEnd = static_cast<int32_t>(program.instructions.size());
  info->condition = slotOf(loop.getCondition());
  if (failed(compileBlock(loop.getBody().front(), regionScopes)))
    return failure();
  info->bodyEnd = static_cast<int32_t>(program.instructions.size());
  for (Value v : loop.getBodyYield().getValues())
    info->yields.push_back(slotOf(v));
  program.instructions[index].loop = std::move(info);
  return success();
}

LogicalResult
FunctionCompiler::compileCase(xla::CaseOp select,
                              SmallVectorImpl<std::string> &regionScopes) {
  for (auto [i, result] : llvm::enumerate(select.getResults()))
    if (failed(checkType(select, result.getType(), "result " + Twine(i))))
      return failure();
  int32_t index = static_cast<int32_t>(program.instructions.size());
  Instruction inst;
  inst.kind = InstructionKind::Case;
  inst.opName = select->getName().getStringRef().str();
  inst.location = formatLocation(select.getLoc());
  inst.description = inst.opName + " at " + inst.location;
  inst.scope = scopeOf(regionScopes, xla::getTraceScopes(select.getLoc()));
  inst.operands.push_back(slotOf(select.getIndex()));
  for (Value result : select.getResults()) {
    int32_t slot = slotOf(result);
    inst.results.push_back(slot);
    program.slotOrigins[slot] = inst.description;
  }
  program.instructions.push_back(std::move(inst));
  auto info = std::make_shared<CaseInfo>();
  info->predicated = select.isPredicated();
  for (auto [b, branch] : llvm::enumerate(select.getBranches())) {
    info->begins.push_back(static_cast<int32_t>(program.instructions.size()));
    if (failed(compileBlock(branch.front(), regionScopes)))
      return failure();
    auto &yields = info->yields.emplace_back();
    for (Value v : select.getBranchYield(b).getValues())
      yields.push_back(slotOf(v));
  }
  info->end = static_cast<int32_t>(program.instructions.size());
  program.instructions[index].branches = std::move(info);
  return success();
}

LogicalResult
FunctionCompiler::compileCall(func::CallOp call,
                              SmallVectorImpl<std::string> &regionScopes) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return call.emitOpError() << "calls " << call.getCalleeAttr()
                              << ", which has no body the simulator can run";
  if (!callee.getBody().hasOneBlock())
    return call.emitOpError()
           << "calls " << call.getCalleeAttr()
           << ", which has several blocks; the simulator runs straight-line "
              "functions";
  if (!activeCallees.insert(callee).second)
    return call.emitOpError() << "calls " << call.getCalleeAttr()
                              << " recursively; the simulator inlines calls";
  Block &body = callee.getBody().front();
  for (auto [arg, operand] :
       llvm::zip_equal(body.getArguments(), call.getOperands()))
    slots[arg] = slotOf(operand);
  if (failed(compileBlock(body, regionScopes)))
    return failure();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [result, value] :
       llvm::zip_equal(call.getResults(), ret.getOperands()))
    slots[result] = slotOf(value);
  // Another call of the same callee gets slots of its own.
  callee.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          slots.erase(arg);
    for (Value result : op->getResults())
      slots.erase(result);
  });
  activeCallees.erase(callee);
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
  int32_t n = static_cast<int32_t>(program.instructions.size());
  // The innermost loop around each instruction.
  program.parentLoop.assign(n, -1);
  for (int32_t l = 0; l < n; ++l)
    for (int32_t i = l + 1, e = program.instructions[l].regionsEnd(); i < e;
         ++i)
      program.parentLoop[i] = l;
  std::vector<int32_t> def(program.numSlots, -1);
  for (int32_t i = 0; i < n; ++i)
    for (int32_t s : program.instructions[i].results)
      def[s] = i;
  // A slot dies after its last reader (or its producer, when unread), as
  // seen from the scope that defines it: a value read inside a loop but
  // defined outside lives until the loop ends. What a loop's regions (or a
  // case's branches) yield is read by the loop itself, after the iteration:
  // it dies with the loop.
  // Returned slots never die.
  std::vector<int32_t> lastUse(program.numSlots, -1);
  std::vector<int32_t> pinned(program.numSlots, -1);
  for (int32_t i = 0; i < n; ++i) {
    const Instruction &inst = program.instructions[i];
    for (int32_t s : inst.results)
      lastUse[s] = std::max(lastUse[s], i);
    for (int32_t s : inst.operands)
      lastUse[s] =
          std::max(lastUse[s], useInDefinitionScope(program, i, def[s]));
    auto readByLoop = [&](int32_t s) {
      if (def[s] >= 0 && isInsideLoop(program, def[s], i))
        pinned[s] = i;
      else
        lastUse[s] =
            std::max(lastUse[s], useInDefinitionScope(program, i, def[s]));
    };
    if (inst.loop) {
      readByLoop(inst.loop->condition);
      for (int32_t s : inst.loop->yields)
        readByLoop(s);
    }
    if (inst.branches)
      for (const std::vector<int32_t> &yields : inst.branches->yields)
        for (int32_t s : yields)
          readByLoop(s);
  }
  for (int32_t s : program.resultSlots)
    lastUse[s] = pinned[s] = -1;
  for (int32_t s = 0; s < program.numSlots; ++s) {
    int32_t at = pinned[s] >= 0 ? pinned[s] : lastUse[s];
    if (at >= 0)
      program.instructions[at].releases.push_back(s);
  }
}

FailureOr<Program> compileFunction(func::FuncOp func,
                                   const CompileOptions &options) {
  return FunctionCompiler(func, options).compile();
}

} // namespace xspmd::runtime
