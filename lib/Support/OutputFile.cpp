//===- OutputFile.cpp - An output file written whole or not at all -------===//
//
// Part of tlp. See OutputFile.h and docs/outputs.md.
//
//===----------------------------------------------------------------------===//

#include "tlp/Support/OutputFile.h"

#include "FileSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace tlp {

//===----------------------------------------------------------------------===//
// OutputFile
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<OutputFile>> OutputFile::open(StringRef Path,
                                                       bool StreamStdout) {
  std::unique_ptr<OutputFile> F(new OutputFile());
  F->Path = Path.str();
  if (Path == "-") {
    if (StreamStdout) {
      F->OS = &outs();
    } else {
      F->Str = std::make_unique<raw_string_ostream>(F->Buffer);
      F->OS = F->Str.get();
    }
    return F;
  }
  F->Final = F->Path;
  sys::fs::file_status St;
  if (!sys::fs::status(Path, St, /*Follow=*/true) &&
      St.type() != sys::fs::file_type::regular_file &&
      St.type() != sys::fs::file_type::file_not_found) {
    if (St.type() == sys::fs::file_type::directory_file)
      return openError(Path, std::make_error_code(std::errc::is_a_directory));
    // A device, a FIFO, a terminal: nothing to replace, write to it.
    std::error_code EC;
    F->FD = std::make_unique<raw_fd_ostream>(Path, EC, sys::fs::OF_None);
    if (EC)
      return openError(Path, EC);
    F->OS = F->FD.get();
    return F;
  }
  // A link the user named: replace the file it points to, not the link.
  SmallString<256> Real;
  if (sys::fs::is_symlink_file(Path) && !sys::fs::real_path(Path, Real))
    F->Final = std::string(Real);
  // The temporary name is registered for removal on a signal before the
  // file exists, so that no signal can leave it behind.
  int FD = -1;
  SmallString<256> Temp;
  for (int Try = 0; FD < 0; ++Try) {
    sys::fs::createUniquePath(tempPrefix(F->Final) + ownerTag() + "%%%%%%",
                              Temp, /*MakeAbsolute=*/false);
    sys::RemoveFileOnSignal(Temp);
    FD = ::open(Temp.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (FD >= 0)
      break;
    std::error_code EC = lastError();
    sys::DontRemoveFileOnSignal(Temp);
    if (EC != std::errc::file_exists || Try == 127)
      return createStringError(EC, "cannot open output file '%s': %s",
                               Path.str().c_str(),
                               parentError(F->Final, EC, "file").c_str());
  }
  F->Temp = std::string(Temp);
  F->TempFD = FD;
  F->FD = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/true);
  F->OS = F->FD.get();
  return F;
}

OutputFile::~OutputFile() {
  if (FD) {
    // Never let raw_fd_ostream's destructor abort over a write error of an
    // output that is being dropped anyway.
    FD->close();
    FD->clear_error();
  }
  if (!Committed && !Temp.empty()) {
    FD.reset();
    sys::fs::remove(Temp);
    sys::DontRemoveFileOnSignal(Temp);
  }
}

Error OutputFile::commit() {
  if (Str) {
    Str->flush();
    outs() << Buffer;
    Buffer.clear();
    outs().flush();
    if (outs().has_error()) {
      std::error_code EC = outs().error();
      outs().clear_error();
      return writeError("<stdout>", EC);
    }
    Committed = true;
    return Error::success();
  }
  raw_fd_ostream &Out = FD ? *FD : outs();
  // On disk before it takes the final name: after a crash or a power cut
  // the name holds the old file or the new one, whole. (NFS reports some
  // write errors only here.)
  std::error_code SyncEC;
  if (FD && !Temp.empty()) {
    FD->flush();
    if (!FD->has_error() && ::fsync(TempFD) != 0)
      SyncEC = lastError();
  }
  if (FD)
    FD->close();
  else
    Out.flush();
  if (Out.has_error()) {
    std::error_code EC = Out.error();
    Out.clear_error();
    return writeError(FD ? Path : "<stdout>", EC);
  }
  if (SyncEC)
    return writeError(Path, SyncEC);
  if (!Temp.empty()) {
    if (std::error_code EC = sys::fs::rename(Temp, Final))
      return writeError(Path, EC);
    sys::DontRemoveFileOnSignal(Temp);
    // The new name on disk too; a failure here loses nothing now.
    (void)syncDirectory(sys::path::parent_path(Final));
    Committed = true;
    removeStaleSiblings(Final);
  }
  Committed = true;
  return Error::success();
}

Expected<std::unique_ptr<OutputFile>> openOutputFile(StringRef Path,
                                                     bool StreamStdout) {
  return OutputFile::open(Path, StreamStdout);
}

} // namespace tlp
