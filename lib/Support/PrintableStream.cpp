//===- PrintableStream.cpp - A stream that writes its text printable() ----===//
//
// Part of tlp.
//
//===----------------------------------------------------------------------===//

#include "tlp/Support/PrintableStream.h"
#include "tlp/Support/StringUtils.h"

using namespace llvm;

namespace tlp {

void writePrintable(raw_ostream &OS, StringRef S) {
  if (isPrintable(S)) {
    OS << S;
    return;
  }
  // Rare (a log's control bytes or broken UTF-8): the whole piece at once.
  OS << printable(S);
}

PrintableStream::~PrintableStream() { finish(); }

void PrintableStream::finish() {
  flush();
  if (!Partial.empty()) {
    writePrintable(Out, Partial);
    Partial.clear();
  }
}

void PrintableStream::write_impl(const char *Ptr, size_t Size) {
  Pos += Size;
  StringRef S(Ptr, Size);
  size_t NL = S.rfind('\n');
  if (NL == StringRef::npos) {
    Partial.append(Ptr, Size);
    return;
  }
  StringRef Done = S.take_front(NL + 1);
  if (Partial.empty()) {
    writePrintable(Out, Done);
  } else {
    Partial.append(Done.data(), Done.size());
    writePrintable(Out, Partial);
    Partial.clear();
  }
  Partial.assign(S.data() + NL + 1, S.size() - NL - 1);
}

} // namespace tlp
