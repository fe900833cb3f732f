//===- Diagnostics.cpp - Located diagnostics for tlp ----------------------===//

#include "tlp/Support/Diagnostics.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace tlp {

StringRef severityName(Severity S) {
  switch (S) {
  case Severity::Error:
    return "error";
  case Severity::Warning:
    return "warning";
  case Severity::Note:
    return "note";
  }
  return "note";
}

void printDiagnostic(raw_ostream &OS, const Diagnostic &D, StringRef ToolName,
                     bool UseColor) {
  {
    WithColor Loc(OS, HighlightColor::Note,
                  UseColor ? ColorMode::Auto : ColorMode::Disable);
    if (!D.File.empty()) {
      Loc << printable(D.File) << ':';
      if (D.Line)
        Loc << D.Line << ':';
    } else if (!ToolName.empty()) {
      Loc << ToolName << ':';
    }
  }
  OS << ' ';
  HighlightColor C = D.Sev == Severity::Error     ? HighlightColor::Error
                     : D.Sev == Severity::Warning ? HighlightColor::Warning
                                                  : HighlightColor::Remark;
  WithColor(OS, C, UseColor ? ColorMode::Auto : ColorMode::Disable)
      << severityName(D.Sev) << ':';
  // Log text in a message (names, keys, values) prints as printable()
  // makes it: no escape sequence reaches the terminal.
  OS << ' ' << printable(D.Message) << '\n';
  if (!D.Excerpt.empty())
    OS << printable(D.Excerpt) << '\n';
}

void DiagnosticEngine::report(Severity Sev, StringRef File, uint32_t Line,
                              const Twine &Message, StringRef Excerpt) {
  Diagnostic D;
  D.Sev = Sev;
  D.File = File.str();
  D.Line = Line;
  D.Message = Message.str();
  D.Excerpt = Excerpt.str();
  add(std::move(D));
}

void DiagnosticEngine::add(Diagnostic D) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Diags.push_back(std::move(D));
}

void DiagnosticEngine::append(DiagnosticEngine &Other) {
  if (&Other == this)
    return;
  std::vector<Diagnostic> Moved;
  {
    std::lock_guard<std::mutex> Lock(Other.Mutex);
    Moved = std::move(Other.Diags);
    Other.Diags.clear();
    Other.Printed = 0;
  }
  std::lock_guard<std::mutex> Lock(Mutex);
  for (Diagnostic &D : Moved)
    Diags.push_back(std::move(D));
}

std::vector<Diagnostic> DiagnosticEngine::diagnostics() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Diags;
}

unsigned DiagnosticEngine::numErrors() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  unsigned N = 0;
  for (const Diagnostic &D : Diags)
    N += D.Sev == Severity::Error;
  return N;
}

unsigned DiagnosticEngine::numWarnings() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  unsigned N = 0;
  for (const Diagnostic &D : Diags)
    N += D.Sev == Severity::Warning;
  return N;
}

size_t DiagnosticEngine::size() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Diags.size();
}

void DiagnosticEngine::printNew(raw_ostream &OS, StringRef ToolName,
                                bool UseColor) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (UseColor) {
    for (; Printed < Diags.size(); ++Printed)
      printDiagnostic(OS, Diags[Printed], ToolName, UseColor);
    OS.flush();
    return;
  }
  // stderr is unbuffered: a few writes per diagnostic made 100,000
  // warnings cost seconds of system calls. Gather them in 64 KB pieces.
  std::string Buf;
  raw_string_ostream S(Buf);
  for (; Printed < Diags.size(); ++Printed) {
    printDiagnostic(S, Diags[Printed], ToolName, false);
    if (Buf.size() >= 65536) {
      OS << S.str();
      Buf.clear();
    }
  }
  OS << S.str();
  OS.flush();
}

void DiagnosticEngine::markPrinted() {
  std::lock_guard<std::mutex> Lock(Mutex);
  Printed = Diags.size();
}

} // namespace tlp
