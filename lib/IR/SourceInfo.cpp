//===- SourceInfo.cpp - User source locations in IR strings ---------------===//

#include "tlp/IR/SourceInfo.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"

using namespace llvm;

namespace tlp {

Optional<SourceLoc> parseFXFileComment(StringRef Line) {
  StringRef S = trimWS(Line);
  if (!S.consume_front("#"))
    return None;
  size_t F = S.find("File: ");
  if (F == StringRef::npos)
    return None;
  // Only `Annotation: {...}` may come before `File:`.
  StringRef Before = trimWS(S.substr(0, F));
  if (!Before.empty() && !Before.startswith("Annotation:"))
    return None;
  S = S.substr(F + 6);
  // The path ends at the first ":<digits> in " (paths may hold ':').
  size_t Pos = 0;
  while (true) {
    size_t C = S.find(':', Pos);
    if (C == StringRef::npos)
      return None;
    size_t D = C + 1;
    while (D < S.size() && S[D] >= '0' && S[D] <= '9')
      ++D;
    if (D > C + 1 && S.substr(D).startswith(" in ")) {
      SourceLoc L;
      L.File = S.substr(0, C).str();
      uint64_t N;
      // Python lines count from 1; a line 0 locates nothing (as in
      // parseStackTrace).
      if (!parseUnsigned(S.substr(C + 1, D - C - 1), N) || N > UINT32_MAX ||
          N == 0)
        return None;
      L.Line = static_cast<uint32_t>(N);
      StringRef Rest = S.substr(D + 4);
      size_t CodePos = Rest.find(", code: ");
      if (CodePos == StringRef::npos) {
        L.Function = trimWS(Rest).str();
      } else {
        L.Function = Rest.substr(0, CodePos).str();
        L.Code = trimWS(Rest.substr(CodePos + 8)).str();
      }
      return L;
    }
    Pos = C + 1;
  }
}

std::string decodeStackTraceText(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\\' && I + 1 < Text.size() && Text[I + 1] == 'n') {
      Out += '\n';
      ++I;
      continue;
    }
    Out += Text[I];
  }
  return Out;
}

/// A traceback's underline: spaces, then `^` (the call) and `~` (the
/// operands of an operator or subscript Python 3.11 anchors), nothing else.
static bool isUnderline(StringRef L) {
  L = L.rtrim(" \r");
  StringRef Marks = L.ltrim(' ');
  return !Marks.empty() && Marks.contains('^') &&
         Marks.find_first_not_of("^~") == StringRef::npos;
}

/// The span the underline \p Under marks in the code line \p CodeLine, as
/// offsets into S.Code (the code line without its indentation). Python
/// writes the underline in display columns, which are characters only for
/// ASCII: on any other code line, or an underline outside the code, no
/// span is set (nothing is said rather than a wrong column).
static void setSpan(SourceLoc &S, StringRef CodeLine, StringRef Under) {
  size_t Indent = CodeLine.size() - CodeLine.ltrim(" \t").size();
  Under = Under.rtrim(" \r");
  size_t B = Under.size() - Under.ltrim(' ').size();
  size_t E = Under.size();
  if (B < Indent || E - Indent > S.Code.size() ||
      llvm::any_of(S.Code, [](char C) { return (unsigned char)C >= 0x80; }))
    return;
  S.SpanBegin = static_cast<uint32_t>(B - Indent);
  S.SpanEnd = static_cast<uint32_t>(E - Indent);
}

std::vector<SourceLoc> parseStackTrace(StringRef Text) {
  std::vector<SourceLoc> Frames;
  std::vector<StringRef> Lines;
  // Most traces have real newlines only: decode only when needed.
  std::string Decoded;
  if (Text.contains("\\n")) {
    Decoded = decodeStackTraceText(Text);
    Text = Decoded;
  }
  splitLines(Text, Lines);
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef L = trimWS(Lines[I]);
    if (!L.consume_front("File \""))
      continue;
    size_t Q = L.find("\", line ");
    if (Q == StringRef::npos)
      continue;
    SourceLoc S;
    S.File = L.substr(0, Q).str();
    StringRef Rest = L.substr(Q + 8);
    size_t Comma = Rest.find(',');
    uint64_t N;
    if (!parseUnsigned(Rest.substr(0, Comma), N) || N > UINT32_MAX || N == 0)
      continue;
    S.Line = static_cast<uint32_t>(N);
    if (Comma != StringRef::npos) {
      StringRef Fn = trimWS(Rest.substr(Comma + 1));
      if (Fn.consume_front("in "))
        S.Function = Fn.str();
    }
    // The code line follows unless it is the next frame; then, maybe, the
    // line that underlines part of it.
    if (I + 1 < Lines.size()) {
      StringRef Next = trimWS(Lines[I + 1]);
      if (!Next.startswith("File \"") && !Next.empty()) {
        S.Code = Next.str();
        ++I;
        if (I + 1 < Lines.size() && isUnderline(Lines[I + 1])) {
          setSpan(S, Lines[I], Lines[I + 1]);
          ++I;
        }
      }
    }
    Frames.push_back(std::move(S));
  }
  return Frames;
}

} // namespace tlp
