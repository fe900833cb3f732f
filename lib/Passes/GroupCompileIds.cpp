//===- GroupCompileIds.cpp - Artifacts into compile units -----------------===//
//
// Artifacts of one log with the same rank, compile id (or none, for
// AOTInductor and export) and region (regional inductor's subgraph_name)
// form a group. Within a group, Inductor runs one
// compile per AOTAutograd graph, so a group splits into runs: a run gets at
// most one artifact of each kind, and a second post-grad graph, wrapper or
// mapping starts the next run. Each run becomes a unit; its graph kind comes
// from `# AOT ID: ['0_forward']` in the wrapper, or else from the order of
// the aot_*_graph events of the group.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/InductorNames.h"
#include "tlp/Passes/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"

#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace tlp {

namespace {

/// Lower is better. Graph artifacts under the highlighter names win over
/// the older recompile dumps.
int graphPriority(const Artifact &A) {
  StringRef N = A.Name;
  if (N == "before_recompile_pre_grad" || N == "after_recompile_post_grad")
    return 1;
  return 0;
}

struct Run {
  GraphArtifact *Pre = nullptr;
  /// The compiled frame (a dynamo_start's, shared with the unit).
  SharedOptional<SourceLoc> Frame;
  /// The artifacts of the run but the pre-grad graph (shared by the runs
  /// of a group, copied when the unit is made).
  std::unique_ptr<CompileUnit> Unit = std::make_unique<CompileUnit>();
  uint32_t FirstLine = 0;
  /// A backward's ordinal: that of its forward (pairBackwards); none:
  /// log order.
  Optional<uint32_t> PairedOrdinal;
  /// Which compile of the id (a second dynamo_start begins another).
  uint32_t Segment = 0;

  /// True when a slot after the graphs is filled.
  bool hasOutput() const {
    bool Any = false;
    Unit->forEachArtifact([&](UnitSlot S, const Artifact &) {
      Any |= S != UnitSlot::PreGrad && S != UnitSlot::PostGrad;
    });
    return Any;
  }
};

/// A run with a graph or code of its own; the others hold only what
/// annotates a compile (a mapping, stack traces, kernel info, node maps).
bool hasAnchor(const Run &R) {
  return R.Unit->PostGrad || R.Unit->Code || R.Unit->KernelCode;
}

/// A repeated or early annotation (a second kernel-stack-traces event, a
/// kernel-info event logged before its graph) starts a run of its own that
/// has no graph and no code: a phantom unit. Give each such artifact to
/// the run before it, or else the one after, where that slot is free;
/// where neither is, say so and drop it. Linear in the runs.
void mergeAnnotationRuns(std::vector<Run> &Runs, const Module &M,
                         PassContext &Ctx, StringRef Id) {
  if (Runs.size() < 2 || llvm::all_of(Runs, hasAnchor) ||
      llvm::none_of(Runs, hasAnchor))
    return;
  size_t N = Runs.size();
  std::vector<Run *> Prev(N, nullptr), Next(N, nullptr);
  for (size_t I = 1; I < N; ++I)
    Prev[I] = hasAnchor(Runs[I - 1]) ? &Runs[I - 1] : Prev[I - 1];
  for (size_t I = N - 1; I-- > 0;)
    Next[I] = hasAnchor(Runs[I + 1]) ? &Runs[I + 1] : Next[I + 1];
  for (size_t I = 0; I < N; ++I) {
    if (hasAnchor(Runs[I]))
      continue;
    auto Move = [&](UnitSlot S, auto Get) {
      if (S == UnitSlot::PreGrad || S == UnitSlot::PostGrad ||
          S == UnitSlot::Code || S == UnitSlot::KernelCode)
        return;
      auto &From = Get(*Runs[I].Unit);
      if (!From)
        return;
      for (Run *T : {Prev[I], Next[I]})
        if (T && !Get(*T->Unit)) {
          Get(*T->Unit) = std::move(From);
          return;
        }
      Ctx.Diags.warning(M.logName(From->Log), From->Line,
                        "a second '" + From->Name + "' for compile id " + Id +
                            ", with no graph or code of its own; ignored "
                            "(the compile keeps the one before it)");
      From.reset();
    };
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE)                               \
  Move(UnitSlot::FIELD,                                                        \
       [](CompileUnit &U) -> std::unique_ptr<CLASS> & { return U.FIELD; });
#include "tlp/IR/UnitSlots.def"
  }
  Runs.erase(llvm::remove_if(Runs, [](const Run &R) { return !hasAnchor(R); }),
             Runs.end());
}

/// A run with code but no post-grad graph, then one with a post-grad graph
/// and no code, sharing no slot: one compile whose output code was logged
/// before its post-grad graph (events out of order). Read as one run, and
/// say so: split, the code's kernels lose their post-grad links.
void mergeCodeFirstRuns(std::vector<Run> &Runs, const Module &M,
                        PassContext &Ctx, StringRef Id) {
  auto HasCode = [](const CompileUnit &U) { return U.Code || U.KernelCode; };
  for (size_t I = 0; I + 1 < Runs.size(); ++I) {
    CompileUnit &A = *Runs[I].Unit, &B = *Runs[I + 1].Unit;
    if (!HasCode(A) || A.PostGrad || !B.PostGrad || HasCode(B))
      continue;
    bool Shared = false;
    B.forEachArtifact([&](UnitSlot S, const Artifact &) {
      Shared |= A.slot(S) != nullptr;
    });
    if (Shared)
      continue;
    const Artifact &Code = A.Code ? *A.Code : *A.KernelCode;
    Ctx.Diags.warning(M.logName(B.PostGrad->Log), B.PostGrad->Line,
                      "the post-grad graph '" + B.PostGrad->Name +
                          "' of compile id " + Id +
                          " comes after its output code (line " +
                          Twine(Code.Line) +
                          "): events out of order; read as one compile");
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE)                               \
  if (B.FIELD)                                                                 \
    A.FIELD = std::move(B.FIELD);
#include "tlp/IR/UnitSlots.def"
    if (!Runs[I].Pre)
      Runs[I].Pre = Runs[I + 1].Pre;
    Runs.erase(Runs.begin() + I + 1);
  }
}

struct Item {
  uint32_t Line;
  Artifact *A = nullptr; // owned by the module until grouped
  const CompileEvent *E = nullptr;
  /// A's index in the module's artifacts.
  size_t Index = 0;
};

/// Log, rank, compile id and region (regional inductor's subgraph name,
/// empty for the compile itself).
using GroupKey = std::tuple<uint32_t, Optional<int64_t>, Optional<CompileId>,
                            std::string>;

struct GroupKeyLess {
  bool operator()(const GroupKey &L, const GroupKey &R) const {
    auto T = [](const GroupKey &K) {
      const Optional<int64_t> &Rank = std::get<1>(K);
      const Optional<CompileId> &Id = std::get<2>(K);
      return std::make_tuple(std::get<0>(K), Rank.hasValue(),
                             Rank.getValueOr(0), Id.hasValue(),
                             Id ? Id->tie() : CompileId().tie(),
                             StringRef(std::get<3>(K)));
    };
    return T(L) < T(R);
  }
};

/// The units of a depyf dump that are compiles of a log of the same folder
/// (CompileUnit::SameCodeAs, set by the reader: the same output code) give
/// that compile's unit their pass timeline and files, and go.
void joinDepyfUnits(Module &M) {
  std::map<std::pair<uint32_t, uint32_t>, CompileUnit *> ByCode;
  for (std::unique_ptr<CompileUnit> &U : M.Units)
    if (U->Code && !U->SameCodeAs)
      ByCode.emplace(std::make_pair(U->Code->Log, U->Code->Line), U.get());
  llvm::erase_if(M.Units, [&](std::unique_ptr<CompileUnit> &U) {
    if (!U->SameCodeAs)
      return false;
    auto It = ByCode.find(*U->SameCodeAs);
    U->SameCodeAs = None;
    if (It == ByCode.end() || !It->second->Stages.empty())
      return false;
    CompileUnit &Log = *It->second;
    Log.Stages = std::move(U->Stages);
    Log.Files = std::move(U->Files);
    return true;
  });
}

/// The units read from TORCH_COMPILE_DEBUG folders (UnitKey::Folder) whose
/// output code is a log unit's, byte for byte (the md5 of output_code.py
/// is the `has_payload` md5 of the log's inductor_output_code event; among
/// several such units, those of a log of the folder's process): the
/// folder adds to that unit its scheduler IR, which no log has, and is
/// dropped. A folder whose code is in no log unit, or in several, stays a
/// unit of its own. docs/inputs.md.
void mergeDebugFolderUnits(Module &M, PassContext &Ctx) {
  std::map<std::string, std::vector<CompileUnit *>> ByMd5;
  bool AnyFolder = false;
  for (std::unique_ptr<CompileUnit> &U : M.Units) {
    AnyFolder |= !U->Key.Folder.empty();
    if (U->Key.Folder.empty() && U->Code && !U->Code->Md5.empty())
      ByMd5[U->Code->Md5].push_back(U.get());
  }
  if (!AnyFolder || ByMd5.empty())
    return;
  for (std::unique_ptr<CompileUnit> &U : M.Units) {
    if (U->Key.Folder.empty() || !U->Code || U->Code->Md5.empty())
      continue;
    auto It = ByMd5.find(U->Code->Md5);
    if (It == ByMd5.end())
      continue;
    std::string Folder = M.logName(U->Key.Log);
    // Reruns of a program write the same code: the units of the logs of
    // the folder's process, when the logs and the folder say it.
    std::vector<CompileUnit *> Same = It->second;
    Optional<int64_t> Pid = M.Logs[U->Key.Log].Pid;
    if (Same.size() > 1 && Pid) {
      std::vector<CompileUnit *> Mine;
      for (CompileUnit *L : Same)
        if (M.Logs[L->Key.Log].Pid == Pid)
          Mine.push_back(L);
      if (!Mine.empty())
        Same = std::move(Mine);
    }
    if (Same.size() > 1) {
      Ctx.Diags.note(Folder, 0,
                     "the output code of this folder is that of " +
                         Twine(Same.size()) +
                         " units of the logs; read as a unit of its own");
      continue;
    }
    CompileUnit &L = *Same.front();
    // Only what a log never has: the scheduler IR. The log's own graphs,
    // code and mapping stay (they are the same compile's).
    std::vector<std::string> Added;
    for (UnitSlot S : {UnitSlot::PreFusion, UnitSlot::PostFusion})
      if (U->slot(S) && !L.slot(S))
        Added.push_back(unitSlotTitle(S).str());
    if (U->PreFusion && !L.PreFusion)
      L.PreFusion = std::move(U->PreFusion);
    if (U->PostFusion && !L.PostFusion)
      L.PostFusion = std::move(U->PostFusion);
    Ctx.Diags.note(Folder, 0,
                   "this folder is unit " + L.Key.displayName() + " of " +
                       M.logName(L.Key.Log) +
                       " (the same output code); it adds " +
                       (Added.empty() ? std::string("nothing")
                                      : llvm::join(Added, ", ")) +
                       " to that unit");
    U.reset();
  }
  M.Units.erase(llvm::remove_if(M.Units,
                                [](const std::unique_ptr<CompileUnit> &U) {
                                  return !U;
                                }),
                M.Units.end());
}

/// AOTAutograd numbers each graph it compiles and names a forward and its
/// backward alike ("2_forward", "2_backward": the output code's AOT ID).
/// A compile may compile several forwards before their backwards: those of
/// the submodules DDPOptimizer splits a frame into, all forwards first, then
/// the backwards at backward(), last submodule first (or, when the
/// backward is compiled eagerly, each right after its forward). A backward
/// takes the pre-grad graph of its forward (not the last one logged before
/// it), and, when every backward of the compile has its forward there, the
/// forward's ordinal as its own, so that `backward #2` is the backward of
/// `forward #2`.
///
/// An output code loaded from the FX graph cache keeps the AOT ID of the
/// graph it was saved from: identical submodules log the first one's ID
/// again ("1_forward" three times, "3_backward" for three backwards).
/// pairAotBackwards tells each backward's forward then by the order; such
/// a backward gets a note.
static void pairBackwards(std::vector<Run> &Runs, const Module &M,
                          PassContext &Ctx) {
  std::vector<AotGraph> Graphs;
  bool KindsKnown = true;
  for (const Run &R : Runs) {
    AotGraph G;
    G.Compile = R.Segment;
    if (const CodeArtifact *Code = R.Unit->Code.get()) {
      G.Kind = graphKindOfAotId(Code->AotId);
      G.Number = aotIdNumber(Code->AotId);
    }
    KindsKnown &= G.Kind != GraphKind::Unknown;
    Graphs.push_back(G);
  }
  std::vector<Optional<AotPair>> Pairs = pairAotBackwards(Graphs);
  // The units are numbered by kind in log order: each forward's ordinal.
  std::vector<uint32_t> Ordinal(Runs.size());
  uint32_t NextForward = 0;
  for (size_t I = 0; I < Runs.size(); ++I)
    if (Graphs[I].Kind == GraphKind::Forward)
      Ordinal[I] = NextForward++;
  // Each backward takes its forward's pre-grad graph; the ordinals only
  // when every backward has a forward and every kind is known.
  bool All = KindsKnown;
  for (size_t I = 0; I < Runs.size(); ++I) {
    if (Graphs[I].Kind != GraphKind::Backward)
      continue;
    if (!Pairs[I]) {
      All = false;
      continue;
    }
    const Run &F = Runs[Pairs[I]->Forward];
    const CodeArtifact &Code = *Runs[I].Unit->Code;
    if (!Pairs[I]->ByOwnId)
      Ctx.Diags.note(
          M.logName(Code.Log), Code.Line,
          "the AOT ID '" + Code.AotId +
              "' of this backward's output code is not its own (another "
              "graph of the compile has it too, or no forward does: an FX "
              "graph cache hit keeps the ID of the graph it was saved "
              "from); taken as the backward of the forward at line " +
              std::to_string(F.Unit->Code->Line) +
              ", the latest before it whose backward had not come");
    if (GraphArtifact *Pre = F.Pre)
      Runs[I].Pre = Pre;
  }
  // The forward's ordinal itself: a forward whose backward was not
  // compiled leaves its number unused (`backward`, `backward #3`).
  if (All)
    for (size_t I = 0; I < Runs.size(); ++I)
      if (Pairs[I])
        Runs[I].PairedOrdinal = Ordinal[Pairs[I]->Forward];
}

class GroupCompileIdsPass : public Pass {
public:
  StringRef getName() const override { return "group-compile-ids"; }
  /// Grouping reads kinds, ids and lines, and the AOT id of wrappers,
  /// which the reader records without loading the payload.
  bool needsPayloads() const override { return false; }

  Error run(Module &M, PassContext &Ctx) override {
    if (M.Artifacts.empty() && M.Events.empty()) {
      mergeDebugFolderUnits(M, Ctx);
      return Error::success();
    }

    std::map<GroupKey, std::vector<Item>, GroupKeyLess> Groups;
    for (size_t I = 0; I < M.Artifacts.size(); ++I) {
      Artifact *A = M.Artifacts[I].get();
      Groups[GroupKey(A->Log, A->Rank, A->Id, A->Subgraph)].push_back(
          Item{A->Line, A, nullptr, I});
    }
    for (const CompileEvent &E : M.Events)
      Groups[GroupKey(E.Log, E.Rank, E.Id, E.Subgraph)].push_back(
          Item{E.Line, nullptr, &E});
    // Dynamo logs dynamo_start once per frame compile, with attempt 0; a
    // restart (a graph break found while tracing: `0/0_1`) compiles the
    // same frame, so attempts > 0 take the frame of attempt 0.
    std::map<GroupKey, SharedOptional<SourceLoc>, GroupKeyLess> StartFrames;
    std::set<GroupKey, GroupKeyLess> Started;
    // Logs with a dynamo_start, and logs with artifacts or events of no
    // compile id (AOTInductor, export): in those, an id that no
    // dynamo_start begins stands out.
    std::set<uint32_t> LogsStarting;
    for (const std::unique_ptr<Artifact> &A : M.Artifacts)
      if (!A->Id)
        LogsStarting.insert(A->Log);
    for (const CompileEvent &E : M.Events)
      if (!E.Id || E.Kind == CompileEvent::DynamoStart)
        LogsStarting.insert(E.Log);
    for (const CompileEvent &E : M.Events)
      if (E.Kind == CompileEvent::DynamoStart && E.Id) {
        if (E.Frame && E.Id->Attempt == 0)
          StartFrames.emplace(GroupKey(E.Log, E.Rank, E.Id, ""), E.Frame);
        CompileId First = *E.Id;
        First.Attempt = 0;
        Started.insert(GroupKey(E.Log, E.Rank, First, ""));
      }

    // The units take their artifacts from the module; pre-grad graphs
    // stay there, copied into every unit that uses them, until the end.
    auto Take = [&](const Item &It) {
      return std::move(M.Artifacts[It.Index]);
    };

    for (auto &G : Groups) {
      std::vector<Item> &Items = G.second;
      llvm::stable_sort(
          Items, [](const Item &L, const Item &R) { return L.Line < R.Line; });
      // The first item, for a diagnostic of the group (its artifact may be
      // dropped by mergeAnnotationRuns).
      std::string FirstName;
      if (const Item &F = Items.front(); F.A)
        FirstName = F.A->Name;
      else
        FirstName = F.E->Kind == CompileEvent::DynamoStart ? "dynamo_start"
                    : F.E->Kind == CompileEvent::AotForward
                        ? "aot_forward_graph"
                    : F.E->Kind == CompileEvent::AotBackward
                        ? "aot_backward_graph"
                        : "aot_inference_graph";
      uint32_t FirstLine = Items.front().Line;
      std::vector<Run> Runs;
      std::vector<GraphKind> Markers;
      GraphArtifact *Pre = nullptr;
      bool PreFresh = false;
      SharedOptional<SourceLoc> Frame;
      // A region of a regional inductor compile (a subgraph name) compiles
      // part of its compile's frame: it takes the frame of attempt 0.
      if (const Optional<CompileId> &Id = std::get<2>(G.first);
          Id && (Id->Attempt != 0 || !std::get<3>(G.first).empty())) {
        CompileId First = *Id;
        First.Attempt = 0;
        auto It = StartFrames.find(
            GroupKey(std::get<0>(G.first), std::get<1>(G.first), First, ""));
        if (It != StartFrames.end())
          Frame = It->second;
      }
      // A second dynamo_start of the id begins another compile of it
      // (after torch._dynamo.reset()): its runs start afresh, with no
      // pre-grad graph of the compile before.
      bool SeenStart = false, ForceNew = false;
      uint32_t Segment = 0;
      size_t CompileFirstRun = 0;
      auto NewRun = [&](uint32_t Line) -> Run & {
        ForceNew = false;
        Runs.emplace_back();
        Runs.back().Pre = Pre;
        Runs.back().Frame = Frame;
        Runs.back().FirstLine = Line;
        Runs.back().Segment = Segment;
        PreFresh = false;
        return Runs.back();
      };
      auto Current = [&](uint32_t Line, bool NeedNew) -> Run & {
        if (Runs.empty() || NeedNew || ForceNew)
          return NewRun(Line);
        return Runs.back();
      };

      for (Item &It : Items) {
        if (It.E) {
          switch (It.E->Kind) {
          case CompileEvent::DynamoStart:
            if (It.E->Frame)
              Frame = It.E->Frame;
            if (SeenStart) {
              Pre = nullptr;
              PreFresh = false;
              ForceNew = true;
              CompileFirstRun = Runs.size();
              ++Segment;
            }
            SeenStart = true;
            break;
          case CompileEvent::AotForward:
            Markers.push_back(GraphKind::Forward);
            break;
          case CompileEvent::AotBackward:
            Markers.push_back(GraphKind::Backward);
            break;
          case CompileEvent::AotInference:
            Markers.push_back(GraphKind::Inference);
            break;
          }
          continue;
        }
        Artifact *A = It.A;
        Run *R = Runs.empty() ? nullptr : &Runs.back();
        switch (A->getKind()) {
        case Artifact::AK_PreGradGraph: {
          auto *GA = cast<GraphArtifact>(A);
          // The first pre-grad graph of a compile, after its post-grad
          // graph or code (events out of order): theirs all the same.
          if (!Pre && Runs.size() > CompileFirstRun) {
            const Artifact *Before = nullptr;
            Runs[CompileFirstRun].Unit->forEachArtifact(
                [&](UnitSlot, const Artifact &X) {
                  if (!Before || X.Line < Before->Line)
                    Before = &X;
                });
            const Optional<CompileId> &Id = std::get<2>(G.first);
            Ctx.Diags.warning(
                M.logName(GA->Log), GA->Line,
                "the pre-grad graph '" + GA->Name + "' of compile id " +
                    (Id ? Id->str() : std::string("(none)")) +
                    " comes after its '" +
                    (Before ? Before->Name : std::string("?")) + "' (line " +
                    Twine(Before ? Before->Line : 0) +
                    "): events out of order; read as that compile's");
            for (size_t J = CompileFirstRun; J < Runs.size(); ++J)
              Runs[J].Pre = GA;
          }
          if (!Pre || !PreFresh || graphPriority(*GA) <= graphPriority(*Pre))
            Pre = GA;
          PreFresh = true;
          break;
        }
        case Artifact::AK_PostGradGraph: {
          Run &Cur = Current(It.Line, !R || R->hasOutput());
          auto *GA = cast<GraphArtifact>(A);
          GraphArtifact *Post = Cur.Unit->PostGrad.get();
          if (!Post || graphPriority(*GA) <= graphPriority(*Post))
            Cur.Unit->setSlot(Take(It));
          break;
        }
        default: {
          // One artifact of each other slot per run; a second starts the
          // next run.
          UnitSlot S = unitSlotOf(A->getKind());
          Run &Cur = Current(It.Line, !R || R->Unit->slot(S));
          Cur.Unit->setSlot(Take(It));
          break;
        }
        }
      }
      {
        const Optional<CompileId> &Id = std::get<2>(G.first);
        std::string IdText = Id ? Id->str() : "(none)";
        mergeCodeFirstRuns(Runs, M, Ctx, IdText);
        mergeAnnotationRuns(Runs, M, Ctx, IdText);
        // Dynamo begins every frame compile with dynamo_start (attempt 0
        // only); AOTAutograd or a compile record names each attempt. An id
        // nothing begins or names is most likely a damaged one: its
        // artifacts or events stand apart from their compile.
        if (Id && !Items.empty() && LogsStarting.count(std::get<0>(G.first))) {
          CompileId First = *Id;
          First.Attempt = 0;
          bool HasStart = Started.count(GroupKey(
              std::get<0>(G.first), std::get<1>(G.first), First, ""));
          // The reader makes a record for every id; one with nothing of
          // its own (metrics, cache lookups, spans, breaks, guards) names
          // nothing.
          const CompileRecord *Rec =
              M.findCompile(std::get<0>(G.first), std::get<1>(G.first), Id);
          bool Named =
              llvm::any_of(Items, [](const Item &I) { return I.E; }) ||
              (Rec && (!Rec->Metrics.empty() || !Rec->Caches.empty() ||
                       !Rec->Spans.empty() || !Rec->Breaks.empty() ||
                       !Rec->RecompileReasons.empty() ||
                       !Rec->FailType.empty() || Rec->GuardCount ||
                       !Rec->Guards.empty()));
          if (!HasStart || !Named) {
            Ctx.Diags.warning(
                M.logName(std::get<0>(G.first)), FirstLine,
                "compile id " + IdText + " of '" + FirstName + "': " +
                    (!HasStart ? "no dynamo_start begins its frame"
                               : "no dynamo_start, aot_*_graph event or "
                                 "compile record names this attempt") +
                    " (a damaged id?); read as a compile of its own");
          }
        }
      }
      // A compile that never reached Inductor still shows its graph.
      if (Runs.empty() && Pre)
        NewRun(Pre->Line);

      pairBackwards(Runs, M, Ctx);
      std::map<GraphKind, uint32_t> Ordinals;
      for (size_t I = 0; I < Runs.size(); ++I) {
        Run &R = Runs[I];
        std::unique_ptr<CompileUnit> U = std::move(R.Unit);
        U->Key.Log = std::get<0>(G.first);
        U->Key.Rank = std::get<1>(G.first);
        U->Key.Id = std::get<2>(G.first);
        U->Key.Subgraph = std::get<3>(G.first);
        GraphKind K =
            U->Code ? graphKindOfAotId(U->Code->AotId) : GraphKind::Unknown;
        if (K == GraphKind::Unknown && !Markers.empty()) {
          bool AllInference = llvm::all_of(
              Markers, [](GraphKind M) { return M == GraphKind::Inference; });
          if (AllInference)
            K = GraphKind::Inference;
          else if (I < Markers.size())
            K = Markers[I];
        }
        if (K == GraphKind::Unknown && U->Code)
          Ctx.Diags.warning(M.logName(U->Code->Log), U->Code->Line,
                            "compile id " +
                                (U->Key.Id ? U->Key.Id->str()
                                           : std::string("(none)")) +
                                ": graph kind unknown: no aot_*_graph event "
                                "and no '# AOT ID:' line in '" +
                                U->Code->Name + "'");
        U->Key.Graph = K;
        U->Key.Ordinal = Ordinals[K]++;
        if (K == GraphKind::Backward && R.PairedOrdinal)
          U->Key.Ordinal = *R.PairedOrdinal;
        U->Key.LogInId = unitIdNeedsLog(M.Logs, U->Key.Log, U->Key.Rank);
        U->Frame = R.Frame;
        if (R.Pre)
          U->PreGrad.reset(cast<GraphArtifact>(R.Pre->clone().release()));
        for (GraphArtifact *GA : {U->PreGrad.get(), U->PostGrad.get()})
          if (GA)
            GA->reindex();
        if (U->Code)
          U->Code->reindex();
        if (U->KernelCode)
          U->KernelCode->reindex();
        M.Units.push_back(std::move(U));
      }
    }
    // Grouped: the events and the artifacts left (the pre-grad graphs,
    // copied) are freed.
    M.Events = std::vector<CompileEvent>();
    M.Artifacts = std::vector<std::unique_ptr<Artifact>>();
    joinDepyfUnits(M);
    mergeDebugFolderUnits(M, Ctx);
    llvm::stable_sort(M.Units, [](const std::unique_ptr<CompileUnit> &L,
                                  const std::unique_ptr<CompileUnit> &R) {
      return L->Key < R->Key;
    });
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Pass> createGroupCompileIdsPass() {
  return std::make_unique<GroupCompileIdsPass>();
}

} // namespace tlp
