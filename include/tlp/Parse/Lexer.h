//===- Lexer.h - The lexer of the FX and wrapper parsers --------*- C++ -*-===//
//
// Part of tlp. The one lexer of the three text parsers of lib/Parse: the
// FX graph parser (print_readable Python), the Python wrapper parser and
// the C++ wrapper / kernel file parser. Python lines: indentation,
// identifiers and dotted chains, string literals, the positions at bracket
// depth 0 outside string literals. C++ lines: `::` chains and a line lexer
// that blanks comments and literals (block comments and raw strings may
// span lines). Everything works on StringRef slices of the payload text
// and allocates nothing but what it returns.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PARSE_LEXER_H
#define TLP_PARSE_LEXER_H

#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>

namespace tlp {
namespace lex {

/// The number of spaces and tabs at the start of \p L.
inline unsigned indentOf(llvm::StringRef L) {
  unsigned I = 0;
  while (I < L.size() && (L[I] == ' ' || L[I] == '\t'))
    ++I;
  return I;
}

/// The length of the identifier at the start of \p S (0 if none).
inline size_t identLen(llvm::StringRef S) {
  if (S.empty() || !isIdentStart(S[0]))
    return 0;
  size_t I = 1;
  while (I < S.size() && isIdentChar(S[I]))
    ++I;
  return I;
}

/// The length of the chain of identifiers joined by \p Sep at the start of
/// \p S: `torch.ops.aten.mm` (Python, "."), `torch::aot::run` (C++, "::").
/// A separator not followed by an identifier ends the chain before it.
inline size_t chainLen(llvm::StringRef S, llvm::StringRef Sep = ".") {
  size_t I = identLen(S);
  if (!I)
    return 0;
  while (I + Sep.size() < S.size() && S.substr(I).startswith(Sep)) {
    size_t N = identLen(S.substr(I + Sep.size()));
    if (!N)
      break;
    I += Sep.size() + N;
  }
  return I;
}

/// One step of a left-to-right scan of \p S over Python string literals:
/// true when S[I] is inside a literal or opens one (the caller skips it),
/// stepping \p I over an escaped character; \p Quote is the open quote,
/// 0 outside a literal.
inline bool inStringLiteral(llvm::StringRef S, size_t &I, char &Quote) {
  char C = S[I];
  if (Quote) {
    if (C == '\\')
      ++I;
    else if (C == Quote)
      Quote = 0;
    return true;
  }
  if (C == '"' || C == '\'') {
    Quote = C;
    return true;
  }
  return false;
}

/// Call \p F(I) for each position \p I of \p S, from \p From on, that is
/// at bracket depth 0 (counting (), [] and {} before it) and outside
/// Python string literals ('...' or "...", with backslash escapes; the
/// quotes themselves are not visited), until \p F returns true. Returns
/// that position, or npos.
template <typename Fn>
size_t findTopLevelIf(llvm::StringRef S, Fn F, size_t From = 0) {
  int Depth = 0;
  char Quote = 0;
  for (size_t I = From; I < S.size(); ++I) {
    if (inStringLiteral(S, I, Quote))
      continue;
    char C = S[I];
    if (Depth == 0 && F(I))
      return I;
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}')
      --Depth;
  }
  return llvm::StringRef::npos;
}

/// The first position from \p From where \p Needle starts at bracket
/// depth 0 outside string literals (findTopLevelIf), or npos.
inline size_t findTopLevel(llvm::StringRef S, llvm::StringRef Needle,
                           size_t From = 0) {
  return findTopLevelIf(
      S, [&](size_t I) { return S.substr(I).startswith(Needle); }, From);
}

/// Call \p F(Name) on every identifier of the Python expression \p S that
/// may name a value: outside string literals, not after '.', not a callee
/// (followed by '(') and not a keyword argument name (followed by '=' but
/// not '==').
template <typename Fn> void forEachValueName(llvm::StringRef S, Fn F) {
  char Quote = 0;
  for (size_t I = 0, E = S.size(); I < E; ++I) {
    if (inStringLiteral(S, I, Quote))
      continue;
    char C = S[I];
    if (!isIdentStart(C) || (I && (isIdentChar(S[I - 1]) || S[I - 1] == '.')))
      continue;
    size_t J = I;
    while (J < E && isIdentChar(S[J]))
      ++J;
    size_t K = J;
    while (K < E && S[K] == ' ')
      ++K;
    bool Callee = K < E && S[K] == '(';
    bool Keyword = K < E && S[K] == '=' && !(K + 1 < E && S[K + 1] == '=');
    if (!Callee && !Keyword)
      F(S.slice(I, J));
    I = J - 1;
  }
}

/// A `"text"` literal at the start of \p S (no escapes: FX annotations):
/// its text in \p Out; returns the characters it takes, 0 if \p S does not
/// start with one.
inline size_t quoted(llvm::StringRef S, std::string &Out) {
  if (S.empty() || S[0] != '"')
    return 0;
  size_t E = S.find('"', 1);
  if (E == llvm::StringRef::npos)
    return 0;
  Out = S.substr(1, E - 1).str();
  return E + 1;
}

/// A C or C++ line split into its code, with literals' contents and
/// comments blanked to spaces (quotes kept, so that braces and
/// parentheses can be matched and columns stay the same), and the text
/// after its `//`.
struct CppLine {
  std::string Code;
  llvm::StringRef Comment;
};

/// Lexes C and C++ lines in order, keeping the state that spans lines: an
/// open block comment or raw string literal.
class CppLineLexer {
public:
  void lex(llvm::StringRef L, CppLine &Out);

private:
  bool InBlock = false;
  std::string RawDelim;
};

} // namespace lex
} // namespace tlp

#endif // TLP_PARSE_LEXER_H
