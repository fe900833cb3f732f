//===- OutputDirectory.cpp - An output directory swapped in whole ---------===//
//
// Part of tlp. See OutputDirectory.h and docs/outputs.md. Also the removal
// of temporary output directories on SIGINT, SIGTERM and SIGHUP, which
// the input's SIGBUS handler uses too (dropTemporaryOutputs).
//
//===----------------------------------------------------------------------===//

#include "tlp/Support/OutputDirectory.h"

#include "FileSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace llvm;

namespace tlp {

//===----------------------------------------------------------------------===//
// Removing temporary directories on SIGINT, SIGTERM and SIGHUP
//===----------------------------------------------------------------------===//

namespace {
constexpr int MaxTempDirs = 8;
constexpr size_t MaxTempPath = 4096;
char TempDirs[MaxTempDirs][MaxTempPath];
std::atomic<bool> TempDirUsed[MaxTempDirs];
/// The two-rename swap (no RENAME_EXCHANGE): while the old output is
/// moved aside and the new one not yet in place, a signal moves the old
/// one back (RenameBackFrom -> RenameBackTo) instead of losing it.
char RenameBackFrom[MaxTempPath];
char RenameBackTo[MaxTempPath];
std::atomic<bool> RenameBackSet{false};
const int CleanupSignals[] = {SIGHUP, SIGINT, SIGTERM};
struct sigaction PrevActions[3];
std::atomic<bool> Installed{false};

struct Dirent64 {
  uint64_t Ino;
  int64_t Off;
  unsigned short RecLen;
  unsigned char Type;
  char Name[1];
};

/// The first entry removeTreeAt() could not remove: its path below the
/// tree's root and the reason.
struct RemoveFailure {
  int Errno = 0;
  char Rel[MaxTempPath] = {};
};

/// Bounds of removeTreeAt(): how deep it goes, and how often it reads a
/// directory again after removing entries (removing while reading may skip
/// some). An entry that cannot be removed stops the rereading of its
/// directory, so nothing is retried forever.
constexpr int MaxRemoveDepth = 32;
constexpr int MaxRemovePasses = 16;
} // namespace

static bool unlinkEntry(int DirFD, const char *Name, int Flags) {
  if (Faults.Undeletable[0] && !std::strcmp(Name, Faults.Undeletable)) {
    errno = EPERM;
    return false;
  }
  return ::unlinkat(DirFD, Name, Flags) == 0 || errno == ENOENT;
}

static void noteFailure(RemoveFailure &F, const char *Rel, int Errno) {
  // A directory that is not empty because of a child already noted is not
  // a second finding.
  if (F.Errno && (Errno == ENOTEMPTY || Errno == EEXIST))
    return;
  if (F.Errno)
    return;
  F.Errno = Errno;
  size_t N = std::min(std::strlen(Rel), MaxTempPath - 1);
  std::memcpy(F.Rel, Rel, N);
  F.Rel[N] = 0;
}

/// Remove \p Name (relative to \p DirFD) and everything under it, never
/// following a link; true if it is gone. \p Rel holds the path of \p Name
/// below the root (for the message). What cannot be removed (another
/// user's file, an immutable file, a mount point, an NFS .nfsXXXX) is left,
/// and the first such entry is noted in \p F. Bounded and
/// async-signal-safe: system calls and stack buffers.
static bool removeTreeAt(int DirFD, const char *Name, int Depth, char *Rel,
                         size_t RelLen, RemoveFailure &F) {
  size_t NameLen = std::strlen(Name);
  size_t Len = RelLen;
  if (Len + 1 + NameLen < MaxTempPath) {
    if (Len)
      Rel[Len++] = '/';
    std::memcpy(Rel + Len, Name, NameLen);
    Len += NameLen;
    Rel[Len] = 0;
  }
  auto Done = [&](bool Gone) {
    Rel[RelLen] = 0;
    return Gone;
  };
  if (unlinkEntry(DirFD, Name, 0))
    return Done(true);
  int Err = errno;
  int FD = ::openat(DirFD, Name,
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (FD < 0) {
    noteFailure(F, Rel, Err);
    return Done(false);
  }
  for (int Pass = 0; Depth < MaxRemoveDepth && Pass < MaxRemovePasses;
       ++Pass) {
    bool Seen = false, Removed = false;
    ::lseek(FD, 0, SEEK_SET);
    char Buf[4096];
    long N;
    while ((N = ::syscall(SYS_getdents64, FD, Buf, sizeof Buf)) > 0) {
      for (long Off = 0; Off < N;) {
        auto *D = reinterpret_cast<Dirent64 *>(Buf + Off);
        Off += D->RecLen;
        if (!std::strcmp(D->Name, ".") || !std::strcmp(D->Name, ".."))
          continue;
        Seen = true;
        if (removeTreeAt(FD, D->Name, Depth + 1, Rel, Len, F))
          Removed = true;
      }
    }
    // Read again only if this reading removed something: what is left
    // after a reading that removed nothing cannot be removed.
    if (!Seen || !Removed)
      break;
  }
  ::close(FD);
  if (unlinkEntry(DirFD, Name, AT_REMOVEDIR))
    return Done(true);
  noteFailure(F, Rel, errno);
  return Done(false);
}

static void dropTemporaryOutputs(bool Report);

static void cleanupOnSignal(int Sig) {
  dropTemporaryOutputs(/*Report=*/true);
  // Then whatever handled the signal before (LLVM's removes its files and
  // re-raises the signal).
  for (int I = 0; I < 3; ++I) {
    if (CleanupSignals[I] != Sig)
      continue;
    struct sigaction Prev = PrevActions[I];
    ::sigaction(Sig, &Prev, nullptr);
    if (!(Prev.sa_flags & SA_SIGINFO) && Prev.sa_handler != SIG_DFL &&
        Prev.sa_handler != SIG_IGN) {
      Prev.sa_handler(Sig);
      return;
    }
    ::raise(Sig);
    return;
  }
}

static void installCleanupHandlers() {
  faults(); // read before a handler can need them
  if (Installed.exchange(true))
    return;
  for (int I = 0; I < 3; ++I) {
    struct sigaction Old;
    if (::sigaction(CleanupSignals[I], nullptr, &Old) != 0)
      continue;
    PrevActions[I] = Old;
    // An ignored signal (nohup) stays ignored: the run goes on.
    if (!(Old.sa_flags & SA_SIGINFO) && Old.sa_handler == SIG_IGN)
      continue;
    struct sigaction New;
    std::memset(&New, 0, sizeof New);
    New.sa_handler = cleanupOnSignal;
    sigemptyset(&New.sa_mask);
    // SA_RESETHAND: a second signal during the cleanup ends the process.
    New.sa_flags = SA_NODEFER | SA_RESETHAND;
    ::sigaction(CleanupSignals[I], &New, nullptr);
  }
}

static int registerTempDir(StringRef Path) {
  if (Path.size() >= MaxTempPath)
    return -1;
  installCleanupHandlers();
  for (int I = 0; I < MaxTempDirs; ++I) {
    if (TempDirUsed[I].load())
      continue;
    std::memcpy(TempDirs[I], Path.data(), Path.size());
    TempDirs[I][Path.size()] = 0;
    TempDirUsed[I].store(true);
    return I;
  }
  return -1;
}

static void unregisterTempDir(StringRef Path) {
  for (int I = 0; I < MaxTempDirs; ++I)
    if (TempDirUsed[I].load() && Path == TempDirs[I])
      TempDirUsed[I].store(false);
}

/// Remove the tree \p Path (bounded, see removeTreeAt); if something is
/// left, warn, naming \p What it is, where it is and what is left.
bool removeTree(StringRef Path, StringRef What) {
  std::string P = Path.str();
  RemoveFailure F;
  char Rel[MaxTempPath];
  Rel[0] = 0;
  if (removeTreeAt(AT_FDCWD, P.c_str(), 0, Rel, 0, F))
    return true;
  std::string Left = F.Rel;
  if (StringRef(Left).startswith(P))
    Left = Left.substr(P.size() + (Left.size() > P.size()));
  WithColor::warning(errs(), ToolNameForMessages)
      << "could not remove " << What << " '" << P << "': '"
      << (Left.empty() ? std::string(".") : Left) << "' is left ("
      << std::error_code(F.Errno, std::generic_category()).message()
      << "); remove it by hand\n";
  return false;
}

/// The old output back where it was, then every temporary directory
/// removed; async-signal-safe. \p Report: a directory that cannot be
/// removed whole is named on stderr.
static void dropTemporaryOutputs(bool Report) {
  if (RenameBackSet.load())
    ::rename(RenameBackFrom, RenameBackTo);
  for (int I = 0; I < MaxTempDirs; ++I) {
    if (!TempDirUsed[I].load())
      continue;
    RemoveFailure F;
    char Rel[MaxTempPath];
    Rel[0] = 0;
    if (!removeTreeAt(AT_FDCWD, TempDirs[I], 0, Rel, 0, F) && Report) {
      writeStderr(ToolNameForMessages);
      writeStderr(": warning: could not remove all of '");
      writeStderr(TempDirs[I]);
      writeStderr("'; left: '");
      writeStderr(F.Rel);
      writeStderr("'\n");
    }
  }
}

void dropTemporaryOutputs() { dropTemporaryOutputs(/*Report=*/false); }

//===----------------------------------------------------------------------===//
// OutputDirectory
//===----------------------------------------------------------------------===//

/// True if the directory \p Path may be replaced: it is empty, or its
/// \p IndexFile (a regular file, not a link) starts with \p Signature in
/// its first 4 KB.
static bool replaceable(StringRef Path, StringRef IndexFile,
                        StringRef Signature) {
  std::error_code EC;
  sys::fs::directory_iterator It(Path, EC, /*follow_symlinks=*/false);
  if (!EC && It == sys::fs::directory_iterator())
    return true;
  SmallString<256> Index(Path);
  sys::path::append(Index, IndexFile);
  sys::fs::file_status St;
  if (sys::fs::status(Index, St, /*Follow=*/false) ||
      St.type() != sys::fs::file_type::regular_file)
    return false;
  int FD = ::open(Index.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (FD < 0)
    return false;
  char Buf[4096];
  ssize_t N = ::read(FD, Buf, sizeof Buf);
  ::close(FD);
  return N > 0 && StringRef(Buf, N).contains(Signature);
}

Expected<std::unique_ptr<OutputDirectory>>
OutputDirectory::create(StringRef Path, StringRef IndexFile,
                        StringRef Signature) {
  std::unique_ptr<OutputDirectory> D(new OutputDirectory());
  SmallString<256> Abs(Path);
  // Without its trailing '/', so that `-o link/` is the link, not what
  // lstat() of "link/" sees (the directory through it).
  while (Abs.size() > 1 && sys::path::is_separator(Abs.back()))
    Abs.pop_back();
  // The directory the user named, through a link if it is one.
  SmallString<256> Real;
  if (sys::fs::is_symlink_file(Abs) && !sys::fs::real_path(Abs, Real))
    Abs = Real;
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
  if (std::error_code EC = sys::fs::make_absolute(Abs))
    return createStringError(EC, "cannot create directory '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  D->Path = std::string(Abs);
  sys::fs::file_status St;
  if (!sys::fs::status(D->Path, St, /*Follow=*/false)) {
    if (St.type() != sys::fs::file_type::directory_file)
      return createStringError(std::errc::not_a_directory,
                               "cannot write '%s': not a directory",
                               Path.str().c_str());
    if (!replaceable(D->Path, IndexFile, Signature))
      return createStringError(
          std::errc::directory_not_empty,
          "cannot write '%s': the directory is not empty and holds no "
          "earlier tlp output (no %s made by tlp); tlp replaces an output "
          "directory whole, so give a new or an empty directory",
          Path.str().c_str(), IndexFile.str().c_str());
  }
  // Make the parents, remembering which were new.
  StringRef Parent = sys::path::parent_path(D->Path);
  std::vector<std::string> Missing;
  for (StringRef P = Parent; !P.empty() && !sys::fs::exists(P);
       P = sys::path::parent_path(P))
    Missing.push_back(P.str());
  for (auto It = Missing.rbegin(); It != Missing.rend(); ++It) {
    if (::mkdir(It->c_str(), 0777) == 0 || errno == EEXIST)
      continue;
    std::error_code EC = lastError();
    for (auto Made = Missing.rbegin(); Made != It; ++Made)
      ::rmdir(Made->c_str());
    return createStringError(EC, "cannot create directory '%s': %s",
                             Path.str().c_str(),
                             parentError(*It, EC, "directory").c_str());
  }
  D->MadeParents = std::move(Missing);
  // Registered for removal on a signal before it exists, so that no signal
  // can leave it behind.
  SmallString<256> Temp;
  for (int Try = 0;; ++Try) {
    sys::fs::createUniquePath(tempPrefix(D->Path) + "tmp-" + ownerTag() +
                                  "%%%%%%",
                              Temp, /*MakeAbsolute=*/false);
    registerTempDir(Temp);
    if (::mkdir(Temp.c_str(), 0777) == 0)
      break;
    std::error_code EC = lastError();
    unregisterTempDir(Temp);
    if (EC != std::errc::file_exists || Try == 127)
      return createStringError(EC, "cannot create directory '%s': %s",
                               Path.str().c_str(),
                               parentError(D->Path, EC, "directory").c_str());
  }
  D->Temp = std::string(Temp);
  return D;
}

OutputDirectory::~OutputDirectory() {
  if (Committed)
    return;
  if (!Temp.empty()) {
    removeTree(Temp, "the unfinished output");
    unregisterTempDir(Temp);
  }
  // Only directories that are still empty: another run may have used them.
  for (const std::string &P : MadeParents)
    ::rmdir(P.c_str());
}

Error OutputDirectory::makeParents(StringRef Rel) {
  StringRef Parent = sys::path::parent_path(Rel, sys::path::Style::posix);
  if (Parent.empty())
    return Error::success();
  // One level at a time below Temp, never Temp itself: a signal handler
  // may have removed it while workers still write, and it must stay gone.
  SmallString<256> Full(Temp);
  for (auto I = sys::path::begin(Parent, sys::path::Style::posix),
            E = sys::path::end(Parent);
       I != E; ++I) {
    sys::path::append(Full, sys::path::Style::posix, *I);
    if (::mkdir(Full.c_str(), 0777) == 0 || errno == EEXIST)
      continue;
    std::error_code EC = lastError();
    return createStringError(EC, "cannot create directory '%s': %s",
                             (Path + "/" + Parent).str().c_str(),
                             EC.message().c_str());
  }
  return Error::success();
}

Error OutputDirectory::write(StringRef Rel, StringRef Text) {
  return write(Rel, [&](raw_ostream &OS) { OS << Text; });
}

Error OutputDirectory::write(StringRef Rel,
                             function_ref<void(raw_ostream &)> Fill) {
  std::string Shown = (Path + "/" + Rel).str();
  if (Error E = makeParents(Rel))
    return E;
  SmallString<256> Full(Temp);
  sys::path::append(Full, sys::path::Style::posix, Rel);
  // A new file in a directory only this run knows: O_EXCL and O_NOFOLLOW
  // make sure no link redirects the write.
  int FD = ::open(Full.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (FD < 0)
    return openError(Shown, lastError());
  raw_fd_ostream OS(FD, /*shouldClose=*/true);
  Fill(OS);
  OS.close();
  if (OS.has_error()) {
    std::error_code EC = OS.error();
    OS.clear_error();
    return writeError(Shown, EC);
  }
  return Error::success();
}

Error OutputDirectory::link(StringRef Rel, StringRef Target) {
  if (Error E = makeParents(Rel))
    return E;
  SmallString<256> Full(Temp);
  sys::path::append(Full, sys::path::Style::posix, Rel);
  if (std::error_code EC = sys::fs::create_link(Target, Full))
    return createStringError(EC, "cannot link '%s' to '%s': %s",
                             (Path + "/" + Rel).str().c_str(),
                             Target.str().c_str(), EC.message().c_str());
  return Error::success();
}

/// Put the tree \p Path on disk, files and names: one syncfs() of its file
/// system (one journal commit; an fsync per file made --dump of the 356 MB
/// log 4x slower), else an fsync of every directory and file below it.
static std::error_code syncTree(StringRef Path) {
#ifdef __linux__
  int FD = ::open(Path.str().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (FD >= 0) {
    int R = ::syncfs(FD);
    std::error_code EC = R == 0 ? std::error_code() : lastError();
    ::close(FD);
    if (R == 0 || (errno != ENOSYS && errno != EINVAL))
      return EC;
  }
#endif
  std::error_code EC = syncDirectory(Path);
  std::error_code IterEC;
  for (sys::fs::recursive_directory_iterator It(Path, IterEC,
                                                /*follow_symlinks=*/false),
       E;
       It != E && !IterEC && !EC; It.increment(IterEC)) {
    if (It->type() == sys::fs::file_type::directory_file) {
      EC = syncDirectory(It->path());
      continue;
    }
    int F = ::open(It->path().c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (F < 0)
      continue;
    if (::fsync(F) != 0)
      EC = lastError();
    ::close(F);
  }
  return EC;
}

Error OutputDirectory::commit() {
  auto Fail = [&](std::error_code EC) {
    return createStringError(EC, "cannot put the output in place at '%s': %s",
                             Path.c_str(), EC.message().c_str());
  };
  // On disk first, so that after a crash or a power cut the final name
  // holds a whole tree.
  if (std::error_code EC = syncTree(Temp))
    return Fail(EC);
  auto Finish = [&](StringRef Old) {
    (void)syncDirectory(sys::path::parent_path(Path));
    if (!Old.empty()) {
      pauseForFault("before-remove");
      removeTree(Old, "the old output, moved aside,");
      unregisterTempDir(Old);
    }
    removeStaleSiblings(Path);
    return Error::success();
  };
  for (int Try = 0; Try < 8; ++Try) {
    if (::rename(Temp.c_str(), Path.c_str()) == 0) {
      unregisterTempDir(Temp);
      Committed = true;
      return Finish("");
    }
    if (errno != EEXIST && errno != ENOTEMPTY && errno != EISDIR)
      return Fail(lastError());
    // An old output is there (maybe just put there by a concurrent run):
    // swap the two in one step, then remove the old one.
#ifdef RENAME_EXCHANGE
    if (faults().NoExchange) {
      errno = EINVAL;
    } else if (::renameat2(AT_FDCWD, Temp.c_str(), AT_FDCWD, Path.c_str(),
                           RENAME_EXCHANGE) == 0) {
      Committed = true;
      return Finish(Temp);
    }
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
      return Fail(lastError());
#endif
    // No exchange on this file system (NFS): move the old one aside, then
    // the new one in. Between the two, a signal moves the old one back
    // (RenameBack*) rather than removing it: old or new, whole.
    std::string OldUnique = tempPrefix(Path) + "old-" + ownerTag();
    SmallString<256> Unique;
    sys::fs::createUniquePath(OldUnique + "%%%%%%", Unique, false);
    OldUnique = std::string(Unique);
    if (OldUnique.size() >= MaxTempPath || Path.size() >= MaxTempPath)
      return Fail(std::make_error_code(std::errc::filename_too_long));
    std::memcpy(RenameBackFrom, OldUnique.c_str(), OldUnique.size() + 1);
    std::memcpy(RenameBackTo, Path.c_str(), Path.size() + 1);
    installCleanupHandlers();
    RenameBackSet.store(true);
    if (::rename(Path.c_str(), OldUnique.c_str()) != 0 && errno != ENOENT) {
      std::error_code EC = lastError();
      RenameBackSet.store(false);
      return Fail(EC);
    }
    pauseForFault("between-renames");
    if (::rename(Temp.c_str(), Path.c_str()) == 0) {
      // The old one is now only a temporary: removed on a signal too.
      registerTempDir(OldUnique);
      RenameBackSet.store(false);
      unregisterTempDir(Temp);
      Committed = true;
      return Finish(OldUnique);
    }
    // Put the old one back if we can and try again.
    ::rename(OldUnique.c_str(), Path.c_str());
    RenameBackSet.store(false);
  }
  return Fail(std::make_error_code(std::errc::device_or_resource_busy));
}

} // namespace tlp
