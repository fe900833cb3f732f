//===- CompileRecord.h - The health of one compile --------------*- C++ -*-===//
//
// Part of tlp. A CompileRecord is what the log says about one compile of a
// frame, whether or not it produced Inductor output: how it ended (success,
// restart, failure), why the graph broke or the frame recompiled, its
// guards, its compilation_metrics, its cache lookups with their key
// components, and its chromium_event spans. Records live in the Module,
// one per (log, rank, compile id); a compile unit finds its record by the
// same key (Module::findCompile). See docs/IR.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_COMPILERECORD_H
#define TLP_IR_COMPILERECORD_H

#include "tlp/IR/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringMapEntry.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tlp {

/// How a compile attempt ended.
enum class CompileStatus {
  Success, ///< compilation_metrics without fail_type
  Restart, ///< Dynamo restarted analysis: a later attempt of the same id
  Failure, ///< fail_type in the metrics, or a dynamo_error
  Unknown  ///< no metrics and no later attempt (a log cut short)
};
llvm::StringRef compileStatusName(CompileStatus S);
bool parseCompileStatus(llvm::StringRef S, CompileStatus &Out);

/// A text kept once for the whole process, never freed: the names of
/// metrics, spans and raw events, a few dozen distinct ones among
/// millions of uses. Thread-safe.
using InternedName = llvm::StringMapEntry<llvm::NoneType>;
const InternedName *internName(llvm::StringRef S);

/// An interned text (internName) in a pointer's room: the many spans and
/// raw events each name one of a few dozen texts. Reads as a StringRef;
/// empty when none.
class InternedText {
public:
  InternedText() = default;
  explicit InternedText(const InternedName *P) : P(P) {}

  llvm::StringRef ref() const { return P ? P->getKey() : llvm::StringRef(); }
  operator llvm::StringRef() const { return ref(); }
  std::string str() const { return ref().str(); }
  const char *data() const { return ref().data(); }
  size_t size() const { return ref().size(); }
  bool empty() const { return ref().empty(); }
  bool startswith(llvm::StringRef X) const { return ref().startswith(X); }
  bool endswith(llvm::StringRef X) const { return ref().endswith(X); }
  friend bool operator==(InternedText A, llvm::StringRef B) {
    return A.ref() == B;
  }
  friend bool operator!=(InternedText A, llvm::StringRef B) {
    return A.ref() != B;
  }
  friend bool operator==(InternedText A, InternedText B) {
    return A.ref() == B.ref();
  }
  friend bool operator!=(InternedText A, InternedText B) {
    return A.ref() != B.ref();
  }
  friend bool operator==(InternedText A, const char *B) {
    return A.ref() == B;
  }
  friend bool operator!=(InternedText A, const char *B) {
    return A.ref() != B;
  }

private:
  const InternedName *P = nullptr;
};

/// The fields of a compilation_metrics event (and its backward and runtime
/// kin) that are set, in log order: each a name and its value as compact
/// JSON text. A record keeps about 40 of them for the whole run, and every
/// record has the same few dozen names: each name is kept once for the
/// process (internName) and an entry holds a pointer to it; the values
/// are kept back to back in one buffer. Entries are read as pairs of
/// StringRefs, valid until the list changes (the names for good).
class MetricList {
public:
  using value_type = std::pair<llvm::StringRef, llvm::StringRef>;
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = MetricList::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    iterator(const MetricList *L, size_t I) : L(L), I(I) {}
    value_type operator*() const { return (*L)[I]; }
    iterator &operator++() {
      ++I;
      return *this;
    }
    bool operator==(const iterator &O) const { return I == O.I; }
    bool operator!=(const iterator &O) const { return I != O.I; }

  private:
    const MetricList *L;
    size_t I;
  };

  void emplace_back(llvm::StringRef Name, llvm::StringRef Value) {
    if (!S)
      S = Storage();
    S->Names.push_back(internName(Name));
    S->Text.append(Value.data(), Value.size());
    S->Ends.push_back(static_cast<uint32_t>(S->Text.size()));
  }
  void push_back(const value_type &KV) { emplace_back(KV.first, KV.second); }
  size_t size() const { return S ? S->Names.size() : 0; }
  bool empty() const { return size() == 0; }
  value_type operator[](size_t I) const {
    size_t B = I ? S->Ends[I - 1] : 0;
    return {S->Names[I]->getKey(),
            llvm::StringRef(S->Text).slice(B, S->Ends[I])};
  }
  iterator begin() const { return iterator(this, 0); }
  iterator end() const { return iterator(this, size()); }
  /// The first value of \p Name, or "" if not set.
  llvm::StringRef lookup(llvm::StringRef Name) const {
    for (size_t I = 0, E = size(); I < E; ++I)
      if (S->Names[I]->getKey() == Name)
        return (*this)[I].second;
    return llvm::StringRef();
  }
  /// Replace the value of entry \p I (a repeated key whose last value is
  /// kept: rare, so the buffer is rebuilt).
  void setValue(size_t I, llvm::StringRef Value) {
    MetricList Out;
    for (size_t J = 0; J < size(); ++J)
      Out.emplace_back((*this)[J].first, J == I ? Value : (*this)[J].second);
    *this = std::move(Out);
  }
  void clear() { S.reset(); }
  /// Give back the capacity that growing left (once the list is complete).
  void shrinkToFit() {
    if (!S)
      return;
    S->Names.shrink_to_fit();
    S->Text.shrink_to_fit();
    S->Ends.shrink_to_fit();
  }
  bool operator==(const MetricList &O) const { return S == O.S; }
  bool operator!=(const MetricList &O) const { return !(*this == O); }

private:
  /// Per entry: its name (interned), and the end of its value in Text.
  /// Apart, so that the lists a record leaves empty (most of its
  /// backward and runtime ones) cost a pointer.
  struct Storage {
    std::vector<const InternedName *> Names;
    std::string Text;
    std::vector<uint32_t> Ends;
    bool operator==(const Storage &O) const {
      return Names == O.Names && Text == O.Text && Ends == O.Ends;
    }
  };
  HeapOptional<Storage> S;
};

/// An immutable value (a text, a list) that records may share: the reader
/// keeps each distinct one once. Empty when none.
template <typename T> class SharedValue {
public:
  SharedValue() = default;
  SharedValue(T V)
      : P(V.empty() ? nullptr : std::make_shared<const T>(std::move(V))) {}
  explicit SharedValue(std::shared_ptr<const T> V)
      : P(V && !V->empty() ? std::move(V) : nullptr) {}

  /// The value; its address is stable while any copy of this lives.
  const T &get() const {
    static const T Empty;
    return P ? *P : Empty;
  }
  size_t size() const { return P ? P->size() : 0; }
  bool empty() const { return !P; }
  /// A container's elements (instantiated only for the containers).
  auto begin() const { return get().begin(); }
  auto end() const { return get().end(); }
  decltype(auto) operator[](size_t I) const { return get()[I]; }
  /// Whether \p O is the same object (not only an equal value).
  bool shares(const SharedValue &O) const { return P && P == O.P; }
  bool operator==(const SharedValue &O) const { return get() == O.get(); }
  bool operator!=(const SharedValue &O) const { return !(*this == O); }

private:
  std::shared_ptr<const T> P;
};

/// A compile's guards, which every rank of a job logs alike for the same
/// frame. Reads as a std::string.
class SharedText : public SharedValue<std::string> {
public:
  using SharedValue::SharedValue;
  SharedText(const char *S) : SharedValue(std::string(S)) {}
  const std::string &str() const { return get(); }
  operator llvm::StringRef() const { return get(); }
};

/// A cache lookup's key components, which every rank of a job logs alike
/// for the same compile.
class SharedIndices : public SharedValue<std::vector<uint32_t>> {
public:
  using SharedValue::SharedValue;
  const std::vector<uint32_t> &vec() const { return get(); }
};

/// The frame Dynamo compiled and its stack, which every rank of a job logs
/// alike for the same frame, as do the compiles of one frame (recompiles,
/// the attempts after a restart). Reads as a std::vector<SourceLoc>.
class SharedStack : public SharedValue<std::vector<SourceLoc>> {
public:
  using SharedValue::SharedValue;
  const std::vector<SourceLoc> &vec() const { return get(); }
  const SourceLoc &back() const { return get().back(); }
};

/// One FX graph cache or AOTAutograd cache lookup.
struct CacheLookup {
  enum CacheKind { FXGraph, AOTAutograd };
  enum ResultKind { Hit, Miss, Bypass };
  CacheKind Cache = FXGraph;
  ResultKind Result = Miss;
  /// 1-based line of the envelope.
  uint32_t Line = 0;
  /// The envelope's `subgraph_name`: the lookup of a regional inductor
  /// region's compile (each region looks the caches up on its own).
  std::string Subgraph;
  /// The cache key ("key"), if the record has one.
  std::string Key;
  /// An FX graph cache lookup's graph: the AOT ID of the output code
  /// logged last before it in its compile ("2_backward"; the lookup comes
  /// right after its graph's code, a hit's too); "" if none.
  std::string AotId;
  /// Why it bypassed ("cache_bypass_reason"), or cache_status_detailed
  /// when it says more than the result.
  std::string Reason;
  /// Time saved by a hit ("time_saved_ms"), if given.
  llvm::Optional<double> TimeSavedMs;
  /// The key's components, as indices into Module::KeyComponents (each
  /// text "[hash] name: value" verbatim, stored once per module: most
  /// components are the same in every lookup); lookups with the same
  /// components share the list.
  SharedIndices Components;
};
llvm::StringRef cacheKindName(CacheLookup::CacheKind K);
bool parseCacheKind(llvm::StringRef S, CacheLookup::CacheKind &K);
llvm::StringRef cacheResultName(CacheLookup::ResultKind R);
bool parseCacheResult(llvm::StringRef S, CacheLookup::ResultKind &R);

/// A key component split into its hash, name and value:
/// "[ulqiww7t...] fx_kwargs[cpp_wrapper]: False". Components that do not
/// have this shape have an empty hash and the whole text as name.
struct KeyComponent {
  llvm::StringRef Hash;
  llvm::StringRef Name;
  llvm::StringRef Value;
};
KeyComponent splitKeyComponent(llvm::StringRef C);

/// The first lines that differ between two values of a key component (a
/// changed `gm`, a long config value), as a small unified diff: a header
/// "@@ -7,3 +7,3 @@" (1-based lines of each value), then up to \p Context
/// unchanged lines, the first run of changed lines ("-" before, "+" after,
/// at most \p Max of each side), and up to \p Context unchanged lines
/// after it; "@@ more lines differ below @@" ends it when later lines
/// differ too or the run was cut. Lines are cut at 200 bytes. Empty when
/// both values are one line, or the texts are the same.
std::string keyValueDiff(llvm::StringRef Before, llvm::StringRef After,
                         unsigned Context = 2, unsigned Max = 6);
/// The 1-based line of the first line that differs between \p Before and
/// \p After (0 when the texts are the same).
unsigned firstDifferingLine(llvm::StringRef Before, llvm::StringRef After);

/// An event of a compile's symbolic shape environment: a symbol made for
/// a size (create_symbol, create_unbacked_symbol), a guard on the symbols
/// (guard_added_fast, guard_added), a symbol specialized to a value
/// (symbolic_shape_specialization), a guard on data-dependent values that
/// could not be decided (guard_on_data_dependent_error), or a decision
/// taken from real tensors (propagate_real_tensors_provenance).
struct ShapeEvent {
  enum ShapeKind {
    Symbol,
    UnbackedSymbol,
    Guard,
    Specialization,
    DataDependentError,
    RealTensors
  };
  ShapeKind Kind = Symbol;
  /// 1-based line of the envelope.
  uint32_t Line = 0;
  /// The symbol ("s27", "u0"), or empty.
  std::string Sym;
  /// Where its value comes from ("L['x'].size()[1]"; several joined by
  /// ", "), or empty.
  std::string Source;
  /// Its value when made, the value it was specialized to, or the result
  /// taken from real tensors.
  std::string Value;
  /// Its value range ("[2, int_oo]").
  std::string Range;
  /// The guard's or error's expression ("s27 <= 4096"); a specialization's
  /// reason.
  std::string Expr;
  /// The innermost frame of its user_stack (the user line that made it).
  llvm::Optional<SourceLoc> UserFrame;
};
/// One op of Inductor's runtime estimates (inductor_runtime_and_tensor_meta,
/// logged with config.log_tlparse): its kernel or buffer name, whether it
/// computes or is a collective, the estimated runtime and its outputs.
struct RuntimeOp {
  std::string Name;
  /// "compute" or "collective".
  std::string Type;
  double EstimatedNs = 0;
  /// Each output as "dtype[shape] [stride]" ("float32[4, 8] [8, 1]"; "-"
  /// for one without a layout, a collective's), joined by " + ".
  std::string Outputs;
};

/// What ran, as a compile logged it.
struct RuntimeRecord {
  /// 1-based line of the envelope.
  uint32_t Line = 0;
  /// inductor_collective_schedule: the collective kernels in schedule
  /// order. graph_execution: the compile ids in the order the graphs ran.
  std::vector<std::string> Names;
  /// inductor_runtime_and_tensor_meta: the ops.
  std::vector<RuntimeOp> Ops;
};

/// What torch.export logged: an export began (`export`), its exported
/// program (`exported_program`: the text is shown raw), an operator draft
/// export found without a fake kernel (`missing_fake_kernel`) or whose
/// fake kernel disagrees with the real one (`mismatched_fake_kernel`).
struct ExportEvent {
  enum ExportKind { Start, Program, MissingFakeKernel, MismatchedFakeKernel };
  ExportKind Kind = Start;
  /// 1-based line of the envelope.
  uint32_t Line = 0;
  /// The operator (`mylib.scale.default`), or empty.
  std::string Op;
  /// Why a fake kernel disagrees, or empty.
  std::string Reason;
  /// The payload's line count (the exported program's), or 0.
  uint32_t Lines = 0;
};
llvm::StringRef exportKindName(ExportEvent::ExportKind K);
bool parseExportKind(llvm::StringRef S, ExportEvent::ExportKind &K);

llvm::StringRef shapeKindName(ShapeEvent::ShapeKind K);
bool parseShapeKind(llvm::StringRef S, ShapeEvent::ShapeKind &K);

/// An event of the log that tlp does not interpret (a Dynamo graph, the
/// AOT graphs, fx_graph_runnable, bytecode, an artifact of a name no one
/// knows yet): kept by reference so that every output can list it and the
/// pages can show it raw, with its log line. Its texts are read from the
/// log when shown (RawEventReader); an IR document carries them (Loaded).
struct RawEvent {
  /// The envelope kind, or `artifact:NAME` / `graph_dump:NAME` for the
  /// generic kinds (LogStats::UnknownKinds names the same way); interned
  /// (internSpanText): a log has tens of thousands of raw events and a
  /// few dozen names.
  InternedText Name;
  /// The metadata's "encoding" ("string", "json"), or empty; interned.
  InternedText Encoding;
  uint32_t Log = 0;
  /// 1-based line of the envelope.
  uint32_t Line = 0;
  /// The payload's line count; 0: no payload.
  uint32_t PayloadLines = 0;
  /// The event line in its log (glog prefix and envelope), without its
  /// line break.
  uint32_t LineSize = 0;
  uint64_t LineOffset = 0;
  /// The payload lines in its log (tabs included), as Artifact::PayloadRef.
  uint64_t PayloadOffset = 0;
  uint64_t PayloadSize = 0;
  /// xxHash64 of the event line (0: unknown): how a reader that opens the
  /// log again (an IR input) knows the line is still the one read.
  uint64_t LineHash = 0;
  /// The rank of an event of no compile (a record's events have its
  /// rank and compile id).
  llvm::Optional<int64_t> Rank;
  /// The texts, when loaded (an IR input): the event line and the payload
  /// (tabs dropped, lines joined by "\n"); null when they are read from
  /// the log. Apart, so that the many events never loaded stay small.
  struct Texts {
    std::string EventLine;
    std::string Text;
  };
  std::shared_ptr<const Texts> Loaded;
  bool isLoaded() const { return Loaded != nullptr; }
};

/// Reads the texts of a RawEvent that is not loaded, from its log (the
/// reader's sources; tlp/Parse/TraceReader.h).
class RawEventReader {
public:
  virtual ~RawEventReader();
  /// The event line and the payload of \p E into \p Line and \p Text
  /// (valid UTF-8); false if the log's bytes are not there. Thread-safe:
  /// the workers that render pages read through one reader.
  virtual bool read(const RawEvent &E, std::string &Line,
                    std::string &Text) const = 0;
};

/// How the IR text form writes raw events: with their texts (embedded),
/// or as where they are in their log (the default for a log on disk; the
/// reader of the IR opens the log again). Reader reads the texts to embed.
struct RawWriteContext {
  const RawEventReader *Reader = nullptr;
  /// By log index: embed the texts of its events.
  std::vector<bool> Embed;
  bool embed(uint32_t Log) const { return Log >= Embed.size() || Embed[Log]; }
};

/// The texts of \p E: its own when loaded, else read through \p Reader
/// (which may be null); false if neither has them.
bool rawEventTexts(const RawEvent &E, const RawEventReader *Reader,
                   std::string &Line, std::string &Text);

/// A chromium_event as a span of time (begin and end paired) or an
/// instant. Times are microseconds, as the events write them.
struct Span {
  /// Both interned (internSpanText): a log has tens of thousands of spans
  /// and a few dozen names ("entire_frame_compile", "dynamo_timed").
  InternedText Name;
  InternedText Category;
  int64_t Start = 0;
  int64_t Duration = 0;
  int64_t Tid = 0;
  /// Line of the envelope of the event that began it.
  uint32_t Line = 0;
  /// 'X': a complete span (a B/E pair or an X event); 'i': an instant;
  /// 'B': a begin whose end never came (Duration 0).
  char Phase = 'X';
};

/// \p S kept once for the whole process (thread-safe): what a Span's name
/// and category and a RawEvent's name and encoding point into. The texts
/// are never freed; they are as many as the distinct names of the logs
/// read.
InternedText internSpanText(llvm::StringRef S);

/// Why a compile broke its graph or restarted: the reason text and the
/// user line it points at (when the text names one), with how many times
/// it was seen.
struct BreakReason {
  /// The whole reason text (without the tracebacks).
  std::string Reason;
  /// The place PyTorch names ("Graph break in user code at f.py:N"), which
  /// may be in torch's own files (optimizer.py:79).
  llvm::Optional<SourceLoc> Where;
  /// The innermost frame of the break's user code traceback in the user's
  /// own files (isUserFile), when the log has that traceback.
  llvm::Optional<SourceLoc> UserFrame;
  /// The break's "User code traceback:" frames, as logged.
  std::string Traceback;
  uint32_t Count = 1;

  // llvm::Optional's move constructor is not noexcept, so without these a
  // growing vector of reasons (or of records) copies its elements instead
  // of moving them: a module's records held twice at the peak.
  BreakReason() = default;
  BreakReason(const BreakReason &) = default;
  BreakReason(BreakReason &&) noexcept = default;
  BreakReason &operator=(const BreakReason &) = default;
  BreakReason &operator=(BreakReason &&) noexcept = default;

  /// One line for a table: reasonSummary(Reason).
  std::string summary() const;
  /// The Dynamo exception of an internal restart, when the reason is one:
  /// Dynamo restarts its analysis for reasons of its own, not only at a
  /// graph break, and logs them in restart_reasons as the exception class
  /// ("<class 'torch._dynamo.exc.TensorifyScalarRestartAnalysis'>": a float
  /// traced as a tensor must be specialized). "TensorifyScalarRestartAnalysis"
  /// then; empty for a graph break.
  std::string restartClass() const;
  /// "internal restart" or "graph break".
  llvm::StringRef kindName() const {
    return restartClass().empty() ? "graph break" : "internal restart";
  }
  /// One line for a table: the restart class, else summary().
  std::string label() const;
};

/// One line for a reason text (a graph-break, restart or failure reason):
/// its first line that says more than a preamble ("Encountered graph break
/// when attempting to trace ...", "Failed to handle graph break gracefully
/// ..."); when a second break happened while the first was handled ("***
/// While handling this graph break, another graph break occurred: ***"),
/// "; while handling it: " and the last one's first line.
std::string reasonSummary(llvm::StringRef Text);

/// Whether \p File is one of the user's own files, for "the innermost
/// frame in the user's code" (docs/IR.md, user frames): not in torch's
/// package (a path through `site-packages/torch/` or `dist-packages/torch/`,
/// under \p TorchRoot, or relative under `torch/`), nor in the packages
/// the compile stack runs (`torchgen`, `functorch`, `triton`), nor in
/// Python's standard library (`lib/pythonX.Y/` outside site-packages), nor
/// a pseudo-file (`<frozen ...>`, `<string>`), nor code Inductor generated
/// (its cache modules, named by a hash). Other installed packages are the
/// user's: Dynamo traces them as user code.
bool isUserFile(llvm::StringRef File, llvm::StringRef TorchRoot = "");

/// The directory of torch's package that \p Frames show: the prefix up to
/// and including `torch/` of the first frame in `torch/_dynamo/` (every
/// Dynamo traceback has one), so that a torch run from a source checkout
/// (`~/pytorch/torch/...`) is told apart too. "" when none.
std::string torchRootOf(const std::vector<SourceLoc> &Frames);

/// The innermost (last) frame of \p Frames in a user file (isUserFile, with
/// the torch root of \p Frames, else \p TorchRoot).
llvm::Optional<SourceLoc> innermostUserFrame(const std::vector<SourceLoc> &Frames,
                                             llvm::StringRef TorchRoot = "");

class CompileRecord {
public:
  CompileRecord() = default;
  CompileRecord(const CompileRecord &) = default;
  /// noexcept, so that a growing vector of records moves them (see
  /// BreakReason).
  CompileRecord(CompileRecord &&) noexcept = default;
  CompileRecord &operator=(const CompileRecord &) = default;
  CompileRecord &operator=(CompileRecord &&) noexcept = default;

  uint32_t Log = 0;
  llvm::Optional<int64_t> Rank;
  /// None: the events of the log outside any compile (spans, say).
  llvm::Optional<CompileId> Id;
  /// Compiles that share a compile id in one log (after
  /// torch._dynamo.reset(), which starts the ids again at 0/0) are
  /// distinct: each dynamo_start of an id begins a new one. 0 when the
  /// id (any attempt) begins once in its log; else 1, 2, ... in log
  /// order, shown as "0/0 #2".
  uint32_t Ordinal = 0;
  /// The name says the log ("(log 1)"): set when the input has several
  /// logs and the rank does not pick out the record's log (two runs'
  /// logs in one directory both have a 0/0); see unitIdNeedsLog.
  bool LogInId = false;

  CompileStatus Status = CompileStatus::Unknown;
  /// Failure: the exception type, its message, and the user frame.
  std::string FailType;
  std::string FailReason;
  /// The place PyTorch names (fail_user_frame_filename/_lineno), which may
  /// be in torch's own files (custom_ops.py:863); else the traceback's
  /// innermost user frame; else the frame Dynamo compiled.
  HeapOptional<SourceLoc> FailFrame;
  /// The dynamo_error payload, whole: the traceback of the failure.
  std::string FailTraceback;
  /// The innermost frame of that traceback in the user's own files
  /// (isUserFile).
  HeapOptional<SourceLoc> FailUserFrame;

  /// The frame Dynamo compiled and its stack, outermost first (from
  /// dynamo_start; file names resolved through the string table), shared
  /// by the records that logged the same stack.
  SharedStack Stack;
  /// 1-based line of the first event of the compile.
  uint32_t Line = 0;

  /// Graph breaks and restart reasons, deduplicated, in first-seen order.
  std::vector<BreakReason> Breaks;
  /// recompile_reasons: the guards that failed, e.g. "0/0: tensor 'x'
  /// size mismatch at index 0. expected 2, actual 3".
  std::vector<std::string> RecompileReasons;
  /// Guards: how many (from the guard list, else guard_count) and their
  /// text (dynamo_cpp_guards_str, else the guard code lines), shared by
  /// the records that logged the same text.
  llvm::Optional<uint64_t> GuardCount;
  SharedText Guards;
  /// compilation_metrics fields that are set, in log order: name and the
  /// value as compact JSON text. The config dumps are in Configs.
  MetricList Metrics;
  /// The configuration dumps of compilation_metrics, in log order: name
  /// ("inductor_config") and index into Module::ConfigTexts.
  std::vector<std::pair<std::string, uint32_t>> Configs;
  /// 1-based line of the compilation_metrics that logged Configs (0:
  /// none): where the compile stands in its log for the configuration's
  /// history (a record without a compile id begins with the log's first
  /// event outside any compile, long before its metrics).
  uint32_t ConfigLine = 0;
  /// bwd_compilation_metrics (aot_autograd_backward_compilation_metrics
  /// in older logs): the compile of the backward graph, which AOTAutograd
  /// runs at the first backward() and logs under the forward's compile
  /// id. Same form as Metrics; empty for inference or when the backward
  /// was not compiled in this log (a warm AOTAutograd cache loads both).
  MetricList BwdMetrics;
  /// The bwd_compilation_metrics of the compile's later backwards, in log
  /// order: a frame Inductor compiled as several graphs (the submodules
  /// DDPOptimizer splits it into) has a backward compile for each, each
  /// logged with its own metrics. backwardSeconds() is their sum.
  std::vector<MetricList> MoreBwdMetrics;
  /// compilation_metrics_runtime, bwd_compilation_metrics_runtime: work
  /// done when the compiled code first runs (runtime autotuning).
  MetricList RuntimeMetrics;
  MetricList BwdRuntimeMetrics;
  std::vector<CacheLookup> Caches;
  std::vector<Span> Spans;
  /// The symbolic shape environment's events, in log order.
  std::vector<ShapeEvent> Shapes;
  /// inductor_collective_schedule (Names), inductor_runtime_and_tensor_meta
  /// (Ops) and graph_execution (Names: compile ids; logged outside any
  /// compile, so in the record without one), in log order.
  std::vector<RuntimeRecord> Schedules, Runtimes, Executions;
  /// What torch.export logged, in log order (an export has no compile id:
  /// these are in the record without one).
  std::vector<ExportEvent> Exports;
  /// The submodules DDPOptimizer split the frame's graph into at bucket
  /// boundaries (optimize_ddp_split_child names), in log order; Inductor
  /// compiles each as a graph of its own (forward #k, backward #k).
  std::vector<std::string> DdpSubmodules;
  /// The events of the compile tlp does not interpret, in log order.
  std::vector<RawEvent> Raw;

  /// The frame Dynamo compiled (the innermost frame of Stack), or null.
  const SourceLoc *frame() const {
    return Stack.empty() ? nullptr : &Stack.back();
  }
  /// A metric's JSON text, or "" if not set.
  llvm::StringRef metric(llvm::StringRef Name) const;
  /// A metric as a number (seconds, counts), if set and numeric.
  llvm::Optional<double> metricNumber(llvm::StringRef Name) const;
  /// The total compile time in seconds: entire_frame_compile_time_s, or
  /// the dynamo_cumulative_compile_time_us of newer logs. The backward's
  /// compile comes later and is not in it.
  llvm::Optional<double> compileSeconds() const;
  /// The backward's compile time in seconds, if logged:
  /// backward_cumulative_compile_time_us, else duration_us, else
  /// inductor_compile_time_s of BwdMetrics; with several backward
  /// compiles (MoreBwdMetrics), their sum, None if any lacks its time.
  /// backwardCompiles() says how many.
  llvm::Optional<double> backwardSeconds() const;
  /// How many backward compiles logged their metrics (0, 1, or more).
  size_t backwardCompiles() const {
    return BwdMetrics.empty() ? 0 : 1 + MoreBwdMetrics.size();
  }
  /// From the start to the end of the compile, by its metrics'
  /// `duration_us`, else `end_time_us` less `start_time_us`: the time of
  /// a compile without a compile id (AOTInductor logs its
  /// compilation_metrics with `compile_id` null and neither Dynamo time).
  llvm::Optional<double> wallSeconds() const;
  /// "Compiled without a compile id (...): 42.432 s ...; units: `x`." for
  /// the record of the events outside any compile when it logged
  /// compilation_metrics (an AOTInductor compile); "" otherwise. \p Units:
  /// its units' names, as the caller writes them.
  std::string noIdCompileText(llvm::ArrayRef<std::string> Units) const;
  /// Forward and backward together: compileSeconds() plus
  /// backwardSeconds() when the backward was logged; None when either
  /// is logged without its time.
  llvm::Optional<double> totalSeconds() const;
  /// The result of the last lookup of cache \p K, if any.
  const CacheLookup *lastCache(CacheLookup::CacheKind K) const;
  /// Add a break or restart reason, merging duplicates (same reason and
  /// place; the first traceback and user frame seen are kept).
  void addBreak(llvm::StringRef Reason, llvm::Optional<SourceLoc> Where,
                llvm::Optional<SourceLoc> UserFrame = llvm::None,
                llvm::StringRef Traceback = "");
  /// The failure in one line: "Type: first line of the reason"
  /// (reasonSummary); "" when the record did not fail.
  std::string failSummary() const;
  /// Whether PyTorch suppressed the failure: the metrics'
  /// `config_suppress_errors` (torch._dynamo.config.suppress_errors) is
  /// true, so Dynamo logged the error and ran the frame without this
  /// compile. False when not logged.
  bool failureSuppressed() const;
  /// A compiled autograd capture (`!0`: a compiled-autograd id, no frame):
  /// its `compiled_autograd_graph` is compiled by Dynamo as compiles of
  /// their own (`!0/1/0`), and it logs no compilation_metrics.
  bool isCompiledAutogradCapture() const {
    return Id && Id->CompiledAutogradId && !Id->FrameId;
  }

  /// Why an attempt restarted, its first reason with its kind:
  /// "restarted (graph break: Call to `torch._dynamo.graph_break()`)",
  /// "restarted (internal restart: TensorifyScalarRestartAnalysis)".
  std::string restartText() const;
  /// Why a compile has no Inductor output, for a record with no units:
  /// "compile failed: BackendCompilerFailed", "restarted (graph break)",
  /// "FX graph cache hit", "empty graph", "recompile limit reached: ...",
  /// ...
  std::string noOutputReason() const;
  /// A compile that succeeded with an empty graph, so no backend ran: the
  /// "empty graph" cases of noOutputReason().
  bool tracedEmptyGraph() const;
  /// FailTraceback for a report that shows FailReason just before it: a
  /// long reason (20 lines or more: a C++ compiler's output) that the
  /// traceback repeats
  /// (its last exception's message) is replaced there by "[the failure
  /// text above: N lines]", so the report does not hold it twice. The
  /// traceback as logged when the reason is short or not repeated.
  std::string tracebackWithoutReason() const;
  /// The cache results in short: "fx_graph hit, aotautograd hit"; with
  /// lookups of one cache that differ, how many of each: "fx_graph 1 hit
  /// and 3 misses"; "" if there were no lookups.
  std::string cacheSummary() const;

  /// "0/0", "rank 1 0/1_1", "(no compile id)", "0/0 #2", "0/0 (log 1)".
  std::string displayName() const;
  /// displayName() without the rank: "0/1_1", "0/0 #2".
  std::string idName() const;
  /// The compile time for a table: "2.500"; with a backward compile,
  /// "3.750 (forward 2.500, backward 1.250)"; "" if not logged.
  std::string timeText() const;
  /// File-name safe: "0-0", "r1-0-1_1", "none", "0-0-n2", "0-0-log1".
  std::string slug() const;
  /// Rank, log, compile id with the ordinal before the attempt: the
  /// attempts of one compile sort together.
  auto sortKey() const {
    CompileId I = Id ? *Id : CompileId();
    return std::make_tuple(Rank.getValueOr(-1), Log, !Id.hasValue(),
                           I.CompiledAutogradId.getValueOr(-1),
                           I.FrameId.getValueOr(-1),
                           I.FrameCompileId.getValueOr(-1), Ordinal,
                           I.Attempt);
  }
  bool operator<(const CompileRecord &O) const {
    return sortKey() < O.sortKey();
  }
};

/// A metric of \p Ms (CompileRecord::Metrics, BwdMetrics, ...) as a
/// number, if set and numeric.
llvm::Optional<double> metricNumberIn(const MetricList &Ms,
                                      llvm::StringRef Name);

/// Find a user location in a reason text: `file.py:12` or `File "file.py",
/// line 12` (the last one; PyTorch puts the user frame last).
llvm::Optional<SourceLoc> findUserLocation(llvm::StringRef Text);

} // namespace tlp

#endif // TLP_IR_COMPILERECORD_H
