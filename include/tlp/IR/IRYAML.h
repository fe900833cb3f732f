//===- IRYAML.h - Textual form of the provenance IR -------------*- C++ -*-===//
//
// Part of tlp. The IR text is a YAML stream (LLVM YAML I/O): a
// `--- !tlp.module` document, its `--- !tlp.compile` records, one
// `--- !tlp.unit` document per compile unit, a `--- !tlp.diagnostics`
// document and a closing `--- !tlp.end`. This is the codec: printing, and
// parsing one document; printing and parsing round-trip exactly. Reading a
// stream document by document is IRDocumentReader.h. The same traits also
// write and read the compact binary form (IRCompactIO.h). See docs/IR.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_IRYAML_H
#define TLP_IR_IRYAML_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tlp {

/// The two forms of the IR: the YAML text (the default, readable) and the
/// compact binary form (IRCompactIO.h), for a pipe between two tools.
enum class IRForm { Text, Compact };

/// Print the whole module: header, units, diagnostics, end.
void printModule(const Module &M, llvm::raw_ostream &OS,
                 IRForm Form = IRForm::Text);

/// The parts, for printers that stream units one at a time. \p Raw
/// says how raw events that are not loaded are written: where they are in
/// their log, or their texts read through its reader (without it: their
/// texts if loaded, else `unavailable`). In the compact form the header
/// starts with the stream's preamble.
void printModuleHeader(const Module &M, llvm::raw_ostream &OS,
                       const RawWriteContext *Raw = nullptr,
                       IRForm Form = IRForm::Text);
void printUnit(const CompileUnit &U, llvm::raw_ostream &OS,
               IRForm Form = IRForm::Text);
void printDiagnosticsDocument(llvm::ArrayRef<Diagnostic> Diags,
                              llvm::raw_ostream &OS,
                              IRForm Form = IRForm::Text);
/// The last document of a tool that failed half way through its stdout
/// (`--- !tlp.error`): every reader refuses the stream.
void printErrorDocument(llvm::StringRef Message, llvm::raw_ostream &OS,
                        IRForm Form = IRForm::Text);

/// True if \p Text starts like tlp IR text (a `--- !tlp.` document).
bool looksLikeIR(llvm::StringRef Text);

/// One document of IR and where in the input it starts.
struct IRDocumentText {
  /// The text form: the document's text. The compact form: its body.
  llvm::StringRef Text;
  /// The text form: the line it starts on (0 in the compact form).
  unsigned Line = 1;
  /// Owns Text when it was read from a stream (empty for a buffer).
  std::string Storage;
  /// The compact form: Text is a frame's body, which starts at byte Offset
  /// of the input; Problem, if not empty, is why the frame (or the stream's
  /// preamble) could not be read, and the parser reports it.
  bool Compact = false;
  uint64_t Offset = 0;
  std::string Problem;
};

enum class IRDocumentKind { Header, Compile, Unit, Diagnostics, End };

/// The counts of the closing `!tlp.end` document: what a whole stream
/// holds, so that a stream cut at a document boundary is told from a whole
/// one.
struct IREndCounts {
  uint64_t Units = 0;
  uint64_t Compiles = 0;
  uint64_t Diagnostics = 0;
};

/// Print the closing document.
void printEndDocument(const IREndCounts &E, llvm::raw_ostream &OS,
                      IRForm Form = IRForm::Text);

/// What one parsed document holds.
struct ParsedIRDocument {
  IRDocumentKind Kind = IRDocumentKind::Unit;
  /// For a compile record document.
  CompileRecord Compile;
  /// For a unit document.
  std::unique_ptr<CompileUnit> Unit;
  /// For a diagnostics document.
  std::vector<Diagnostic> Diagnostics;
  /// For the end document.
  IREndCounts End;
};

/// Parse one document of \p File, of either form. A header is read into
/// \p M (which must then be fresh); a compile record, unit or diagnostics
/// document does not touch \p M, so documents can be parsed on several
/// threads. Errors go to \p Diags with their line in the whole input (the
/// compact form: "at byte N", their offset in it).
llvm::Expected<ParsedIRDocument> parseIRDocument(const IRDocumentText &D,
                                                 llvm::StringRef File,
                                                 Module &M,
                                                 DiagnosticEngine &Diags);

} // namespace tlp

#endif // TLP_IR_IRYAML_H
