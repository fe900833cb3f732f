//===- IRDocumentReader.h - IR text read document by document ---*- C++ -*-===//
//
// Part of tlp. Reads IR text (IRYAML.h) as a stream of documents: split
// at the document markers, from memory or from a descriptor read piece by
// piece, each document parsed by the codec, in the order the text form
// requires (header, compile records, units, diagnostics, end). See
// docs/IR.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_IRDOCUMENTREADER_H
#define TLP_IR_IRDOCUMENTREADER_H

#include "tlp/IR/IRYAML.h"

#include "llvm/ADT/Optional.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace tlp {

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

/// Parse IR text. Errors in the text are reported to \p Diags with their
/// location in \p Buffer; the returned Error then says that parsing failed.
llvm::Expected<std::unique_ptr<Module>>
parseModule(llvm::MemoryBufferRef Buffer, DiagnosticEngine &Diags);

/// Read the first document of \p R, which must be the module header, and
/// the compile record documents that follow it, into \p M. The next
/// document of \p R is then the first unit or the diagnostics.
llvm::Error parseIRHeader(IRDocumentReader &R, Module &M,
                          DiagnosticEngine &Diags);

/// Report that document \p DocNo (\p T) is out of order.
llvm::Error outOfOrder(const IRDocumentText &T, unsigned DocNo,
                       llvm::StringRef File, DiagnosticEngine &Diags);

/// Check the end of an IR stream that was read through: \p Said are the
/// counts of its end document (None if there was none; \p EndLine its
/// line), \p Read what was read, \p LastLine the stream's last line. A
/// missing end or other counts are an error in \p Diags (the stream was
/// cut short); returns false then.
bool checkIREnd(const llvm::Optional<IREndCounts> &Said, unsigned EndLine,
                const IREndCounts &Read, llvm::StringRef File,
                unsigned LastLine, DiagnosticEngine &Diags);

} // namespace tlp

#endif // TLP_IR_IRDOCUMENTREADER_H
