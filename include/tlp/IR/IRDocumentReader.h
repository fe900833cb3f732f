//===- IRDocumentReader.h - IR text read document by document ---*- C++ -*-===//
//
// Part of tlp. Reads IR (IRYAML.h) as a stream of documents: the text
// form split at the document markers, the compact form (IRCompactIO.h) at
// its frames, from memory or from a descriptor read piece by piece, each
// document parsed by the codec, in the order the IR requires (header,
// compile records, units, diagnostics, end). See docs/IR.md.
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

/// Splits IR into its documents (text: at lines that start with `---`;
/// compact: at its frames), either from a buffer in memory, without
/// copying, or from a file descriptor read piece by piece, so that a
/// consumer can parse the first unit while the producer of a pipe is still
/// writing the rest. The form is told by the first bytes (CompactMagic).
class IRDocumentReader {
public:
  /// Read the documents of \p Buffer.
  explicit IRDocumentReader(std::unique_ptr<llvm::MemoryBuffer> Buffer,
                            llvm::StringRef Name = "");
  /// Read the documents of \p Prefix (bytes already read from \p FD) and
  /// then of the rest of \p FD. \p Prefix holds the first line of text
  /// that is no comment, or the magic of the compact form.
  IRDocumentReader(int FD, std::string Prefix, llvm::StringRef Name);

  /// The next document into \p D; false at the end of the input. In the
  /// compact form, a frame that cannot be read (cut short, a corrupt
  /// length, a preamble of another version) is a document whose Problem
  /// says why, and the last one.
  llvm::Expected<bool> next(IRDocumentText &D);
  llvm::StringRef name() const { return Name; }
  /// Number of documents returned so far.
  unsigned count() const { return Count; }
  /// The last line read so far (at the end: the input's last line); 0 in
  /// the compact form.
  unsigned lines() const {
    return Compact ? 0 : NextLine > 1 ? NextLine - 1 : 1;
  }
  /// Whether the input is of the compact form.
  bool isCompact() const { return Compact; }
  /// The compact form: the bytes read through so far (at the end: the
  /// input's size).
  uint64_t offset() const { return Consumed; }
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
  bool Compact = false;
  /// The compact form: the preamble was read; a frame could not be read.
  bool PreambleRead = false;
  bool Stopped = false;
  /// The compact form: the offset in the input of the next frame.
  uint64_t Consumed = 0;

  /// The compact form of next() and peekTag().
  llvm::Expected<bool> nextFrame(IRDocumentText &D);
  llvm::Expected<std::string> peekFrameTag();
  /// The bytes not returned yet; in stream mode, reading on until there
  /// are \p Want of them or the input ends.
  llvm::Expected<llvm::StringRef> available(size_t Want);
  void consume(size_t N);

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
/// counts of its end document (None if there was none; \p End where it
/// is), \p Read what was read, \p Last where the stream ends. A missing
/// end or other counts are an error in \p Diags (the stream was cut
/// short); returns false then.
bool checkIREnd(const llvm::Optional<IREndCounts> &Said,
                const IRDocumentText &End, const IREndCounts &Read,
                const IRDocumentReader &R, DiagnosticEngine &Diags);

} // namespace tlp

#endif // TLP_IR_IRDOCUMENTREADER_H
