//===- SpillFile.cpp - Text kept on disk until it is written --------------===//

#include "tlp/Support/SpillFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include <cerrno>
#include <unistd.h>

using namespace llvm;

namespace tlp {

SpillFile::SpillFile() {
  SmallString<128> Path;
  int Opened = -1;
  if (sys::fs::createTemporaryFile("tlp-spill", "tmp", Opened, Path))
    return; // in memory
  // Unlinked at once: nothing is left behind, whatever ends the process.
  if (sys::fs::remove(Path)) {
    ::close(Opened);
    return;
  }
  FD = Opened;
}

SpillFile::~SpillFile() {
  if (FD >= 0)
    ::close(FD);
}

SpillFile::Piece SpillFile::append(StringRef Text) {
  Piece P;
  if (FD < 0) {
    P.Offset = Memory.size();
    P.Size = Text.size();
    Memory.append(Text.data(), Text.size());
    return P;
  }
  P.Offset = Size;
  P.Size = Text.size();
  const char *Data = Text.data();
  size_t Left = Text.size();
  while (Left && !Failed) {
    ssize_t N = ::pwrite(FD, Data, Left, static_cast<off_t>(Size));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Failed = true;
      break;
    }
    Data += N;
    Left -= N;
    Size += N;
  }
  return P;
}

bool SpillFile::writeTo(const Piece &P, raw_ostream &OS) const {
  if (FD < 0) {
    OS << StringRef(Memory).substr(P.Offset, P.Size);
    return true;
  }
  if (Failed)
    return false;
  char Buffer[1 << 16];
  uint64_t Done = 0;
  while (Done < P.Size) {
    size_t Want = std::min<uint64_t>(sizeof(Buffer), P.Size - Done);
    ssize_t N = ::pread(FD, Buffer, Want, static_cast<off_t>(P.Offset + Done));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    OS.write(Buffer, N);
    Done += N;
  }
  return true;
}

} // namespace tlp
