//===- HloParser.cpp - HloModule text to its syntax tree ------------------===//

#include "lib/hlo/HloParser.h"
#include "lib/hlo/HloLexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace xspmd::hlo;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::SMLoc;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// Syntax tree helpers
//===----------------------------------------------------------------------===//

int64_t Shape::numLeaves() const {
  if (!isTuple)
    return 1;
  int64_t n = 0;
  for (const Shape &e : elements)
    n += e.numLeaves();
  return n;
}

int64_t Shape::leafOffset(int64_t index) const {
  int64_t n = 0;
  for (int64_t i = 0; i < index; ++i)
    n += elements[i].numLeaves();
  return n;
}

const HloAttr *Instruction::findAttribute(StringRef attrName) const {
  for (const HloAttr &a : attributes)
    if (a.name == attrName) {
      a.read = true;
      return &a;
    }
  return nullptr;
}

std::vector<const Instruction *> Computation::getParameters() const {
  std::vector<const Instruction *> params;
  for (const Instruction &inst : instructions)
    if (inst.opcode == "parameter")
      params.push_back(&inst);
  std::stable_sort(params.begin(), params.end(),
                   [](const Instruction *a, const Instruction *b) {
                     return a->parameterNumber < b->parameterNumber;
                   });
  return params;
}

const Computation *Module::findComputation(StringRef compName) const {
  for (const Computation &c : computations)
    if (c.name == compName)
      return &c;
  return nullptr;
}

const HloAttr *Module::findAttribute(StringRef attrName) const {
  for (const HloAttr &a : attributes)
    if (a.name == attrName)
      return &a;
  return nullptr;
}

bool xspmd::hlo::isPrimitiveTypeName(StringRef word) {
  return llvm::StringSwitch<bool>(word)
      .Cases({"pred", "s2", "s4", "s8", "s16", "s32", "s64"}, true)
      .Cases({"u2", "u4", "u8", "u16", "u32", "u64"}, true)
      .Cases({"f16", "bf16", "f32", "f64", "c64", "c128", "token"}, true)
      .StartsWith("f8", true)
      .StartsWith("f4", true)
      .Default(false);
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

namespace {

class Parser {
public:
  Parser(StringRef buffer, ParseError &error) : error(error) {
    Lexer lexer(buffer);
    while (true) {
      tokens.push_back(lexer.lex());
      if (tokens.back().is(Token::eof) || tokens.back().is(Token::error))
        break;
    }
  }

  bool parseModule(Module &module);
  bool parseStandaloneShape(Shape &shape);

private:
  const Token &peek(size_t ahead = 0) const {
    return tokens[std::min(index + ahead, tokens.size() - 1)];
  }
  const Token &consume() {
    const Token &tok = peek();
    if (index < tokens.size() - 1)
      ++index;
    return tok;
  }
  bool fail(SMLoc loc, const Twine &message) {
    if (error.message.empty()) {
      error.loc = loc;
      error.message = message.str();
    }
    return false;
  }
  bool fail(const Twine &message) {
    const Token &tok = peek();
    if (tok.is(Token::error))
      return fail(tok.getLoc(), tok.text.starts_with("\"")
                                    ? "unterminated string"
                                    : "unterminated comment");
    return fail(tok.getLoc(), message);
  }
  static std::string describe(const Token &tok) {
    if (tok.is(Token::eof))
      return "end of input";
    return "'" + tok.text.str() + "'";
  }
  bool expect(Token::Kind kind, const Twine &what) {
    if (!peek().is(kind))
      return fail("expected " + what + ", found " + describe(peek()));
    consume();
    return true;
  }
  /// A name with or without its `%`.
  bool parseName(std::string &name, StringRef what) {
    if (!peek().is(Token::word))
      return fail("expected " + what + ", found " + describe(peek()));
    StringRef text = consume().text;
    text.consume_front("%");
    if (text.empty())
      return fail(peek().getLoc(), "empty " + what);
    name = text.str();
    return true;
  }
  /// Skips a balanced group starting at the current bracket.
  bool skipBalanced();
  bool parseLayout(Shape &shape);
  /// `FileNames`, `FunctionNames`, `FileLocations`, `StackFrames` and their
  /// numbered rows.
  bool isStackFrameTable() const;
  bool parseStackFrameTable(StackFrameTables &tables);
  bool parseTableFields(
      llvm::StringRef table,
      llvm::SmallVectorImpl<std::pair<StringRef, int64_t>> &fields);
  /// The source text of an attribute value: balanced tokens up to a comma
  /// at depth 0 or the end of the line.
  bool parseAttributeValue(std::string &value, Token::Kind close);
  bool parseShape(Shape &shape);
  bool parseInstruction(Instruction &inst);
  bool parseOperands(Instruction &inst);
  bool parseComputation(Computation &comp);
  bool parseMetadata(const HloAttr &attr, Metadata &metadata);
  bool checkStackFrames(const Module &module);
  bool inferShapes(Module &module);

  std::vector<Token> tokens;
  size_t index = 0;
  ParseError &error;
};

} // namespace

bool Parser::skipBalanced() {
  int depth = 0;
  do {
    const Token &tok = peek();
    switch (tok.kind) {
    case Token::l_paren:
    case Token::l_square:
    case Token::l_brace:
      ++depth;
      break;
    case Token::r_paren:
    case Token::r_square:
    case Token::r_brace:
      --depth;
      break;
    case Token::eof:
    case Token::error:
      return fail("unbalanced brackets: reached " + describe(tok));
    default:
      break;
    }
    consume();
  } while (depth > 0);
  return true;
}

bool Parser::parseAttributeValue(std::string &value, Token::Kind close) {
  const Token &first = peek();
  if (first.is(Token::comma) || first.is(close) || first.is(Token::eof))
    return fail("expected an attribute value, found " + describe(first));
  const char *start = first.text.data();
  const char *end = start;
  int depth = 0;
  bool firstToken = true;
  while (true) {
    const Token &tok = peek();
    if (tok.is(Token::eof) || tok.is(Token::error)) {
      if (depth > 0 || tok.is(Token::error))
        return fail("unterminated attribute value");
      break;
    }
    if (depth == 0 && !firstToken &&
        (tok.is(Token::comma) || tok.is(close) || tok.newlineBefore))
      break;
    if (tok.is(Token::l_paren) || tok.is(Token::l_square) ||
        tok.is(Token::l_brace))
      ++depth;
    else if (tok.is(Token::r_paren) || tok.is(Token::r_square) ||
             tok.is(Token::r_brace)) {
      if (depth == 0)
        break;
      --depth;
    }
    end = tok.end();
    consume();
    firstToken = false;
  }
  value = StringRef(start, end - start).str();
  return true;
}

bool Parser::parseShape(Shape &shape) {
  if (peek().is(Token::l_paren)) {
    consume();
    shape.isTuple = true;
    if (peek().is(Token::r_paren)) {
      consume();
      return true;
    }
    while (true) {
      shape.elements.emplace_back();
      if (!parseShape(shape.elements.back()))
        return false;
      if (peek().is(Token::comma)) {
        consume();
        continue;
      }
      return expect(Token::r_paren, "')' or ',' in a tuple shape");
    }
  }
  if (!peek().is(Token::word) || !isPrimitiveTypeName(peek().text))
    return fail("expected a shape (e.g. f32[8,16]), found " + describe(peek()));
  shape.elementType = consume().text.str();
  if (!expect(Token::l_square, "'[' after the element type"))
    return false;
  if (!peek().is(Token::r_square)) {
    while (true) {
      const Token &tok = peek();
      int64_t dim;
      if (!tok.is(Token::word) || tok.text.getAsInteger(10, dim) || dim < 0)
        return fail(tok.text.starts_with("<=") || tok.text.starts_with("?") ||
                            tok.text == "<"
                        ? "dynamic dimensions are not supported, found " +
                              describe(tok)
                        : "expected a dimension size, found " + describe(tok));
      consume();
      shape.dims.push_back(dim);
      if (peek().is(Token::comma)) {
        consume();
        continue;
      }
      break;
    }
  }
  if (!expect(Token::r_square, "']' or ',' in the dimensions"))
    return false;
  // A layout `{1,0}` follows the dimensions directly; a `{` after a space
  // opens something else (a computation body).
  if (peek().is(Token::l_brace) && peek().adjacent)
    return parseLayout(shape);
  return true;
}

bool Parser::parseLayout(Shape &shape) {
  // `{1,0}`, `{1,0:T(8,128)(2,1)S(1)}`, `{0:E(4)}`: the minor-to-major
  // numbers before `:`; tiles, element size and memory space follow it and
  // change no value.
  consume();
  bool inOrder = true, valid = true;
  int depth = 1;
  while (depth > 0) {
    const Token &tok = peek();
    if (tok.is(Token::eof) || tok.is(Token::error))
      return fail("unterminated layout");
    if (tok.is(Token::l_paren) || tok.is(Token::l_brace) ||
        tok.is(Token::l_square))
      ++depth;
    else if (tok.is(Token::r_paren) || tok.is(Token::r_brace) ||
             tok.is(Token::r_square))
      --depth;
    else if (tok.is(Token::word) && depth == 1 && inOrder) {
      auto [number, rest] = tok.text.split(':');
      int64_t dim;
      if (number.getAsInteger(10, dim))
        valid = false;
      else
        shape.minorToMajor.push_back(dim);
      if (tok.text.contains(':'))
        inOrder = false;
    }
    consume();
  }
  if (!valid || shape.minorToMajor.size() != shape.dims.size())
    shape.minorToMajor.clear();
  return true;
}

bool Parser::parseOperands(Instruction &inst) {
  if (!expect(Token::l_paren, "'(' after the opcode"))
    return false;
  if (inst.opcode == "constant") {
    // The literal, kept as text; an old-style leading shape is dropped.
    if (peek().is(Token::word) && isPrimitiveTypeName(peek().text) &&
        peek(1).is(Token::l_square)) {
      Shape ignored;
      if (!parseShape(ignored))
        return false;
    }
    const char *start = peek().text.data();
    const char *end = start;
    int depth = 0;
    while (!(depth == 0 && peek().is(Token::r_paren))) {
      const Token &tok = peek();
      if (tok.is(Token::eof) || tok.is(Token::error))
        return fail("unterminated constant literal");
      if (tok.is(Token::l_paren) || tok.is(Token::l_brace) ||
          tok.is(Token::l_square))
        ++depth;
      if (tok.is(Token::r_paren) || tok.is(Token::r_brace) ||
          tok.is(Token::r_square))
        --depth;
      end = tok.end();
      consume();
    }
    inst.literal = StringRef(start, end - start).str();
    if (inst.literal.empty())
      return fail("expected a literal in constant()");
    consume();
    return true;
  }
  if (inst.opcode == "parameter") {
    const Token &tok = peek();
    if (!tok.is(Token::word) ||
        tok.text.getAsInteger(10, inst.parameterNumber) ||
        inst.parameterNumber < 0)
      return fail("expected a parameter number, found " + describe(tok));
    consume();
    return expect(Token::r_paren, "')' after the parameter number");
  }
  if (peek().is(Token::r_paren)) {
    consume();
    return true;
  }
  while (true) {
    // `f32[4]{0} %a` (operand shapes, older XLA) or `%a`.
    if (peek().is(Token::l_paren) ||
        (peek().is(Token::word) && isPrimitiveTypeName(peek().text) &&
         peek(1).is(Token::l_square))) {
      Shape ignored;
      if (!parseShape(ignored))
        return false;
    }
    Operand operand;
    operand.loc = peek().getLoc();
    if (!parseName(operand.name, "an operand name"))
      return false;
    inst.operands.push_back(std::move(operand));
    if (peek().is(Token::comma)) {
      consume();
      continue;
    }
    return expect(Token::r_paren, "')' or ',' after an operand");
  }
}

static std::string unquote(StringRef text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.drop_front().drop_back();
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size())
      ++i;
    out.push_back(text[i]);
  }
  return out;
}

bool Parser::parseMetadata(const HloAttr &attr, Metadata &metadata) {
  // `{op_type="..." op_name="..." source_file="..." source_line=12}`.
  Lexer lexer(attr.value);
  Token tok = lexer.lex();
  SMLoc loc = attr.loc;
  if (!tok.is(Token::l_brace))
    return fail(loc, "expected '{' to open metadata");
  while (true) {
    tok = lexer.lex();
    if (tok.is(Token::r_brace))
      return true;
    if (!tok.is(Token::word))
      return fail(loc, "malformed metadata near '" + tok.text + "'");
    StringRef key = tok.text;
    if (!lexer.lex().is(Token::equal))
      return fail(loc, "expected '=' after metadata key '" + key + "'");
    Token value = lexer.lex();
    if (value.is(Token::l_brace)) {
      // A nested group (e.g. profile info): skip it.
      int depth = 1;
      while (depth > 0) {
        Token t = lexer.lex();
        if (t.is(Token::eof) || t.is(Token::error))
          return fail(loc, "unterminated metadata");
        depth += t.is(Token::l_brace) ? 1 : t.is(Token::r_brace) ? -1 : 0;
      }
      continue;
    }
    if (!value.is(Token::word) && !value.is(Token::string))
      return fail(loc, "malformed metadata value for '" + key + "'");
    std::string text = unquote(value.text);
    if (key == "op_type")
      metadata.opType = text;
    else if (key == "op_name")
      metadata.opName = text;
    else if (key == "source_file")
      metadata.sourceFile = text;
    else if (key == "source_line" &&
             StringRef(text).getAsInteger(10, metadata.sourceLine))
      return fail(loc, "source_line must be an integer, found '" + text + "'");
    else if (key == "stack_frame_id" &&
             (StringRef(text).getAsInteger(10, metadata.stackFrameId) ||
              metadata.stackFrameId < 0))
      return fail(loc, "stack_frame_id must be a non-negative integer, "
                       "found '" +
                           text + "'");
  }
}

bool Parser::parseInstruction(Instruction &inst) {
  inst.loc = peek().getLoc();
  if (peek().isWord("ROOT")) {
    consume();
    inst.isRoot = true;
  }
  if (!parseName(inst.name, "an instruction name"))
    return false;
  if (!expect(Token::equal, "'=' after the instruction name"))
    return false;
  // XLA's parser infers the shape when the opcode follows `=` directly.
  if (peek().is(Token::word) && peek(1).is(Token::l_paren) &&
      !isPrimitiveTypeName(peek().text))
    inst.shapeWritten = false;
  else if (!parseShape(inst.shape))
    return false;
  if (!peek().is(Token::word))
    return fail("expected an opcode, found " + describe(peek()));
  inst.opcodeLoc = peek().getLoc();
  inst.opcode = consume().text.str();
  if (!parseOperands(inst))
    return false;
  while (peek().is(Token::comma)) {
    consume();
    HloAttr attr;
    attr.loc = peek().getLoc();
    if (!peek().is(Token::word))
      return fail("expected an attribute name, found " + describe(peek()));
    attr.name = consume().text.str();
    if (!expect(Token::equal, "'=' after attribute '" + attr.name + "'"))
      return false;
    if (!parseAttributeValue(attr.value, Token::r_brace))
      return false;
    if (attr.name == "metadata") {
      Metadata metadata;
      if (!parseMetadata(attr, metadata))
        return false;
      inst.metadata = std::move(metadata);
      // Read here: the importer turns it into the location.
      attr.read = true;
    }
    inst.attributes.push_back(std::move(attr));
  }
  return true;
}

bool Parser::parseComputation(Computation &comp) {
  comp.loc = peek().getLoc();
  if (peek().isWord("ENTRY")) {
    consume();
    comp.isEntry = true;
  }
  if (!parseName(comp.name, "a computation name"))
    return false;
  // The optional signature `(p: f32[]) -> f32[]` repeats the parameters.
  if (peek().is(Token::l_paren) && !skipBalanced())
    return false;
  if (peek().isWord("->")) {
    consume();
    Shape ignored;
    if (!parseShape(ignored))
      return false;
  }
  if (!expect(Token::l_brace, "'{' to open computation '" + comp.name + "'"))
    return false;
  bool sawRoot = false;
  while (!peek().is(Token::r_brace)) {
    if (peek().is(Token::eof) || peek().is(Token::error))
      return fail("expected '}' to close computation '" + comp.name +
                  "', found " + describe(peek()));
    Instruction inst;
    if (!parseInstruction(inst))
      return false;
    if (inst.isRoot) {
      if (sawRoot)
        return fail(inst.loc, "computation '" + comp.name +
                                  "' has a second ROOT instruction");
      sawRoot = true;
      comp.root = comp.instructions.size();
    }
    comp.instructions.push_back(std::move(inst));
  }
  consume();
  if (comp.instructions.empty())
    return fail(comp.loc, "computation '" + comp.name + "' is empty");
  if (!sawRoot)
    comp.root = comp.instructions.size() - 1;
  return true;
}

bool Parser::isStackFrameTable() const {
  const Token &tok = peek();
  if (!(tok.isWord("FileNames") || tok.isWord("FunctionNames") ||
        tok.isWord("FileLocations") || tok.isWord("StackFrames")))
    return false;
  // A computation of that name is followed by its signature or body.
  return !peek(1).is(Token::l_paren) && !peek(1).is(Token::l_brace);
}

bool Parser::parseTableFields(
    StringRef table, SmallVectorImpl<std::pair<StringRef, int64_t>> &fields) {
  if (!expect(Token::l_brace, "'{' to open a " + table + " row"))
    return false;
  while (!peek().is(Token::r_brace)) {
    const Token &key = peek();
    if (!key.is(Token::word))
      return fail("expected a field name in a " + table + " row, found " +
                  describe(key));
    consume();
    if (!expect(Token::equal, "'=' after '" + key.text + "'"))
      return false;
    const Token &value = peek();
    int64_t number;
    if (!value.is(Token::word) || value.text.getAsInteger(10, number) ||
        number < 0)
      return fail("expected a non-negative integer for '" + key.text +
                  "', found " + describe(value));
    consume();
    fields.push_back({key.text, number});
  }
  consume();
  return true;
}

bool Parser::parseStackFrameTable(StackFrameTables &tables) {
  if (!tables.loc.isValid())
    tables.loc = peek().getLoc();
  StringRef table = consume().text;
  auto rowCount = [&]() -> size_t {
    if (table == "FileNames")
      return tables.fileNames.size();
    if (table == "FunctionNames")
      return tables.functionNames.size();
    if (table == "FileLocations")
      return tables.fileLocations.size();
    return tables.frames.size();
  };
  // Rows `N "text"` or `N {field=value ...}`, numbered from 1 in order.
  int64_t id;
  while (peek().is(Token::word) && !peek().text.getAsInteger(10, id)) {
    if (id != (int64_t)rowCount() + 1)
      return fail(table + " row " + Twine(id) + " out of order (expected " +
                  Twine(rowCount() + 1) + ")");
    consume();
    if (table == "FileNames" || table == "FunctionNames") {
      if (!peek().is(Token::string))
        return fail("expected a quoted name in " + table + ", found " +
                    describe(peek()));
      std::string text = unquote(consume().text);
      (table == "FileNames" ? tables.fileNames : tables.functionNames)
          .push_back(std::move(text));
      continue;
    }
    SMLoc rowLoc = peek().getLoc();
    SmallVector<std::pair<StringRef, int64_t>> fields;
    if (!parseTableFields(table, fields))
      return false;
    auto field = [&](StringRef name, bool required, int64_t &out) -> bool {
      for (auto &[k, v] : fields)
        if (k == name) {
          out = v;
          return true;
        }
      if (required)
        return fail(rowLoc,
                    table + " row " + Twine(id) + " has no '" + name + "='");
      return true;
    };
    if (table == "FileLocations") {
      StackFrameTables::FileLocation loc;
      if (!field("file_name_id", true, loc.fileNameId) ||
          !field("function_name_id", true, loc.functionNameId) ||
          !field("line", true, loc.line) ||
          !field("end_line", false, loc.endLine) ||
          !field("column", false, loc.column) ||
          !field("end_column", false, loc.endColumn))
        return false;
      tables.fileLocations.push_back(loc);
    } else {
      StackFrameTables::Frame frame;
      if (!field("file_location_id", true, frame.fileLocationId) ||
          !field("parent_frame_id", false, frame.parentFrameId))
        return false;
      tables.frames.push_back(frame);
    }
  }
  return true;
}

bool Parser::checkStackFrames(const Module &module) {
  const StackFrameTables &t = module.stackFrames;
  for (auto [i, loc] : llvm::enumerate(t.fileLocations))
    if (loc.fileNameId < 1 || loc.fileNameId > (int64_t)t.fileNames.size() ||
        loc.functionNameId < 1 ||
        loc.functionNameId > (int64_t)t.functionNames.size())
      return fail(t.loc, "FileLocations row " + Twine(i + 1) +
                             " names a file or function that is not in "
                             "FileNames/FunctionNames");
  for (auto [i, frame] : llvm::enumerate(t.frames))
    if (frame.fileLocationId < 1 ||
        frame.fileLocationId > (int64_t)t.fileLocations.size() ||
        frame.parentFrameId > (int64_t)t.frames.size())
      return fail(t.loc, "StackFrames row " + Twine(i + 1) +
                             " names a file location or parent frame that "
                             "does not exist");
  for (const Computation &comp : module.computations)
    for (const Instruction &inst : comp.instructions)
      if (inst.metadata &&
          inst.metadata->stackFrameId > (int64_t)t.frames.size())
        return fail(inst.loc,
                    "stack_frame_id=" + Twine(inst.metadata->stackFrameId) +
                        " is not a row of StackFrames (" +
                        Twine(t.frames.size()) + " rows)");
  return true;
}

bool Parser::inferShapes(Module &module) {
  ParseError inferError;
  if (inferInstructionShapes(module, inferError))
    return true;
  return fail(inferError.loc, inferError.message);
}

bool Parser::parseModule(Module &module) {
  module.loc = peek().getLoc();
  // XLA's parser also reads a module written without its header (the
  // computations alone); it is named after its entry computation.
  if (peek().isWord("HloModule")) {
    consume();
    if (!parseName(module.name, "a module name"))
      return false;
  } else {
    module.headerless = true;
  }
  while (!module.headerless && peek().is(Token::comma)) {
    consume();
    HloAttr attr;
    attr.loc = peek().getLoc();
    if (!peek().is(Token::word))
      return fail("expected a module attribute name, found " +
                  describe(peek()));
    attr.name = consume().text.str();
    if (!expect(Token::equal, "'=' after attribute '" + attr.name + "'"))
      return false;
    if (!parseAttributeValue(attr.value, Token::eof))
      return false;
    module.attributes.push_back(std::move(attr));
  }
  while (isStackFrameTable())
    if (!parseStackFrameTable(module.stackFrames))
      return false;
  bool sawEntry = false;
  while (!peek().is(Token::eof)) {
    if (peek().is(Token::error))
      return fail("unexpected input");
    Computation comp;
    if (!parseComputation(comp))
      return false;
    if (module.findComputation(comp.name))
      return fail(comp.loc, "computation '" + comp.name + "' is defined twice");
    if (comp.isEntry) {
      if (sawEntry)
        return fail(comp.loc, "a second ENTRY computation '" + comp.name + "'");
      sawEntry = true;
      module.entry = module.computations.size();
    }
    module.computations.push_back(std::move(comp));
  }
  if (module.computations.empty())
    return fail("the module has no computation");
  // Without ENTRY, the last computation is the entry (as XLA's parser does).
  if (!sawEntry)
    module.entry = module.computations.size() - 1;
  if (module.headerless)
    module.name = module.computations[module.entry].name;
  return checkStackFrames(module) && inferShapes(module);
}

bool Parser::parseStandaloneShape(Shape &shape) {
  if (!parseShape(shape))
    return false;
  if (!peek().is(Token::eof))
    return fail("unexpected " + describe(peek()) + " after the shape");
  return true;
}

bool xspmd::hlo::parseModule(StringRef buffer, Module &module,
                             ParseError &error) {
  Parser parser(buffer, error);
  return parser.parseModule(module);
}

bool xspmd::hlo::parseShape(StringRef text, Shape &shape, std::string &error) {
  ParseError parseError;
  Parser parser(text, parseError);
  if (parser.parseStandaloneShape(shape))
    return true;
  error = parseError.message;
  return false;
}
