//===- InputFile.cpp - Reading input files and streams --------------------===//
//
// Part of tlp. See InputFile.h. A mapped input is watched while it lives:
// if the file shrinks under the mapping, the SIGBUS of a read past its new
// end becomes an error message and exit 1.
//
//===----------------------------------------------------------------------===//

#include "tlp/Support/InputFile.h"

#include "FileSupport.h"

#include "tlp/Support/FileUtilities.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace tlp {

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
    dropTemporaryOutputs();
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

} // namespace tlp
