//===- HloParser.h - HloModule text to its syntax tree ----------*- C++ -*-===//
//
// Parses the text XLA prints for an HloModule (HloModule::ToString, the
// dumps of --xla_dump_to, torch_xla's XLA_SAVE_TENSORS_FMT=hlo and
// _get_xla_tensors_hlo): the header, computations with optional
// signatures, instructions with either operand form (`add(%a, %b)` or
// `add(f32[4]{0} %a, f32[4]{0} %b)`). Layouts are dropped; attribute values
// are kept as text for the importer.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOPARSER_H
#define XSPMD_LIB_HLO_HLOPARSER_H

#include "lib/hlo/HloAst.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <string>

namespace xspmd::hlo {

struct ParseError {
  llvm::SMLoc loc;
  std::string message;
};

/// Parses `buffer` into `module`; on failure fills `error` and returns false.
/// The buffer must outlive nothing: the tree owns its strings.
bool parseModule(llvm::StringRef buffer, Module &module, ParseError &error);

/// Fills the shape of every instruction written without one from its
/// operands and attributes (XLA's shape inference rules); called by
/// parseModule. False with a located error when a shape cannot be inferred.
bool inferInstructionShapes(Module &module, ParseError &error);

/// Parses a shape written alone (`f32[8,16]{1,0}`, `(f32[], s32[2])`).
bool parseShape(llvm::StringRef text, Shape &shape, std::string &error);

/// HLO's primitive type names, for telling a shape from a name.
bool isPrimitiveTypeName(llvm::StringRef word);

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOPARSER_H
