//===- Program.h - a function compiled for the simulator --------*- C++ -*-===//
//
// A func.func becomes a linear list of instructions over numbered tensor
// slots. Each instruction holds a kernel with its attributes already
// resolved (element type dispatch, permutations, collective groups), so
// running a program is a loop of indirect calls, one per op. A program is
// immutable once built and shared by every simulated device.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_EXEC_PROGRAM_H
#define XSPMD_RUNTIME_EXEC_PROGRAM_H

#include "runtime/exec/OpWork.h"
#include "runtime/kernels/Tensor.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace xspmd::runtime {

class Communicator;
class ExecutionObserver;
struct CollectiveCall;

/// Type and shape of a tensor value.
struct TensorSpec {
  ElementType type = ElementType::f32;
  Shape shape;

  Tensor allocate() const { return Tensor::allocate(type, shape); }
  bool matches(const Tensor &t) const {
    return t.getElementType() == type && llvm::equal(t.getShape(), shape);
  }
  std::string toString() const { return formatTensorType(shape, type); }
};

/// What a running program knows about the device it runs on.
struct DeviceContext {
  int64_t device = 0;
  int64_t numDevices = 1;
  /// Null on a single device without peers.
  Communicator *communicator = nullptr;
  /// Follows the run for the timing model (null: nobody watches).
  ExecutionObserver *observer = nullptr;
  /// Set by the executor before a collective kernel runs: when this device
  /// issues it on the simulated timeline. The kernel sets groupStart: when
  /// the last member of its group issued it.
  double collectiveIssueTime = 0;
  double collectiveGroupStart = 0;
};

/// Reads operands, writes (allocates) results. Fails only for collectives
/// that the devices disagree on.
using OpKernel =
    std::function<llvm::Error(DeviceContext &, llvm::ArrayRef<const Tensor *>,
                              llvm::MutableArrayRef<Tensor>)>;

/// The regions of an xla.while, compiled in line right after its
/// instruction: the condition's instructions are [condBegin, condEnd), the
/// body's [condEnd, bodyEnd). The loop instruction's results are the
/// carried slots, which are also both regions' arguments; its operands are
/// the initial values.
struct LoopInfo {
  int32_t condBegin = 0, condEnd = 0, bodyEnd = 0;
  /// The slot holding the condition (a tensor<i1>) once cond has run.
  int32_t condition = -1;
  /// The slots the body yields, one per carried value.
  std::vector<int32_t> yields;
};

/// The branches of an xla.case, compiled in line right after its
/// instruction: branch b is [begins[b], begins[b + 1]), the last one ends at
/// `end`. The case instruction's operand is the index; its results take the
/// values the branch that ran yields.
struct CaseInfo {
  std::vector<int32_t> begins;
  int32_t end = 0;
  /// Per branch, the slots it yields.
  std::vector<std::vector<int32_t>> yields;
  /// An i1 index: true runs branch 0, false branch 1.
  bool predicated = false;
};

struct Instruction {
  OpKernel kernel;
  llvm::SmallVector<int32_t, 4> operands;
  llvm::SmallVector<int32_t, 2> results;
  /// Slots whose last use is this instruction: freed right after it.
  llvm::SmallVector<int32_t, 2> releases;
  /// "xla.add at file.mlir:3:10", for messages.
  std::string description;

  // For the timing model and reports.
  InstructionKind kind = InstructionKind::Compute;
  /// Compute instructions: the roofline inputs (runtime/exec/OpWork.h),
  /// and the HBM bytes left once elementwise producers are fused into their
  /// consumers (runtime/exec/Fusion.h).
  cost::OpWork work;
  double fusedBytes = 0;
  FusionRole fusion = FusionRole::None;
  /// Collective instructions: the resolved call, shared with the kernel, and
  /// its participants as written ("@mesh[\"model\"]", "groups [[0, 1],
  /// [2, 3]]", "all devices").
  std::shared_ptr<const CollectiveCall> collective;
  std::string participants;
  /// Loop instructions: their regions.
  std::shared_ptr<const LoopInfo> loop;
  /// Case instructions: their branches.
  std::shared_ptr<const CaseInfo> branches;

  /// One past the last instruction of this instruction's regions (a loop's
  /// or a case's), or -1 when it has none.
  int32_t regionsEnd() const {
    return loop ? loop->bodyEnd : branches ? branches->end : -1;
  }
  /// "xla.dot_general" and "file.mlir:3:10".
  std::string opName, location;
  /// Innermost xla.trace scope (Program::scopes), or -1.
  int32_t scope = -1;
  /// The `xla.trace ... kernel` holding this instruction (numbered in
  /// program order), or -1: values made and read only inside one kernel
  /// stay on chip (runtime/exec/Fusion.h).
  int32_t kernelIndex = -1;
};

/// A named region of the program (`xla.trace`), nested in `parent`.
struct TraceScope {
  std::string name;
  int32_t parent = -1;
  int32_t depth = 0;
};

struct Program {
  std::string name;
  std::vector<TensorSpec> argSpecs, resultSpecs;
  int32_t numSlots = 0;
  std::vector<int32_t> argSlots, resultSlots;
  std::vector<std::pair<int32_t, Tensor>> constants;
  std::vector<Instruction> instructions;
  /// Per instruction: the innermost loop or case instruction whose regions
  /// hold it, or -1 at the top level.
  std::vector<int32_t> parentLoop;
  /// Type of every slot (arguments, constants, op results).
  std::vector<TensorSpec> slotSpecs;
  /// What produced each slot, for reports: "argument 2", "constant",
  /// "xla.dot_general at f.mlir:3:8".
  std::vector<std::string> slotOrigins;
  /// The xla.trace scopes of the program, parents before children.
  std::vector<TraceScope> scopes;
  /// Per argument: the result it is donated to (`xla.aliases`), or -1.
  std::vector<int32_t> argAliases;
  /// Size of the function as MLIR bytecode (the "compiled program size").
  int64_t programBytes = 0;
  /// Device count the collectives were resolved for.
  int64_t numDevices = 1;
  /// Whether the program communicates or depends on its device id
  /// (collectives, partition_id, axis_index): an SPMD program.
  bool isSpmd = false;
};

/// Whether instruction `index` lies in the regions of the loop or case
/// instruction `loop`.
inline bool isInsideLoop(const Program &program, int32_t index, int32_t loop) {
  return index > loop && index < program.instructions[loop].regionsEnd();
}

/// Where a use at instruction `use` of a slot defined at instruction `def`
/// (-1: an argument or constant) happens in the definition's scope: `use`
/// itself, or the outermost loop (or case) around it that does not hold
/// `def` (a loop reads a value from outside in every iteration, so the
/// value lives until the loop ends).
inline int32_t useInDefinitionScope(const Program &program, int32_t use,
                                    int32_t def) {
  int32_t at = use;
  if (program.parentLoop.empty())
    return at; // built without loops
  while (program.parentLoop[at] >= 0 &&
         !(def >= 0 && isInsideLoop(program, def, program.parentLoop[at])))
    at = program.parentLoop[at];
  return at;
}

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_EXEC_PROGRAM_H
