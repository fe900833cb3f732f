//===- Module.cpp - Compile units and the provenance module ---------------===//

#include "tlp/IR/Module.h"

#include "tlp/IR/InductorNames.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace tlp {

std::string UnitKey::slug() const {
  std::string S;
  if (!Folder.empty()) {
    S = "dbg-";
    for (char C : Folder)
      S += llvm::isAlnum(C) || C == '_' || C == '.' ? C : '_';
    if (LogInId)
      S += "-log" + std::to_string(Log);
    return S;
  }
  if (Rank)
    S += "r" + std::to_string(*Rank) + "-";
  S += Id ? Id->slug() : !Fn.empty() ? Fn : std::string("aot");
  S += "-";
  S += graphKindName(Graph).str();
  if (!Subgraph.empty()) {
    S += "-";
    for (char C : Subgraph)
      S += llvm::isAlnum(C) || C == '_' || C == '.' ? C : '_';
  }
  if (Ordinal)
    S += "-" + std::to_string(Ordinal);
  if (LogInId)
    S += "-log" + std::to_string(Log);
  return S;
}

std::string UnitKey::displayName() const {
  std::string S;
  if (!Folder.empty()) {
    S = "debug folder " + Folder;
    if (LogInId)
      S += " (log " + std::to_string(Log) + ")";
    return S;
  }
  if (Rank)
    S += "rank " + std::to_string(*Rank) + " ";
  S += Id ? Id->str() : !Fn.empty() ? Fn : std::string("aot");
  S += " ";
  S += graphKindName(Graph).str();
  if (!Subgraph.empty())
    S += " " + Subgraph;
  if (Ordinal)
    S += " #" + std::to_string(Ordinal + 1);
  if (LogInId)
    S += " (log " + std::to_string(Log) + ")";
  return S;
}

StringRef unitFileKindName(UnitFile::FileKind K) {
  switch (K) {
  case UnitFile::KernelModule:
    return "kernel_module";
  case UnitFile::BestConfig:
    return "best_config";
  case UnitFile::DynamoCode:
    return "dynamo_code";
  }
  return "kernel_module";
}

bool parseUnitFileKind(StringRef S, UnitFile::FileKind &K) {
  for (UnitFile::FileKind C :
       {UnitFile::KernelModule, UnitFile::BestConfig, UnitFile::DynamoCode})
    if (S == unitFileKindName(C)) {
      K = C;
      return true;
    }
  return false;
}

bool unitIdNeedsLog(ArrayRef<LogFile> Logs, uint32_t Log,
                    Optional<int64_t> Rank) {
  // The files of a depyf dump and of TORCH_COMPILE_DEBUG folders are no
  // logs: a dump's units are told apart by their graph's name
  // (UnitKey::Fn); a folder's by the folder (UnitKey::Folder), and by its
  // first file when the input has several logs.
  size_t NumLogs = llvm::count_if(Logs, [](const LogFile &L) {
    return !L.DumpFile && !L.DebugFolder;
  });
  if (NumLogs < 2 || (Log < Logs.size() && Logs[Log].DumpFile))
    return false;
  if (!Rank || Log >= Logs.size() || Logs[Log].Rank != Rank)
    return true;
  for (uint32_t I = 0; I < Logs.size(); ++I)
    if (I != Log && !Logs[I].DumpFile && !Logs[I].DebugFolder &&
        Logs[I].Rank == Rank)
      return true;
  return false;
}

/// A depyf graph name's order: its prefix (`dp1-`), then N of
/// `__compiled_fn_N` as a number (`__compiled_fn_2` before
/// `__compiled_fn_11`).
static std::pair<StringRef, uint64_t> fnOrder(StringRef Fn) {
  size_t P = Fn.rfind("__compiled_fn_");
  if (P == StringRef::npos)
    return {Fn, 0};
  uint64_t N = 0;
  parseUnsigned(Fn.substr(P + 14), N);
  return {Fn.take_front(P), N};
}

static auto keyTuple(const UnitKey &K) {
  // A depyf dump's units (Fn) by graph, after a log's, whatever the file
  // each names (Log: a dump's units are told apart by graph, kind and
  // ordinal).
  return std::make_tuple(K.Rank.hasValue(), K.Rank.getValueOr(0),
                         !K.Fn.empty(), fnOrder(K.Fn),
                         K.Fn.empty() ? K.Log : 0u,
                         !K.Id.hasValue(),
                         K.Id ? K.Id->tie() : CompileId().tie(),
                         StringRef(K.Fn), StringRef(K.Subgraph),
                         StringRef(K.Folder), K.Ordinal,
                         static_cast<int>(K.Graph));
}

bool UnitKey::operator<(const UnitKey &O) const {
  return keyTuple(*this) < keyTuple(O);
}

bool UnitKey::operator==(const UnitKey &O) const {
  return keyTuple(*this) == keyTuple(O);
}

void splitKernelKey(StringRef Key, StringRef &Name,
                    Optional<uint64_t> &Handle) {
  Name = Key;
  Handle = None;
  size_t C = Key.rfind(':');
  if (C == StringRef::npos || C == 0)
    return;
  uint64_t H;
  if (!parseUnsigned(Key.substr(C + 1), H))
    return;
  Name = Key.substr(0, C);
  Handle = H;
}

std::string Kernel::key() const {
  if (!Handle)
    return Name;
  return Name + ":" + std::to_string(*Handle);
}

/// Key == K.key(), without building the key.
static bool hasKey(const Kernel &K, StringRef Key) {
  if (!K.Handle)
    return Key == K.Name;
  if (!Key.consume_front(K.Name) || !Key.consume_front(":"))
    return false;
  return Key == std::to_string(*K.Handle); // short: no allocation
}

Optional<uint32_t> CompileUnit::findKernel(StringRef Key) const {
  for (uint32_t I = 0, E = Kernels.size(); I < E; ++I)
    if (hasKey(Kernels[I], Key))
      return I;
  return None;
}

KernelKeyIndex::KernelKeyIndex(const CompileUnit &U) {
  // The first row wins, as with findKernel().
  for (uint32_t I = 0, E = U.Kernels.size(); I < E; ++I)
    Rows.try_emplace(U.Kernels[I].key(), I);
}

Optional<uint32_t> KernelKeyIndex::find(StringRef Key) const {
  auto It = Rows.find(Key);
  if (It == Rows.end())
    return None;
  return It->second;
}

uint32_t CompileUnit::addSource(const SourceLoc &S) {
  for (uint32_t I = 0, E = Sources.size(); I < E; ++I)
    if (Sources[I] == S)
      return I;
  Sources.push_back(S);
  return Sources.size() - 1;
}

void CompileUnit::canonicalizeEdges() {
  // Equal edges (same ends and origin) keep the highest confidence.
  llvm::sort(Edges, [](const Edge &A, const Edge &B) {
    if (!(A == B))
      return A < B;
    return A.Confidence > B.Confidence;
  });
  Edges.erase(std::unique(Edges.begin(), Edges.end()), Edges.end());
}

void CompileUnit::removeEdges(EdgeOrigin O) {
  llvm::erase_if(Edges, [O](const Edge &E) { return E.Origin == O; });
}

const GraphArtifact *CompileUnit::graphFor(Endpoint::EndpointKind K) const {
  if (K == Endpoint::PreNode)
    return PreGrad.get();
  if (K == Endpoint::PostNode)
    return PostGrad.get();
  return nullptr;
}

std::string CompileUnit::endpointName(const Endpoint &E) const {
  switch (E.Kind) {
  case Endpoint::PreNode:
  case Endpoint::PostNode: {
    const GraphArtifact *G = graphFor(E.Kind);
    if (G && E.Index < G->Nodes.size())
      return G->Nodes[E.Index].qualifiedName();
    return "?";
  }
  case Endpoint::KernelRow:
    return E.Index < Kernels.size() ? Kernels[E.Index].key() : "?";
  case Endpoint::Source:
    if (E.Index < Sources.size())
      return Sources[E.Index].File + ":" +
             std::to_string(Sources[E.Index].Line);
    return "?";
  }
  return "?";
}

std::string Module::logName(uint32_t I) const {
  if (I < Logs.size())
    return Logs[I].Path == "-" ? std::string("<stdin>") : Logs[I].Path;
  return "<unknown>";
}

const CompileRecord *Module::findCompile(uint32_t Log, Optional<int64_t> Rank,
                                         Optional<CompileId> Id) const {
  CompileRecord Probe;
  Probe.Log = Log;
  Probe.Rank = Rank;
  Probe.Id = Id;
  // The ordinal sorts before the attempt: walk the compiles of the frame
  // id for the first with this attempt.
  for (auto It = llvm::lower_bound(Compiles, Probe); It != Compiles.end();
       ++It) {
    if (It->Log != Log || It->Rank != Rank ||
        It->Id.hasValue() != Id.hasValue())
      break;
    if (!Id)
      return &*It;
    if (It->Id->CompiledAutogradId != Id->CompiledAutogradId ||
        It->Id->FrameId != Id->FrameId ||
        It->Id->FrameCompileId != Id->FrameCompileId)
      break;
    if (It->Id->Attempt == Id->Attempt)
      return &*It;
  }
  return nullptr;
}

const CompileRecord *Module::findCompile(const UnitKey &K) const {
  return findCompile(K.Log, K.Rank, K.Id);
}

const CompileRecord *Module::findCompile(const CompileUnit &U) const {
  const CompileRecord *First = findCompile(U.Key);
  if (!First || !First->Ordinal)
    return First;
  uint32_t Line = 0;
  U.forEachArtifact([&](UnitSlot, const Artifact &A) {
    if (A.Line && (!Line || A.Line < Line))
      Line = A.Line;
  });
  const CompileRecord *Best = First;
  for (const CompileRecord *It = First; It != Compiles.data() + Compiles.size();
       ++It) {
    if (It->Log != First->Log || It->Rank != First->Rank || !It->Id ||
        It->Id->CompiledAutogradId != First->Id->CompiledAutogradId ||
        It->Id->FrameId != First->Id->FrameId ||
        It->Id->FrameCompileId != First->Id->FrameCompileId)
      break;
    if (It->Id->Attempt == First->Id->Attempt && It->Line <= Line)
      Best = It;
  }
  return Best;
}

const CacheLookup *Module::fxLookupOf(const CompileUnit &U) const {
  if (!U.Code || U.Code->AotId.empty())
    return nullptr;
  const CompileRecord *R = findCompile(U);
  if (!R)
    return nullptr;
  for (const CacheLookup &C : R->Caches)
    if (C.Cache == CacheLookup::FXGraph && C.AotId == U.Code->AotId)
      return &C;
  return nullptr;
}

std::vector<uint32_t> Module::unitsOf(const CompileRecord &R) const {
  std::vector<uint32_t> Out;
  for (size_t I = 0; I < Units.size(); ++I) {
    const UnitKey &K = Units[I]->Key;
    if (K.Log == R.Log && K.Rank == R.Rank && K.Id == R.Id &&
        (!R.Ordinal || findCompile(*Units[I]) == &R))
      Out.push_back(static_cast<uint32_t>(I));
  }
  return Out;
}

/// `NAME[i]` as NAME and i; false for another name.
static bool splitListEntry(StringRef Name, StringRef &List, size_t &Index) {
  if (!Name.endswith("]"))
    return false;
  size_t Open = Name.rfind('[');
  if (Open == StringRef::npos || Open == 0)
    return false;
  StringRef Digits = Name.slice(Open + 1, Name.size() - 1);
  if (Digits.empty() || Digits.size() > 9 ||
      !llvm::all_of(Digits, [](char C) { return isDigit(C); }))
    return false;
  List = Name.take_front(Open);
  Index = std::stoul(Digits.str());
  return true;
}

/// The entries of the lists of components (`example_inputs[0]`, ...)
/// whose length differs between \p Before and \p After (name -> text),
/// compared by value: the longest common subsequence of equal entries
/// stays unchanged (moved when its index changed); in each gap between
/// them, entries are paired in order with one of the same type (the text
/// up to `(`: `TensorMetadata`, a tuple), and what is left was inserted or
/// removed. Adds the lists to \p D, each list's changes to \p Changes and
/// the names of their entries to \p Names. A list too long to align (over
/// 1,000 entries a side) is compared by index.
template <typename SameFn, typename ValueFn>
static void
alignLists(const std::vector<std::pair<StringRef, StringRef>> &Before,
           const std::vector<std::pair<StringRef, StringRef>> &After,
           SameFn Same, ValueFn Value, Module::CacheMissDiff &D,
           std::map<StringRef, std::vector<Module::KeyChange>> &Changes,
           StringSet<> &Names) {
  using Entries = std::vector<std::pair<size_t, const std::pair<StringRef,
                                                                StringRef> *>>;
  auto Lists = [](const std::vector<std::pair<StringRef, StringRef>> &V) {
    std::map<StringRef, Entries> L;
    for (const auto &P : V) {
      StringRef List;
      size_t Index;
      if (splitListEntry(P.first, List, Index))
        L[List].emplace_back(Index, &P);
    }
    for (auto &KV : L)
      llvm::sort(KV.second, [](const auto &A, const auto &B) {
        return A.first < B.first;
      });
    return L;
  };
  std::map<StringRef, Entries> LB = Lists(Before), LA = Lists(After);
  auto TypeOf = [&](StringRef Text) {
    std::string V = Value(Text);
    return V.substr(0, V.find('('));
  };
  for (auto &KV : LA) {
    auto It = LB.find(KV.first);
    if (It == LB.end())
      continue;
    const Entries &A = It->second, &B = KV.second; // before, after
    if (A.size() == B.size() || A.size() > 1000 || B.size() > 1000)
      continue;
    size_t N = A.size(), M = B.size();
    // L[i][j]: the longest common subsequence of A[i..] and B[j..].
    std::vector<std::vector<uint32_t>> L(N + 1,
                                         std::vector<uint32_t>(M + 1, 0));
    for (size_t I = N; I-- > 0;)
      for (size_t J = M; J-- > 0;)
        L[I][J] = Same(A[I].second->second, B[J].second->second)
                      ? L[I + 1][J + 1] + 1
                      : std::max(L[I + 1][J], L[I][J + 1]);
    Module::AlignedList Row;
    Row.Name = KV.first.str();
    Row.Before = N;
    Row.After = M;
    std::vector<size_t> GapA, GapB;
    auto Change = [&](const std::pair<StringRef, StringRef> *X,
                      const std::pair<StringRef, StringRef> *Y) {
      Module::KeyChange K;
      K.Aligned = true;
      if (Y) {
        K.Name = Y->first.str();
        K.After = Value(Y->second);
      }
      if (X) {
        if (!Y)
          K.Name = X->first.str();
        else if (X->first != Y->first)
          K.BeforeName = X->first.str();
        K.Before = Value(X->second);
      }
      Changes[KV.first].push_back(std::move(K));
    };
    auto FlushGap = [&]() {
      // Pair in order, each entry after with the first unpaired entry
      // before of its type; then what is left.
      std::vector<bool> UsedA(GapA.size(), false);
      for (size_t J : GapB) {
        std::string T = TypeOf(B[J].second->second);
        const std::pair<StringRef, StringRef> *Pair = nullptr;
        for (size_t K = 0; K < GapA.size() && !Pair; ++K)
          if (!UsedA[K] && TypeOf(A[GapA[K]].second->second) == T) {
            UsedA[K] = true;
            Pair = A[GapA[K]].second;
          }
        Change(Pair, B[J].second);
      }
      for (size_t K = 0; K < GapA.size(); ++K)
        if (!UsedA[K])
          Change(A[GapA[K]].second, nullptr);
      GapA.clear();
      GapB.clear();
    };
    size_t I = 0, J = 0;
    while (I < N || J < M) {
      if (I < N && J < M && Same(A[I].second->second, B[J].second->second) &&
          L[I][J] == L[I + 1][J + 1] + 1) {
        FlushGap();
        Row.Moved += A[I].first != B[J].first;
        ++I;
        ++J;
      } else if (J < M && (I == N || L[I][J + 1] >= L[I + 1][J])) {
        GapB.push_back(J++);
      } else {
        GapA.push_back(I++);
      }
    }
    FlushGap();
    for (const auto &E : A)
      Names.insert(E.second->first);
    for (const auto &E : B)
      Names.insert(E.second->first);
    D.Aligned.push_back(std::move(Row));
  }
}

/// The text of \p C's `fx_kwargs[is_backward]` key component: what kind
/// of graph an FX graph lookup is for (a forward's lookup is not compared
/// with a backward's); "" when it has none.
static StringRef lookupKind(const CacheLookup &C,
                            ArrayRef<std::string> KeyComponents) {
  for (uint32_t I : C.Components)
    if (I < KeyComponents.size()) {
      StringRef T = KeyComponents[I];
      if (splitKeyComponent(T).Name == "fx_kwargs[is_backward]")
        return T;
    }
  return "";
}

/// The (kind, place) of each FX graph lookup of \p Rec, by AOT ID: a
/// forward's (or inference graph's) place among the record's forwards (or
/// inference graphs), in log order; a backward's that of its forward
/// (pairAotBackwards, as GroupCompileIds pairs units); none without an
/// AOT ID or a forward.
using GraphPlaces = std::map<const CacheLookup *, std::pair<int, size_t>>;
static GraphPlaces graphPlaces(const CompileRecord &Rec) {
  std::vector<const CacheLookup *> Lookups;
  std::vector<AotGraph> Graphs;
  for (const CacheLookup &L : Rec.Caches) {
    if (L.Cache != CacheLookup::FXGraph)
      continue;
    GraphKind K = graphKindOfAotId(L.AotId);
    if (K == GraphKind::Unknown)
      continue;
    Lookups.push_back(&L);
    Graphs.push_back(AotGraph{K, aotIdNumber(L.AotId)});
  }
  std::vector<Optional<AotPair>> Pairs = pairAotBackwards(Graphs);
  GraphPlaces Out;
  std::vector<size_t> PlaceOf(Graphs.size());
  size_t Forwards = 0, Inferences = 0;
  for (size_t I = 0; I < Graphs.size(); ++I) {
    if (Graphs[I].Kind == GraphKind::Forward)
      PlaceOf[I] = Forwards++;
    else if (Graphs[I].Kind == GraphKind::Inference)
      PlaceOf[I] = Inferences++;
    if (Graphs[I].Kind != GraphKind::Backward)
      Out[Lookups[I]] = std::make_pair(0, PlaceOf[I]);
    else if (Pairs[I])
      Out[Lookups[I]] = std::make_pair(1, PlaceOf[Pairs[I]->Forward]);
  }
  return Out;
}

/// Of \p Candidates, lookups of record \p Against for the same kind of
/// graph as \p Miss (a lookup of \p R), the one of the same graph: the one
/// at the same place when the AOT IDs tell (graphPlaces: the k-th forward,
/// the k-th submodule DDPOptimizer split the frame into, in both compiles;
/// a backward by its forward's place, whatever order the backwards were
/// compiled in); else the one whose key components differ least from the
/// miss's, the latest of those that tie (\p Latest among them).
/// \p PlacesOf gives a record's graphPlaces (computed once a record).
static const CacheLookup *sameGraphLookup(
    const CompileRecord &R, const CacheLookup &Miss,
    const CompileRecord &Against, ArrayRef<const CacheLookup *> Candidates,
    const CacheLookup *Latest,
    function_ref<const GraphPlaces &(const CompileRecord &)> PlacesOf) {
  if (!Miss.AotId.empty()) {
    const GraphPlaces &Mine = PlacesOf(R);
    auto It = Mine.find(&Miss);
    if (It != Mine.end()) {
      const GraphPlaces &Theirs = PlacesOf(Against);
      for (const CacheLookup *C : Candidates) {
        auto T = Theirs.find(C);
        if (T != Theirs.end() && T->second == It->second)
          return C;
      }
    }
  }
  std::vector<uint32_t> Mine(Miss.Components.begin(), Miss.Components.end());
  llvm::sort(Mine);
  auto Distance = [&](const CacheLookup &C) {
    std::vector<uint32_t> Theirs(C.Components.begin(), C.Components.end());
    llvm::sort(Theirs);
    size_t Common = 0;
    for (size_t I = 0, J = 0; I < Mine.size() && J < Theirs.size();) {
      if (Mine[I] == Theirs[J]) {
        ++Common;
        ++I;
        ++J;
      } else if (Mine[I] < Theirs[J]) {
        ++I;
      } else {
        ++J;
      }
    }
    return Mine.size() + Theirs.size() - 2 * Common;
  };
  const CacheLookup *Best = Latest;
  size_t BestDistance = Distance(*Latest);
  for (const CacheLookup *C : Candidates) {
    size_t X = Distance(*C);
    if (X < BestDistance || (X == BestDistance && C->Line > Best->Line)) {
      BestDistance = X;
      Best = C;
    }
  }
  return Best;
}

/// The most records of one frame that cacheMissDiffs scans for a miss's
/// latest earlier lookup; a frame of more (past any recompile limit) is
/// walked in the order its records began.
static constexpr ptrdiff_t MaxScannedFrame = 1024;

std::vector<Module::CacheMissDiff>
Module::cacheMissDiffs(const CompileRecord &R) const {
  std::vector<CacheMissDiff> Out;
  if (!R.Id)
    return Out;
  auto SameFrame = [&](const CompileRecord &O) {
    return O.Log == R.Log && O.Rank == R.Rank && O.Id &&
           O.Id->FrameId == R.Id->FrameId &&
           O.Id->CompiledAutogradId == R.Id->CompiledAutogradId;
  };
  // The lookup a miss is compared with is the latest one of its cache
  // before it in the log, in another record of the frame: the frame's
  // records are scanned (Latest) unless they are thousands. Then: the
  // records of a frame are next to each other in Compiles (sorted by
  // sortKey: rank, log, then compiled-autograd and frame id first in the
  // id), but within them
  // the order is the id's, not the log's: after torch._dynamo.reset() ids
  // start again, so `0/0 #2` sorts before `0/1`, which ran before it. So
  // the records are walked in log order, each step to the record of the
  // frame the log has just before (PrevInLog), until one has a lookup of
  // the cache. A step looks at the record's own id (its earlier attempts,
  // and the same id before each reset) and at the id before it: within one
  // run of the frame (between resets) ids go 0, 1, 2, ..., so the record
  // before `0/j` in the log is the latest `0/(j-1)` before it, or an
  // earlier attempt of `0/j`. Only the first compile after a reset (`0/0
  // #2`) needs the whole frame. (A scan of every earlier record per miss
  // made 40,000 compiles with misses take 12.9 s.)
  auto FramePrefix = [](const CompileRecord &O) {
    return std::make_tuple(O.Rank.getValueOr(-1), O.Log, !O.Id.hasValue(),
                           O.Id ? O.Id->CompiledAutogradId.getValueOr(-1) : -1,
                           O.Id ? O.Id->FrameId.getValueOr(-1) : -1);
  };
  const CompileRecord *Begin = Compiles.data();
  const CompileRecord *End = Begin + Compiles.size();
  bool InCompiles = !Compiles.empty() && &R >= Begin && &R < End;
  auto Prefix = FramePrefix(R);
  auto InFrame = [&](const CompileRecord *O) {
    return O && O < End && FramePrefix(*O) == Prefix && SameFrame(*O);
  };
  // The record before \p O in Compiles, or null (no pointer before Begin).
  auto Before = [&](const CompileRecord *O) -> const CompileRecord * {
    return O && O != Begin ? O - 1 : nullptr;
  };
  // The records of \p X's frame, [B, E), or a range of more than \p Most
  // of them once it has as many.
  auto FrameOf = [&](const CompileRecord *X, ptrdiff_t Most) {
    const CompileRecord *B = X, *E = X + 1;
    while (InFrame(Before(B)) && E - B <= Most)
      B = Before(B);
    while (InFrame(E) && E - B <= Most)
      ++E;
    return std::make_pair(B, E);
  };
  auto Fcid = [](const CompileRecord &O) {
    return O.Id->FrameCompileId.getValueOr(-1);
  };
  // The record of the frame with the greatest line before \p X's, or null.
  auto PrevInLog = [&](const CompileRecord *X) -> const CompileRecord * {
    const CompileRecord *Best = nullptr;
    auto Consider = [&](const CompileRecord *O) {
      if (O->Line < X->Line && (!Best || O->Line > Best->Line))
        Best = O;
    };
    const CompileRecord *O = X;
    while (InFrame(Before(O)) && Fcid(*Before(O)) == Fcid(*X))
      Consider(O = Before(O));
    int64_t J = Fcid(*X);
    bool FirstOfRun = J <= 0;
    if (!FirstOfRun && InFrame(Before(O)) && Fcid(*Before(O)) == J - 1) {
      for (O = Before(O); InFrame(O) && Fcid(*O) == J - 1; O = Before(O))
        if (O->Line < X->Line) {
          Consider(O);
          break;
        }
      return Best;
    }
    if (FirstOfRun && X->Ordinal <= 1)
      return Best; // the frame's first run: nothing before its first id
    // The first compile of a later run, or ids with a gap: the whole frame.
    auto [B, E] = FrameOf(X, PTRDIFF_MAX);
    for (; B != E; ++B)
      Consider(B);
    return Best;
  };
  // The latest lookup with key components of \p Cache before log line
  // \p Line in another record of the same frame, and that record. A region
  // of a regional inductor compile (a subgraph name) is compared with the
  // same region only: the regions of a frame are different graphs.
  auto Latest = [&](CacheLookup::CacheKind Cache, StringRef Subgraph,
                    StringRef Kind, uint32_t Line)
      -> std::pair<const CompileRecord *, const CacheLookup *> {
    auto Last = [&](const CompileRecord &O) -> const CacheLookup * {
      const CacheLookup *Found = nullptr;
      for (const CacheLookup &C : O.Caches)
        if (C.Cache == Cache && !C.Components.empty() &&
            C.Subgraph == Subgraph && C.Line < Line &&
            lookupKind(C, KeyComponents) == Kind &&
            (!Found || C.Line > Found->Line))
          Found = &C;
      return Found;
    };
    auto LatestOf = [&](const CompileRecord *B, const CompileRecord *E) {
      std::pair<const CompileRecord *, const CacheLookup *> Found{};
      for (const CompileRecord *O = B; O != E; ++O)
        if (O != &R && SameFrame(*O))
          if (const CacheLookup *C = Last(*O))
            if (!Found.second || C->Line > Found.second->Line)
              Found = {O, C};
      return Found;
    };
    if (!InCompiles) // not one of ours: every record
      return LatestOf(Begin, End);
    // Every record of the frame, when they are not too many: a compile's
    // backward is compiled when it first runs, after the forwards of
    // later compiles of the frame (each layer of a model compiled on its
    // own is a recompile of one frame, and their backwards run last layer
    // first), so the latest lookup before a backward's miss may be in a
    // record that began after this one.
    auto [FB, FE] = FrameOf(&R, MaxScannedFrame);
    if (FE - FB <= MaxScannedFrame)
      return LatestOf(FB, FE);
    // A frame of thousands of compiles: records in the order they began.
    for (const CompileRecord *O = PrevInLog(&R); O; O = PrevInLog(O))
      if (const CacheLookup *C = Last(*O))
        return {O, C};
    return {};
  };
  // One walk per cache, region and kind of graph, however many misses of
  // it R has.
  SmallVector<
      std::pair<std::tuple<CacheLookup::CacheKind, StringRef, StringRef>,
                std::pair<const CompileRecord *, const CacheLookup *>>,
      4>
      Walked;
  std::map<const CompileRecord *, GraphPlaces> Places;
  auto PlacesOf = [&](const CompileRecord &X) -> const GraphPlaces & {
    auto It = Places.find(&X);
    if (It == Places.end())
      It = Places.emplace(&X, graphPlaces(X)).first;
    return It->second;
  };
  for (const CacheLookup &Miss : R.Caches) {
    if (Miss.Result != CacheLookup::Miss || Miss.Components.empty())
      continue;
    // The latest earlier lookup of this cache for the same frame.
    CacheMissDiff D;
    D.Miss = &Miss;
    StringRef MyKind = lookupKind(Miss, KeyComponents);
    auto WKey =
        std::make_tuple(Miss.Cache, StringRef(Miss.Subgraph), MyKind);
    auto W = llvm::find_if(Walked,
                           [&](const auto &P) { return P.first == WKey; });
    if (W == Walked.end()) {
      Walked.emplace_back(
          WKey, Latest(Miss.Cache, Miss.Subgraph, MyKind, Miss.Line));
      W = Walked.end() - 1;
    }
    D.Against = W->second.first;
    D.Before = W->second.second;
    if (!D.Before)
      continue;
    // A compile of several graphs (the submodules DDPOptimizer splits a
    // frame into) looks the cache up once a graph: which of that compile's
    // lookups of the same kind is the same graph's?
    std::vector<const CacheLookup *> Candidates;
    for (const CacheLookup &C : D.Against->Caches)
      if (C.Cache == Miss.Cache && !C.Components.empty() &&
          C.Subgraph == Miss.Subgraph && C.Line < Miss.Line &&
          lookupKind(C, KeyComponents) == MyKind)
        Candidates.push_back(&C);
    if (Candidates.size() > 1)
      D.Before = sameGraphLookup(R, Miss, *D.Against, Candidates, D.Before,
                                 PlacesOf);
    auto Split = [&](const CacheLookup &C) {
      std::vector<std::pair<StringRef, StringRef>> V; // name -> text
      for (uint32_t I : C.Components)
        if (I < KeyComponents.size())
          V.emplace_back(splitKeyComponent(KeyComponents[I]).Name,
                         KeyComponents[I]);
      return V;
    };
    auto Before = Split(*D.Before), After = Split(Miss);
    // Name -> the text of the first component of that name: a linear
    // search made a miss of 300 components against 300 cost 90,000
    // comparisons.
    auto Index = [](const std::vector<std::pair<StringRef, StringRef>> &V) {
      StringMap<StringRef> M;
      for (auto &P : V)
        M.try_emplace(P.first, P.second);
      return M;
    };
    StringMap<StringRef> BeforeByName = Index(Before),
                         AfterByName = Index(After);
    auto Find = [](const StringMap<StringRef> &M, StringRef Name) {
      auto It = M.find(Name);
      return It == M.end() ? StringRef() : It->second;
    };
    auto Same = [](StringRef A, StringRef B) {
      // Components are stored once: the same text is the same string.
      if (A.data() == B.data() && A.size() == B.size())
        return true;
      KeyComponent KA = splitKeyComponent(A), KB = splitKeyComponent(B);
      if (!KA.Hash.empty() && !KB.Hash.empty())
        return KA.Hash == KB.Hash;
      return A == B;
    };
    auto Value = [](StringRef T) {
      KeyComponent K = splitKeyComponent(T);
      return (K.Value.empty() && K.Hash.empty() ? T : K.Value).str();
    };
    // Lists whose length changed: aligned by value (alignLists); their
    // entries are left out of the comparison by name.
    StringSet<> AlignedNames;
    std::map<StringRef, std::vector<KeyChange>> ListChanges;
    alignLists(Before, After, Same, Value, D, ListChanges, AlignedNames);
    for (auto &P : After) {
      if (AlignedNames.count(P.first)) {
        // A list's changes where its first entry is.
        StringRef List;
        size_t Index;
        splitListEntry(P.first, List, Index);
        auto It = ListChanges.find(List);
        if (It != ListChanges.end()) {
          for (KeyChange &K : It->second)
            D.Changes.push_back(std::move(K));
          ListChanges.erase(It);
        }
        continue;
      }
      StringRef Old = Find(BeforeByName, P.first);
      if (!Old.empty() && Same(Old, P.second))
        continue;
      KeyChange K;
      K.Name = P.first.str();
      if (!Old.empty())
        K.Before = Value(Old);
      K.After = Value(P.second);
      D.Changes.push_back(std::move(K));
    }
    for (auto &P : Before)
      if (!AlignedNames.count(P.first) && Find(AfterByName, P.first).empty()) {
        KeyChange K;
        K.Name = P.first.str();
        K.Before = Value(P.second);
        D.Changes.push_back(std::move(K));
      }
    Out.push_back(std::move(D));
  }
  return Out;
}

std::vector<Module::UndiffedMiss>
Module::cacheMissesNotDiffed(const CompileRecord &R,
                             ArrayRef<CacheMissDiff> Diffs) const {
  std::vector<UndiffedMiss> Out;
  for (const CacheLookup &Miss : R.Caches) {
    if (Miss.Result != CacheLookup::Miss ||
        llvm::any_of(Diffs,
                     [&](const CacheMissDiff &D) { return D.Miss == &Miss; }))
      continue;
    UndiffedMiss U{&Miss, Miss.Components.empty()
                              ? UndiffedMiss::NoComponents
                              : UndiffedMiss::NoEarlierLookup};
    if (U.Reason == UndiffedMiss::NoEarlierLookup) {
      StringRef Kind = lookupKind(Miss, KeyComponents);
      U.AfterOtherKind = llvm::any_of(R.Caches, [&](const CacheLookup &C) {
        return C.Cache == Miss.Cache && C.Subgraph == Miss.Subgraph &&
               C.Line < Miss.Line && !C.Components.empty() &&
               lookupKind(C, KeyComponents) != Kind;
      });
    }
    Out.push_back(U);
  }
  return Out;
}

std::string Module::UndiffedMiss::why() const {
  if (Reason == NoComponents)
    return "PyTorch logged no key components for this lookup: nothing to "
           "compare";
  return "no earlier lookup of this cache with key components for this "
         "frame" +
         std::string(Miss && !Miss->Subgraph.empty() ? " and region" : "") +
         (AfterOtherKind ? " and kind of graph (this compile's earlier "
                           "lookup is for another: a forward's is not "
                           "compared with a backward's)"
                         : "") +
         ": nothing to compare (a cold cache or a new graph)";
}

} // namespace tlp
