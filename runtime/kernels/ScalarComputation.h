//===- ScalarComputation.h - compiled per-element computations --*- C++ -*-===//
//
// A scalar computation (HLO's to_apply of a reduce, a sort's comparator, the
// select and scatter of select-and-scatter) compiled once into a straight-line
// program over registers that hold one scalar each, then run per element by
// the kernels that apply it. A float register holds a double, an integer one
// an int64 and an i1 one 0 or 1; every op computes exactly as the tensor
// kernels do (bf16/f16 in f32, integers in their width with wraparound) and
// its result is rounded to the element type, so a region and the equivalent
// tensor ops give the same bits.
//
// Kernels may take a fast path for the common bodies: asBinaryOp() recognises
// `yield op(arg0, arg1)` for the associative ops, asComparison() a comparator
// `yield compare DIR arg0, arg1`.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_KERNELS_SCALARCOMPUTATION_H
#define XSPMD_RUNTIME_KERNELS_SCALARCOMPUTATION_H

#include "runtime/kernels/Convert.h"
#include "runtime/kernels/Elementwise.h"
#include "runtime/kernels/ScalarOps.h"
#include "runtime/kernels/TypeDispatch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cassert>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace xspmd::runtime {

/// One scalar of a computation: `f` for floats (a value of the element
/// type), `i` for integers (sign-extended from their width) and i1 (0 or 1).
struct Scalar {
  union {
    double f;
    int64_t i = 0;
  };

  static Scalar ofFloat(double v) {
    Scalar s;
    s.f = v;
    return s;
  }
  static Scalar ofInt(int64_t v) {
    Scalar s;
    s.i = v;
    return s;
  }
  static Scalar ofBool(bool v) { return ofInt(v ? 1 : 0); }
};

/// `a op b` on values of a compute type (float, double or an integer type),
/// with the tensor kernels' semantics: for the ops kernels fold with (add,
/// sub, mul, div, max, min; and, or, xor on integers).
template <BinaryOp Op, typename C>
C applyBinaryOp(C a, C b) {
  if constexpr (Op == BinaryOp::add)
    return scalar::add(a, b);
  else if constexpr (Op == BinaryOp::sub)
    return scalar::sub(a, b);
  else if constexpr (Op == BinaryOp::mul)
    return scalar::mul(a, b);
  else if constexpr (Op == BinaryOp::div)
    return scalar::div(a, b);
  else if constexpr (Op == BinaryOp::max)
    return scalar::max(a, b);
  else if constexpr (Op == BinaryOp::min)
    return scalar::min(a, b);
  else if constexpr (Op == BinaryOp::and_)
    return scalar::bitAnd(a, b);
  else if constexpr (Op == BinaryOp::or_)
    return scalar::bitOr(a, b);
  else {
    static_assert(Op == BinaryOp::xor_, "no inline form of this op");
    return scalar::bitXor(a, b);
  }
}

/// `a DIR b` on values of a compute type.
template <CompareOp Dir, typename C>
bool applyCompareOp(C a, C b) {
  if constexpr (Dir == CompareOp::eq)
    return a == b;
  else if constexpr (Dir == CompareOp::ne)
    return a != b;
  else if constexpr (Dir == CompareOp::lt)
    return a < b;
  else if constexpr (Dir == CompareOp::le)
    return a <= b;
  else if constexpr (Dir == CompareOp::gt)
    return a > b;
  else
    return a >= b;
}

/// Calls `fn(std::integral_constant<Enum, V>{})` for the V among `Values`
/// that equals `value` (turning a run-time op into a template argument);
/// false when none does.
template <typename Enum, Enum... Values, typename Fn>
bool dispatchEnum(Enum value, Fn &&fn) {
  return (
      (value == Values && (fn(std::integral_constant<Enum, Values>{}), true)) ||
      ...);
}

/// The scalar holding storage value `v` of element storage type T.
template <typename T>
Scalar toScalar(T v) {
  if constexpr (kIsFloatStorage<T>)
    return Scalar::ofFloat(static_cast<double>(ElementTraits<T>::load(v)));
  else
    return Scalar::ofInt(static_cast<int64_t>(v));
}

/// The storage value of type T that `s`, a scalar of type T, holds.
template <typename T>
T fromScalar(Scalar s) {
  if constexpr (std::is_same_v<T, BF16>)
    return BF16{doubleToBf16(s.f)};
  else if constexpr (std::is_same_v<T, F16>)
    return F16{doubleToF16(s.f)};
  else if constexpr (std::is_floating_point_v<T>)
    return static_cast<T>(s.f);
  else
    return static_cast<T>(s.i);
}

/// Element `index` of a buffer of `type` as a scalar (dispatches on the
/// type per call: for set-up and tests, not inner loops).
Scalar loadScalar(const void *data, ElementType type, int64_t index);
/// Stores `value`, a scalar of `type`, into element `index`.
void storeScalar(Scalar value, ElementType type, void *data, int64_t index);

/// The same, resolved once per element type for a kernel's inner loop.
using ScalarLoader = Scalar (*)(const void *data, int64_t index);
using ScalarStorer = void (*)(Scalar value, void *data, int64_t index);
ScalarLoader getScalarLoader(ElementType type);
ScalarStorer getScalarStorer(ElementType type);

class ScalarComputation {
public:
  /// A register: an argument, a constant or an op's result.
  using Reg = int32_t;

  class Builder;

  llvm::ArrayRef<ElementType> getArgTypes() const { return argTypes; }
  llvm::ArrayRef<ElementType> getResultTypes() const { return resultTypes; }
  /// Ops executed per run (constants excluded): the work of one
  /// application, for the cost model.
  int64_t getNumOps() const { return static_cast<int64_t>(steps.size()); }

  /// Runs the program: `args` match getArgTypes(), `results` receive
  /// getResultTypes(). Thread-safe (each call has its own registers).
  void run(llvm::ArrayRef<Scalar> args,
           llvm::MutableArrayRef<Scalar> results) const;

  /// The registers of one caller, reused across runs: a kernel applying
  /// the computation per element writes the arguments in place, runs, and
  /// reads the results, without copying or reloading constants.
  class Frame {
  public:
    explicit Frame(const ScalarComputation &computation);

    Scalar &arg(unsigned i) { return regs[i]; }
    void run() {
      Scalar *data = regs.data();
      for (const Step &step : computation.steps)
        step.fn(data, step);
    }
    Scalar result(unsigned i) const { return regs[computation.resultRegs[i]]; }

  private:
    const ScalarComputation &computation;
    llvm::SmallVector<Scalar, 32> regs;
  };

  /// `op` when the computation is `yield op(arg0, arg1)` (or the operands
  /// swapped) with two arguments and one result of one type, for the
  /// associative and commutative ops: add, mul, max, min, and, or, xor.
  std::optional<BinaryOp> asBinaryOp() const;
  /// DIR when the computation yields `compare DIR arg0, arg1` (or the
  /// mirrored comparison of arg1 and arg0), whatever its other arguments.
  std::optional<CompareOp> asComparison() const;

  /// One instruction (an implementation detail of the .cpp).
  struct Step {
    using Fn = void (*)(Scalar *regs, const Step &step);
    enum class Kind : uint8_t { unary, binary, compare, select, convert };

    Fn fn = nullptr;
    Reg dst = 0, a = 0, b = 0, c = 0;
    Kind kind = Kind::unary;
    /// The UnaryOp, BinaryOp or CompareOp, for pattern recognition.
    uint8_t op = 0;
    /// The tensor kernel a step applies to one element, if any.
    union {
      UnaryKernel unary = nullptr;
      BinaryKernel binary;
      ConvertKernel convert;
    } kernel;
  };

private:
  struct Constant {
    Reg reg;
    Scalar value;
  };
  /// The step that computes `reg`, if an op does.
  const Step *definingStep(Reg reg) const;

  llvm::SmallVector<ElementType> argTypes, resultTypes;
  llvm::SmallVector<Constant> constants;
  llvm::SmallVector<Step> steps;
  llvm::SmallVector<Reg> resultRegs;
  int32_t numRegs = 0;
};

/// Builds a computation in program order; arguments are registers
/// 0..n-1. Operands are registers of the types the op takes (the
/// dialect's verifiers guarantee it for regions; the builder asserts it).
class ScalarComputation::Builder {
public:
  explicit Builder(llvm::ArrayRef<ElementType> argTypes);

  Reg argument(unsigned index) const {
    assert(index < numArgs && "no such argument");
    return static_cast<Reg>(index);
  }
  /// `value` is a scalar of `type`.
  Reg constant(Scalar value, ElementType type);
  /// nullopt when `op` is not defined on the operands' type (the tensor
  /// kernels' rule: float math on integers, bitwise ops on floats, ...).
  std::optional<Reg> unary(UnaryOp op, Reg input);
  std::optional<Reg> binary(BinaryOp op, Reg lhs, Reg rhs);
  /// An i1 register.
  Reg compare(CompareOp op, Reg lhs, Reg rhs);
  /// `pred` is i1; `onTrue` and `onFalse` have one type.
  Reg select(Reg pred, Reg onTrue, Reg onFalse);
  Reg convert(Reg input, ElementType to);

  ElementType typeOf(Reg reg) const { return types[reg]; }

  ScalarComputation finish(llvm::ArrayRef<Reg> results) &&;

private:
  Reg addRegister(ElementType type);
  /// Appends `step` with a new register of `type` as its destination.
  Reg addStep(Step step, ElementType type);

  unsigned numArgs;
  llvm::SmallVector<ElementType> types;
  ScalarComputation program;
};

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_KERNELS_SCALARCOMPUTATION_H
