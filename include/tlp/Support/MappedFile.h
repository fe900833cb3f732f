//===- MappedFile.h - A log's bytes, mapped, read by range ------*- C++ -*-===//
//
// Part of tlp. The bytes of one input file as a MemoryBuffer (memory-mapped
// when LLVM maps it), with the two operations that keep resident memory
// small on multi-GB logs: release() lets the OS drop the mapped pages of a
// range the reader is done with, and read() copies a range with a
// positioned read on a second descriptor (from the page cache, without
// mapping the pages into this process). The platform calls live here only.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_MAPPEDFILE_H
#define TLP_SUPPORT_MAPPEDFILE_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tlp {

class MappedFile {
public:
  /// Take \p Buffer (may be null: an empty file). When it is mapped and
  /// \p Path names a file ("-" is stdin), the file is opened once more for
  /// read().
  MappedFile(std::unique_ptr<llvm::MemoryBuffer> Buffer, llvm::StringRef Path);
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  llvm::StringRef bytes() const;
  /// True if the bytes are a mapping of the file.
  bool isMapped() const;
  /// Let the OS drop the pages of [Offset, Offset + Size) (mapped files
  /// only; a no-op for memory the process owns).
  void release(uint64_t Offset, uint64_t Size) const;
  /// Copy [Offset, Offset + Size) into \p Out; false if the range is
  /// outside the bytes.
  bool read(uint64_t Offset, uint64_t Size, std::string &Out) const;

private:
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
  llvm::Optional<llvm::sys::fs::file_t> File;
};

} // namespace tlp

#endif // TLP_SUPPORT_MAPPEDFILE_H
