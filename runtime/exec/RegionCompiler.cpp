//===- RegionCompiler.cpp - scalar bodies to ScalarComputation ------------===//

#include "runtime/exec/RegionCompiler.h"
#include "runtime/exec/TypeMapping.h"

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

namespace {

using Reg = ScalarComputation::Reg;

/// The element type of a rank-0 tensor of a simulator type.
std::optional<ElementType> scalarTypeOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() != 0)
    return std::nullopt;
  return toElementType(tensor.getElementType());
}

runtime::CompareOp toRuntimeCompare(CompareDirection direction) {
  switch (direction) {
  case CompareDirection::eq:
    return runtime::CompareOp::eq;
  case CompareDirection::ne:
    return runtime::CompareOp::ne;
  case CompareDirection::lt:
    return runtime::CompareOp::lt;
  case CompareDirection::le:
    return runtime::CompareOp::le;
  case CompareDirection::gt:
    return runtime::CompareOp::gt;
  case CompareDirection::ge:
    return runtime::CompareOp::ge;
  }
  llvm_unreachable("unknown comparison");
}

/// The UnaryOp of an xla unary op, if it is one.
std::optional<UnaryOp> unaryOpOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<UnaryOp>>(op)
      .Case([](NegOp) { return UnaryOp::neg; })
      .Case([](AbsOp) { return UnaryOp::abs; })
      .Case([](ExpOp) { return UnaryOp::exp; })
      .Case([](LogOp) { return UnaryOp::log; })
      .Case([](TanhOp) { return UnaryOp::tanh; })
      .Case([](SqrtOp) { return UnaryOp::sqrt; })
      .Case([](RsqrtOp) { return UnaryOp::rsqrt; })
      .Case([](SigmoidOp) { return UnaryOp::sigmoid; })
      .Case([](ReluOp) { return UnaryOp::relu; })
      .Case([](GeluOp) { return UnaryOp::gelu; })
      .Case([](NotOp) { return UnaryOp::not_; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The BinaryOp of an xla binary op, if it is one.
std::optional<BinaryOp> binaryOpOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<BinaryOp>>(op)
      .Case([](AddOp) { return BinaryOp::add; })
      .Case([](SubOp) { return BinaryOp::sub; })
      .Case([](MulOp) { return BinaryOp::mul; })
      .Case([](DivOp) { return BinaryOp::div; })
      .Case([](MaxOp) { return BinaryOp::max; })
      .Case([](MinOp) { return BinaryOp::min; })
      .Case([](PowOp) { return BinaryOp::pow; })
      .Case([](AndOp) { return BinaryOp::and_; })
      .Case([](OrOp) { return BinaryOp::or_; })
      .Case([](XorOp) { return BinaryOp::xor_; })
      .Default([](Operation *) { return std::nullopt; });
}

class ScalarRegionCompiler {
public:
  FailureOr<ScalarComputation> compile(Region &region);

private:
  /// The register of `value`, defined earlier in the block.
  Reg regOf(Value value) const { return regs.lookup(value); }
  /// Fails at `user` when one of its operands is not defined before it in
  /// the computation (a computation reads only its arguments).
  LogicalResult checkOperands(Operation &user) const;
  /// Adds the step(s) of `op` and maps its result.
  LogicalResult compileOp(Operation &op, ScalarComputation::Builder &builder);

  llvm::DenseMap<Value, Reg> regs;
};

} // namespace

LogicalResult ScalarRegionCompiler::checkOperands(Operation &user) const {
  for (OpOperand &operand : user.getOpOperands())
    if (!regs.count(operand.get()))
      return user.emitError()
             << "a scalar computation reads only its arguments and values it "
                "defined earlier; operand "
             << operand.getOperandNumber() << " is not one";
  return success();
}

LogicalResult
ScalarRegionCompiler::compileOp(Operation &op,
                                ScalarComputation::Builder &builder) {
  if (op.getNumResults() != 1 || op.getNumRegions() != 0 ||
      !(unaryOpOf(&op) || binaryOpOf(&op) ||
        isa<ConstantOp, xla::CompareOp, SelectOp, ConvertOp>(op)))
    return op.emitError() << op.getName()
                          << " cannot appear in a scalar computation (it "
                             "holds elementwise ops, constants, compare, "
                             "select and convert)";
  if (failed(checkOperands(op)))
    return failure();
  std::optional<ElementType> type = scalarTypeOf(op.getResult(0).getType());
  if (!type)
    return op.emitError()
           << "in a scalar computation, " << op.getName()
           << " must give a rank-0 tensor of a simulator element type, not "
           << op.getResult(0).getType();
  std::optional<Reg> result;
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    std::optional<Tensor> value = tensorFromAttr(constant.getValue());
    if (!value)
      return op.emitError("holds a constant the simulator cannot read (only "
                          "dense elements are supported)");
    result = builder.constant(loadScalar(value->data(), *type, 0), *type);
  } else if (auto compare = dyn_cast<xla::CompareOp>(op)) {
    result = builder.compare(toRuntimeCompare(compare.getDirection()),
                             regOf(compare.getLhs()), regOf(compare.getRhs()));
  } else if (auto select = dyn_cast<SelectOp>(op)) {
    result = builder.select(regOf(select.getPred()), regOf(select.getOnTrue()),
                            regOf(select.getOnFalse()));
  } else if (auto convert = dyn_cast<ConvertOp>(op)) {
    result = builder.convert(regOf(convert.getInput()), *type);
  } else if (std::optional<UnaryOp> unary = unaryOpOf(&op)) {
    result = builder.unary(*unary, regOf(op.getOperand(0)));
  } else if (std::optional<BinaryOp> binary = binaryOpOf(&op)) {
    result = builder.binary(*binary, regOf(op.getOperand(0)),
                            regOf(op.getOperand(1)));
  }
  if (!result)
    return op.emitError() << op.getName()
                          << " has no simulator kernel for element type "
                          << toString(*type);
  regs[op.getResult(0)] = *result;
  return success();
}

FailureOr<ScalarComputation> ScalarRegionCompiler::compile(Region &region) {
  Operation *parent = region.getParentOp();
  if (!region.hasOneBlock())
    return parent->emitOpError(
        "has a scalar computation of several blocks; it must be one block");
  Block &block = region.front();
  SmallVector<ElementType> argTypes;
  for (BlockArgument arg : block.getArguments()) {
    std::optional<ElementType> type = scalarTypeOf(arg.getType());
    if (!type)
      return parent->emitOpError()
             << "has a scalar computation whose argument " << arg.getArgNumber()
             << " is " << arg.getType()
             << ", not a rank-0 tensor of a simulator element type";
    regs[arg] = static_cast<Reg>(argTypes.size());
    argTypes.push_back(*type);
  }
  ScalarComputation::Builder builder(argTypes);
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return parent->emitOpError("has a scalar computation that does not end "
                               "in xla.yield");
  for (Operation &op : block.without_terminator())
    if (failed(compileOp(op, builder)))
      return failure();
  if (failed(checkOperands(*yield)))
    return failure();
  SmallVector<Reg> results;
  for (Value value : yield.getValues()) {
    if (!scalarTypeOf(value.getType()))
      return yield.emitError()
             << "a scalar computation yields rank-0 tensors of simulator "
                "element types, not "
             << value.getType();
    results.push_back(regOf(value));
  }
  return std::move(builder).finish(results);
}

FailureOr<ScalarComputation> compileScalarComputation(Region &region) {
  return ScalarRegionCompiler().compile(region);
}

} // namespace xspmd::runtime
