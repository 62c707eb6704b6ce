//===- HloLexer.h - tokens of HloModule text --------------------*- C++ -*-===//
//
// HLO text has few punctuation marks that matter for its structure:
// brackets, commas, `=` and strings. Everything else (names, opcodes,
// numbers, `b01f_01io->b01f`, `1_1x1_1`) is a word, interpreted by whoever
// reads it. Comments (`/*index=5*/`, `// ...`) are skipped.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOLEXER_H
#define XSPMD_LIB_HLO_HLOLEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace xspmd::hlo {

struct Token {
  enum Kind {
    eof,
    error,
    word,
    string,
    l_paren,
    r_paren,
    l_square,
    r_square,
    l_brace,
    r_brace,
    comma,
    equal,
  };
  Kind kind = eof;
  /// The token's text (a string's text includes its quotes).
  llvm::StringRef text;
  /// A newline separates this token from the previous one.
  bool newlineBefore = false;
  /// No whitespace separates this token from the previous one.
  bool adjacent = false;

  bool is(Kind k) const { return kind == k; }
  bool isWord(llvm::StringRef w) const { return kind == word && text == w; }
  llvm::SMLoc getLoc() const {
    return llvm::SMLoc::getFromPointer(text.data());
  }
  const char *end() const { return text.data() + text.size(); }
};

class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer) : buffer(buffer), pos(buffer.data()) {}

  /// The next token; an unterminated string or comment is an `error` token
  /// whose text is where it starts.
  Token lex();

  llvm::StringRef getBuffer() const { return buffer; }

private:
  /// Skips whitespace and comments; false on an unterminated comment.
  bool skipTrivia(bool &sawNewline, const char *&unterminated);

  llvm::StringRef buffer;
  const char *pos;
};

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOLEXER_H
