//===- HloAst.h - the syntax tree of an HloModule's text --------*- C++ -*-===//
//
// What the HLO text parser produces and the importer reads: a module, its
// computations and their instructions, with attribute values kept as text
// (each opcode's importer interprets the attributes it knows). Positions
// are byte offsets into the parsed buffer, turned into line:col locations
// by the importer.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOAST_H
#define XSPMD_LIB_HLO_HLOAST_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <optional>
#include <string>
#include <vector>

namespace xspmd::hlo {

/// An HLO shape: an array `f32[8,16]` (layout dropped) or a tuple.
struct Shape {
  bool isTuple = false;
  /// Array: HLO's primitive type name (`f32`, `pred`, `s32`, `token`...).
  std::string elementType;
  llvm::SmallVector<int64_t> dims;
  /// The layout's minor-to-major order when one is written (`{1,0}`, tiles
  /// and memory spaces after `:` dropped); empty when none is.
  llvm::SmallVector<int64_t> minorToMajor;
  /// Tuple: the element shapes.
  std::vector<Shape> elements;

  /// Number of arrays in the flattened tuple tree (1 for an array).
  int64_t numLeaves() const;
  /// Index of the first leaf of tuple element `index` (tuples only).
  int64_t leafOffset(int64_t index) const;
};

/// `name=value` after the operands; `value` is the source text (balanced).
struct HloAttr {
  std::string name;
  std::string value;
  llvm::SMLoc loc;
  /// Set when an importer looks the attribute up: one nobody read is
  /// reported, not dropped.
  mutable bool read = false;
};

/// `metadata={op_type="..." op_name="..." source_file="..." source_line=N}`.
struct Metadata {
  std::string opType, opName, sourceFile;
  int64_t sourceLine = 0;
  /// `stack_frame_id=N` into the module's StackFrames table (0: none).
  int64_t stackFrameId = 0;
};

/// The stack-frame tables JAX dumps print after the header (ids 1-based).
struct StackFrameTables {
  struct FileLocation {
    int64_t fileNameId = 0, functionNameId = 0;
    int64_t line = 0, endLine = 0, column = 0, endColumn = 0;
  };
  struct Frame {
    int64_t fileLocationId = 0;
    /// 0 (or the frame itself) when the frame is outermost.
    int64_t parentFrameId = 0;
  };
  std::vector<std::string> fileNames, functionNames;
  std::vector<FileLocation> fileLocations;
  std::vector<Frame> frames;
  llvm::SMLoc loc;

  bool empty() const { return frames.empty(); }
};

struct Operand {
  std::string name;
  llvm::SMLoc loc;
};

struct Instruction {
  std::string name;
  Shape shape;
  std::string opcode;
  /// False when the text gives no result shape (`%s = add(%a, %b)`): the
  /// parser infers it (HloShapeInference.cpp).
  bool shapeWritten = true;
  /// Operands by name (parameter and constant have none).
  std::vector<Operand> operands;
  /// parameter: its number; constant: the literal text.
  int64_t parameterNumber = -1;
  std::string literal;
  std::vector<HloAttr> attributes;
  std::optional<Metadata> metadata;
  bool isRoot = false;
  llvm::SMLoc loc, opcodeLoc;

  const HloAttr *findAttribute(llvm::StringRef attrName) const;
};

struct Computation {
  std::string name;
  bool isEntry = false;
  std::vector<Instruction> instructions;
  /// Index of the ROOT instruction (the last one when none is marked).
  size_t root = 0;
  llvm::SMLoc loc;

  const Instruction &getRoot() const { return instructions[root]; }
  /// Parameters ordered by number.
  std::vector<const Instruction *> getParameters() const;
};

struct Module {
  std::string name;
  /// Header attributes (`num_partitions=8`, `entry_computation_layout=...`).
  std::vector<HloAttr> attributes;
  std::vector<Computation> computations;
  StackFrameTables stackFrames;
  /// No `HloModule` header: the name is the entry computation's.
  bool headerless = false;
  size_t entry = 0;
  llvm::SMLoc loc;

  const Computation *findComputation(llvm::StringRef compName) const;
  const HloAttr *findAttribute(llvm::StringRef attrName) const;
};

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOAST_H
