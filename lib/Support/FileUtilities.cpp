//===- FileUtilities.cpp - Opening input and output files -----------------===//

#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

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

std::string displayName(StringRef Path) {
  return Path == "-" ? std::string("<stdin>") : Path.str();
}

static std::error_code lastError() {
  return std::error_code(errno, std::generic_category());
}

Expected<std::unique_ptr<MemoryBuffer>> openInputFile(StringRef Path) {
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
    Expected<std::unique_ptr<MemoryBuffer>> B = readStream(FD, Path, "");
    ::close(FD);
    return B;
  }
  if (Path == "-")
    return readStream(0, "<stdin>", "");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (std::error_code EC = Buf.getError())
    return createStringError(EC, "cannot open '%s': %s",
                             displayName(Path).c_str(), EC.message().c_str());
  return std::move(*Buf);
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

static bool startsLikeInput(StringRef Text) {
  // A glog prefix (V0901 10:00:00...) or an IR document marker, at the
  // start of a line that is not blank.
  for (size_t I = 0; I < Text.size();) {
    size_t NL = Text.find('\n', I);
    StringRef L = Text.slice(I, NL).trim(" \t\r");
    if (!L.empty()) {
      if (L.startswith("---") || L.startswith("#"))
        return true;
      if (L.size() > 2 && StringRef("VIWE").contains(L[0]) &&
          L[1] >= '0' && L[1] <= '9')
        return true;
      return false;
    }
    if (NL == StringRef::npos)
      break;
    I = NL + 1;
  }
  return false;
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
        Looks = LooksLikeInput ? LooksLikeInput(Head) : startsLikeInput(Head);
      } else {
        Looks = LooksLikeInput ? LooksLikeInput(Data) : startsLikeInput(Data);
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
    sys::fs::createUniquePath(tempPrefix(F->Final) + "%%%%%%", Temp,
                              /*MakeAbsolute=*/false);
    sys::RemoveFileOnSignal(Temp);
    FD = ::open(Temp.c_str(),
                O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (FD >= 0)
      break;
    std::error_code EC = lastError();
    sys::DontRemoveFileOnSignal(Temp);
    if (EC != std::errc::file_exists || Try == 127)
      return openError(Path, EC);
  }
  F->Temp = std::string(Temp);
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
  if (FD)
    FD->close();
  else
    Out.flush();
  if (Out.has_error()) {
    std::error_code EC = Out.error();
    Out.clear_error();
    return writeError(Path, EC);
  }
  if (!Temp.empty()) {
    if (std::error_code EC = sys::fs::rename(Temp, Final))
      return writeError(Path, EC);
    sys::DontRemoveFileOnSignal(Temp);
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
} // namespace

/// Remove \p Name (relative to \p DirFD) and everything under it, never
/// following a link. Async-signal-safe: system calls and stack buffers.
static void removeTreeAt(int DirFD, const char *Name, int Depth) {
  if (::unlinkat(DirFD, Name, 0) == 0)
    return;
  int FD = ::openat(DirFD, Name,
                    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (FD >= 0) {
    bool Removed = Depth < 32;
    while (Removed) {
      Removed = false;
      ::lseek(FD, 0, SEEK_SET);
      char Buf[4096];
      long N;
      while ((N = ::syscall(SYS_getdents64, FD, Buf, sizeof Buf)) > 0) {
        for (long Off = 0; Off < N;) {
          auto *D = reinterpret_cast<Dirent64 *>(Buf + Off);
          Off += D->RecLen;
          if (!std::strcmp(D->Name, ".") || !std::strcmp(D->Name, ".."))
            continue;
          removeTreeAt(FD, D->Name, Depth + 1);
          Removed = true;
        }
      }
    }
    ::close(FD);
  }
  ::unlinkat(DirFD, Name, AT_REMOVEDIR);
}

static void cleanupOnSignal(int Sig) {
  for (int I = 0; I < MaxTempDirs; ++I)
    if (TempDirUsed[I].load())
      removeTreeAt(AT_FDCWD, TempDirs[I], 0);
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

static void removeTree(StringRef Path) {
  std::string P = Path.str();
  removeTreeAt(AT_FDCWD, P.c_str(), 0);
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
  // The directory the user named, through a link if it is one.
  SmallString<256> Real;
  if (sys::fs::is_symlink_file(Path) && !sys::fs::real_path(Path, Real))
    Abs = Real;
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/false);
  while (Abs.size() > 1 && sys::path::is_separator(Abs.back()))
    Abs.pop_back();
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
  if (std::error_code EC = sys::fs::create_directories(Parent))
    return createStringError(EC, "cannot create directory '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  D->MadeParents = std::move(Missing);
  // Registered for removal on a signal before it exists, so that no signal
  // can leave it behind.
  SmallString<256> Temp;
  for (int Try = 0;; ++Try) {
    sys::fs::createUniquePath(tempPrefix(D->Path) + "tmp-%%%%%%", Temp,
                              /*MakeAbsolute=*/false);
    registerTempDir(Temp);
    if (::mkdir(Temp.c_str(), 0777) == 0)
      break;
    std::error_code EC = lastError();
    unregisterTempDir(Temp);
    if (EC != std::errc::file_exists || Try == 127)
      return createStringError(EC, "cannot create directory '%s': %s",
                               Path.str().c_str(), EC.message().c_str());
  }
  D->Temp = std::string(Temp);
  return std::move(D);
}

OutputDirectory::~OutputDirectory() {
  if (Committed)
    return;
  if (!Temp.empty()) {
    removeTree(Temp);
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

Error OutputDirectory::commit() {
  auto Fail = [&](std::error_code EC) {
    return createStringError(EC, "cannot put the output in place at '%s': %s",
                             Path.c_str(), EC.message().c_str());
  };
  // Directories are made 0700 by some systems' mkdtemp; ours honours the
  // umask already (createUniqueDirectory), nothing to fix.
  for (int Try = 0; Try < 8; ++Try) {
    if (::rename(Temp.c_str(), Path.c_str()) == 0) {
      unregisterTempDir(Temp);
      Committed = true;
      return Error::success();
    }
    if (errno != EEXIST && errno != ENOTEMPTY && errno != EISDIR)
      return Fail(lastError());
    // An old output is there (maybe just put there by a concurrent run):
    // swap the two in one step, then remove the old one.
#ifdef RENAME_EXCHANGE
    if (::renameat2(AT_FDCWD, Temp.c_str(), AT_FDCWD, Path.c_str(),
                    RENAME_EXCHANGE) == 0) {
      Committed = true;
      removeTree(Temp);
      unregisterTempDir(Temp);
      return Error::success();
    }
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
      return Fail(lastError());
#endif
    // No exchange on this file system: move the old one aside first.
    std::string Old = tempPrefix(Path) + "old";
    SmallString<256> OldUnique;
    sys::fs::createUniquePath(Old + "-%%%%%%", OldUnique, false);
    registerTempDir(OldUnique);
    if (::rename(Path.c_str(), OldUnique.c_str()) != 0 && errno != ENOENT) {
      std::error_code EC = lastError();
      unregisterTempDir(OldUnique);
      return Fail(EC);
    }
    if (::rename(Temp.c_str(), Path.c_str()) == 0) {
      unregisterTempDir(Temp);
      Committed = true;
      removeTree(OldUnique);
      unregisterTempDir(OldUnique);
      return Error::success();
    }
    // Put the old one back if we can and try again.
    ::rename(OldUnique.c_str(), Path.c_str());
    unregisterTempDir(OldUnique);
  }
  return Fail(std::make_error_code(std::errc::device_or_resource_busy));
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
