//===- MappedFile.cpp - A log's bytes, mapped, read by range --------------===//

#include "tlp/Support/MappedFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Process.h"

#include <algorithm>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#endif

using namespace llvm;

namespace tlp {

MappedFile::MappedFile(std::unique_ptr<MemoryBuffer> B, StringRef Path)
    : Buffer(std::move(B)) {
  if (isMapped() && !Path.empty() && Path != "-") {
    Expected<sys::fs::file_t> F = sys::fs::openNativeFileForRead(Path);
    if (F)
      File = *F;
    else
      consumeError(F.takeError()); // read() falls back to the mapping
  }
}

MappedFile::~MappedFile() {
  if (File)
    sys::fs::closeFile(*File);
}

StringRef MappedFile::bytes() const {
  return Buffer ? Buffer->getBuffer() : StringRef();
}

bool MappedFile::isMapped() const {
  return Buffer && Buffer->getBufferKind() == MemoryBuffer::MemoryBuffer_MMap;
}

bool MappedFile::read(uint64_t Offset, uint64_t Size, std::string &Out) const {
  StringRef B = bytes();
  if (Offset + Size > B.size())
    return false;
  if (!File) {
    Out.assign(B.data() + Offset, Size);
    return true;
  }
  // A positioned read copies from the page cache without mapping pages
  // into this process, so loading payloads adds nothing to resident memory.
  Out.resize(Size);
  uint64_t Done = 0;
  while (Done < Size) {
    Expected<size_t> N = sys::fs::readNativeFileSlice(
        *File, MutableArrayRef<char>(&Out[Done], Size - Done), Offset + Done);
    if (!N || *N == 0) {
      if (!N)
        consumeError(N.takeError());
      Out.assign(B.data() + Offset, Size); // fall back to the mapping
      return true;
    }
    Done += *N;
  }
  return true;
}

void MappedFile::release(uint64_t Offset, uint64_t Size) const {
#ifdef MADV_DONTNEED
  if (!isMapped())
    return;
  // Every page the range touches: they are file pages, which come back
  // from the page cache if anyone reads them again.
  static const uint64_t Page = sys::Process::getPageSizeEstimate();
  uintptr_t B = reinterpret_cast<uintptr_t>(Buffer->getBufferStart());
  uintptr_t From = (B + Offset) / Page * Page;
  uintptr_t To =
      std::min<uintptr_t>(B + Offset + Size, B + Buffer->getBufferSize());
  To = (To + Page - 1) / Page * Page;
  if (To > From)
    ::madvise(reinterpret_cast<void *>(From), To - From, MADV_DONTNEED);
#else
  (void)Offset;
  (void)Size;
#endif
}

} // namespace tlp
