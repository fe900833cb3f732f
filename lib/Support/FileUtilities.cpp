//===- FileUtilities.cpp - Opening input and output files -----------------===//

#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace llvm;

namespace tlp {

std::string displayName(StringRef Path) {
  return Path == "-" ? std::string("<stdin>") : Path.str();
}

static std::error_code lastError() {
  return std::error_code(errno, std::generic_category());
}

static void watchMapping(const MemoryBuffer &B, StringRef Path);
static void unwatchMapping(const MemoryBuffer &B);
static void truncateForFault(StringRef Path, uint64_t Size);

namespace {
/// A mapped input file, watched while it lives: if the file shrinks under
/// the mapping (logrotate copytruncate, a job that reopens its trace, a
/// rewrite), reading a page past the new end raises SIGBUS, which becomes
/// "the file changed while it was read", exit 1 (see watchMapping()).
class WatchedBuffer : public MemoryBuffer {
public:
  WatchedBuffer(std::unique_ptr<MemoryBuffer> B, StringRef Path)
      : Inner(std::move(B)) {
    init(Inner->getBufferStart(), Inner->getBufferEnd(),
         /*RequiresNullTerminator=*/false);
    watchMapping(*Inner, Path);
  }
  ~WatchedBuffer() override { unwatchMapping(*Inner); }
  StringRef getBufferIdentifier() const override {
    return Inner->getBufferIdentifier();
  }
  BufferKind getBufferKind() const override { return Inner->getBufferKind(); }
  void dontNeedIfMmap() override { Inner->dontNeedIfMmap(); }

private:
  std::unique_ptr<MemoryBuffer> Inner;
};
} // namespace

Expected<std::unique_ptr<MemoryBuffer>>
openInputFile(StringRef Path, function_ref<bool(StringRef)> LooksLikeInput) {
  if (Path != "-" && sys::fs::is_directory(Path))
    return createStringError(std::make_error_code(std::errc::is_a_directory),
                             "'%s' is a directory", Path.str().c_str());
  sys::fs::file_status St;
  bool Regular = Path != "-" && !sys::fs::status(Path, St) &&
                 St.type() == sys::fs::file_type::regular_file;
  if (!Regular && Path != "-" && sys::fs::exists(Path)) {
    // A FIFO or a device: read it as a stream, within bounds.
    int FD = ::open(Path.str().c_str(), O_RDONLY | O_CLOEXEC);
    if (FD < 0) {
      std::error_code EC(errno, std::generic_category());
      return createStringError(EC, "cannot open '%s': %s", Path.str().c_str(),
                               EC.message().c_str());
    }
    Expected<std::unique_ptr<MemoryBuffer>> B = readStream(FD, Path, "", LooksLikeInput);
    ::close(FD);
    return B;
  }
  if (Path == "-")
    return readStream(0, "<stdin>", "", LooksLikeInput);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (std::error_code EC = Buf.getError())
    return createStringError(EC, "cannot open '%s': %s",
                             displayName(Path).c_str(), EC.message().c_str());
  if ((*Buf)->getBufferKind() != MemoryBuffer::MemoryBuffer_MMap)
    return std::move(*Buf);
  auto W = std::make_unique<WatchedBuffer>(std::move(*Buf), Path);
  truncateForFault(Path, W->getBufferSize());
  return std::unique_ptr<MemoryBuffer>(std::move(W));
}

namespace {
/// A MemoryBuffer that owns its bytes in a std::string.
class StringBuffer : public MemoryBuffer {
public:
  StringBuffer(std::string Data, StringRef Name)
      : Data(std::move(Data)), Name(Name.str()) {
    init(this->Data.data(), this->Data.data() + this->Data.size(),
         /*RequiresNullTerminator=*/false);
  }
  StringRef getBufferIdentifier() const override { return Name; }
  BufferKind getBufferKind() const override { return MemoryBuffer_Malloc; }

private:
  std::string Data;
  std::string Name;
};
} // namespace

static bool writeAll(int FD, StringRef Text) {
  while (!Text.empty()) {
    ssize_t N = ::write(FD, Text.data(), Text.size());
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Text = Text.drop_front(N);
  }
  return true;
}

Expected<std::unique_ptr<MemoryBuffer>>
readStream(int FD, StringRef Name, std::string Prefix,
           function_ref<bool(StringRef)> LooksLikeInput) {
  constexpr size_t Block = 1 << 20;
  constexpr uint64_t InMemory = 64ull << 20;
  std::string Data = std::move(Prefix);
  uint64_t Total = Data.size();
  // Bytes since the last line break, and the line number.
  uint64_t LineLen = 0, Line = 1;
  for (char C : Data) {
    if (C == '\n') {
      LineLen = 0;
      ++Line;
    } else {
      ++LineLen;
    }
  }
  bool Checked = false;
  int Spool = -1;
  auto Fail = [&](std::error_code EC, const Twine &Msg) {
    if (Spool >= 0)
      ::close(Spool);
    return createStringError(EC, "%s", Msg.str().c_str());
  };
  std::string Chunk(Block, '\0');
  while (true) {
    ssize_t N = ::read(FD, &Chunk[0], Block);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return Fail(lastError(), "cannot read '" + Name + "': " +
                                   lastError().message());
    if (N == 0)
      break;
    StringRef Got(Chunk.data(), N);
    for (size_t I = 0; I < Got.size();) {
      size_t NL = Got.find('\n', I);
      if (NL == StringRef::npos) {
        LineLen += Got.size() - I;
        break;
      }
      LineLen += NL - I;
      if (LineLen > MaxLineBytes)
        break;
      LineLen = 0;
      ++Line;
      I = NL + 1;
    }
    if (LineLen > MaxLineBytes)
      return Fail(std::make_error_code(std::errc::file_too_large),
                  Name + ":" + Twine(Line) + ": line is longer than " +
                      Twine(MaxLineBytes >> 20) +
                      " MiB; is this a TORCH_TRACE log? (reading stopped)");
    Total += N;
    if (Spool >= 0) {
      if (!writeAll(Spool, Got))
        return Fail(lastError(), "cannot spool '" + Name + "': " +
                                     lastError().message());
    } else {
      Data.append(Got.data(), Got.size());
      if (Data.size() > InMemory) {
        // Large: move to an unlinked temporary file and map it.
        SmallString<128> TmpPath;
        if (std::error_code EC =
                sys::fs::createTemporaryFile("tlp-stdin", "log", Spool,
                                             TmpPath))
          return Fail(EC, "cannot spool '" + Name + "': " + EC.message());
        sys::fs::remove(TmpPath);
        if (!writeAll(Spool, Data))
          return Fail(lastError(), "cannot spool '" + Name + "': " +
                                       lastError().message());
        std::string().swap(Data);
      }
    }
    if (!Checked && Total >= NoLogBytes) {
      Checked = true;
      bool Looks = false;
      if (Spool >= 0) {
        std::string Head(4096, '\0');
        ssize_t H = ::pread(Spool, &Head[0], Head.size(), 0);
        Head.resize(H > 0 ? H : 0);
        Looks = LooksLikeInput(Head);
      } else {
        Looks = LooksLikeInput(Data);
      }
      if (!Looks)
        return Fail(std::make_error_code(std::errc::invalid_argument),
                    Name + ": the first " + Twine(NoLogBytes >> 20) +
                        " MiB hold no trace event and no IR; is this a "
                        "TORCH_TRACE log? (reading stopped)");
    }
  }
  if (Spool < 0) {
    Data.shrink_to_fit();
    return std::unique_ptr<MemoryBuffer>(
        std::make_unique<StringBuffer>(std::move(Data), Name));
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getOpenFile(
      sys::fs::convertFDToNativeFile(Spool), Name, Total,
      /*RequiresNullTerminator=*/false);
  ::close(Spool);
  if (std::error_code EC = B.getError())
    return createStringError(EC, "cannot map the spooled '%s': %s",
                             Name.str().c_str(), EC.message().c_str());
  return std::move(*B);
}


//===----------------------------------------------------------------------===//
// Test-only fault injection (TLP_FAULT; docs/testing.md)
//===----------------------------------------------------------------------===//

namespace {
/// The faults TLP_FAULT names (a comma-separated list), read once, before
/// any signal handler of this file is installed (the handlers read them).
struct FaultSet {
  bool NoExchange = false;    ///< no-exchange: as if renameat2 failed
  bool TruncateInput = false; ///< truncate-input: cut an input once mapped
  bool Crash = false;         ///< crash: crash once the tool is set up
  char Undeletable[256] = {}; ///< undeletable=NAME: entries NAME resist
  char PauseAt[64] = {};      ///< pause=POINT: stop up to 30 s at POINT
};
FaultSet Faults;
char ToolNameForMessages[64] = "tlp";
} // namespace

static const FaultSet &faults() {
  static const bool Loaded = [] {
    const char *Env = ::getenv("TLP_FAULT");
    if (!Env)
      return true;
    SmallVector<StringRef, 4> Items;
    StringRef(Env).split(Items, ',', -1, /*KeepEmpty=*/false);
    for (StringRef I : Items) {
      auto Copy = [](char *To, size_t Size, StringRef V) {
        size_t N = std::min(V.size(), Size - 1);
        std::memcpy(To, V.data(), N);
        To[N] = 0;
      };
      if (I == "no-exchange")
        Faults.NoExchange = true;
      else if (I == "truncate-input")
        Faults.TruncateInput = true;
      else if (I == "crash")
        Faults.Crash = true;
      else if (I.consume_front("undeletable="))
        Copy(Faults.Undeletable, sizeof Faults.Undeletable, I);
      else if (I.consume_front("pause="))
        Copy(Faults.PauseAt, sizeof Faults.PauseAt, I);
    }
    return true;
  }();
  (void)Loaded;
  return Faults;
}

static void writeStderr(const char *S) {
  ssize_t R = ::write(2, S, std::strlen(S));
  (void)R;
}

/// With TLP_FAULT=pause=POINT, say so on stderr and wait up to 30 s (a
/// signal ends the wait), so that a test can interrupt the run there.
static void pauseForFault(const char *Point) {
  if (std::strcmp(faults().PauseAt, Point))
    return;
  writeStderr("tlp: fault: paused at ");
  writeStderr(Point);
  writeStderr("\n");
  for (int I = 0; I < 300; ++I) {
    struct timespec T = {0, 100 * 1000 * 1000};
    ::nanosleep(&T, nullptr);
  }
}

/// "HOST-PID-" for the names of this process's temporary siblings: HOST
/// is a hash of the host name, so that a run on another machine sharing
/// the directory (NFS) is never taken for a dead process of this one.
static std::string ownerTag() {
  char Host[256] = {};
  ::gethostname(Host, sizeof Host - 1);
  uint32_t H = 2166136261u;
  for (const char *C = Host; *C; ++C)
    H = (H ^ static_cast<unsigned char>(*C)) * 16777619u;
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%08x-%ld-", H, static_cast<long>(::getpid()));
  return Buf;
}

static Error openError(StringRef Path, std::error_code EC) {
  return createStringError(EC, "cannot open output file '%s': %s",
                           Path.str().c_str(), EC.message().c_str());
}

static Error writeError(StringRef Path, std::error_code EC) {
  return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                           EC.message().c_str());
}

/// ".NAME.tlp-" next to \p Path: the prefix of its temporary siblings.
static std::string tempPrefix(StringRef Path) {
  SmallString<256> P(sys::path::parent_path(Path));
  sys::path::append(P, "." + sys::path::filename(Path) + ".tlp-");
  return std::string(P);
}

/// The directory \p Path is in, to show in a message.
static std::string parentForMessage(StringRef Path) {
  StringRef P = sys::path::parent_path(Path);
  return P.empty() ? std::string(".") : P.str();
}

/// Why a new entry in the directory of \p Path could not be made, naming
/// the directory (not \p Path, which may not exist or be writable itself).
static std::string parentError(StringRef Path, std::error_code EC,
                               StringRef Kind) {
  std::string Dir = parentForMessage(Path);
  if (EC == std::errc::no_such_file_or_directory)
    return "the directory '" + Dir + "' does not exist";
  if (EC == std::errc::not_a_directory)
    return "'" + Dir + "' is not a directory";
  return ("cannot create a " + Kind + " in the directory '" + Dir +
          "': " + EC.message())
      .str();
}

/// fsync \p Path, a directory: the names in it are on disk after this.
static std::error_code syncDirectory(StringRef Path) {
  std::string P = Path.empty() ? std::string(".") : Path.str();
  int FD = ::open(P.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (FD < 0)
    return lastError();
  std::error_code EC;
  if (::fsync(FD) != 0 && errno != EINVAL && errno != EROFS)
    EC = lastError();
  ::close(FD);
  return EC;
}

static bool removeTree(StringRef Path, StringRef What);

/// Remove the temporary siblings of \p Final that runs which are gone
/// left behind (SIGKILL, a crash, a power cut): `.NAME.tlp-[tmp-|old-]
/// HOST-PID-XXXXXX` whose HOST is this host and whose PID is no process
/// (kill(PID, 0) fails with ESRCH). A sibling of a live process, of
/// another host (a directory shared over NFS) or of a form it does not
/// know (an older tlp's) is kept.
static void removeStaleSiblings(StringRef Final) {
  std::string Dir = parentForMessage(Final);
  std::string Prefix = ("." + sys::path::filename(Final) + ".tlp-").str();
  std::string Tag = ownerTag();
  StringRef Host = StringRef(Tag).split('-').first;
  std::error_code EC;
  std::vector<std::string> Stale;
  for (sys::fs::directory_iterator It(Dir, EC, /*follow_symlinks=*/false), E;
       It != E && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.consume_front(Prefix))
      continue;
    if (!Name.consume_front("tmp-"))
      Name.consume_front("old-");
    SmallVector<StringRef, 3> Parts;
    Name.split(Parts, '-');
    long Pid = 0;
    if (Parts.size() != 3 || Parts[0] != Host ||
        Parts[1].getAsInteger(10, Pid) || Pid <= 0 || Pid == ::getpid())
      continue;
    if (::kill(static_cast<pid_t>(Pid), 0) == 0 || errno != ESRCH)
      continue;
    Stale.push_back(It->path());
  }
  for (const std::string &P : Stale)
    removeTree(P, "the temporary output of a run that is gone");
}

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
    return std::move(F);
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
    return std::move(F);
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
  return std::move(F);
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

static void cleanupOnSignal(int Sig) {
  // The old output first: it goes back where it was.
  if (RenameBackSet.load())
    ::rename(RenameBackFrom, RenameBackTo);
  for (int I = 0; I < MaxTempDirs; ++I) {
    if (!TempDirUsed[I].load())
      continue;
    RemoveFailure F;
    char Rel[MaxTempPath];
    Rel[0] = 0;
    if (!removeTreeAt(AT_FDCWD, TempDirs[I], 0, Rel, 0, F)) {
      writeStderr(ToolNameForMessages);
      writeStderr(": warning: could not remove all of '");
      writeStderr(TempDirs[I]);
      writeStderr("'; left: '");
      writeStderr(F.Rel);
      writeStderr("'\n");
    }
  }
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
static bool removeTree(StringRef Path, StringRef What) {
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
  return std::move(D);
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
  OS << Text;
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

//===----------------------------------------------------------------------===//
// An input that shrinks while it is mapped (SIGBUS)
//===----------------------------------------------------------------------===//

namespace {
constexpr int MaxWatched = 256;
constexpr size_t MaxWatchedName = 512;
struct WatchedRange {
  std::atomic<bool> Used{false};
  std::atomic<uintptr_t> Begin{0};
  std::atomic<uintptr_t> End{0};
  char Name[MaxWatchedName];
};
WatchedRange Watched[MaxWatched];
struct sigaction PrevBusAction;
std::atomic<bool> BusInstalled{false};
} // namespace

static void busHandler(int Sig, siginfo_t *Info, void *Context) {
  uintptr_t Addr = reinterpret_cast<uintptr_t>(Info ? Info->si_addr : 0);
  static const uintptr_t Page = ::sysconf(_SC_PAGESIZE);
  for (WatchedRange &W : Watched) {
    if (!W.Used.load())
      continue;
    uintptr_t End = (W.End.load() + Page - 1) / Page * Page;
    if (Addr < W.Begin.load() || Addr >= End)
      continue;
    writeStderr(ToolNameForMessages);
    writeStderr(": error: '");
    writeStderr(W.Name);
    writeStderr("' changed while it was read (it is shorter now than when "
                "it was opened: cut or rewritten by another process); read a "
                "copy that nothing writes to\n");
    // The temporary outputs go, as on SIGTERM.
    if (RenameBackSet.load())
      ::rename(RenameBackFrom, RenameBackTo);
    for (int I = 0; I < MaxTempDirs; ++I) {
      if (!TempDirUsed[I].load())
        continue;
      RemoveFailure F;
      char Rel[MaxTempPath];
      Rel[0] = 0;
      removeTreeAt(AT_FDCWD, TempDirs[I], 0, Rel, 0, F);
    }
    sys::RunInterruptHandlers();
    ::_exit(1);
  }
  // Not an input of ours: a crash, for the handler before (LLVM's stack
  // dump); the fault happens again once this returns.
  ::sigaction(SIGBUS, &PrevBusAction, nullptr);
  (void)Sig;
  (void)Context;
}

static void installBusHandler() {
  if (BusInstalled.exchange(true))
    return;
  faults();
  struct sigaction New;
  std::memset(&New, 0, sizeof New);
  New.sa_sigaction = busHandler;
  sigemptyset(&New.sa_mask);
  New.sa_flags = SA_SIGINFO | SA_NODEFER;
  ::sigaction(SIGBUS, &New, &PrevBusAction);
}

static void watchMapping(const MemoryBuffer &B, StringRef Path) {
  installBusHandler();
  for (WatchedRange &W : Watched) {
    bool Free = false;
    if (!W.Used.compare_exchange_strong(Free, true))
      continue;
    // Not yet matched by the handler: Begin == End until both are set.
    W.End.store(0);
    W.Begin.store(0);
    // The handler prints the name as is: no control character from a file
    // name (a log directory from elsewhere) reaches the terminal.
    size_t N = std::min(Path.size(), MaxWatchedName - 1);
    for (size_t I = 0; I < N; ++I) {
      unsigned char C = Path[I];
      W.Name[I] = C < 0x20 || C == 0x7f ? '?' : static_cast<char>(C);
    }
    W.Name[N] = 0;
    W.Begin.store(reinterpret_cast<uintptr_t>(B.getBufferStart()));
    W.End.store(reinterpret_cast<uintptr_t>(B.getBufferEnd()));
    return;
  }
}

static void unwatchMapping(const MemoryBuffer &B) {
  uintptr_t Begin = reinterpret_cast<uintptr_t>(B.getBufferStart());
  for (WatchedRange &W : Watched) {
    if (!W.Used.load() || W.Begin.load() != Begin)
      continue;
    W.End.store(0);
    W.Begin.store(0);
    W.Used.store(false);
    return;
  }
}

/// With TLP_FAULT=truncate-input, cut \p Path to half its \p Size once it
/// is mapped: the shrinking input of a test, deterministic.
static void truncateForFault(StringRef Path, uint64_t Size) {
  if (faults().TruncateInput)
    (void)::truncate(Path.str().c_str(), static_cast<off_t>(Size / 2));
}

//===----------------------------------------------------------------------===//
// Output over input
//===----------------------------------------------------------------------===//

Error checkOutputIsNotInput(StringRef Output, ArrayRef<std::string> Inputs,
                            bool IsDirectory) {
  if (Output == "-" || Output.empty())
    return Error::success();
  SmallString<256> OutReal;
  bool OutExists = !sys::fs::real_path(Output, OutReal);
  for (const std::string &In : Inputs) {
    if (In == "-" || In.empty())
      continue;
    bool Same = false;
    if (OutExists) {
      bool Eq = false;
      Same = !sys::fs::equivalent(Output, In, Eq) && Eq;
    }
    if (!Same && IsDirectory && OutExists) {
      // An input inside the directory that the output replaces.
      SmallString<256> InReal;
      if (!sys::fs::real_path(In, InReal)) {
        StringRef I = InReal;
        Same = I.startswith(OutReal) &&
               (I.size() == OutReal.size() ||
                sys::path::is_separator(I[OutReal.size()]) ||
                OutReal == "/");
      }
    }
    if (Same)
      return createStringError(
          std::errc::file_exists,
          "refusing to write the output '%s' over the input '%s' (the same "
          "file, or a directory that holds it); give another -o",
          Output.str().c_str(), In.c_str());
  }
  return Error::success();
}

static void checkStdoutAtExit() {
  raw_fd_ostream &Out = outs();
  Out.flush();
  if (!Out.has_error())
    return;
  std::error_code EC = Out.error();
  Out.clear_error();
  WithColor::error(errs(), ToolNameForMessages)
      << "cannot write '<stdout>': " << EC.message() << "\n";
  errs().flush();
  // A run that otherwise succeeded must not exit 0 with its output lost.
  std::_Exit(1);
}

void setUpToolProcess(StringRef ToolName) {
  setBugReportMsg("PLEASE report this crash of tlp (a bug in tlp, not in "
                  "LLVM) with the command line, the crash backtrace below "
                  "and, if you can share it, the input.\n");
  ::signal(SIGPIPE, SIG_IGN);
  faults();
  size_t N = std::min(ToolName.size(), sizeof ToolNameForMessages - 1);
  std::memcpy(ToolNameForMessages, ToolName.data(), N);
  ToolNameForMessages[N] = 0;
  // outs() and errs() are made first so that their destructors (outs()'s
  // aborts on an unchecked error) run after the check: exit runs them in
  // the reverse order of their making.
  (void)outs();
  (void)errs();
  std::atexit(checkStdoutAtExit);
  if (faults().Crash)
    __builtin_trap();
}

void printToolVersion(raw_ostream &OS, StringRef Tool) {
  OS << Tool << " (tlp) " << TLP_VERSION_STRING << "\n";
}

Optional<std::string> readSymbolicLink(StringRef Path) {
  char Target[4096];
  ssize_t N = ::readlink(Path.str().c_str(), Target, sizeof Target - 1);
  if (N < 0)
    return None;
  return std::string(Target, N);
}

} // namespace tlp
