//===- Lexer.cpp - The lexer of the FX and wrapper parsers ----------------===//

#include "tlp/Parse/Lexer.h"

#include "llvm/ADT/Twine.h"

using namespace llvm;

namespace tlp {
namespace lex {

void CppLineLexer::lex(StringRef L, CppLine &Out) {
  Out.Code.assign(L.size(), ' ');
  Out.Comment = StringRef();
  size_t I = 0;
  while (I < L.size()) {
    if (InBlock) {
      size_t E = L.find("*/", I);
      if (E == StringRef::npos)
        return;
      I = E + 2;
      InBlock = false;
      continue;
    }
    if (!RawDelim.empty()) {
      size_t E = L.find(RawDelim, I);
      if (E == StringRef::npos)
        return;
      I = E + RawDelim.size();
      RawDelim.clear();
      continue;
    }
    char C = L[I];
    if (C == '/' && I + 1 < L.size() && L[I + 1] == '/') {
      Out.Comment = L.substr(I + 2);
      return;
    }
    if (C == '/' && I + 1 < L.size() && L[I + 1] == '*') {
      InBlock = true;
      I += 2;
      continue;
    }
    if (C == 'R' && I + 1 < L.size() && L[I + 1] == '"' &&
        (I == 0 || !isIdentChar(L[I - 1]))) {
      size_t Open = L.find('(', I + 2);
      if (Open != StringRef::npos) {
        RawDelim = (")" + L.substr(I + 2, Open - I - 2) + "\"").str();
        I = Open + 1;
        continue;
      }
    }
    if (C == '"' || C == '\'') {
      Out.Code[I] = C;
      size_t J = I + 1;
      while (J < L.size() && L[J] != C) {
        if (L[J] == '\\')
          ++J;
        ++J;
      }
      if (J < L.size())
        Out.Code[J] = C;
      I = J + 1;
      continue;
    }
    Out.Code[I] = C;
    ++I;
  }
}

} // namespace lex
} // namespace tlp
