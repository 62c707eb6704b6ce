//===- ScalarComputation.cpp - compiled per-element computations ----------===//
//
// Each step is a function pointer instantiated for its element type. The ops
// a combiner or comparator typically uses (arithmetic, max/min, bitwise,
// compare, select) compute inline; the others call the tensor kernel of the
// op on one element, so every op the tensor kernels define is available with
// the same semantics.
//
//===----------------------------------------------------------------------===//

#include "runtime/kernels/ScalarComputation.h"

#include <cassert>

namespace xspmd::runtime {

namespace {

using Step = ScalarComputation::Step;

/// A register of storage type T in the type the tensor kernels compute in:
/// exact, since the register holds a value of type T.
template <typename T>
ComputeType<T> load(Scalar s) {
  if constexpr (kIsFloatStorage<T>)
    return static_cast<ComputeType<T>>(s.f);
  else
    return static_cast<T>(s.i);
}

/// Rounds a computed value to T, as a tensor kernel's store does.
template <typename T>
Scalar store(ComputeType<T> v) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
    return Scalar::ofFloat(v);
  else
    return toScalar<T>(ElementTraits<T>::store(v));
}

template <typename T, BinaryOp Op>
void binaryStep(Scalar *regs, const Step &step) {
  regs[step.dst] =
      store<T>(applyBinaryOp<Op>(load<T>(regs[step.a]), load<T>(regs[step.b])));
}

/// The inline step of `op` on T, or nullptr when the op goes through its
/// tensor kernel. (The builder has checked that the op is defined on T.)
template <typename T>
Step::Fn inlineBinaryStep(BinaryOp op) {
  using B = BinaryOp;
  Step::Fn fn = nullptr;
  auto pick = [&](auto c) { fn = binaryStep<T, decltype(c)::value>; };
  if constexpr (kIsBoolStorage<T>)
    dispatchEnum<B, B::and_, B::or_, B::xor_>(op, pick);
  else if constexpr (kIsFloatStorage<T>)
    dispatchEnum<B, B::add, B::sub, B::mul, B::div, B::max, B::min>(op, pick);
  else
    dispatchEnum<B, B::add, B::sub, B::mul, B::div, B::max, B::min, B::and_,
                 B::or_, B::xor_>(op, pick);
  return fn;
}

template <typename T, CompareOp Op>
void compareStep(Scalar *regs, const Step &step) {
  regs[step.dst] = Scalar::ofBool(
      applyCompareOp<Op>(load<T>(regs[step.a]), load<T>(regs[step.b])));
}

template <typename T>
Step::Fn compareStepFor(CompareOp op) {
  using C = CompareOp;
  Step::Fn fn = nullptr;
  dispatchEnum<C, C::eq, C::ne, C::lt, C::le, C::gt, C::ge>(
      op, [&](auto c) { fn = compareStep<T, decltype(c)::value>; });
  return fn;
}

void selectStep(Scalar *regs, const Step &step) {
  regs[step.dst] = regs[step.a].i ? regs[step.b] : regs[step.c];
}

template <typename T>
void unaryKernelStep(Scalar *regs, const Step &step) {
  T in = fromScalar<T>(regs[step.a]), out;
  step.kernel.unary(&in, &out, 1);
  regs[step.dst] = toScalar<T>(out);
}

template <typename T>
void binaryKernelStep(Scalar *regs, const Step &step) {
  T lhs = fromScalar<T>(regs[step.a]), rhs = fromScalar<T>(regs[step.b]), out;
  step.kernel.binary(&lhs, &rhs, &out, 1);
  regs[step.dst] = toScalar<T>(out);
}

template <typename From, typename To>
void convertStep(Scalar *regs, const Step &step) {
  From in = fromScalar<From>(regs[step.a]);
  To out;
  step.kernel.convert(&in, &out, 1);
  regs[step.dst] = toScalar<To>(out);
}

CompareOp mirrored(CompareOp op) {
  switch (op) {
  case CompareOp::lt:
    return CompareOp::gt;
  case CompareOp::le:
    return CompareOp::ge;
  case CompareOp::gt:
    return CompareOp::lt;
  case CompareOp::ge:
    return CompareOp::le;
  default:
    return op;
  }
}

template <typename T>
Scalar loadAt(const void *data, int64_t index) {
  return toScalar<T>(static_cast<const T *>(data)[index]);
}

template <typename T>
void storeAt(Scalar value, void *data, int64_t index) {
  static_cast<T *>(data)[index] = fromScalar<T>(value);
}

} // namespace

ScalarLoader getScalarLoader(ElementType type) {
  return dispatchElementType(
      type, [](auto tag) -> ScalarLoader { return loadAt<decltype(tag)>; });
}

ScalarStorer getScalarStorer(ElementType type) {
  return dispatchElementType(
      type, [](auto tag) -> ScalarStorer { return storeAt<decltype(tag)>; });
}

Scalar loadScalar(const void *data, ElementType type, int64_t index) {
  return getScalarLoader(type)(data, index);
}

void storeScalar(Scalar value, ElementType type, void *data, int64_t index) {
  getScalarStorer(type)(value, data, index);
}

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

ScalarComputation::Builder::Builder(llvm::ArrayRef<ElementType> argTypes)
    : numArgs(argTypes.size()), types(argTypes.begin(), argTypes.end()) {
  program.argTypes.assign(argTypes.begin(), argTypes.end());
}

ScalarComputation::Reg
ScalarComputation::Builder::addRegister(ElementType type) {
  types.push_back(type);
  return static_cast<Reg>(types.size() - 1);
}

ScalarComputation::Reg ScalarComputation::Builder::addStep(Step step,
                                                           ElementType type) {
  step.dst = addRegister(type);
  program.steps.push_back(step);
  return step.dst;
}

ScalarComputation::Reg ScalarComputation::Builder::constant(Scalar value,
                                                            ElementType type) {
  Reg reg = addRegister(type);
  program.constants.push_back({reg, value});
  return reg;
}

std::optional<ScalarComputation::Reg>
ScalarComputation::Builder::unary(UnaryOp op, Reg input) {
  ElementType type = types[input];
  UnaryKernel kernel = getUnaryKernel(op, type);
  if (!kernel)
    return std::nullopt;
  Step step;
  step.kind = Step::Kind::unary;
  step.op = static_cast<uint8_t>(op);
  step.a = input;
  step.kernel.unary = kernel;
  step.fn = dispatchElementType(type, [](auto tag) -> Step::Fn {
    return unaryKernelStep<decltype(tag)>;
  });
  return addStep(step, type);
}

std::optional<ScalarComputation::Reg>
ScalarComputation::Builder::binary(BinaryOp op, Reg lhs, Reg rhs) {
  ElementType type = types[lhs];
  assert(types[rhs] == type && "binary op on registers of two types");
  BinaryKernel kernel = getBinaryKernel(op, type);
  if (!kernel)
    return std::nullopt;
  Step step;
  step.kind = Step::Kind::binary;
  step.op = static_cast<uint8_t>(op);
  step.a = lhs;
  step.b = rhs;
  step.kernel.binary = kernel;
  step.fn = dispatchElementType(type, [&](auto tag) -> Step::Fn {
    using T = decltype(tag);
    if (Step::Fn fn = inlineBinaryStep<T>(op))
      return fn;
    return binaryKernelStep<T>;
  });
  return addStep(step, type);
}

ScalarComputation::Reg ScalarComputation::Builder::compare(CompareOp op,
                                                           Reg lhs, Reg rhs) {
  ElementType type = types[lhs];
  assert(types[rhs] == type && "comparison of registers of two types");
  Step step;
  step.kind = Step::Kind::compare;
  step.op = static_cast<uint8_t>(op);
  step.a = lhs;
  step.b = rhs;
  step.fn = dispatchElementType(type, [&](auto tag) -> Step::Fn {
    return compareStepFor<decltype(tag)>(op);
  });
  return addStep(step, ElementType::i1);
}

ScalarComputation::Reg ScalarComputation::Builder::select(Reg pred, Reg onTrue,
                                                          Reg onFalse) {
  assert(types[pred] == ElementType::i1 && "select on a non-i1 predicate");
  assert(types[onTrue] == types[onFalse] && "select of two types");
  Step step;
  step.kind = Step::Kind::select;
  step.a = pred;
  step.b = onTrue;
  step.c = onFalse;
  step.fn = selectStep;
  return addStep(step, types[onTrue]);
}

ScalarComputation::Reg ScalarComputation::Builder::convert(Reg input,
                                                           ElementType to) {
  ElementType from = types[input];
  Step step;
  step.kind = Step::Kind::convert;
  step.a = input;
  step.kernel.convert = getConvertKernel(from, to);
  step.fn = dispatchElementType(from, [&](auto fromTag) -> Step::Fn {
    return dispatchElementType(to, [](auto toTag) -> Step::Fn {
      return convertStep<decltype(fromTag), decltype(toTag)>;
    });
  });
  return addStep(step, to);
}

ScalarComputation
ScalarComputation::Builder::finish(llvm::ArrayRef<Reg> results) && {
  for (Reg r : results) {
    program.resultRegs.push_back(r);
    program.resultTypes.push_back(types[r]);
  }
  program.numRegs = static_cast<int32_t>(types.size());
  return std::move(program);
}

//===----------------------------------------------------------------------===//
// Running and recognising
//===----------------------------------------------------------------------===//

ScalarComputation::Frame::Frame(const ScalarComputation &computation)
    : computation(computation), regs(computation.numRegs) {
  for (const Constant &c : computation.constants)
    regs[c.reg] = c.value;
}

void ScalarComputation::run(llvm::ArrayRef<Scalar> args,
                            llvm::MutableArrayRef<Scalar> results) const {
  assert(args.size() == argTypes.size() && "wrong number of arguments");
  assert(results.size() == resultRegs.size() && "wrong number of results");
  Frame frame(*this);
  for (auto [i, arg] : llvm::enumerate(args))
    frame.arg(i) = arg;
  frame.run();
  for (auto [i, result] : llvm::enumerate(results))
    result = frame.result(i);
}

const ScalarComputation::Step *ScalarComputation::definingStep(Reg reg) const {
  for (const Step &step : steps)
    if (step.dst == reg)
      return &step;
  return nullptr;
}

std::optional<BinaryOp> ScalarComputation::asBinaryOp() const {
  if (argTypes.size() != 2 || resultRegs.size() != 1 ||
      argTypes[0] != argTypes[1] || resultTypes[0] != argTypes[0])
    return std::nullopt;
  const Step *step = definingStep(resultRegs[0]);
  if (!step || step->kind != Step::Kind::binary)
    return std::nullopt;
  bool onArgs =
      (step->a == 0 && step->b == 1) || (step->a == 1 && step->b == 0);
  auto op = static_cast<BinaryOp>(step->op);
  switch (op) {
  case BinaryOp::add:
  case BinaryOp::mul:
  case BinaryOp::max:
  case BinaryOp::min:
  case BinaryOp::and_:
  case BinaryOp::or_:
  case BinaryOp::xor_:
    if (onArgs)
      return op;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<CompareOp> ScalarComputation::asComparison() const {
  if (argTypes.size() < 2 || resultRegs.size() != 1)
    return std::nullopt;
  const Step *step = definingStep(resultRegs[0]);
  if (!step || step->kind != Step::Kind::compare)
    return std::nullopt;
  auto op = static_cast<CompareOp>(step->op);
  if (step->a == 0 && step->b == 1)
    return op;
  if (step->a == 1 && step->b == 0)
    return mirrored(op);
  return std::nullopt;
}

} // namespace xspmd::runtime
