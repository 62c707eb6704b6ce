//===- HloLexer.cpp - tokens of HloModule text ----------------------------===//

#include "lib/hlo/HloLexer.h"

using namespace xspmd::hlo;

static bool isPunct(char c) {
  return c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' ||
         c == ',' || c == '=' || c == '"';
}

static bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v';
}

bool Lexer::skipTrivia(bool &sawNewline, const char *&unterminated) {
  const char *end = buffer.end();
  while (pos < end) {
    if (isSpace(*pos)) {
      sawNewline |= *pos == '\n';
      ++pos;
      continue;
    }
    if (*pos == '/' && pos + 1 < end && pos[1] == '/') {
      while (pos < end && *pos != '\n')
        ++pos;
      continue;
    }
    if (*pos == '/' && pos + 1 < end && pos[1] == '*') {
      const char *start = pos;
      pos += 2;
      while (pos + 1 < end && !(pos[0] == '*' && pos[1] == '/')) {
        sawNewline |= *pos == '\n';
        ++pos;
      }
      if (pos + 1 >= end) {
        unterminated = start;
        pos = end;
        return false;
      }
      pos += 2;
      continue;
    }
    break;
  }
  return true;
}

Token Lexer::lex() {
  Token tok;
  const char *before = pos;
  const char *unterminated = nullptr;
  if (!skipTrivia(tok.newlineBefore, unterminated)) {
    tok.kind = Token::error;
    tok.text = llvm::StringRef(unterminated, 2);
    return tok;
  }
  tok.adjacent = pos == before;
  const char *end = buffer.end();
  if (pos >= end) {
    tok.kind = Token::eof;
    tok.text = llvm::StringRef(end, 0);
    return tok;
  }
  const char *start = pos;
  auto single = [&](Token::Kind kind) {
    tok.kind = kind;
    tok.text = llvm::StringRef(start, 1);
    ++pos;
    return tok;
  };
  switch (*pos) {
  case '(':
    return single(Token::l_paren);
  case ')':
    return single(Token::r_paren);
  case '[':
    return single(Token::l_square);
  case ']':
    return single(Token::r_square);
  case '{':
    return single(Token::l_brace);
  case '}':
    return single(Token::r_brace);
  case ',':
    return single(Token::comma);
  case '=':
    return single(Token::equal);
  case '"': {
    ++pos;
    while (pos < end && *pos != '"') {
      if (*pos == '\\' && pos + 1 < end)
        ++pos;
      ++pos;
    }
    if (pos >= end) {
      tok.kind = Token::error;
      tok.text = llvm::StringRef(start, 1);
      return tok;
    }
    ++pos;
    tok.kind = Token::string;
    tok.text = llvm::StringRef(start, pos - start);
    return tok;
  }
  default:
    break;
  }
  while (pos < end && !isSpace(*pos) && !isPunct(*pos) &&
         !(*pos == '/' && pos + 1 < end && (pos[1] == '/' || pos[1] == '*')))
    ++pos;
  tok.kind = Token::word;
  tok.text = llvm::StringRef(start, pos - start);
  return tok;
}
