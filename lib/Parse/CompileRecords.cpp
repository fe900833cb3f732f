//===- CompileRecords.cpp - Compile records from the health events --------===//
//
// Part of tlp. Once a log's chunks are scanned, its health events (in log
// order) and the compile ids of its artifacts and compile events become
// the log's CompileRecords: which compile each event belongs to (ids begin
// again after torch._dynamo.reset()), the spans closed, the status of each
// attempt.
//
//===----------------------------------------------------------------------===//

#include "ReaderInternals.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace tlp {
namespace reader {

void mergeHealth(Module &M, uint32_t LogIndex, size_t FirstEvent,
                 size_t FirstArtifact, std::vector<HealthList> &Health,
                 std::vector<RawEvent> &Raw,
                 const std::vector<Optional<CompileId>> &RawIds,
                 const std::vector<std::string> &Strings, bool Sort) {
  // Compiles that share an id (torch._dynamo.reset() starts the ids
  // again at 0/0) are distinct: each dynamo_start of attempt 0 begins a
  // new compile of its frame id (rank, compiled autograd id, frame id,
  // frame compile id), and an event goes to the compile of its id begun
  // last before it. Dynamo opens its "dynamo" and "entire_frame_compile"
  // spans and logs the recompile reasons just before the dynamo_start: a
  // span begun (or reasons logged) with nothing else of its id between
  // it and the next dynamo_start belongs to that compile.
  using Base = std::tuple<int64_t, int64_t, int64_t, int64_t>;
  auto BaseOf = [](Optional<int64_t> Rank, const CompileId &Id) {
    return Base(Rank.getValueOr(-1), Id.CompiledAutogradId.getValueOr(-1),
                Id.FrameId.getValueOr(-1), Id.FrameCompileId.getValueOr(-1));
  };
  std::map<Base, std::vector<uint32_t>> Starts, Others;
  for (size_t I = FirstArtifact; I < M.Artifacts.size(); ++I) {
    const Artifact &A = *M.Artifacts[I];
    if (A.Id)
      Others[BaseOf(A.Rank, *A.Id)].push_back(A.Line);
  }
  for (size_t I = FirstEvent; I < M.Events.size(); ++I) {
    const CompileEvent &E = M.Events[I];
    if (E.Id)
      Others[BaseOf(E.Rank, *E.Id)].push_back(E.Line);
  }
  for (size_t I = 0; I < Raw.size(); ++I)
    if (RawIds[I])
      Others[BaseOf(Raw[I].Rank, *RawIds[I])].push_back(Raw[I].Line);
  for (const HealthList &Chunk : Health)
    for (const HealthEvent &H : Chunk) {
      const Optional<CompileId> &Id = Chunk.id(H);
      if (!Id)
        continue;
      if (H.Kind == HealthKind::None && Id->Attempt == 0)
        Starts[BaseOf(Chunk.rank(H), *Id)].push_back(H.Line);
      if (H.Kind != HealthKind::Chromium &&
          H.Kind != HealthKind::RecompileReasons)
        Others[BaseOf(Chunk.rank(H), *Id)].push_back(H.Line);
    }
  for (auto &KV : Others)
    llvm::sort(KV.second);
  // The compile (0-based) of id \p Id that an event at \p Line belongs
  // to, and whether the id begins more than once.
  auto Generation = [&](Optional<int64_t> Rank, const CompileId &Id,
                        uint32_t Line, bool OpensSpan) {
    auto It = Starts.find(BaseOf(Rank, Id));
    if (It == Starts.end() || It->second.size() < 2)
      return std::make_pair(0u, false);
    const std::vector<uint32_t> &S = It->second;
    uint32_t N = static_cast<uint32_t>(llvm::upper_bound(S, Line) - S.begin());
    uint32_t G = N ? N - 1 : 0;
    if (OpensSpan && N && N < S.size()) {
      const std::vector<uint32_t> &O = Others[BaseOf(Rank, Id)];
      auto Next = llvm::upper_bound(O, Line);
      if (Next == O.end() || *Next >= S[N])
        G = N;
    }
    return std::make_pair(G, true);
  };

  using Key =
      std::tuple<int64_t, bool,
                 std::tuple<int64_t, int64_t, int64_t, uint32_t, int64_t>>;
  std::map<Key, CompileRecord> Records;
  auto Get = [&](Optional<int64_t> Rank, Optional<CompileId> Id,
                 uint32_t Line, bool OpensSpan = false) -> CompileRecord & {
    std::pair<uint32_t, bool> G(0, false);
    if (Id)
      G = Generation(Rank, *Id, Line, OpensSpan);
    CompileId I = Id ? *Id : CompileId();
    Key K(Rank.getValueOr(-1), !Id.hasValue(),
          std::make_tuple(I.CompiledAutogradId.getValueOr(-1),
                          I.FrameId.getValueOr(-1),
                          I.FrameCompileId.getValueOr(-1), G.first,
                          I.Attempt));
    auto It = Records.find(K);
    if (It == Records.end()) {
      CompileRecord R;
      R.Log = LogIndex;
      R.Rank = Rank;
      R.Id = Id;
      R.Line = Line;
      R.Ordinal = G.second ? G.first + 1 : 0;
      It = Records.emplace(K, std::move(R)).first;
    }
    return It->second;
  };
  for (size_t I = FirstArtifact; I < M.Artifacts.size(); ++I) {
    const Artifact &A = *M.Artifacts[I];
    if (A.Id)
      Get(A.Rank, A.Id, A.Line);
  }
  for (size_t I = FirstEvent; I < M.Events.size(); ++I) {
    const CompileEvent &E = M.Events[I];
    if (E.Id)
      Get(E.Rank, E.Id, E.Line);
  }
  // The raw events, in log order: to their compile, or the module's.
  for (size_t I = 0; I < Raw.size(); ++I) {
    if (RawIds[I])
      Get(Raw[I].Rank, RawIds[I], Raw[I].Line).Raw.push_back(std::move(Raw[I]));
    else
      M.Raw.push_back(std::move(Raw[I]));
  }
  Raw.clear();
  // Open B events per record, by name (innermost last).
  std::map<const CompileRecord *, std::vector<size_t>> Open;
  for (HealthList &Chunk : Health) {
    for (HealthEvent &H : Chunk) {
      if (H.Kind == HealthKind::TorchVersion) {
        // Of the log, not of a compile: the first one the log gives.
        LogFile &L = M.Logs[LogIndex];
        if (L.TorchVersion.empty()) {
          L.TorchVersion = std::move(H.detail().Text);
          L.TorchCommit = std::move(H.detail().Commit);
        }
        continue;
      }
      CompileRecord &R =
          Get(Chunk.rank(H), Chunk.id(H), H.Line,
              (H.Kind == HealthKind::Chromium && H.Event.Phase != 'E') ||
                  H.Kind == HealthKind::RecompileReasons);
      R.Line = std::min(R.Line, H.Line);
      switch (H.Kind) {
      case HealthKind::None:
        if (R.Stack.empty())
          for (auto &F : H.detail().Stack) {
            SourceLoc L = std::move(F.second);
            if (F.first >= 0 && static_cast<size_t>(F.first) < Strings.size())
              L.File = Strings[F.first];
            R.Stack.push_back(std::move(L));
          }
        break;
      case HealthKind::Metrics:
        R.Metrics = std::move(H.detail().Metrics);
        R.Configs = std::move(H.detail().Configs);
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
        R.BwdMetrics = std::move(H.detail().Metrics);
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
        if (R.Guards.empty())
          for (const std::string &G : H.detail().Strings) {
            if (!R.Guards.empty())
              R.Guards += '\n';
            R.Guards += G;
          }
        break;
      case HealthKind::CppGuards:
        R.Guards = std::move(H.detail().Text);
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
          uint32_t Gen = R.Ordinal ? R.Ordinal - 1 : 0;
          Key Here(R.Rank.getValueOr(-1), false,
                   std::make_tuple(R.Id->CompiledAutogradId.getValueOr(-1),
                                   R.Id->FrameId.getValueOr(-1),
                                   R.Id->FrameCompileId.getValueOr(-1), Gen,
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
            if (Close(It->second))
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
        // The user line: the innermost frame of its user_stack, the file
        // from the string table.
        if (!H.detail().Shape)
          break;
        ShapeEvent &E = *H.detail().Shape;
        auto &Stack = H.detail().Stack;
        if (!Stack.empty()) {
          SourceLoc L = std::move(Stack.back().second);
          int64_t F = Stack.back().first;
          if (F >= 0 && static_cast<size_t>(F) < Strings.size())
            L.File = Strings[F];
          if (!L.File.empty())
            E.UserFrame = std::move(L);
        }
        R.Shapes.push_back(std::move(E));
        break;
      }
      }
    }
    Chunk = HealthList();
  }
  // Status, and the stack of attempts after the first (only the first
  // attempt has a dynamo_start).
  std::vector<CompileRecord *> All;
  for (auto &KV : Records)
    All.push_back(&KV.second);
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
        All[I + 1]->BwdMetrics.empty())
      std::swap(R.BwdMetrics, All[I + 1]->BwdMetrics);
    // guard_count counts every guard; the dynamo_guards list may not.
    if (Optional<double> G = R.metricNumber("guard_count"))
      if (*G >= 0)
        R.GuardCount = static_cast<uint64_t>(*G);
  }
  // The records are kept to the end of the run: the lists grown event by
  // event give back their spare capacity (about a quarter of them).
  for (auto &KV : Records) {
    CompileRecord &R = KV.second;
    R.Spans.shrink_to_fit();
    R.Raw.shrink_to_fit();
    R.Caches.shrink_to_fit();
    R.Stack.shrink_to_fit();
    R.Shapes.shrink_to_fit();
    R.RecompileReasons.shrink_to_fit();
  }
  for (auto &KV : Records)
    M.Compiles.push_back(std::move(KV.second));
  if (Sort)
    llvm::sort(M.Compiles);
}

} // namespace reader
} // namespace tlp
