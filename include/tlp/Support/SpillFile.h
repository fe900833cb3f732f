//===- SpillFile.h - Text kept on disk until it is written ------*- C++ -*-===//
//
// Part of tlp. An emitter that must see every unit before it writes the
// first (the Markdown report's summary comes before the units' sections)
// keeps the units' texts here: in an unlinked temporary file, so that its
// memory does not grow with the log, or in memory when no temporary file
// can be made. The file is gone when the SpillFile is, however the process
// ends.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_SPILLFILE_H
#define TLP_SUPPORT_SPILLFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace tlp {

class SpillFile {
public:
  /// Where a text is.
  struct Piece {
    uint64_t Offset = 0;
    uint64_t Size = 0;
  };
  SpillFile();
  ~SpillFile();
  SpillFile(const SpillFile &) = delete;
  SpillFile &operator=(const SpillFile &) = delete;

  /// Keep \p Text; returns where it is.
  Piece append(llvm::StringRef Text);
  /// Write the text at \p P to \p OS; false if it cannot be read back (a
  /// write to the file failed, the disk full say: the caller reports it).
  bool writeTo(const Piece &P, llvm::raw_ostream &OS) const;
  /// True when the texts are in a file (false: in memory).
  bool onDisk() const { return FD >= 0; }

private:
  int FD = -1;
  uint64_t Size = 0;
  bool Failed = false;
  std::string Memory;
};

} // namespace tlp

#endif // TLP_SUPPORT_SPILLFILE_H
