//===- TraceReader.cpp - Reading TORCH_TRACE logs into the IR -------------===//
//
// Part of tlp. The orchestration of the log reader: a log is cut into
// chunks at event lines (chunkStarts), the chunks are scanned in parallel
// (ChunkScanner, LogFraming.cpp), and each is merged in log order as soon
// as it and those before it are scanned: line numbers, diagnostics and
// counts, artifacts and compile events, the `str` table, the compile
// records (CompileRecords.cpp).
// ReaderInternals.h says which file holds what.
//
//===----------------------------------------------------------------------===//

#include "tlp/Parse/TraceReader.h"
#include "ReaderInternals.h"
#include "tlp/IR/IRYAML.h"
#include "tlp/IR/SourceInfo.h"
#include "tlp/Parse/JSONScan.h"
#include "tlp/Parse/PayloadParsers.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Parallel.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

using namespace llvm;

namespace tlp {

using namespace reader;

bool looksLikeTrace(StringRef Text) {
  Text = Text.take_front(1 << 16);
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    Line = Line.rtrim("\r");
    if (trimWS(Line).empty())
      continue;
    StringRef Json;
    return splitEventLine(Line, Json);
  }
  return false;
}

namespace reader {

namespace {
/// A module table of texts kept once each (Module::KeyComponents,
/// Module::ConfigTexts), where the merge adds the texts the chunks found,
/// in log order: the table's order does not depend on which worker met a
/// text first.
class ModuleTexts {
public:
  explicit ModuleTexts(std::vector<std::string> &Table) : Table(Table) {
    for (size_t I = 0; I < Table.size(); ++I)
      Index.try_emplace(Table[I], static_cast<uint32_t>(I));
  }
  /// The module index of the text of SharedTexts id \p Id, added if new.
  uint32_t intern(uint32_t Id) {
    if (Id >= ByShared.size())
      ByShared.resize(Id + 1, ~0u);
    uint32_t &Cached = ByShared[Id];
    if (Cached == ~0u) {
      const std::string &S = Shared.text(Id);
      auto Ins = Index.try_emplace(S, static_cast<uint32_t>(Table.size()));
      if (Ins.second)
        Table.push_back(S);
      Cached = Ins.first->second;
    }
    return Cached;
  }
  /// Where the chunks keep the texts.
  SharedTexts Shared;

private:
  std::vector<std::string> &Table;
  /// By text: two raw texts (two escapes of one character) may decode to
  /// the same text, one entry of the table.
  StringMap<uint32_t> Index;
  /// The module index of each SharedTexts id met so far (~0u: not yet).
  std::vector<uint32_t> ByShared;
};
} // namespace

/// The module's interned texts (key components, configuration dumps) with
/// their indices, built once for all the logs of a directory: rebuilding
/// them for each log cost a lookup per text already interned, per log.
/// The chunks of every log intern into its SharedTexts.
struct ModuleInterner {
  explicit ModuleInterner(Module &M)
      : Components(M.KeyComponents), Configs(M.ConfigTexts) {}
  ModuleTexts Components, Configs;
  /// The records' guard texts, and their cache lookups' component lists.
  GuardPool Guards;
  IndexListPool Lists;
  /// The records' stacks.
  StackPool Stacks;
  /// Point \p R at the shared tables, before it is scanned.
  void attach(ChunkResult &R) {
    R.Components = &Components.Shared;
    R.Configs = &Configs.Shared;
  }
};

/// Merges the chunks of log \p LogIndex into \p M as they come, in log
/// order, renumbering lines, on the calling thread: diagnostics and counts,
/// artifacts and compile events, the `str` table, the compile records
/// (CompileMerger). A chunk's results are freed once added.
class LogMerger {
public:
  LogMerger(StringRef Name, uint32_t LogIndex, Optional<int64_t> FileRank,
            Module &M, DiagnosticEngine &Diags, const ReadOptions &Opts,
            ModuleInterner &Interner)
      : Name(Name), FileRank(FileRank), M(M), Diags(Diags), Opts(Opts),
        Records(M, LogIndex, Interner.Guards, Interner.Stacks),
        Interner(Interner),
        FirstEvent(M.Events.size()), LF(M.Logs[LogIndex]) {}

  /// Add the next chunk.
  void add(ChunkResult &R);
  /// After the last chunk: the records, then the log's notes.
  void finish(bool SortCompiles);

private:
  StringRef Name;
  Optional<int64_t> FileRank;
  Module &M;
  DiagnosticEngine &Diags;
  const ReadOptions &Opts;
  CompileMerger Records;
  ModuleInterner &Interner;
  uint32_t LineBase = 0;
  unsigned LineReports = 0, LineSuppressed = 0;
  unsigned Md5Reports = 0, Md5Suppressed = 0;
  uint64_t CRLines = 0;
  std::map<std::string, uint64_t> Unknown, NotRead;
  std::vector<std::string> Strings;
  std::vector<bool> HasString;
  size_t FirstEvent;
  std::vector<int64_t> FileIndex;
  LogFile &LF;
  bool RankConflictReported = false;
};

void LogMerger::add(ChunkResult &R) {
  ModuleTexts &ModuleComponents = Interner.Components;
  ModuleTexts &ModuleConfigs = Interner.Configs;
  for (ChunkDiag &D : R.Diags) {
    if (D.D.Line)
      D.D.Line += LineBase;
    if (D.Class == DiagClass::Line && LineReports++ >= Opts.MaxLineReports) {
      ++LineSuppressed;
      continue;
    }
    if (D.Class == DiagClass::Md5 && Md5Reports++ >= Opts.MaxLineReports) {
      ++Md5Suppressed;
      continue;
    }
    Diags.add(std::move(D.D));
  }
  for (auto &RL : R.Ranks) {
    if (!LF.Rank) {
      LF.Rank = RL.second;
    } else if (*LF.Rank != RL.second && !RankConflictReported) {
      // Once per log: the units take the event rank, and their ids name
      // the log (unitIdNeedsLog), so the reader can tell them apart.
      if (FileRank) {
        LF.EventRank = RL.second;
        Diags.warning(Name, RL.first + LineBase,
                      "event rank " + Twine(RL.second) +
                          " differs from rank " + Twine(*FileRank) +
                          " in the file name; the units take rank " +
                          Twine(RL.second) + " and their ids name the log");
      } else {
        Diags.warning(Name, RL.first + LineBase,
                      "event rank " + Twine(RL.second) +
                          " differs from the log's rank " + Twine(*LF.Rank));
      }
      RankConflictReported = true;
    }
  }
  size_t ArtifactBegin = M.Artifacts.size(), EventBegin = M.Events.size();
  for (std::unique_ptr<Artifact> &A : R.Artifacts) {
    A->Line += LineBase;
    M.Artifacts.push_back(std::move(A));
  }
  for (HealthEvent &H : R.Health) {
    H.Line += LineBase;
    H.Event.Line += LineBase;
    if (H.Detail) {
      // Every line a detail holds is fixed up here, as the chunk counted
      // it from its start (a shape or export event's own line too).
      H.Detail->Cache.Line += LineBase;
      if (H.Detail->Shape)
        H.Detail->Shape->Line += LineBase;
      if (H.Detail->Export)
        H.Detail->Export->Line += LineBase;
      if (!H.Detail->Components.empty()) {
        for (uint32_t &C : H.Detail->Components)
          C = ModuleComponents.intern(C);
        H.Detail->Cache.Components = SharedIndices(
            Interner.Lists.intern(std::move(H.Detail->Components)));
      }
      for (auto &C : H.Detail->Configs)
        C.second = ModuleConfigs.intern(C.second);
    }
  }
  for (RawEvent &E : R.Raw)
    E.Line += LineBase;
  for (size_t I = 0; I < R.Events.size(); ++I) {
    R.Events[I].Line += LineBase;
    M.Events.push_back(std::move(R.Events[I]));
    FileIndex.push_back(R.EventFileIndex[I]);
  }
  for (auto &SE : R.Strings) {
    if (static_cast<size_t>(SE.first) >= Strings.size()) {
      Strings.resize(SE.first + 1);
      HasString.resize(SE.first + 1);
    }
    Strings[SE.first] = std::move(SE.second);
    HasString[SE.first] = true;
  }
  for (auto &KV : R.Unknown)
    Unknown[KV.first] += KV.second;
  for (auto &KV : R.NotRead)
    NotRead[KV.first] += KV.second;
  M.Stats.Events += R.Events_;
  M.Stats.Payloads += R.Payloads;
  M.Stats.Md5Mismatches += R.Md5Mismatches;
  M.Stats.MalformedLines += R.Malformed;
  CRLines += R.CRLines;
  Records.add(ArtifactBegin, EventBegin, R.Raw, R.RawIds, R.Health);
  LineBase += R.Lines;
  R = ChunkResult();
}

void LogMerger::finish(bool SortCompiles) {
  M.Stats.Lines += LineBase;
  // Interned file names of stack frames.
  for (size_t I = 0; I < FileIndex.size(); ++I) {
    CompileEvent &E = M.Events[FirstEvent + I];
    if (!E.Frame || FileIndex[I] == -1)
      continue;
    if (FileIndex[I] >= 0 &&
        static_cast<size_t>(FileIndex[I]) < Strings.size() &&
        HasString[FileIndex[I]]) {
      SourceLoc L = *E.Frame;
      L.File = Strings[FileIndex[I]];
      E.Frame = std::move(L);
      continue;
    }
    // A file the frame names by an index no 'str' event defined: say so
    // rather than show a frame without a file.
    Diags.warning(Name, E.Line,
                  FileIndex[I] == BadFileIndex
                      ? Twine("the user frame's 'filename' is neither a "
                              "string nor a string-table index; its file "
                              "is unknown")
                      : "the user frame's file is string-table entry " +
                            Twine(FileIndex[I]) +
                            ", which no 'str' event defines; its file is "
                            "unknown");
  }

  Records.finish(Strings, SortCompiles);
  for (const CompileMerger::RepeatedStart &X : Records.repeatedStarts())
    Diags.warning(Name, X.Line,
                  "'dynamo_start' of compile id " + X.Id.str() +
                      " right after another on line " + Twine(X.Previous) +
                      ", with nothing between (a duplicated line?); read as "
                      "a second compile of the id");

  if (CRLines)
    Diags.note(Name, 0,
               Twine(CRLines) + " lines end in CR LF; the CR was dropped");
  if (LineSuppressed)
    Diags.warning(Name, 0,
                  Twine(LineSuppressed) + " more malformed lines not shown");
  if (Md5Suppressed)
    Diags.warning(Name, 0,
                  Twine(Md5Suppressed) + " more md5 mismatches not shown");
  for (auto &KV : NotRead) {
    auto It = llvm::find_if(M.Stats.UnknownKinds,
                            [&](const std::pair<std::string, uint64_t> &P) {
                              return P.first == KV.first;
                            });
    if (It == M.Stats.UnknownKinds.end())
      M.Stats.UnknownKinds.emplace_back(KV.first, KV.second);
    else
      It->second += KV.second;
  }
  llvm::sort(M.Stats.UnknownKinds);
  if (!Unknown.empty()) {
    std::string List;
    uint64_t Total = 0;
    for (auto &KV : Unknown) {
      if (!List.empty())
        List += ", ";
      List += KV.first + " (" + std::to_string(KV.second) + ")";
      Total += KV.second;
    }
    Diags.note(Name, 0,
               Twine(Total) + " events of kinds tlp does not know: " + List);
  }
}

/// Scan log \p LogIndex in the chunks that begin at \p Starts
/// (chunkStarts) on up to \p Threads workers and merge each into \p M on
/// the calling thread as soon as it and those before it are scanned (the
/// ordered window): the scan holds the events of the chunks in flight, not
/// of the whole log, and the merge runs beside it.
void scanAndMerge(StringRef Log, const std::vector<uint64_t> &Starts,
                  StringRef Name, uint32_t LogIndex,
                  Optional<int64_t> FileRank, const TraceSources &S,
                  Module &M, DiagnosticEngine &Diags,
                  const ReadOptions &Opts, unsigned Threads,
                  bool SortCompiles, ModuleInterner *Interner) {
  Optional<ModuleInterner> OwnInterner;
  if (!Interner) {
    OwnInterner.emplace(M);
    Interner = OwnInterner.getPointer();
  }
  LogMerger Merger(Name, LogIndex, FileRank, M, Diags, Opts, *Interner);
  struct ChunkItem : WindowItem {
    uint64_t Begin = 0, End = 0;
    ChunkResult Result;
  };
  size_t Next = 0;
  std::function<std::unique_ptr<ChunkItem>()> Produce =
      [&]() -> std::unique_ptr<ChunkItem> {
    if (Next == Starts.size())
      return nullptr;
    auto It = std::make_unique<ChunkItem>();
    It->Begin = Starts[Next];
    It->End = Next + 1 < Starts.size() ? Starts[Next + 1] : Log.size();
    Interner->attach(It->Result);
    ++Next;
    return It;
  };
  std::function<void(ChunkItem &)> Work = [&](ChunkItem &It) {
    ChunkScanner(Log, It.Begin, It.End, LogIndex, FileRank, Name, S, Opts,
                 It.Result)
        .run();
  };
  std::function<bool(ChunkItem &)> Consume = [&](ChunkItem &It) {
    Merger.add(It.Result);
    return true;
  };
  runOrderedWindow<ChunkItem>(Starts.size() > 1 ? Threads : 1, 0, Produce,
                              Work, Consume);
  Merger.finish(SortCompiles);
}

} // namespace reader

TraceSources::~TraceSources() = default;

uint32_t TraceSources::add(std::unique_ptr<MemoryBuffer> Buffer,
                           StringRef Path) {
  auto F = std::make_unique<MappedFile>(std::move(Buffer), Path);
  std::unique_lock<std::shared_mutex> Lock(Mutex);
  Logs.push_back(std::move(F));
  return static_cast<uint32_t>(Logs.size() - 1);
}

size_t TraceSources::size() const {
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  return Logs.size();
}

MappedFile *TraceSources::get(uint32_t Log) const {
  std::shared_lock<std::shared_mutex> Lock(Mutex);
  return Log < Logs.size() ? Logs[Log].get() : nullptr;
}

StringRef TraceSources::bytes(uint32_t Log) const {
  MappedFile *F = get(Log);
  return F ? F->bytes() : StringRef();
}

bool TraceSources::read(uint32_t Log, uint64_t Offset, uint64_t Size,
                        std::string &Out) const {
  MappedFile *F = get(Log);
  return F && F->read(Offset, Size, Out);
}

void TraceSources::release(uint32_t Log, uint64_t Offset, uint64_t Size) const {
  if (MappedFile *F = get(Log))
    F->release(Offset, Size);
}

/// The process id of the first event line among the first lines of
/// \p Bytes (`V1205 09:09:43.947000 11698 path:line] {...}`), if any.
static Optional<int64_t> firstEventPid(StringRef Bytes) {
  for (unsigned N = 0; N < 64 && !Bytes.empty(); ++N) {
    StringRef Line;
    std::tie(Line, Bytes) = Bytes.split('\n');
    StringRef Json;
    if (!splitEventLine(Line.rtrim('\r'), Json))
      continue;
    if (Line.startswith("[")) // [rank0]:
      Line = Line.substr(Line.find(':') + 1);
    SmallVector<StringRef, 4> Fields;
    Line.split(Fields, ' ', 3, /*KeepEmpty=*/false);
    uint64_t Pid;
    if (Fields.size() >= 3 && parseUnsigned(Fields[2], Pid))
      return static_cast<int64_t>(Pid);
    return None;
  }
  return None;
}

/// The module's lists grown chunk by chunk, by doubling, are kept to the
/// end of the run: their spare capacity (up to half of each: 4 MB of
/// compile events on a 2 GB log) goes back once the read is whole.
static void giveBackSpareCapacity(Module &M) {
  M.Events.shrink_to_fit();
  M.Artifacts.shrink_to_fit();
}

static bool readLog(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                    StringRef Path, Optional<int64_t> FileRank, Module &M,
                    TraceSources &Sources, DiagnosticEngine &Diags,
                    const ReadOptions &Opts, bool SortCompiles = true);

bool readTraceBuffer(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                     StringRef Path, Optional<int64_t> FileRank, Module &M,
                     TraceSources &Sources, DiagnosticEngine &Diags,
                     const ReadOptions &Opts) {
  return readLog(std::move(Buffer), Name, Path, FileRank, M, Sources, Diags,
                 Opts);
}

/// Why \p Bytes cannot be a log at all (compressed or binary), with the
/// line to report; None if it may be one.
static Optional<std::pair<uint32_t, std::string>> notATextLog(StringRef Bytes) {
  if (Bytes.startswith("\x1f\x8b"))
    return std::make_pair(1u, std::string("this is a gzip-compressed file; "
                                          "decompress it first (gunzip)"));
  if (Bytes.startswith("\x28\xb5\x2f\xfd"))
    return std::make_pair(1u, std::string("this is a zstd-compressed file; "
                                          "decompress it first (unzstd)"));
  StringRef Head = Bytes.take_front(64 * 1024);
  // Event lines in the head: then it is a log, damaged or not.
  auto HasEventLine = [](StringRef Text) {
    while (!Text.empty()) {
      auto [Line, Rest] = Text.split('\n');
      StringRef Json;
      if (splitEventLine(Line.rtrim('\r'), Json))
        return true;
      Text = Rest;
    }
    return false;
  };
  size_t Nul = Head.find('\0');
  if (Nul != StringRef::npos && !HasEventLine(Head)) {
    uint32_t Line = 1 + static_cast<uint32_t>(Head.take_front(Nul).count('\n'));
    return std::make_pair(Line, std::string("binary data (a NUL byte), not a "
                                            "TORCH_TRACE log; file skipped"));
  }
  if (Head.size() > 256 && Head.find('\n') == StringRef::npos &&
      Head.count('\r') > 1)
    return std::make_pair(
        1u, std::string("lines end in CR alone; tlp reads logs whose lines "
                        "end in LF or CR LF (convert with: tr '\\r' '\\n')"));
  return None;
}

/// The first step of reading a log, on the calling thread: its entry in
/// Module::Logs and its bytes in \p Sources; an error (and false) when the
/// bytes cannot be a log at all.
static bool addLog(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                   StringRef Path, Optional<int64_t> FileRank, Module &M,
                   TraceSources &Sources, DiagnosticEngine &Diags,
                   uint32_t &Index) {
  Index = static_cast<uint32_t>(M.Logs.size());
  LogFile LF;
  LF.Path = Name.str();
  LF.Rank = FileRank;
  M.Logs.push_back(std::move(LF));
  // Module::Logs and the sources stay in step.
  while (Sources.size() < Index)
    Sources.add(nullptr);
  uint32_t SI = Sources.add(std::move(Buffer), Path);
  (void)SI;
  M.Logs[Index].Pid = firstEventPid(Sources.bytes(Index));
  if (auto Why = notATextLog(Sources.bytes(Index))) {
    Diags.error(Name, Why->first, Why->second);
    return false;
  }
  return true;
}

/// The last step, on the calling thread, once the log is merged: unless
/// lazy, load its artifacts (from \p FirstArtifact) in parallel;
/// diagnostics in log order.
static void loadArtifacts(size_t FirstArtifact, Module &M,
                          TraceSources &Sources, DiagnosticEngine &Diags,
                          const ReadOptions &Opts) {
  if (Opts.Lazy)
    return;
  size_t N = M.Artifacts.size() - FirstArtifact;
  parallelForOrdered(N, Opts.Threads, Diags,
                     [&](size_t I, DiagnosticEngine &D) {
                       loadArtifact(*M.Artifacts[FirstArtifact + I], M,
                                    Sources, D);
                     });
}

static bool readLog(std::unique_ptr<MemoryBuffer> Buffer, StringRef Name,
                    StringRef Path, Optional<int64_t> FileRank, Module &M,
                    TraceSources &Sources, DiagnosticEngine &Diags,
                    const ReadOptions &Opts, bool SortCompiles) {
  uint32_t Index = 0;
  if (!addLog(std::move(Buffer), Name, Path, FileRank, M, Sources, Diags,
              Index))
    return false;
  size_t FirstArtifact = M.Artifacts.size();
  StringRef Log = Sources.bytes(Index);
  unsigned Threads = resolveThreadCount(Opts.Threads);
  scanAndMerge(Log, chunkStarts(Log, Threads, Opts.ChunkBytes), Name, Index,
               FileRank, Sources, M, Diags, Opts, Threads, SortCompiles,
               /*Interner=*/nullptr);
  loadArtifacts(FirstArtifact, M, Sources, Diags, Opts);
  giveBackSpareCapacity(M);
  return true;
}

void readTraceText(StringRef Text, StringRef Name, Module &M,
                   DiagnosticEngine &Diags, const ReadOptions &Opts) {
  TraceSources S;
  ReadOptions O = Opts;
  O.Lazy = false;
  readTraceBuffer(MemoryBuffer::getMemBufferCopy(Text, Name), Name, "", None, M,
                  S, Diags, O);
  loadRawEvents(M, S);
}

static Error readOneFile(StringRef Path, StringRef Display, Module &M,
                         TraceSources &Sources, DiagnosticEngine &Diags,
                         const ReadOptions &Opts) {
  Expected<std::unique_ptr<MemoryBuffer>> Buf = openInputFile(Path, looksLikeTrace);
  if (!Buf)
    return Buf.takeError();
  readLog(std::move(*Buf), Display, Path, rankFromFileName(Path), M, Sources,
          Diags, Opts);
  return Error::success();
}

Error readTrace(StringRef Path, Module &M, TraceSources &Sources,
                DiagnosticEngine &Diags, const ReadOptions &Opts) {
  if (Path == "-" || !sys::fs::is_directory(Path))
    return readOneFile(Path, displayName(Path), M, Sources, Diags, Opts);

  Expected<LogDirectory> Dir = listLogDirectory(Path, Diags);
  if (!Dir)
    return Dir.takeError();
  const std::vector<std::string> &Files = Dir->Files;
  unsigned Read = 0;
  // The logs are opened and merged in file order on this thread, and
  // scanned on the workers in between (the ordered window), so that many
  // rank logs use every core. A log larger than a chunk (or a log of a
  // directory of fewer logs than twice the threads) is scanned in chunks
  // by all the threads itself, in its turn, and merged as they come.
  unsigned Threads = resolveThreadCount(Opts.Threads);
  struct LogItem : WindowItem {
    std::string Path;
    Optional<int64_t> Rank;
    uint32_t Index = 0;
    bool Scan = false; // a log to read
    /// A log split in chunks (more than one start), scanned in its turn
    /// by all the threads; otherwise the worker scans it whole (Result).
    std::vector<uint64_t> Starts;
    ChunkResult Result;
    /// What opening the file said: Produce runs ahead of Consume, so the
    /// item holds it until the logs before it are merged.
    DiagnosticEngine Opened;
  };
  size_t Next = 0;
  ModuleInterner Interner(M);
  std::function<std::unique_ptr<LogItem>()> Produce =
      [&]() -> std::unique_ptr<LogItem> {
    if (Next == Files.size())
      return nullptr;
    auto It = std::make_unique<LogItem>();
    It->Path = Files[Next++];
    It->Rank = rankFromFileName(It->Path);
    StringRef FileName = sys::path::filename(It->Path);
    Expected<std::unique_ptr<MemoryBuffer>> Buf =
        openInputFile(It->Path, looksLikeTrace);
    if (!Buf) {
      It->Opened.warning(It->Path, 0, toString(Buf.takeError()));
      return It;
    }
    if (!FileName.startswith("dedicated_log_torch_trace") &&
        !looksLikeTrace((*Buf)->getBuffer())) {
      It->Opened.note(It->Path, 0, "skipped: not a TORCH_TRACE log");
      return It;
    }
    ++Read;
    if (!addLog(std::move(*Buf), It->Path, It->Path, It->Rank, M, Sources,
                It->Opened, It->Index))
      return It;
    It->Scan = true;
    // Many logs of up to a chunk's size are scanned side by side, a log a
    // worker; a larger log, or a log of a directory of few, is split.
    StringRef Log = Sources.bytes(It->Index);
    if (Log.size() > Opts.ChunkBytes || Files.size() < 2 * size_t(Threads))
      It->Starts = chunkStarts(Log, Threads, Opts.ChunkBytes);
    Interner.attach(It->Result);
    return It;
  };
  std::function<void(LogItem &)> Work = [&](LogItem &It) {
    if (It.Scan && It.Starts.size() <= 1) {
      StringRef Log = Sources.bytes(It.Index);
      ChunkScanner(Log, 0, Log.size(), It.Index, It.Rank, It.Path, Sources,
                   Opts, It.Result)
          .run();
    }
  };
  std::function<bool(LogItem &)> Consume = [&](LogItem &It) {
    Diags.append(It.Opened);
    if (!It.Scan)
      return true;
    size_t FirstArtifact = M.Artifacts.size();
    if (It.Starts.size() > 1) {
      scanAndMerge(Sources.bytes(It.Index), It.Starts, It.Path, It.Index,
                   It.Rank, Sources, M, Diags, Opts, Threads,
                   /*SortCompiles=*/false, &Interner);
    } else {
      LogMerger Merger(It.Path, It.Index, It.Rank, M, Diags, Opts, Interner);
      Merger.add(It.Result);
      Merger.finish(/*SortCompiles=*/false);
    }
    loadArtifacts(FirstArtifact, M, Sources, Diags, Opts);
    return true;
  };
  runOrderedWindow<LogItem>(Threads, 0, Produce, Work, Consume);
  // Two logs with the same compile ids (two runs of one program): the
  // records name their log, as the units do.
  for (CompileRecord &R : M.Compiles)
    R.LogInId = unitIdNeedsLog(M.Logs, R.Log, R.Rank);
  llvm::sort(M.Compiles);
  giveBackSpareCapacity(M);
  if (!Read && Dir->Subdirs)
    return createStringError(
        std::errc::no_such_file_or_directory,
        "no TORCH_TRACE logs in directory '%s' (subdirectories are not "
        "searched; it has %u: name one instead)",
        Path.str().c_str(), Dir->Subdirs);
  if (!Read)
    return createStringError(std::errc::no_such_file_or_directory,
                             "no TORCH_TRACE logs in directory '%s'",
                             Path.str().c_str());
  return Error::success();
}


} // namespace tlp
