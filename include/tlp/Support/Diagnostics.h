//===- Diagnostics.h - Located diagnostics for tlp --------------*- C++ -*-===//
//
// Part of tlp. Diagnostics are values: every parser, pass and emitter reports
// through a DiagnosticEngine, which collects them (they end up in the IR and
// in the JSON output) and prints them as `file:line: severity: message`.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_DIAGNOSTICS_H
#define TLP_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace tlp {

enum class Severity { Error, Warning, Note };

llvm::StringRef severityName(Severity S);

/// One diagnostic. `File` is a path as the user gave it (empty when the
/// diagnostic has no location); `Line` is 1-based, 0 when unknown.
struct Diagnostic {
  Severity Sev = Severity::Warning;
  std::string File;
  uint32_t Line = 0;
  std::string Message;
  /// Optional text shown under the message (the offending line).
  std::string Excerpt;

  bool operator==(const Diagnostic &O) const {
    return Sev == O.Sev && File == O.File && Line == O.Line &&
           Message == O.Message && Excerpt == O.Excerpt;
  }
};

/// Print \p D as `file:line: severity: message`, followed by the excerpt,
/// each made printable() (no control character from a log reaches a
/// terminal).
void printDiagnostic(llvm::raw_ostream &OS, const Diagnostic &D,
                     llvm::StringRef ToolName, bool UseColor);

/// Collects diagnostics. Thread-safe; callers that need a deterministic
/// order across threads report into a local engine and merge with append().
class DiagnosticEngine {
public:
  DiagnosticEngine() = default;
  DiagnosticEngine(const DiagnosticEngine &) = delete;
  DiagnosticEngine &operator=(const DiagnosticEngine &) = delete;

  void report(Severity Sev, llvm::StringRef File, uint32_t Line,
              const llvm::Twine &Message, llvm::StringRef Excerpt = "");
  void error(llvm::StringRef File, uint32_t Line, const llvm::Twine &Msg) {
    report(Severity::Error, File, Line, Msg);
  }
  void warning(llvm::StringRef File, uint32_t Line, const llvm::Twine &Msg) {
    report(Severity::Warning, File, Line, Msg);
  }
  void note(llvm::StringRef File, uint32_t Line, const llvm::Twine &Msg) {
    report(Severity::Note, File, Line, Msg);
  }
  void add(Diagnostic D);
  /// Move every diagnostic of \p Other to the end of this engine.
  void append(DiagnosticEngine &Other);

  /// A snapshot of everything reported so far, in report order.
  std::vector<Diagnostic> diagnostics() const;
  unsigned numErrors() const;
  unsigned numWarnings() const;
  size_t size() const;

  /// Print diagnostics reported since the last call (or since construction)
  /// to \p OS. Used by tools to print as each phase ends.
  void printNew(llvm::raw_ostream &OS, llvm::StringRef ToolName, bool UseColor);
  /// Mark everything reported so far as printed (used when diagnostics come
  /// from an input that already printed them, such as IR from tlp-opt).
  void markPrinted();

private:
  mutable std::mutex Mutex;
  std::vector<Diagnostic> Diags;
  size_t Printed = 0;
};

} // namespace tlp

#endif // TLP_SUPPORT_DIAGNOSTICS_H
