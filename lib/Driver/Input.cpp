//===- Input.cpp - Open a tool's input ------------------------------------===//

#include "tlp/Driver/Input.h"

#include "tlp/IR/IRCompactIO.h"
#include "tlp/Parse/CompileDebugReader.h"
#include "tlp/Parse/DepyfDump.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tlp {

bool startsLikeInput(StringRef Text) {
  // The compact IR's magic; or a glog prefix (V0901 10:00:00...) or an IR
  // document marker, at the start of a line that is not blank.
  if (looksLikeCompactIR(Text))
    return true;
  for (size_t I = 0; I < Text.size();) {
    size_t NL = Text.find('\n', I);
    StringRef L = Text.slice(I, NL).trim(" \t\r");
    if (!L.empty()) {
      if (L.startswith("---") || L.startswith("#"))
        return true;
      if (L.size() > 2 && StringRef("VIWE").contains(L[0]) && L[1] >= '0' &&
          L[1] <= '9')
        return true;
      return false;
    }
    if (NL == StringRef::npos)
      break;
    I = NL + 1;
  }
  return false;
}

/// Append up to \p Want bytes of \p FD to \p Data; 0 at the end.
static Expected<size_t> readSome(sys::fs::file_t FD, std::string &Data,
                                 size_t Want) {
  size_t Old = Data.size();
  Data.resize(Old + Want);
  Expected<size_t> Got =
      sys::fs::readNativeFile(FD, MutableArrayRef<char>(&Data[Old], Want));
  Data.resize(Old + (Got ? *Got : 0));
  return Got;
}

/// True once \p Prefix has enough of its first line that is neither blank
/// nor a comment to tell IR from a log (9 bytes: also the compact IR's
/// magic).
static bool canTellIR(StringRef Prefix) {
  while (true) {
    Prefix = Prefix.ltrim(" \t\r\n");
    if (!Prefix.startswith("#"))
      return Prefix.size() >= 9;
    size_t NL = Prefix.find('\n');
    if (NL == StringRef::npos)
      return false;
    Prefix = Prefix.drop_front(NL);
  }
}

namespace {

/// What a directory given as input holds. Each layout is told by a small
/// function of its own (holdsTraceLogs, findDebugGraphFolders, ...), and
/// a directory may hold several (a job directory with `trace/` logs and
/// `torch_compile_debug/`). Another layout (a dump of another tool) is a
/// field here, its finder in listDirectoryContents and its reader in
/// openInput, beside the others.
struct DirectoryContents {
  /// Directories of TORCH_TRACE logs: the input itself when it holds
  /// logs, and its subdirectories that do.
  std::vector<std::string> LogDirs;
  /// TORCH_COMPILE_DEBUG graph folders (tlp/Parse/CompileDebugReader.h).
  std::vector<std::string> DebugFolders;
  /// Run folders of the tree with no graph folder.
  std::vector<std::string> EmptyRuns;
};

/// True if \p Path holds a file named like a TORCH_TRACE log.
bool holdsTraceLogs(StringRef Path) {
  std::error_code EC;
  for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::filename(It->path()).startswith("dedicated_log_torch_trace"))
      return true;
  return false;
}

/// The layouts \p Path holds; none found: a directory of logs.
DirectoryContents listDirectoryContents(StringRef Path) {
  DirectoryContents C;
  C.DebugFolders = findDebugGraphFolders(Path, &C.EmptyRuns);
  if (C.DebugFolders.empty() && C.EmptyRuns.empty()) {
    // A directory of logs, as before: its own diagnostics for what is
    // not a log.
    C.LogDirs.push_back(Path.str());
    return C;
  }
  if (classifyDebugDirectory(Path) != DebugLayout::None)
    return C;
  // A directory that holds a TORCH_COMPILE_DEBUG tree and maybe logs.
  if (holdsTraceLogs(Path))
    C.LogDirs.push_back(Path.str());
  std::error_code EC;
  std::vector<std::string> Subdirs;
  for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::fs::is_directory(It->path()) &&
        classifyDebugDirectory(It->path()) == DebugLayout::None &&
        holdsTraceLogs(It->path()))
      Subdirs.push_back(It->path());
  llvm::sort(Subdirs);
  C.LogDirs.insert(C.LogDirs.end(), Subdirs.begin(), Subdirs.end());
  return C;
}

} // namespace

Expected<OpenedInput> openInput(StringRef Path, TraceSources &Sources,
                                DiagnosticEngine &Diags,
                                const ReadOptions &Opts, bool StreamIR) {
  OpenedInput In;
  In.M = std::make_unique<Module>();
  Module &M = *In.M;
  if (Path != "-" && looksLikeDepyfDump(Path)) {
    In.Kind = InputKind::LogDirectory;
    if (Error E = readDepyfDump(Path, M, Sources, Diags, Opts))
      return E;
    return In;
  }
  if (Path != "-" && sys::fs::is_directory(Path)) {
    In.Kind = InputKind::LogDirectory;
    DirectoryContents C = listDirectoryContents(Path);
    for (const std::string &D : C.LogDirs)
      if (Error E = readTrace(D, M, Sources, Diags, Opts))
        return E;
    // Folder files come after the logs in Module::Logs; their units wait
    // in M.Units for the grouping pass, which matches them with the logs'.
    readDebugGraphFolders(C.DebugFolders, M, Sources, Diags, Opts.Lazy);
    for (const std::string &R : C.EmptyRuns)
      Diags.note(R, 0,
                 "no graph folders in this TORCH_COMPILE_DEBUG run (a "
                 "process whose compiles all hit the FX graph cache writes "
                 "none)");
    return In;
  }
  std::string Name = displayName(Path);
  std::unique_ptr<MemoryBuffer> Buf;
  if (Path == "-" && StreamIR) {
    // Read stdin in pieces: IR is then parsed while it still arrives.
    std::string Data;
    sys::fs::file_t Stdin = sys::fs::getStdinHandle();
    // (At most 1 MiB of blank and comment lines: canTellIR rescans.)
    while (Data.size() < (1u << 20) && !canTellIR(Data)) {
      Expected<size_t> Got = readSome(Stdin, Data, 64 * 1024);
      if (!Got)
        return createStringError(errorToErrorCode(Got.takeError()),
                                 "cannot read '%s'", Name.c_str());
      if (*Got == 0)
        break;
    }
    if (looksLikeIR(Data) || looksLikeCompactIR(Data)) {
      In.Kind = InputKind::IR;
      In.IRStream =
          std::make_unique<IRDocumentReader>(0, std::move(Data), Name);
      if (Error E = parseIRHeader(*In.IRStream, M, Diags))
        return E;
      return In;
    }
    // The rest within bounds (no endless line, a log within the first
    // 64 MiB), spooled to a temporary file when large.
    Expected<std::unique_ptr<MemoryBuffer>> B =
        readStream(0, Name, std::move(Data), startsLikeInput);
    if (!B)
      return B.takeError();
    Buf = std::move(*B);
  } else {
    Expected<std::unique_ptr<MemoryBuffer>> B =
        openInputFile(Path, startsLikeInput);
    if (!B)
      return B.takeError();
    Buf = std::move(*B);
  }
  StringRef Text = Buf->getBuffer();
  if (looksLikeIR(Text) || looksLikeCompactIR(Text)) {
    In.Kind = InputKind::IR;
    if (!StreamIR) {
      MemoryBufferRef Ref(Text, Name);
      Expected<std::unique_ptr<Module>> Whole = parseModule(Ref, Diags);
      if (!Whole)
        return Whole.takeError();
      In.M = std::move(*Whole);
      return In;
    }
    In.IRStream = std::make_unique<IRDocumentReader>(std::move(Buf), Name);
    if (Error E = parseIRHeader(*In.IRStream, M, Diags))
      return E;
    return In;
  }
  In.Kind = InputKind::Log;
  bool Empty = trimWS(Text).empty();
  if (!readTraceBuffer(std::move(Buf), Name, Path, rankFromFileName(Path), M,
                       Sources, Diags, Opts))
    return In;
  if (Empty)
    Diags.warning(Name, 0, "input is empty");
  else if (M.Stats.Events == 0)
    Diags.warning(Name, 0, "no trace events found; is this a TORCH_TRACE log?");
  return In;
}

} // namespace tlp
