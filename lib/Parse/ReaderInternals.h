//===- ReaderInternals.h - What the log reader's files share ----*- C++ -*-===//
//
// Part of tlp. Private to lib/Parse: the declarations that the files of the
// log reader share. The reader is cut by concern:
//   LogFraming.cpp      event lines, chunks, payload lines, md5s
//   EventEnvelope.cpp   an event's envelope (kind, compile id, rank, md5)
//                       and what it becomes; str entries, compile events,
//                       artifacts
//   LogEvents.cpp       the event names (include/tlp/Parse/LogEvents.def)
//   HealthPayloads.cpp  health events (chromium spans, metrics, guards,
//                       cache lookups, breaks, errors) -> HealthEvent
//   CompileRecords.cpp  a log's health events -> its CompileRecords
//   LogDirectory.cpp    directories of rank logs, the rank in a file name
//   TraceReader.cpp     the orchestration: scan a log's chunks in parallel,
//                       merge them in log order, load payloads; and the
//                       public entry points (include/tlp/Parse/TraceReader.h)
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_PARSE_READERINTERNALS_H
#define TLP_LIB_PARSE_READERINTERNALS_H

#include "tlp/IR/Artifact.h"
#include "tlp/IR/CompileRecord.h"
#include "tlp/IR/Module.h"
#include "tlp/Parse/JSONScan.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Support/Diagnostics.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/xxhash.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tlp {
namespace reader {

//===----------------------------------------------------------------------===//
// Event names (LogEvents.def)
//===----------------------------------------------------------------------===//

/// Where an event's name is written (LogEvents.def, FORM).
enum class EventForm : uint8_t { Envelope, Artifact, GraphDump };
constexpr unsigned NumEventForms = 3;

/// What the reader makes of an event (LogEvents.def, BECOMES); Unknown: an
/// envelope kind with no row.
enum class EventClass : uint8_t {
  Unknown,
  Ignored,
  Strings,
  Named,
  Compile,
  Artifact,
  Health
};

/// Events that feed a compile record (CompileRecord.h), besides
/// dynamo_start (None).
enum class HealthKind : uint8_t {
  None,
  Metrics,          ///< compilation_metrics (metadata, no payload)
  BwdMetrics,       ///< bwd_compilation_metrics: the backward's compile
  RuntimeMetrics,   ///< compilation_metrics_runtime
  BwdRuntimeMetrics, ///< bwd_compilation_metrics_runtime
  Guards,           ///< dynamo_guards: JSON list of {code, ...}
  CppGuards,        ///< dynamo_cpp_guards_str: text
  Chromium,         ///< chromium_event: one trace event as JSON
  RecompileReasons, ///< artifact recompile_reasons: JSON list of strings
  DynamoError,      ///< artifact dynamo_error: a traceback
  GraphBreak,       ///< artifact dynamo_graph_break_reason: text
  Cache,            ///< artifact {fx_graph,aotautograd}_cache_*: JSON
  TorchVersion,     ///< artifact torch_version: JSON, of the whole log
  Shape,            ///< create_symbol, guard_added_fast, ...: metadata
  Export,           ///< export, exported_program, *_fake_kernel
  Schedule,         ///< artifact inductor_collective_schedule: JSON list
  Runtime,          ///< artifact inductor_runtime_and_tensor_meta: JSON
  Execution,        ///< artifact graph_execution: JSON
  DdpSplit          ///< optimize_ddp_split_graph, optimize_ddp_split_child
};

/// LogEvents.def, FLAGS.
enum LogEventFlags : uint8_t {
  NoFlags = 0,
  FXGraphCache = 1 << 0,
  AOTAutogradCache = 1 << 1,
  CacheHit = 1 << 2,
  CacheMiss = 1 << 3,
  CacheBypass = 1 << 4,
};

/// A row of LogEvents.def: what an event of that name becomes.
struct LogEventInfo {
  EventClass Class = EventClass::Unknown;
  Artifact::ArtifactKind AK = Artifact::AK_PreGradGraph; ///< Artifact
  CompileEvent::EventKind CE = CompileEvent::DynamoStart; ///< Compile
  HealthKind HK = HealthKind::None;                       ///< Health
  EventForm Names = EventForm::Envelope;                  ///< Named
  uint8_t Flags = NoFlags;
};

/// The row of \p Name written as \p Form, or null if it has none.
const LogEventInfo *lookupLogEvent(EventForm Form, llvm::StringRef Name);

/// A name of \p Form that \p Name is one or two edits away from
/// ("infuctor_output_code": "inductor_output_code"), for a name that has no
/// row: a damaged name rather than one PyTorch added (no two names PyTorch
/// writes are that close); "" when none. A name shorter than 10 is near
/// only one that differs in case alone, or (from 6 bytes on) in one byte.
llvm::StringRef nearLogEvent(EventForm Form, llvm::StringRef Name);

//===----------------------------------------------------------------------===//
// Chunks: what the scan of one chunk of a log yields
//===----------------------------------------------------------------------===//

/// EventFileIndex of a frame whose filename is neither a string nor an index.
constexpr int64_t BadFileIndex = -2;
/// How far into an output code payload its `# AOT ID:` line is looked
/// for: a compile-time auto-tuning block before it takes 18 lines in
/// PyTorch 2.13 (more with more imports).
constexpr unsigned AotIdSearchLines = 64;

/// A diagnostic of one chunk, with what the per-log report limits count.
enum class DiagClass { Line, Md5, Other };
struct ChunkDiag {
  Diagnostic D;
  DiagClass Class = DiagClass::Other;
};

/// What a health event other than a chromium_event says. Kept apart from
/// HealthEvent: chromium events are most of the health events of a log
/// (61,600 of the 356 MB benchmark log) and need none of it; inline, these
/// fields made every event about 750 bytes, and the scan held them all
/// (208 MB peak for `tlp-emit --json` on that log, against 25 MB before).
struct HealthDetail {
  /// dynamo_start: the stack, with interned file indices (-1: none).
  std::vector<std::pair<int64_t, SourceLoc>> Stack;
  /// Metrics: set fields; GuardCount from guard_count.
  MetricList Metrics;
  std::string FailType, FailReason;
  llvm::Optional<SourceLoc> Where;
  /// dynamo_error, dynamo_graph_break_reason: the innermost user frame of
  /// the traceback (isUserFile) and the traceback text.
  llvm::Optional<SourceLoc> UserFrame;
  std::string Traceback;
  std::vector<std::string> Strings;
  /// CppGuards, GraphBreak: the text; TorchVersion: pytorch_version;
  /// DdpSplit: a submodule's name (empty: the split graph).
  std::string Text;
  /// TorchVersion: the commit.
  std::string Commit;
  /// Shape: the event (its user_stack's frames in Stack); apart, so that
  /// the other kinds' details stay small.
  std::unique_ptr<ShapeEvent> Shape;
  /// Export: the event.
  std::unique_ptr<ExportEvent> Export;
  /// Runtime: the ops (Schedule and Execution use Strings).
  std::vector<RuntimeOp> Ops;
  /// Metrics: the configuration dumps, name and id in
  /// ChunkResult::Configs (index into Module::ConfigTexts after the merge).
  std::vector<std::pair<std::string, uint32_t>> Configs;
  llvm::Optional<uint64_t> Count;
  /// Cache: the lookup, and its key components as ChunkResult::Components
  /// ids (the merge renumbers them and sets Cache.Components).
  CacheLookup Cache;
  std::vector<uint32_t> Components;
};

/// An event that feeds a compile record, parsed in its chunk; merged into
/// the records in log order (CompileMerger). Its envelope's rank and compile
/// id are in its list's keys (HealthList::rank, HealthList::id): the events
/// of one compile come in runs, so a run shares one key.
struct HealthEvent {
  HealthKind Kind = HealthKind::None;
  uint32_t Line = 0;
  /// Index of the rank and compile id in HealthList::Keys.
  uint32_t Key = 0;
  /// Chromium: the event.
  Span Event;
  /// The other kinds: what they say (null until written).
  std::unique_ptr<HealthDetail> Detail;

  HealthDetail &detail() {
    if (!Detail)
      Detail = std::make_unique<HealthDetail>();
    return *Detail;
  }
};
// A log holds tens of thousands of chromium events and the scan keeps
// them all until the merge: the event must stay small (HealthDetail inline
// made it about 750 bytes, 208 MB at the peak of the 356 MB benchmark
// log; the span's names as strings and the rank and id inline, 200).
static_assert(sizeof(HealthEvent) <= 88,
              "HealthEvent grew: keep the rare fields in HealthDetail");

/// A chunk's health events, with their ranks and compile ids. The events
/// in a deque, not a vector: a vector of 60,000 events doubles as it grows
/// and holds the old and the new buffer while it moves them (26 MB at the
/// peak for 9 MB of events on the 356 MB benchmark log); a deque grows a
/// block at a time and never moves them.
class HealthList {
public:
  struct EventKey {
    llvm::Optional<int64_t> Rank;
    llvm::Optional<CompileId> Id;
  };
  // Moved, never copied (a vector of chunks' lists grows by moving them).
  HealthList() = default;
  HealthList(HealthList &&) = default;
  HealthList &operator=(HealthList &&) = default;
  HealthList(const HealthList &) = delete;
  HealthList &operator=(const HealthList &) = delete;

  /// Append \p H with its envelope's \p Rank and \p Id (the previous
  /// event's key when the same).
  void push_back(HealthEvent H, const llvm::Optional<int64_t> &Rank,
                 const llvm::Optional<CompileId> &Id) {
    if (Keys.empty() || Keys.back().Rank != Rank || Keys.back().Id != Id)
      Keys.push_back(EventKey{Rank, Id});
    H.Key = static_cast<uint32_t>(Keys.size() - 1);
    Events.push_back(std::move(H));
  }
  const llvm::Optional<int64_t> &rank(const HealthEvent &H) const {
    return Keys[H.Key].Rank;
  }
  const llvm::Optional<CompileId> &id(const HealthEvent &H) const {
    return Keys[H.Key].Id;
  }
  std::deque<HealthEvent>::iterator begin() { return Events.begin(); }
  std::deque<HealthEvent>::iterator end() { return Events.end(); }
  std::deque<HealthEvent>::const_iterator begin() const {
    return Events.begin();
  }
  std::deque<HealthEvent>::const_iterator end() const { return Events.end(); }
  size_t size() const { return Events.size(); }

private:
  std::deque<HealthEvent> Events;
  std::vector<EventKey> Keys;
};

/// A stack frame `{"line", "name", "filename", "loc"}`; \p FileIndex gets
/// an interned file name's index (-1 if the name is inline or absent).
llvm::Optional<SourceLoc> parseFrame(const json::Value &X, int64_t &FileIndex);

/// Texts kept once each (cache key components, configuration dumps) for a
/// whole read, shared by the chunks scanned on every worker: each distinct
/// raw JSON text is decoded once, not once a chunk (a directory of 1,000
/// small rank logs is 1,000 chunks, each with the same 25 KB configuration
/// dumps and key components: decoding them and hashing the decoded texts
/// at the merge were 19 % of `tlp-emit --json`). Looked up by the xxHash64
/// of the raw text (a StringMap hashed these texts a byte at a time): the
/// first entry of a hash in ByHash, the next of the same hash in its Next.
/// Thread-safe; an entry never changes once added and stays where it is
/// (a deque), so the text text() returns may be read once the lock is
/// released.
class SharedTexts {
public:
  /// The id of the text of the JSON string \p E, added if new. Ids are in
  /// the order the workers happened to add them: the merge numbers the
  /// module's texts in log order (ModuleInterner).
  uint32_t intern(const json::Value &E);
  /// The decoded (and UTF-8 sanitized) text of \p Id.
  const std::string &text(uint32_t Id) const;

private:
  struct Entry {
    std::string Raw, Text;
    uint32_t Next = ~0u;
  };
  mutable std::mutex Mutex;
  std::deque<Entry> Entries;
  llvm::DenseMap<uint64_t, uint32_t> ByHash;
};

/// Values (texts, index lists) kept once each for the whole read, by the
/// merge (one thread), for the records to share (SharedValue): the guards
/// of compiles (2.3 KB a compile; GuardPool), which every rank of a job
/// logs alike for the same frame, and the key components of cache lookups
/// (a few hundred indices a lookup, 1.4 KB; IndexListPool), alike for the
/// same compile.
/// A value's bytes hashed: for strings and lists of plain numbers.
struct BytesHash {
  template <typename T> uint64_t operator()(const T &V) const {
    return llvm::xxHash64(llvm::StringRef(
        reinterpret_cast<const char *>(V.data()), V.size() * sizeof(V[0])));
  }
};
template <typename T, typename Hash = BytesHash> class ValuePool {
public:
  /// The one copy of \p V (null when empty).
  std::shared_ptr<const T> intern(T V) {
    if (V.empty())
      return nullptr;
    auto &Same = ByHash[Hash()(V)];
    for (const std::shared_ptr<const T> &P : Same)
      if (*P == V)
        return P;
    V.shrink_to_fit();
    Same.push_back(std::make_shared<const T>(std::move(V)));
    return Same.back();
  }

private:
  llvm::DenseMap<uint64_t, std::vector<std::shared_ptr<const T>>> ByHash;
};
using GuardPool = ValuePool<std::string>;
using IndexListPool = ValuePool<std::vector<uint32_t>>;

/// The one copy of each distinct compile stack (CompileRecord::Stack):
/// about 9 frames of 112 bytes and their texts a compile, alike on every
/// rank and in every compile of a frame.
struct StackHash {
  uint64_t operator()(const std::vector<SourceLoc> &V) const;
};
using StackPool = ValuePool<std::vector<SourceLoc>, StackHash>;

/// What one chunk of a log yields; line numbers are relative to the chunk
/// until merged.
struct ChunkResult {
  std::vector<std::unique_ptr<Artifact>> Artifacts;
  HealthList Health;
  /// The events kept to be shown raw (keepRaw), in log order, and the
  /// compile id of each (the merge files them under their record). Apart
  /// from Health: a health event's detail is about 800 bytes, and a log
  /// has as many raw events as health events other than chromium's.
  std::vector<RawEvent> Raw;
  std::vector<llvm::Optional<CompileId>> RawIds;
  /// Where cache key components and the configuration dumps of
  /// compilation_metrics (inductor_config, ...: long, 25 KB, and the same
  /// in most compiles) are kept, each text once for the whole read;
  /// HealthDetail::Components and HealthDetail::Configs hold their
  /// SharedTexts ids until the merge. Set by whoever makes the result.
  SharedTexts *Components = nullptr;
  SharedTexts *Configs = nullptr;

  /// The id of the component whose JSON string is \p E, added if new.
  uint32_t internComponent(const json::Value &E) {
    return Components->intern(E);
  }
  std::vector<CompileEvent> Events;
  /// For each event with a stack frame: the interned file index (or -1).
  std::vector<int64_t> EventFileIndex;
  std::vector<std::pair<int64_t, std::string>> Strings;
  std::vector<ChunkDiag> Diags;
  /// (line, rank) of every envelope with a rank among the kept events.
  std::vector<std::pair<uint32_t, int64_t>> Ranks;
  /// Events tlp does not read, by kind (notReadKey); Unknown: those of
  /// envelope kinds it does not know at all.
  std::map<std::string, uint64_t> NotRead, Unknown;
  uint64_t Events_ = 0, Payloads = 0, Md5Mismatches = 0, Malformed = 0;
  uint64_t CRLines = 0;
  uint32_t Lines = 0;
};

//===----------------------------------------------------------------------===//
// The chunk scanner: LogFraming.cpp, EventEnvelope.cpp, HealthPayloads.cpp
//===----------------------------------------------------------------------===//

/// Scans [Begin, End) of one log: a range that starts at an event line (or
/// the start of the log), so chunks are independent.
class ChunkScanner {
public:
  ChunkScanner(llvm::StringRef Log, uint64_t Begin, uint64_t End,
               uint32_t LogIndex, llvm::Optional<int64_t> FileRank,
               llvm::StringRef Name, const TraceSources &Sources,
               const ReadOptions &Opts, ChunkResult &R)
      : Log(Log), Begin(Begin), End(End), LogIndex(LogIndex),
        FileRank(FileRank), Name(Name), Sources(Sources), Opts(Opts), R(R) {}

  void run();

private:
  llvm::StringRef Log;
  uint64_t Begin, End;
  uint32_t LogIndex;
  llvm::Optional<int64_t> FileRank;
  llvm::StringRef Name;
  const TraceSources &Sources;
  const ReadOptions &Opts;
  ChunkResult &R;
  /// Chromium events' names and categories by their raw JSON text: a log
  /// has tens of thousands of spans and a few dozen names, each decoded,
  /// allocated and looked up under internSpanText's lock once per chunk
  /// instead of once per event (at most MaxSpanTexts texts of at most
  /// MaxSpanText bytes are remembered: a hostile log's names are not).
  llvm::StringMap<InternedText> SpanTexts;
  static constexpr unsigned MaxSpanTexts = 4096, MaxSpanText = 256;
  /// nearLogEvent's answer for each name this chunk does not know, by
  /// form: a newer PyTorch may write thousands of events of a kind tlp
  /// does not read, each of which would scan the registry (at most
  /// MaxNearNames names of at most MaxSpanText bytes are remembered).
  llvm::StringMap<llvm::StringRef> NearNames[NumEventForms];
  static constexpr unsigned MaxNearNames = 256;
  llvm::StringRef nearName(EventForm Form, llvm::StringRef Name);

  struct Event {
    bool Active = false;
    bool Skip = false;
    uint32_t Line = 0;
    EventClass Class = EventClass::Ignored;
    Artifact::ArtifactKind AK = Artifact::AK_PreGradGraph;
    CompileEvent::EventKind CE = CompileEvent::DynamoStart;
    HealthKind HK = HealthKind::None;
    /// LogEvents.def's flags of the event's row.
    uint8_t Flags = NoFlags;
    /// A generic event (`artifact`, `graph_dump`): ArtName is its "name".
    bool Named = false;
    /// The payload text, kept for health events (joined with "\n").
    std::string Text;
    std::string Kind;
    std::string ArtName;
    llvm::Optional<int64_t> Rank;
    bool EnvelopeRank = false;
    llvm::Optional<CompileId> Id;
    bool HasPayload = false;
    llvm::StringRef Md5;
    /// Md5's text when the log's was not printable (printable()'s form).
    std::string Md5Text;
    /// Whether this payload's md5 is checked (ReadOptions::Md5).
    bool Hashing = false;
    llvm::MD5 Hash;
    unsigned PayloadLines = 0;
    unsigned PendingBlanks = 0;
    /// The event line's byte range in the log.
    uint64_t LineOffset = 0, LineSize = 0;
    /// The metadata's "encoding" of a generic event.
    std::string Encoding;
    /// Byte range of the payload lines taken so far.
    uint64_t PayloadBegin = 0, PayloadEnd = 0;
    /// End of the last blank line waiting to be taken or dropped.
    uint64_t BlankEnd = 0;
    /// The first payload line (an output code's `# AOT ID:`).
    llvm::StringRef FirstLine;
    /// The `# AOT ID:` line of an output code when it is not the first: a
    /// wrapper with a compile-time auto-tuning block (a docstring of about
    /// 18 lines) before it, as regional inductor's regions are logged.
    llvm::StringRef AotIdLine;
    /// The envelope's `subgraph_name`: the region of a regional inductor
    /// compile (`__marked_inductor_submod0`); empty if none.
    std::string Subgraph;
    json::Value Meta;
    bool ExtraReported = false;
    /// An unhashed payload with a line past its first that begins an FX
    /// graph module (`class X(torch.nn.Module):` at column 0): the payload
    /// is hashed at its end to tell a glued artifact from a script.
    uint32_t GraphLine = 0;
    /// A payload that starts as a JSON object: where that object visibly
    /// ended (a lone "}" line of a pretty-printed one, or a first line
    /// "{...}"), so that lines after it can be questioned.
    enum : uint8_t { JsonNo, JsonOpen, JsonClosed, JsonReported } Json = JsonNo;
    uint32_t JsonEndLine = 0;
    /// Objects open in a multi-line JSON payload (JsonOpen).
    uint32_t JsonDepth = 0;
    /// An unhashed payload that starts as a printed FX graph module
    /// (`class X(torch.nn.Module):`): every later line is indented, so a
    /// line at column 0 is another payload glued on (a lost event line).
    enum : uint8_t { FxNo, FxOpen, FxReported } Fx = FxNo;
  };
  Event Cur;
  bool InOrphanRun = false;

  void diag(Severity Sev, uint32_t Line, const llvm::Twine &Msg,
            llvm::StringRef Excerpt, DiagClass C) {
    ChunkDiag D;
    D.D.Sev = Sev;
    D.D.File = Name.str();
    D.D.Line = Line;
    D.D.Message = Msg.str();
    D.D.Excerpt = Excerpt.empty() ? std::string() : excerpt(Excerpt);
    D.Class = C;
    R.Diags.push_back(std::move(D));
  }
  void lineProblem(uint32_t Line, const llvm::Twine &Msg,
                   llvm::StringRef Text) {
    ++R.Malformed;
    diag(Severity::Warning, Line, Msg, Text, DiagClass::Line);
  }

  // Framing (LogFraming.cpp): payload lines, md5s, the event's end.
  void payloadLine(llvm::StringRef Content, uint32_t Line, llvm::StringRef Raw,
                   uint64_t LineBegin, uint64_t LineEnd);
  void checkJsonPayloadLine(llvm::StringRef Content, uint32_t Line,
                            llvm::StringRef Raw);
  void checkFxPayloadLine(llvm::StringRef Content, uint32_t Line,
                          llvm::StringRef Raw);
  void checkLastPayload(unsigned Blanks);
  bool unhashedPayloadMatches(unsigned Blanks, std::string &Got);
  void addPayloadLine(llvm::StringRef Content) {
    // An export's program is shown raw from the log: not kept here.
    if (Cur.HK != HealthKind::None && Cur.HK != HealthKind::Export) {
      if (Cur.PayloadLines)
        Cur.Text += '\n';
      Cur.Text.append(Content.data(), Content.size());
    }
    if (Cur.Hashing) {
      if (Cur.PayloadLines)
        Cur.Hash.update("\n");
      Cur.Hash.update(Content);
    }
    if (!Cur.PayloadLines)
      Cur.FirstLine = Content;
    else if (Cur.AotIdLine.empty() && Cur.PayloadLines < AotIdSearchLines &&
             Cur.Class == EventClass::Artifact &&
             Cur.AK == Artifact::AK_OutputCode &&
             Content.startswith("# AOT ID:"))
      Cur.AotIdLine = Content;
    ++Cur.PayloadLines;
  }
  void flushBlanks() {
    for (; Cur.PendingBlanks; --Cur.PendingBlanks)
      addPayloadLine(llvm::StringRef());
    if (Cur.BlankEnd > Cur.PayloadEnd)
      Cur.PayloadEnd = Cur.BlankEnd;
  }
  /// Check the payload of the event read (its md5, a lost event line, the
  /// end of the log) and finish the event by what it becomes.
  void finishEvent();
  /// Set while the event being started or finished is the last of the log.
  bool AtLogEnd = false;

  // Envelopes (EventEnvelope.cpp): an event line's envelope and the events
  // that need no payload parsing.
  void startEvent(llvm::StringRef L, uint32_t LineNo);
  std::string notReadKey() const;
  void notRead();
  void keepRaw();
  void finishStrings();
  void finishCompileEvent();
  void finishArtifact();

  // Health events (HealthPayloads.cpp).
  void finishHealth();

  static std::string hexOf(llvm::MD5 &H) {
    llvm::MD5::MD5Result Res;
    H.final(Res);
    return Res.digest().str().str();
  }
};

/// Chunk boundaries (LogFraming.cpp), each at a line that begins an event
/// (no TAB, not blank), so that chunks are independent: four chunks a
/// thread (at least 4 MB each, or \p ChunkBytes if smaller) and at most
/// \p ChunkBytes each (about: a chunk ends at an event line), on one
/// thread too. The scan merges a chunk once scanned, so the chunks in
/// flight, not the log, bound what it holds.
std::vector<uint64_t> chunkStarts(llvm::StringRef Log, unsigned Threads,
                                  uint64_t ChunkBytes);

//===----------------------------------------------------------------------===//
// Compile records (CompileRecords.cpp)
//===----------------------------------------------------------------------===//

/// Builds the compile records of one log from its chunks as they are
/// merged, in log order: the compile ids of their artifacts, compile events
/// and raw events, and their health events. A chunk's health events are
/// applied (or, those of a span that may belong to the next compile of its
/// frame, held until that is known) and freed as it is added, so memory
/// holds the records, not the log's events.
class CompileMerger {
public:
  /// \p Guards keeps the records' guard texts once each.
  CompileMerger(Module &M, uint32_t LogIndex, GuardPool &Guards,
                StackPool &Stacks);
  ~CompileMerger();
  CompileMerger(const CompileMerger &) = delete;
  CompileMerger &operator=(const CompileMerger &) = delete;

  /// Add the next chunk, its lines renumbered: its artifacts are
  /// M.Artifacts from \p ArtifactBegin, its compile events M.Events from
  /// \p EventBegin; its raw events \p Raw (with their compile ids) go to
  /// their records or, without an id, to Module::Raw; its health events are
  /// consumed.
  void add(size_t ArtifactBegin, size_t EventBegin, std::vector<RawEvent> &Raw,
           const std::vector<llvm::Optional<CompileId>> &RawIds,
           HealthList &Health);
  /// Add the records to M.Compiles, sorted unless \p Sort is false (a
  /// directory of logs sorts once at the end: a sort per log made a
  /// thousand rank logs quadratic). \p Strings: the log's whole `str`
  /// table (stack frames name their files by index).
  void finish(const std::vector<std::string> &Strings, bool Sort);

  /// A dynamo_start of attempt 0 on the line right after another of the
  /// same rank and compile id: nothing can come between two compiles of an
  /// id (a reset follows a compile's artifacts and metrics), so the line
  /// was duplicated. It is read as a second compile, and said.
  struct RepeatedStart {
    uint32_t Line = 0;
    uint32_t Previous = 0;
    CompileId Id;
  };
  const std::vector<RepeatedStart> &repeatedStarts() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

//===----------------------------------------------------------------------===//
// Directories of logs (LogDirectory.cpp)
//===----------------------------------------------------------------------===//

/// The entries of a directory of logs that may be read.
struct LogDirectory {
  /// Its regular files but the hidden ones, sorted. One is read if it is
  /// named like a rank log or looks like a log (looksLikeTrace).
  std::vector<std::string> Files;
  /// How many subdirectories it has (they are not searched).
  unsigned Subdirs = 0;
};

/// List the directory \p Path. Entries that cannot be read (a link to
/// nothing, a FIFO, a subdirectory named like a rank log) are skipped with
/// a warning each, in name order; an error if the directory cannot be read.
llvm::Expected<LogDirectory> listLogDirectory(llvm::StringRef Path,
                                              DiagnosticEngine &Diags);

} // namespace reader
} // namespace tlp

#endif // TLP_LIB_PARSE_READERINTERNALS_H
