//===- Profile.cpp - Measured time joined onto the units ------------------===//
//
// docs/profile.md: how events nest, how a graph call finds its unit, which
// event is which kernel row, and how a kernel's time is shared.
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/Profile.h"
#include "tlp/IR/Provenance.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <cstdio>
#include <map>

using namespace llvm;

namespace tlp {

ProfileUnit profileUnit(const Module &M, const CompileUnit &U, StringRef Id,
                        StringRef Name) {
  ProfileUnit P;
  P.Id = Id.str();
  P.Name = Name.str();
  if (U.Key.Id)
    P.CompileId = U.Key.Id->str();
  P.Graph = U.Key.Graph;
  P.Subgraph = U.Key.Subgraph;
  if (const CompileRecord *R = M.findCompile(U)) {
    P.Record = static_cast<size_t>(R - M.Compiles.data());
    std::vector<const CacheLookup *> Lookups;
    for (const CacheLookup &C : R->Caches)
      if (C.Cache == CacheLookup::FXGraph && C.Subgraph == U.Key.Subgraph)
        Lookups.push_back(&C);
    llvm::stable_sort(Lookups, [](const CacheLookup *A, const CacheLookup *B) {
      return A->Line < B->Line;
    });
    for (const CacheLookup *C : Lookups)
      P.CompileKeys.push_back(C->Key);
  }
  UnitProvenance Prov(U);
  const GraphArtifact *Pre = U.graphFor(Endpoint::PreNode);
  const GraphArtifact *Post = U.graphFor(Endpoint::PostNode);
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    ProfileUnit::Row Row;
    Row.Key = K.key();
    Row.Name = K.Name;
    Row.Kind = K.Kind;
    Row.CallLines = K.CallLines;
    for (uint32_t N : Prov.postOfKernel(R))
      if (Post && N < Post->Nodes.size()) {
        Row.Post.push_back(Post->Nodes[N].Name);
        Row.PostIdx.push_back(N);
      }
    for (uint32_t N : Prov.preOfKernel(R))
      if (Pre && N < Pre->Nodes.size()) {
        Row.Pre.push_back(Pre->Nodes[N].Name);
        Row.PreIdx.push_back(N);
      }
    for (uint32_t S : Prov.sourcesOfKernel(R)) {
      if (S >= U.Sources.size())
        continue;
      std::string L =
          U.Sources[S].File + ":" + std::to_string(U.Sources[S].Line);
      if (!is_contained(Row.Lines, L))
        Row.Lines.push_back(std::move(L));
    }
    P.Rows.push_back(std::move(Row));
  }
  return P;
}

std::string profileNameOfKernel(const ProfileUnit::Row &R) {
  StringRef N = R.Name;
  if (R.Kind == KernelKind::Extern || R.Kind == KernelKind::Fallback) {
    N.consume_front("extern_kernels.");
    N.consume_front("torch.ops.");
    N.consume_front("aten.");
    return "aten::" + N.split('.').first.str();
  }
  return R.Name;
}

StringRef graphCallKey(StringRef EventName) {
  StringRef S = EventName;
  if (!S.consume_front("## Call CompiledFxGraph"))
    return "";
  S = S.trim();
  S.consume_back("##");
  S = S.trim();
  if (S == "None" || S.find_first_of(" \t") != StringRef::npos)
    return "";
  return S;
}

std::string formatMicros(double Nanos) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.3f", Nanos / 1000.0);
  return Buf;
}

namespace {

const char RegionPrefix[] = "Torch-Compiled Region: ";
const char GraphCallPrefix[] = "## Call CompiledFxGraph";

/// The kernel an event names: `graph_N_NAME` (a C++ kernel profiled with
/// cpp.enable_kernel_profile; N is Inductor's graph counter) is NAME;
/// any other name is itself.
StringRef kernelOfEvent(StringRef Name) {
  StringRef S = Name;
  if (!S.consume_front("graph_"))
    return Name;
  StringRef Digits = S.take_while([](char C) { return C >= '0' && C <= '9'; });
  S = S.drop_front(Digits.size());
  if (Digits.empty() || !S.consume_front("_") || S.empty())
    return Name;
  return S;
}

/// A unit's call sites by the name their events have: for each name, the
/// (call line, row) pairs in line order; rows without call lines last.
using CallSites = StringMap<std::vector<std::pair<uint32_t, uint32_t>>>;

CallSites callSites(const ProfileUnit &U) {
  CallSites S;
  for (uint32_t R = 0; R < U.Rows.size(); ++R) {
    auto &V = S[profileNameOfKernel(U.Rows[R])];
    if (U.Rows[R].CallLines.empty())
      V.push_back({UINT32_MAX, R});
    for (uint32_t L : U.Rows[R].CallLines)
      V.push_back({L, R});
  }
  for (auto &E : S)
    llvm::stable_sort(E.second);
  return S;
}

enum class EventRole { Other, Region, GraphCall, Kernel };

} // namespace

ProfileReport attributeProfile(const ProfileTrace &T,
                               ArrayRef<ProfileUnit> Units) {
  ProfileReport Rep;
  const std::vector<ProfileEvent> &Ev = T.Events;
  size_t N = Ev.size();
  Rep.Events = N;
  Rep.Untimed = T.Untimed;
  Rep.Damaged = T.Damaged;

  // 1. Nesting, per track: an event is inside the latest earlier event of
  //    its track that spans it.
  std::vector<std::vector<uint32_t>> ByTrack(T.Tracks.size());
  for (uint32_t I = 0; I < N; ++I)
    ByTrack[Ev[I].Track].push_back(I);
  std::vector<int64_t> Parent(N, -1), Self(N, 0);
  std::vector<uint32_t> Order;
  Order.reserve(N);
  for (std::vector<uint32_t> &L : ByTrack) {
    llvm::stable_sort(L, [&](uint32_t A, uint32_t B) {
      if (Ev[A].Start != Ev[B].Start)
        return Ev[A].Start < Ev[B].Start;
      return Ev[A].Duration > Ev[B].Duration;
    });
    std::vector<uint32_t> Stack;
    for (uint32_t I : L) {
      int64_t End = Ev[I].Start + Ev[I].Duration;
      while (!Stack.empty() &&
             Ev[Stack.back()].Start + Ev[Stack.back()].Duration < End)
        Stack.pop_back();
      if (!Stack.empty()) {
        Parent[I] = Stack.back();
        Self[Stack.back()] -= Ev[I].Duration;
      }
      Self[I] += Ev[I].Duration;
      Stack.push_back(I);
      Order.push_back(I); // parents before their children
    }
  }

  // 2. Roles and compile ids of regions and graph calls.
  std::vector<EventRole> Role(N, EventRole::Other);
  std::vector<std::string> CompileOfName(T.Names.size());
  std::vector<EventRole> RoleOfName(T.Names.size(), EventRole::Other);
  for (size_t I = 0; I < T.Names.size(); ++I) {
    StringRef Name = T.Names[I];
    if (Name.startswith(RegionPrefix)) {
      RoleOfName[I] = EventRole::Region;
      CompileOfName[I] = Name.drop_front(sizeof(RegionPrefix) - 1).trim().str();
    } else if (Name.startswith(GraphCallPrefix)) {
      RoleOfName[I] = EventRole::GraphCall;
    }
  }
  // The region and graph call each event is in (-1: none).
  std::vector<int64_t> RegionOf(N, -1), CallOf(N, -1);
  std::vector<std::vector<uint32_t>> CallChildren;
  std::vector<uint32_t> Calls;
  std::vector<int64_t> CallIndex(N, -1);
  for (uint32_t I : Order) {
    Role[I] = RoleOfName[Ev[I].Name];
    if (Parent[I] >= 0) {
      uint32_t P = Parent[I];
      RegionOf[I] = Role[P] == EventRole::Region ? int64_t(P) : RegionOf[P];
      CallOf[I] = Role[P] == EventRole::GraphCall ? int64_t(P) : CallOf[P];
      if (Role[P] == EventRole::GraphCall)
        CallChildren[CallIndex[P]].push_back(I);
    }
    if (Role[I] == EventRole::GraphCall) {
      CallIndex[I] = Calls.size();
      Calls.push_back(I);
      CallChildren.emplace_back();
    }
  }

  // Per compile, in order of the trace's first mention.
  std::map<std::string, size_t> CompileIdx;
  auto CompileFor = [&](const std::string &Id) -> ProfileReport::CompileTime & {
    auto It = CompileIdx.find(Id);
    if (It == CompileIdx.end()) {
      It = CompileIdx.emplace(Id, Rep.Compiles.size()).first;
      Rep.Compiles.emplace_back();
      Rep.Compiles.back().CompileId = Id;
    }
    return Rep.Compiles[It->second];
  };
  for (uint32_t I = 0; I < N; ++I) {
    if (Role[I] == EventRole::Region) {
      auto &C = CompileFor(CompileOfName[Ev[I].Name]);
      ++C.Regions;
      C.RegionTime += Ev[I].Duration;
    }
  }

  // 3. Each graph call: its unit, and which of its direct children are
  //    which kernel rows (the k-th event of a name is the k-th call site
  //    of that name in the unit's code).
  std::vector<Optional<CallSites>> Sites(Units.size());
  auto SitesOf = [&](uint32_t U) -> const CallSites & {
    if (!Sites[U])
      Sites[U] = callSites(Units[U]);
    return *Sites[U];
  };
  // The FX graph cache key of each unit: the i-th lookup of a compile
  // (record) and subgraph is its i-th unit's, in module order (the
  // forward's, then the backward's), when there are as many as units.
  Rep.UnitKeys.assign(Units.size(), std::string());
  std::map<std::pair<size_t, std::string>, std::vector<uint32_t>> Groups;
  for (uint32_t U = 0; U < Units.size(); ++U)
    if (Units[U].Record)
      Groups[{*Units[U].Record, Units[U].Subgraph}].push_back(U);
  for (const auto &G : Groups) {
    const std::vector<std::string> &Keys = Units[G.second.front()].CompileKeys;
    if (Keys.size() != G.second.size())
      continue;
    for (size_t I = 0; I < Keys.size(); ++I)
      Rep.UnitKeys[G.second[I]] = Keys[I];
  }
  StringMap<std::vector<uint32_t>> UnitsOfKey;
  for (uint32_t U = 0; U < Units.size(); ++U)
    if (!Rep.UnitKeys[U].empty())
      UnitsOfKey[Rep.UnitKeys[U]].push_back(U);

  std::vector<int64_t> RowOf(N, -1), UnitOf(N, -1);
  std::map<std::pair<uint32_t, uint32_t>, size_t> KernelIdx;
  // Call events in trace order, for a deterministic first mention.
  std::vector<uint32_t> CallsByTrace(Calls);
  llvm::sort(CallsByTrace);
  std::vector<std::string> CompileOfCall(N);
  for (uint32_t G : CallsByTrace) {
    const std::vector<uint32_t> &Kids = CallChildren[CallIndex[G]];
    std::string Compile =
        RegionOf[G] >= 0 ? CompileOfName[Ev[RegionOf[G]].Name] : "";
    CompileOfCall[G] = Compile;
    auto &C = CompileFor(Compile);
    ++C.GraphCalls;
    C.GraphCallTime += Ev[G].Duration;
    // Candidate units: those of the compile; outside a region (a
    // backward runs outside the forward's region), the backward units,
    // else all.
    std::vector<uint32_t> Cand;
    for (uint32_t U = 0; U < Units.size(); ++U)
      if (!Compile.empty() ? Units[U].CompileId == Compile
                           : Units[U].Graph == GraphKind::Backward)
        Cand.push_back(U);
    // A restarted compile's units carry the attempt ("1/0_1"); the
    // region may name the compile without it.
    if (!Compile.empty() && Cand.empty())
      for (uint32_t U = 0; U < Units.size(); ++U)
        if (StringRef(Units[U].CompileId).split('_').first ==
            StringRef(Compile).split('_').first)
          Cand.push_back(U);
    if (Compile.empty() && Cand.empty())
      for (uint32_t U = 0; U < Units.size(); ++U)
        Cand.push_back(U);
    // A call that names its FX graph cache key ("## Call CompiledFxGraph
    // KEY ##") is the call of the unit with that key: among the
    // candidates if some of them have it, else among all units; several
    // (the same graph compiled in two logs): scored among those.
    int64_t Best = -1;
    ProfileReport::CompileTime::KeyCalls *ByKey = nullptr;
    StringRef Key = graphCallKey(T.Names[Ev[G].Name]);
    if (!Key.empty()) {
      auto KC = llvm::find_if(
          C.ByKey, [&](const ProfileReport::CompileTime::KeyCalls &X) {
            return X.Key == Key;
          });
      if (KC == C.ByKey.end()) {
        C.ByKey.emplace_back();
        C.ByKey.back().Key = Key.str();
        KC = C.ByKey.end() - 1;
      }
      ++KC->Calls;
      KC->Time += Ev[G].Duration;
      auto It = UnitsOfKey.find(Key);
      if (It != UnitsOfKey.end()) {
        std::vector<uint32_t> Named;
        for (uint32_t U : It->second)
          if (is_contained(Cand, U))
            Named.push_back(U);
        if (Named.empty())
          Named = It->second;
        if (Named.size() == 1) {
          Best = Named.front();
          ByKey = &*KC;
          ByKey->Unit = Named.front();
          ++Rep.GraphCallsByKey;
        } else {
          Cand = std::move(Named);
        }
      }
    }
    size_t BestScore = 0;
    for (uint32_t U : ByKey ? std::vector<uint32_t>() : Cand) {
      const CallSites &S = SitesOf(U);
      size_t Score = 0;
      for (uint32_t K : Kids)
        Score += S.count(kernelOfEvent(T.Names[Ev[K].Name]));
      if (Score > BestScore)
        Best = U, BestScore = Score;
    }
    if (Best < 0) {
      if (!Kids.empty())
        ++Rep.UnknownGraphCalls;
      continue;
    }
    const CallSites &S = SitesOf(Best);
    StringMap<size_t> Seen;
    for (uint32_t K : Kids) {
      StringRef Key = kernelOfEvent(T.Names[Ev[K].Name]);
      auto It = S.find(Key);
      if (It == S.end())
        continue;
      size_t Nth = Seen[Key]++;
      if (Nth >= It->second.size())
        continue; // more calls than the code has: unmatched
      uint32_t Row = It->second[Nth].second;
      Role[K] = EventRole::Kernel;
      RowOf[K] = Row;
      UnitOf[K] = Best;
      auto KI = KernelIdx.find({uint32_t(Best), Row});
      if (KI == KernelIdx.end()) {
        KI = KernelIdx.emplace(std::make_pair(uint32_t(Best), Row),
                               Rep.Kernels.size())
                 .first;
        Rep.Kernels.emplace_back();
        Rep.Kernels.back().Unit = Best;
        Rep.Kernels.back().Row = Row;
        Rep.Kernels.back().Region = Compile;
      }
      ProfileReport::KernelTime &KT = Rep.Kernels[KI->second];
      ++KT.Count;
      KT.Total += Ev[K].Duration;
      KT.Self += Self[K];
      C.KernelTime += Ev[K].Duration;
    }
  }

  // 4. Every event: a region or graph call, a kernel's call, inside one,
  //    or unmatched (listed by name and where it was).
  std::vector<char> InKernel(N, 0);
  std::map<std::pair<std::string, std::string>, ProfileReport::Unmatched>
      Unmatched;
  for (uint32_t I : Order) {
    if (Parent[I] >= 0)
      InKernel[I] = InKernel[Parent[I]] || Role[Parent[I]] == EventRole::Kernel;
    if (InKernel[I]) {
      ++Rep.Nested;
      continue;
    }
    switch (Role[I]) {
    case EventRole::Region:
    case EventRole::GraphCall:
      ++Rep.Structural;
      continue;
    case EventRole::Kernel:
      ++Rep.Matched;
      continue;
    case EventRole::Other:
      break;
    }
    ++Rep.UnmatchedCount;
    std::string Where = CallOf[I] >= 0     ? "graph call"
                        : RegionOf[I] >= 0 ? "region"
                                           : "outside";
    auto &U = Unmatched[{T.Names[Ev[I].Name], Where}];
    U.Name = T.Names[Ev[I].Name];
    U.Where = Where;
    ++U.Count;
    U.Self += Self[I];
  }
  for (auto &E : Unmatched)
    Rep.UnmatchedEvents.push_back(std::move(E.second));
  llvm::stable_sort(Rep.UnmatchedEvents, [](const auto &A, const auto &B) {
    return A.Self > B.Self;
  });

  // 5. Shares of the regions' time, and the kernels' time shared among
  //    their nodes and lines (evenly; docs/profile.md).
  for (ProfileReport::KernelTime &K : Rep.Kernels) {
    const std::string &Id = K.Region;
    auto It = CompileIdx.find(Id);
    if (!Id.empty() && It != CompileIdx.end() &&
        Rep.Compiles[It->second].RegionTime > 0)
      K.Share = double(K.Total) / Rep.Compiles[It->second].RegionTime;
  }
  std::map<std::pair<uint32_t, std::string>, ProfileReport::SharedTime> Post,
      Pre;
  std::map<std::string, ProfileReport::SharedTime> Lines;
  auto Share = [](ProfileReport::SharedTime &S, uint32_t Unit,
                  const std::string &Name, double Time) {
    S.Unit = Unit;
    S.Name = Name;
    S.Time += Time;
    ++S.Kernels;
  };
  for (const ProfileReport::KernelTime &K : Rep.Kernels) {
    const ProfileUnit::Row &R = Units[K.Unit].Rows[K.Row];
    for (const std::string &P : R.Post)
      Share(Post[{K.Unit, P}], K.Unit, P, double(K.Total) / R.Post.size());
    for (const std::string &P : R.Pre)
      Share(Pre[{K.Unit, P}], K.Unit, P, double(K.Total) / R.Pre.size());
    for (const std::string &L : R.Lines)
      Share(Lines[L], 0, L, double(K.Total) / R.Lines.size());
  }
  auto ByTime = [](const ProfileReport::SharedTime &A,
                   const ProfileReport::SharedTime &B) {
    return A.Time > B.Time;
  };
  for (auto &E : Post)
    Rep.PostNodes.push_back(std::move(E.second));
  for (auto &E : Pre)
    Rep.PreNodes.push_back(std::move(E.second));
  for (auto &E : Lines)
    Rep.Lines.push_back(std::move(E.second));
  llvm::stable_sort(Rep.PostNodes, ByTime);
  llvm::stable_sort(Rep.PreNodes, ByTime);
  llvm::stable_sort(Rep.Lines, ByTime);
  llvm::stable_sort(Rep.Kernels, [](const auto &A, const auto &B) {
    return A.Total > B.Total;
  });
  return Rep;
}

std::vector<UnitTimes> unitTimes(const ProfileReport &R,
                                 ArrayRef<ProfileUnit> Units) {
  std::vector<UnitTimes> Out(Units.size());
  std::vector<std::map<uint32_t, UnitTimes::Shared>> Post(Units.size()),
      Pre(Units.size());
  std::vector<std::map<std::string, UnitTimes::Shared>> Lines(Units.size());
  auto Add = [](UnitTimes::Shared &S, double Time) {
    S.Time += Time;
    ++S.Kernels;
  };
  for (uint32_t I = 0; I < R.Kernels.size(); ++I) {
    const ProfileReport::KernelTime &K = R.Kernels[I];
    const ProfileUnit::Row &Row = Units[K.Unit].Rows[K.Row];
    Out[K.Unit].Kernels.push_back({K.Row, I});
    for (uint32_t N : Row.PostIdx)
      Add(Post[K.Unit][N], double(K.Total) / Row.PostIdx.size());
    for (uint32_t N : Row.PreIdx)
      Add(Pre[K.Unit][N], double(K.Total) / Row.PreIdx.size());
    for (const std::string &L : Row.Lines)
      Add(Lines[K.Unit][L], double(K.Total) / Row.Lines.size());
  }
  for (size_t U = 0; U < Units.size(); ++U) {
    llvm::sort(Out[U].Kernels);
    for (auto &E : Post[U]) {
      E.second.Node = E.first;
      Out[U].Post.push_back(E.second);
    }
    for (auto &E : Pre[U]) {
      E.second.Node = E.first;
      Out[U].Pre.push_back(E.second);
    }
    for (auto &E : Lines[U]) {
      E.second.Line = E.first;
      Out[U].Lines.push_back(E.second);
    }
  }
  return Out;
}

} // namespace tlp
