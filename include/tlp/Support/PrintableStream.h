//===- PrintableStream.h - Text written made printable() --------*- C++ -*-===//
//
// Part of tlp. A raw_ostream whose text reaches the stream under it made
// printable() (StringUtils.h) a line at a time, so that a long document
// (the Markdown report's head: 25 MB for a 356 MB log) is neither held
// whole nor copied to be made printable.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_PRINTABLESTREAM_H
#define TLP_SUPPORT_PRINTABLESTREAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tlp {

/// Write printable(\p S) to \p OS without making the string.
void writePrintable(llvm::raw_ostream &OS, llvm::StringRef S);

/// Writes to \p Out what is written to it, made printable(): what ends
/// in a newline as it comes (a newline is never inside a UTF-8 sequence,
/// so the result is printable() of the whole text, byte for byte), a last
/// line without one at finish() or destruction.
class PrintableStream : public llvm::raw_ostream {
public:
  explicit PrintableStream(llvm::raw_ostream &Out) : Out(Out) {}
  ~PrintableStream() override;

  /// Write everything written so far, a last partial line too.
  void finish();

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Pos; }

  llvm::raw_ostream &Out;
  /// A line begun and not ended yet.
  std::string Partial;
  uint64_t Pos = 0;
};

} // namespace tlp

#endif // TLP_SUPPORT_PRINTABLESTREAM_H
