//===- FileUtilities.cpp - What the tools' files share --------------------===//
//
// Part of tlp. See FileUtilities.h. Also what InputFile.cpp,
// OutputFile.cpp and OutputDirectory.cpp share (FileSupport.h): the
// test-only fault injection and the helpers of the atomic outputs.
//
//===----------------------------------------------------------------------===//

#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Memory.h"
#include "tlp/Support/Version.h"

#include "FileSupport.h"

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

std::error_code lastError() {
  return std::error_code(errno, std::generic_category());
}

//===----------------------------------------------------------------------===//
// Test-only fault injection (TLP_FAULT; docs/testing.md)
//===----------------------------------------------------------------------===//

FaultSet Faults;
char ToolNameForMessages[64] = "tlp";

const FaultSet &faults() {
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

void writeStderr(const char *S) {
  ssize_t R = ::write(2, S, std::strlen(S));
  (void)R;
}

/// With TLP_FAULT=pause=POINT, say so on stderr and wait up to 30 s (a
/// signal ends the wait), so that a test can interrupt the run there.
void pauseForFault(const char *Point) {
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
std::string ownerTag() {
  char Host[256] = {};
  ::gethostname(Host, sizeof Host - 1);
  uint32_t H = 2166136261u;
  for (const char *C = Host; *C; ++C)
    H = (H ^ static_cast<unsigned char>(*C)) * 16777619u;
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%08x-%ld-", H, static_cast<long>(::getpid()));
  return Buf;
}

Error openError(StringRef Path, std::error_code EC) {
  return createStringError(EC, "cannot open output file '%s': %s",
                           Path.str().c_str(), EC.message().c_str());
}

Error writeError(StringRef Path, std::error_code EC) {
  return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                           EC.message().c_str());
}

/// ".NAME.tlp-" next to \p Path: the prefix of its temporary siblings.
std::string tempPrefix(StringRef Path) {
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
std::string parentError(StringRef Path, std::error_code EC,
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
std::error_code syncDirectory(StringRef Path) {
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

/// Remove the temporary siblings of \p Final that runs which are gone
/// left behind (SIGKILL, a crash, a power cut): `.NAME.tlp-[tmp-|old-]
/// HOST-PID-XXXXXX` whose HOST is this host and whose PID is no process
/// (kill(PID, 0) fails with ESRCH). A sibling of a live process, of
/// another host (a directory shared over NFS) or of a form it does not
/// know (an older tlp's) is kept.
void removeStaleSiblings(StringRef Final) {
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
  OS << "  allocator: " << allocatorName() << "\n";
}

Optional<std::string> readSymbolicLink(StringRef Path) {
  char Target[4096];
  ssize_t N = ::readlink(Path.str().c_str(), Target, sizeof Target - 1);
  if (N < 0)
    return None;
  return std::string(Target, N);
}

} // namespace tlp

