//===- CompileRecords.cpp - Compile records from the health events --------===//
//
// Part of tlp. As a log's chunks are merged, in log order, their health
// events and the compile ids of their artifacts, compile events and raw
// events become the log's CompileRecords: which compile each event belongs
// to (ids begin again after torch._dynamo.reset()), the spans closed, the
// status of each attempt. A chunk's events are freed once it is merged, so
// the scan never holds a whole log's events.
//
//===----------------------------------------------------------------------===//

#include "ReaderInternals.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

using namespace llvm;

namespace tlp {
namespace reader {

namespace {
constexpr uint32_t NoLine = std::numeric_limits<uint32_t>::max();

/// A compile's frame (rank, compiled autograd id, frame id, frame compile
/// id): the attempts of a compile, and the compiles of one id that
/// torch._dynamo.reset() begins again, share it.
using Base = std::tuple<int64_t, int64_t, int64_t, int64_t>;
Base baseOf(const Optional<int64_t> &Rank, const CompileId &Id) {
  return Base(Rank.getValueOr(-1), Id.CompiledAutogradId.getValueOr(-1),
              Id.FrameId.getValueOr(-1), Id.FrameCompileId.getValueOr(-1));
}

/// A record's place: rank, whether it has no id, then the id's parts with
/// the compile of that id (0-based) before the attempt, so that the
/// attempts of one compile are next to each other.
using Key =
    std::tuple<int64_t, bool,
               std::tuple<int64_t, int64_t, int64_t, uint32_t, int64_t>>;

bool opensSpan(const HealthEvent &H) {
  return (H.Kind == HealthKind::Chromium && H.Event.Phase != 'E') ||
         H.Kind == HealthKind::RecompileReasons;
}
} // namespace

// Compiles that share an id (torch._dynamo.reset() starts the ids again
// at 0/0) are distinct: each dynamo_start of attempt 0 begins a new
// compile of its frame (Base), and an event goes to the compile of its
// frame begun last at or before its line. Dynamo opens its "dynamo" and
// "entire_frame_compile" spans and logs the recompile reasons just before
// the dynamo_start: such an event belongs to the next compile when
// nothing else of its frame comes between it and the next dynamo_start.
// The merge sees the log once, in order, so it holds such an event (and
// the span events of its frame after it, to keep their order) until the
// next event of its frame on a later line says which compile it is.
struct CompileMerger::Impl {
  /// A dynamo_start's frames as logged: each with the index of its file
  /// name in the log's `str` table (-1: the name is in the frame), which
  /// is whole only at the end (a `str` event may come in a later chunk
  /// than a frame that names it, or name an index again: the last one
  /// counts). Kept once per distinct stack of the log (PendingPool).
  using PendingFrames = std::vector<std::pair<int64_t, SourceLoc>>;
  struct PendingHash {
    uint64_t operator()(const PendingFrames &V) const {
      uint64_t H = 0;
      for (const auto &[Index, L] : V)
        H = llvm::hash_combine(H, Index, L.File, L.Line, L.Function, L.Code,
                               L.SpanBegin, L.SpanEnd);
      return H;
    }
  };
  struct Entry {
    CompileRecord R;
    /// R.Stack until the merge's end, its file names not yet resolved;
    /// shared by the records that logged the same frames.
    std::shared_ptr<const PendingFrames> Stack;
    /// The compile of the record's id (0-based, Key).
    uint32_t Gen = 0;
    /// The first line of the record's artifacts, compile events, raw
    /// events and health events (NoLine: none): a record's line is that
    /// of its first artifact, else of its first compile event, else of
    /// its first raw event, or its first health event if earlier.
    uint32_t FirstArtifact = NoLine, FirstEvent = NoLine, FirstRaw = NoLine,
             FirstHealth = NoLine;
    /// The AOT ID of the record's latest output code (CacheLookup::AotId).
    std::string LastAotId;
  };
  /// A health event held until the next event of its frame.
  struct Held {
    HealthEvent H;
    Optional<int64_t> Rank;
    CompileId Id;
    /// The compile a span's end (or any event that opens nothing) goes
    /// to; an event that opens a span takes the one resolved.
    uint32_t Gen = 0;
  };
  struct Frame {
    /// The dynamo_starts of attempt 0 seen so far, and the line of the
    /// last.
    uint32_t Starts = 0;
    uint32_t LastStart = 0;
    std::vector<Held> Waiting;
    uint32_t current() const { return Starts ? Starts - 1 : 0; }
  };

  Impl(Module &M, uint32_t LogIndex, GuardPool &Guards, StackPool &Stacks)
      : M(M), LogIndex(LogIndex), Guards(Guards), Stacks(Stacks) {}

  Entry &get(const Optional<int64_t> &Rank, const Optional<CompileId> &Id,
             uint32_t Gen) {
    CompileId I = Id ? *Id : CompileId();
    Key K(Rank.getValueOr(-1), !Id.hasValue(),
          std::make_tuple(I.CompiledAutogradId.getValueOr(-1),
                          I.FrameId.getValueOr(-1),
                          I.FrameCompileId.getValueOr(-1), Id ? Gen : 0,
                          I.Attempt));
    auto It = Records.find(K);
    if (It == Records.end()) {
      It = Records.emplace(K, Entry()).first;
      Entry &E = It->second;
      E.R.Log = LogIndex;
      E.R.Rank = Rank;
      E.R.Id = Id;
      E.Gen = Id ? Gen : 0;
    }
    return It->second;
  }
  /// The compile an event of \p Id on the current line goes to.
  uint32_t currentGen(const Optional<int64_t> &Rank, const CompileId &Id) {
    auto It = Frames.find(baseOf(Rank, Id));
    return It == Frames.end() ? 0 : It->second.current();
  }
  /// Another event of frame \p F came: what it held goes to compile
  /// \p OpenerGen (the events that open spans) or to their own.
  void release(Frame &F, uint32_t OpenerGen) {
    std::vector<Held> List = std::move(F.Waiting);
    F.Waiting.clear();
    for (Held &X : List)
      apply(X.H, X.Rank, X.Id, opensSpan(X.H) ? OpenerGen : X.Gen);
  }
  /// An event other than a span's or the recompile reasons at this line:
  /// what its frame held goes to the current compile.
  void touch(const Optional<int64_t> &Rank, const CompileId &Id) {
    auto It = Frames.find(baseOf(Rank, Id));
    if (It != Frames.end() && !It->second.Waiting.empty())
      release(It->second, It->second.current());
  }
  void apply(HealthEvent &H, const Optional<int64_t> &Rank,
             const Optional<CompileId> &Id, uint32_t Gen);

  Module &M;
  uint32_t LogIndex;
  GuardPool &Guards;
  StackPool &Stacks;
  /// The log's distinct pending stacks.
  ValuePool<PendingFrames, PendingHash> PendingStacks;
  /// A shape event's user_stack, kept until the string table is whole:
  /// its user line is the innermost frame in a user file, which only the
  /// file names tell.
  struct ShapeStack {
    CompileRecord *R;
    /// Of R.Shapes.
    uint32_t Index;
    std::vector<std::pair<int64_t, SourceLoc>> Frames;
  };
  std::vector<ShapeStack> ShapeStacks;
  std::vector<CompileMerger::RepeatedStart> Repeated;
  std::map<Key, Entry> Records;
  std::map<Base, Frame> Frames;
  /// Open B events per record, by name (innermost last).
  std::map<const CompileRecord *, std::vector<size_t>> Open;
};

void CompileMerger::Impl::apply(HealthEvent &H, const Optional<int64_t> &Rank,
                                const Optional<CompileId> &Id, uint32_t Gen) {
  if (H.Kind == HealthKind::TorchVersion) {
    // Of the log, not of a compile: the first one the log gives.
    LogFile &L = M.Logs[LogIndex];
    if (L.TorchVersion.empty()) {
      L.TorchVersion = std::move(H.detail().Text);
      L.TorchCommit = std::move(H.detail().Commit);
    }
    return;
  }
  Entry &En = get(Rank, Id, Gen);
  En.FirstHealth = std::min(En.FirstHealth, H.Line);
  CompileRecord &R = En.R;
  switch (H.Kind) {
  case HealthKind::None:
    if (!En.Stack && !H.detail().Stack.empty())
      En.Stack = PendingStacks.intern(std::move(H.detail().Stack));
    break;
  case HealthKind::Metrics:
    R.Metrics = std::move(H.detail().Metrics);
    R.Configs = std::move(H.detail().Configs);
    R.ConfigLine = R.Configs.empty() ? 0 : H.Line;
    if (!H.detail().FailType.empty()) {
      R.FailType = std::move(H.detail().FailType);
      R.FailReason = std::move(H.detail().FailReason);
      if (H.detail().Where)
        R.FailFrame = H.detail().Where;
    }
    for (const std::string &Why : H.detail().Strings)
      R.addBreak(Why, findUserLocation(Why));
    break;
  case HealthKind::BwdMetrics:
    // AOTAutograd compiles the backward at the first backward() and
    // logs it under the forward's compile id; a failure there is the
    // compile's.
    if (R.BwdMetrics.empty())
      R.BwdMetrics = std::move(H.detail().Metrics);
    else
      R.MoreBwdMetrics.push_back(std::move(H.detail().Metrics));
    if (!H.detail().FailType.empty() && R.FailType.empty()) {
      R.FailType = std::move(H.detail().FailType);
      R.FailReason = std::move(H.detail().FailReason);
      if (H.detail().Where)
        R.FailFrame = H.detail().Where;
    }
    break;
  case HealthKind::RuntimeMetrics:
    R.RuntimeMetrics = std::move(H.detail().Metrics);
    break;
  case HealthKind::BwdRuntimeMetrics:
    R.BwdRuntimeMetrics = std::move(H.detail().Metrics);
    break;
  case HealthKind::Guards:
    R.GuardCount = H.detail().Count;
    if (R.Guards.empty()) {
      std::string Text;
      for (const std::string &G : H.detail().Strings) {
        if (!Text.empty())
          Text += '\n';
        Text += G;
      }
      R.Guards = SharedText(Guards.intern(std::move(Text)));
    }
    break;
  case HealthKind::CppGuards:
    R.Guards = SharedText(Guards.intern(std::move(H.detail().Text)));
    break;
  case HealthKind::Chromium: {
    Span &S = H.Event;
    std::vector<size_t> &Stack = Open[&R];
    if (S.Phase == 'E') {
      // Close the innermost open span of that name in \p Rec.
      auto Close = [&](CompileRecord &Rec) {
        auto It = Open.find(&Rec);
        if (It == Open.end())
          return false;
        std::vector<size_t> &St = It->second;
        for (size_t J = St.size(); J-- > 0;) {
          Span &B = Rec.Spans[St[J]];
          if (B.Name != S.Name)
            continue;
          B.Phase = 'X';
          B.Duration = std::max<int64_t>(0, S.Start - B.Start);
          St.erase(St.begin() + J);
          return true;
        }
        return false;
      };
      if (Close(R) || !R.Id)
        break;
      // A span that began before Dynamo restarted the analysis ends in
      // a later attempt ("dynamo" B in attempt 0, E in attempt 1): it
      // belongs to the attempt that began it.
      // Walk the records of the earlier attempts of this compile (the
      // keys just below this one: the attempt sorts last), newest first;
      // a loop over attempt numbers would spin for a damaged attempt
      // such as 2^63-1.
      Key Here(R.Rank.getValueOr(-1), false,
               std::make_tuple(R.Id->CompiledAutogradId.getValueOr(-1),
                               R.Id->FrameId.getValueOr(-1),
                               R.Id->FrameCompileId.getValueOr(-1), En.Gen,
                               R.Id->Attempt));
      auto SameCompile = [&](const Key &K) {
        const auto &T = std::get<2>(K);
        const auto &H = std::get<2>(Here);
        return std::get<0>(K) == std::get<0>(Here) &&
               std::get<1>(K) == std::get<1>(Here) &&
               std::get<0>(T) == std::get<0>(H) &&
               std::get<1>(T) == std::get<1>(H) &&
               std::get<2>(T) == std::get<2>(H) &&
               std::get<3>(T) == std::get<3>(H);
      };
      for (auto It = Records.lower_bound(Here); It != Records.begin();) {
        --It;
        if (!SameCompile(It->first))
          break;
        if (Close(It->second.R))
          break;
      }
      break;
    }
    if (S.Phase == 'B') {
      S.Duration = 0;
      Stack.push_back(R.Spans.size());
    } else if (S.Phase == 'i') {
      S.Duration = 0;
    }
    R.Spans.push_back(std::move(S));
    break;
  }
  case HealthKind::RecompileReasons:
    for (std::string &Why : H.detail().Strings)
      if (!llvm::is_contained(R.RecompileReasons, Why))
        R.RecompileReasons.push_back(std::move(Why));
    break;
  case HealthKind::DynamoError:
    if (R.FailType.empty() && !H.detail().FailType.empty()) {
      R.FailType = std::move(H.detail().FailType);
      R.FailReason = std::move(H.detail().FailReason);
    }
    if (!R.FailFrame && H.detail().Where)
      R.FailFrame = H.detail().Where;
    if (R.FailTraceback.empty()) {
      R.FailTraceback = std::move(H.detail().Traceback);
      R.FailUserFrame = H.detail().UserFrame;
    }
    if (R.FailType.empty())
      R.FailType = "dynamo_error";
    break;
  case HealthKind::GraphBreak:
    R.addBreak(H.detail().Text, H.detail().Where, H.detail().UserFrame,
               H.detail().Traceback);
    break;
  case HealthKind::Cache:
    R.Caches.push_back(std::move(H.detail().Cache));
    if (R.Caches.back().Cache == CacheLookup::FXGraph)
      R.Caches.back().AotId = En.LastAotId;
    break;
  case HealthKind::DdpSplit:
    if (!H.detail().Text.empty())
      R.DdpSubmodules.push_back(std::move(H.detail().Text));
    break;
  case HealthKind::Export:
    R.Exports.push_back(std::move(*H.detail().Export));
    break;
  case HealthKind::Schedule:
  case HealthKind::Execution:
  case HealthKind::Runtime: {
    RuntimeRecord Rec;
    Rec.Line = H.Line;
    Rec.Names = std::move(H.detail().Strings);
    Rec.Ops = std::move(H.detail().Ops);
    (H.Kind == HealthKind::Schedule    ? R.Schedules
     : H.Kind == HealthKind::Execution ? R.Executions
                                       : R.Runtimes)
        .push_back(std::move(Rec));
    break;
  }
  case HealthKind::TorchVersion: // of the log (above)
    break;
  case HealthKind::Shape: {
    // The user line: chosen from its user_stack at the end (finish),
    // once the string table names the files.
    if (!H.detail().Shape)
      break;
    ShapeEvent &E = *H.detail().Shape;
    if (!H.detail().Stack.empty())
      ShapeStacks.push_back({&R, static_cast<uint32_t>(R.Shapes.size()),
                             std::move(H.detail().Stack)});
    R.Shapes.push_back(std::move(E));
    break;
  }
  }
}

uint64_t StackHash::operator()(const std::vector<SourceLoc> &V) const {
  uint64_t H = 0;
  for (const SourceLoc &L : V)
    H = llvm::hash_combine(H, L.File, L.Line, L.Function, L.Code, L.SpanBegin,
                           L.SpanEnd);
  return H;
}

CompileMerger::CompileMerger(Module &M, uint32_t LogIndex, GuardPool &Guards,
                             StackPool &Stacks)
    : P(std::make_unique<Impl>(M, LogIndex, Guards, Stacks)) {}

CompileMerger::~CompileMerger() = default;

void CompileMerger::add(size_t ArtifactBegin, size_t EventBegin,
                        std::vector<RawEvent> &Raw,
                        const std::vector<Optional<CompileId>> &RawIds,
                        HealthList &Health) {
  Impl &I = *P;
  Module &M = I.M;
  size_t A = ArtifactBegin, AEnd = M.Artifacts.size();
  size_t E = EventBegin, EEnd = M.Events.size();
  size_t W = 0, WEnd = Raw.size();
  auto H = Health.begin(), HEnd = Health.end();
  // A line at a time: its events may be of several kinds (a dynamo_start
  // is a compile event and a health event).
  while (A < AEnd || E < EEnd || W < WEnd || H != HEnd) {
    uint32_t L = NoLine;
    if (A < AEnd)
      L = std::min(L, M.Artifacts[A]->Line);
    if (E < EEnd)
      L = std::min(L, M.Events[E].Line);
    if (W < WEnd)
      L = std::min(L, Raw[W].Line);
    if (H != HEnd)
      L = std::min(L, H->Line);
    size_t A2 = A, E2 = E, W2 = W;
    while (A2 < AEnd && M.Artifacts[A2]->Line == L)
      ++A2;
    while (E2 < EEnd && M.Events[E2].Line == L)
      ++E2;
    while (W2 < WEnd && Raw[W2].Line == L)
      ++W2;
    auto H2 = H;
    while (H2 != HEnd && H2->Line == L)
      ++H2;
    // A dynamo_start counts for everything on its line; what its frame
    // held goes to the compile it begins.
    for (auto It = H; It != H2; ++It) {
      const Optional<CompileId> &Id = Health.id(*It);
      if (It->Kind != HealthKind::None || !Id || Id->Attempt != 0)
        continue;
      Impl::Frame &F = I.Frames[baseOf(Health.rank(*It), *Id)];
      if (F.Starts && F.LastStart + 1 == It->Line)
        I.Repeated.push_back({It->Line, F.LastStart, *Id});
      ++F.Starts;
      F.LastStart = It->Line;
      if (!F.Waiting.empty())
        I.release(F, F.current());
    }
    // Any other event of a frame: what it held goes to the current one.
    for (size_t J = A; J < A2; ++J)
      if (const Artifact &X = *M.Artifacts[J]; X.Id)
        I.touch(X.Rank, *X.Id);
    for (size_t J = E; J < E2; ++J)
      if (const CompileEvent &X = M.Events[J]; X.Id)
        I.touch(X.Rank, *X.Id);
    for (size_t J = W; J < W2; ++J)
      if (RawIds[J])
        I.touch(Raw[J].Rank, *RawIds[J]);
    for (auto It = H; It != H2; ++It)
      if (const Optional<CompileId> &Id = Health.id(*It);
          Id && It->Kind != HealthKind::Chromium &&
          It->Kind != HealthKind::RecompileReasons)
        I.touch(Health.rank(*It), *Id);
    // Then the line's events go to their records.
    for (; A < A2; ++A)
      if (const Artifact &X = *M.Artifacts[A]; X.Id) {
        Impl::Entry &En = I.get(X.Rank, X.Id, I.currentGen(X.Rank, *X.Id));
        En.FirstArtifact = std::min(En.FirstArtifact, L);
        if (X.getKind() == Artifact::AK_OutputCode)
          En.LastAotId = cast<CodeArtifact>(X).AotId;
      }
    for (; E < E2; ++E)
      if (const CompileEvent &X = M.Events[E]; X.Id) {
        Impl::Entry &En = I.get(X.Rank, X.Id, I.currentGen(X.Rank, *X.Id));
        En.FirstEvent = std::min(En.FirstEvent, L);
      }
    // The raw events, in log order: to their compile, or the module's.
    for (; W < W2; ++W) {
      if (!RawIds[W]) {
        M.Raw.push_back(std::move(Raw[W]));
        continue;
      }
      Impl::Entry &En =
          I.get(Raw[W].Rank, RawIds[W], I.currentGen(Raw[W].Rank, *RawIds[W]));
      En.FirstRaw = std::min(En.FirstRaw, L);
      En.R.Raw.push_back(std::move(Raw[W]));
    }
    for (; H != H2; ++H) {
      const Optional<CompileId> &Id = Health.id(*H);
      const Optional<int64_t> &Rank = Health.rank(*H);
      if (!Id || H->Kind == HealthKind::TorchVersion) {
        I.apply(*H, Rank, Id, 0);
        continue;
      }
      Impl::Frame &F = I.Frames[baseOf(Rank, *Id)];
      bool Span = H->Kind == HealthKind::Chromium ||
                  H->Kind == HealthKind::RecompileReasons;
      if (Span && (!F.Waiting.empty() || (opensSpan(*H) && F.Starts))) {
        F.Waiting.push_back(Impl::Held{std::move(*H), Rank, *Id, F.current()});
        continue;
      }
      I.apply(*H, Rank, Id, F.current());
    }
  }
  Raw.clear();
}

const std::vector<CompileMerger::RepeatedStart> &
CompileMerger::repeatedStarts() const {
  return P->Repeated;
}

void CompileMerger::finish(const std::vector<std::string> &Strings,
                           bool Sort) {
  Impl &I = *P;
  Module &M = I.M;
  // The log's end: what a frame still holds goes to its current compile.
  for (auto &KV : I.Frames)
    if (!KV.second.Waiting.empty())
      I.release(KV.second, KV.second.current());
  // A shape's user line: the innermost frame of its user_stack in a user
  // file (isUserFile: not torch's, the standard library's or generated
  // code like `<string>`), as for a graph break; none if no frame is (a
  // symbol made while tracing torch's own code), not torch's frame.
  for (Impl::ShapeStack &X : I.ShapeStacks) {
    std::vector<SourceLoc> Frames;
    for (auto &F : X.Frames) {
      if (F.first >= 0)
        F.second.File = static_cast<size_t>(F.first) < Strings.size()
                            ? Strings[F.first]
                            : std::string();
      if (!F.second.File.empty())
        Frames.push_back(std::move(F.second));
    }
    X.R->Shapes[X.Index].UserFrame = innermostUserFrame(Frames);
  }
  I.ShapeStacks = std::vector<Impl::ShapeStack>();
  auto &Records = I.Records;
  std::map<const Impl::PendingFrames *,
           std::shared_ptr<const std::vector<SourceLoc>>>
      Resolved;
  for (auto &KV : Records) {
    Impl::Entry &En = KV.second;
    CompileRecord &R = En.R;
    uint32_t First = En.FirstArtifact != NoLine ? En.FirstArtifact
                     : En.FirstEvent != NoLine  ? En.FirstEvent
                                                : En.FirstRaw;
    R.Line = std::min(First, En.FirstHealth);
    // Each distinct stack of the log, its file names resolved, kept once
    // for the whole read (StackPool).
    if (En.Stack) {
      auto &Res = Resolved[En.Stack.get()];
      if (!Res) {
        std::vector<SourceLoc> Frames;
        Frames.reserve(En.Stack->size());
        for (const auto &F : *En.Stack) {
          Frames.push_back(F.second);
          if (F.first >= 0 && static_cast<size_t>(F.first) < Strings.size())
            Frames.back().File = Strings[F.first];
        }
        Res = I.Stacks.intern(std::move(Frames));
      }
      R.Stack = SharedStack(Res);
    }
    En.Stack = nullptr;
    // The compiles of an id begun more than once are numbered from 1.
    R.Ordinal = 0;
    if (R.Id) {
      auto It = I.Frames.find(baseOf(R.Rank, *R.Id));
      if (It != I.Frames.end() && It->second.Starts >= 2)
        R.Ordinal = En.Gen + 1;
    }
  }
  I.PendingStacks = {};
  // Status, and the stack of attempts after the first (only the first
  // attempt has a dynamo_start).
  std::vector<CompileRecord *> All;
  for (auto &KV : Records)
    All.push_back(&KV.second.R);
  auto SameFrame = [](const CompileRecord &A, const CompileRecord &B) {
    return A.Rank == B.Rank && A.Id && B.Id &&
           A.Id->CompiledAutogradId == B.Id->CompiledAutogradId &&
           A.Id->FrameId == B.Id->FrameId &&
           A.Id->FrameCompileId == B.Id->FrameCompileId &&
           A.Ordinal == B.Ordinal;
  };
  for (size_t I = 0; I < All.size(); ++I) {
    CompileRecord &R = *All[I];
    bool LaterAttempt = I + 1 < All.size() && SameFrame(R, *All[I + 1]);
    if (R.Stack.empty() && I > 0 && SameFrame(R, *All[I - 1]))
      R.Stack = All[I - 1]->Stack;
    if (!R.Id)
      R.Status = CompileStatus::Unknown;
    else if (!R.FailType.empty())
      R.Status = CompileStatus::Failure;
    else if (!R.Metrics.empty())
      R.Status = CompileStatus::Success;
    else if (LaterAttempt)
      R.Status = CompileStatus::Restart;
    else
      R.Status = CompileStatus::Unknown;
    // A failure with no place in the metrics or the traceback (an Inductor
    // error deep in codegen) keeps none: the emitters say which frame
    // Dynamo was compiling, not that the failure was there.
    // A restarted attempt shows why, when only the next attempt says so.
    if (R.Status == CompileStatus::Restart && R.Breaks.empty())
      R.Breaks = All[I + 1]->Breaks;
    // The backward's metrics name the compile id without the attempt:
    // they belong to the attempt that compiled.
    if (R.Status == CompileStatus::Restart && !R.BwdMetrics.empty() &&
        All[I + 1]->BwdMetrics.empty()) {
      std::swap(R.BwdMetrics, All[I + 1]->BwdMetrics);
      std::swap(R.MoreBwdMetrics, All[I + 1]->MoreBwdMetrics);
    }
    // guard_count counts every guard; the dynamo_guards list may not.
    if (Optional<double> G = R.metricNumber("guard_count"))
      if (*G >= 0)
        R.GuardCount = static_cast<uint64_t>(*G);
  }
  // The records are kept to the end of the run: the lists grown event by
  // event give back their spare capacity (about a quarter of them).
  for (auto &KV : Records) {
    CompileRecord &R = KV.second.R;
    R.Spans.shrink_to_fit();
    R.Raw.shrink_to_fit();
    R.Caches.shrink_to_fit();
    R.Shapes.shrink_to_fit();
    R.RecompileReasons.shrink_to_fit();
  }
  // Moved out one at a time, each map node freed as it goes: both whole
  // (and a vector grown by doubling) were a fifth of the peak on a 2 GB log.
  size_t Need = M.Compiles.size() + Records.size();
  if (M.Compiles.capacity() < Need)
    M.Compiles.reserve(M.Compiles.empty()
                           ? Need
                           : std::max(Need, 2 * M.Compiles.capacity()));
  for (auto It = Records.begin(); It != Records.end();) {
    M.Compiles.push_back(std::move(It->second.R));
    It = Records.erase(It);
  }
  if (Sort)
    llvm::sort(M.Compiles);
  I.Records.clear();
  I.Frames.clear();
  I.Open.clear();
}

} // namespace reader
} // namespace tlp
