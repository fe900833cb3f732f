//===- IRYAML.h - Textual form of the provenance IR -------------*- C++ -*-===//
//
// Part of tlp. The IR text is a YAML stream (LLVM YAML I/O): a
// `--- !tlp.module` document, one `--- !tlp.unit` document per compile
// unit, and a closing `--- !tlp.diagnostics` document. Printing and parsing
// round-trip exactly. See docs/IR.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_IRYAML_H
#define TLP_IR_IRYAML_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tlp {

/// Print the whole module: header, units, diagnostics.
void printModule(const Module &M, llvm::raw_ostream &OS);

/// The three parts, for printers that stream units one at a time.
void printModuleHeader(const Module &M, llvm::raw_ostream &OS);
void printUnit(const CompileUnit &U, llvm::raw_ostream &OS);
void printDiagnosticsDocument(llvm::ArrayRef<Diagnostic> Diags,
                              llvm::raw_ostream &OS);

/// True if \p Text starts like tlp IR (a `--- !tlp.` document).
bool looksLikeIR(llvm::StringRef Text);

/// Parse IR text. Errors in the text are reported to \p Diags with their
/// location in \p Buffer; the returned Error then says that parsing failed.
llvm::Expected<std::unique_ptr<Module>>
parseModule(llvm::MemoryBufferRef Buffer, DiagnosticEngine &Diags);

/// One document of IR text and the line of the input it starts on.
struct IRDocumentText {
  llvm::StringRef Text;
  unsigned Line = 1;
  /// Owns Text when it was read from a stream (empty for a buffer).
  std::string Storage;
};

/// Splits IR text into its documents (at lines that start with `---`),
/// either from a buffer in memory, without copying, or from a file
/// descriptor read piece by piece, so that a consumer can parse the first
/// unit while the producer of a pipe is still writing the rest.
class IRDocumentReader {
public:
  /// Read the documents of \p Buffer.
  explicit IRDocumentReader(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                            llvm::StringRef Name = "");
  /// Read the documents of \p Prefix (bytes already read from \p FD) and
  /// then of the rest of \p FD.
  IRDocumentReader(int FD, std::string Prefix, llvm::StringRef Name);

  /// The next document into \p D; false at the end of the input.
  llvm::Expected<bool> next(IRDocumentText &D);
  llvm::StringRef name() const { return Name; }
  /// Number of documents returned so far.
  unsigned count() const { return Count; }
  /// The last line read so far (at the end: the input's last line).
  unsigned lines() const { return NextLine > 1 ? NextLine - 1 : 1; }
  /// The tag of the next document (`!tlp.unit`), reading no further than
  /// its marker line; "" at the end of the input.
  llvm::Expected<std::string> peekTag();

private:
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  int FD = -1;
  bool AtEOF = false;
  std::string Pending; ///< Stream mode: bytes read and not yet returned.
  size_t Pos = 0;      ///< Buffer mode: offset of the next document.
  unsigned NextLine = 1;
  unsigned Count = 0;
  std::string Name;

  /// Stream mode: read what is there (at least a byte, or the end) onto
  /// Pending.
  llvm::Error readMore();
  /// Length of the document that starts \p Text, or npos if it may go on
  /// past the end of \p Text (unless \p AtEnd: nothing follows).
  static size_t documentLength(llvm::StringRef Text, bool AtEnd);
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
void printEndDocument(const IREndCounts &E, llvm::raw_ostream &OS);

/// Check the end of an IR stream that was read through: \p Said are the
/// counts of its end document (None if there was none; \p EndLine its
/// line), \p Read what was read, \p LastLine the stream's last line. A
/// missing end or other counts are an error in \p Diags (the stream was
/// cut short); returns false then.
bool checkIREnd(const llvm::Optional<IREndCounts> &Said, unsigned EndLine,
                const IREndCounts &Read, llvm::StringRef File,
                unsigned LastLine, DiagnosticEngine &Diags);

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

/// Read the first document of \p R, which must be the module header, and
/// the compile record documents that follow it, into \p M. The next
/// document of \p R is then the first unit or the diagnostics.
llvm::Error parseIRHeader(IRDocumentReader &R, Module &M,
                          DiagnosticEngine &Diags);

/// Report that document \p DocNo (\p T) is out of order.
llvm::Error outOfOrder(const IRDocumentText &T, unsigned DocNo,
                       llvm::StringRef File, DiagnosticEngine &Diags);

/// Parse one document of \p File. A header is read into \p M (which must
/// then be fresh); a compile record, unit or diagnostics document does not
/// touch \p M, so documents can be parsed on several threads. Errors go to
/// \p Diags with their line in the whole input.
llvm::Expected<ParsedIRDocument> parseIRDocument(const IRDocumentText &D,
                                                 llvm::StringRef File,
                                                 Module &M,
                                                 DiagnosticEngine &Diags);

} // namespace tlp

#endif // TLP_IR_IRYAML_H
