//===- RankRuntime.cpp - What ran on each rank, and where ranks differ ----===//
//
// docs/IR.md, "Ranks at run time".
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/RankRuntime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdio>
#include <set>

using namespace llvm;

namespace tlp {

StringRef divergenceKindName(RankDivergence::DivergenceKind K) {
  switch (K) {
  case RankDivergence::Missing:
    return "missing";
  case RankDivergence::Schedule:
    return "collective_schedule";
  case RankDivergence::TensorMeta:
    return "tensor_meta";
  case RankDivergence::Execution:
    return "execution_order";
  case RankDivergence::Cache:
    return "cache";
  case RankDivergence::ScheduleVsCode:
    return "schedule_vs_code";
  }
  return "?";
}

std::vector<std::string> scheduleOf(const CompileRecord &R) {
  std::vector<std::string> L;
  for (const RuntimeRecord &S : R.Schedules)
    L.insert(L.end(), S.Names.begin(), S.Names.end());
  return L;
}

EstimateTotal estimateOf(const CompileRecord &R) {
  EstimateTotal T;
  for (const RuntimeRecord &S : R.Runtimes)
    for (const RuntimeOp &Op : S.Ops) {
      ++T.Ops;
      T.Ns += Op.EstimatedNs;
    }
  return T;
}

std::string estimateText(double Ns) {
  char Buf[64];
  if (Ns < 1e3)
    snprintf(Buf, sizeof(Buf), "%.0f ns", Ns);
  else if (Ns < 1e6)
    snprintf(Buf, sizeof(Buf), "%.1f us", Ns / 1e3);
  else if (Ns < 1e9)
    snprintf(Buf, sizeof(Buf), "%.3f ms", Ns / 1e6);
  else
    snprintf(Buf, sizeof(Buf), "%.2f s", Ns / 1e9);
  return Buf;
}

std::string shortKernelName(StringRef Name) {
  // torch.ops.NAMESPACE.OP.OVERLOAD: OP, with the overload unless default.
  SmallVector<StringRef, 6> Parts;
  Name.split(Parts, '.');
  if (Parts.size() < 4 || Parts[0] != "torch" || Parts[1] != "ops")
    return Name.str();
  std::string Op = Parts[3].str();
  if (Parts.size() >= 5 && Parts[4] != "default")
    Op += "." + Parts[4].str();
  return Op;
}

/// The output code, in a ScheduleVsCode divergence's At.
static constexpr int64_t CodeRank = -2;

std::vector<std::pair<std::string, std::vector<int64_t>>>
groupRanksByValue(const std::map<int64_t, std::string> &At) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> Groups;
  auto Add = [&](int64_t Rank, const std::string &V) {
    auto It = llvm::find_if(Groups, [&](const auto &G) { return G.first == V; });
    if (It == Groups.end())
      Groups.push_back({V, {Rank}});
    else
      It->second.push_back(Rank);
  };
  // The ranks in order, the output code (against a schedule) last.
  for (const auto &[Rank, V] : At)
    if (Rank != CodeRank)
      Add(Rank, V);
  auto Code = At.find(CodeRank);
  if (Code != At.end())
    Add(CodeRank, Code->second);
  return Groups;
}

std::string rankListText(const std::vector<int64_t> &Ranks) {
  if (Ranks.size() == 1 && Ranks[0] == CodeRank)
    return "the output code";
  if (Ranks.size() == 1 && Ranks[0] < 0)
    return "the process";
  std::string Out = Ranks.size() == 1 ? "rank " : "ranks ";
  for (size_t I = 0; I < Ranks.size(); ++I)
    Out += (I ? ", " : "") +
           (Ranks[I] == CodeRank ? std::string("the output code")
            : Ranks[I] < 0       ? std::string("-")
                                 : std::to_string(Ranks[I]));
  return Out;
}

StringRef divergenceTitle(RankDivergence::DivergenceKind K) {
  switch (K) {
  case RankDivergence::Missing:
    return "compiled on";
  case RankDivergence::Schedule:
    return "collective schedule";
  case RankDivergence::TensorMeta:
    return "tensor metadata";
  case RankDivergence::Execution:
    return "execution order";
  case RankDivergence::Cache:
    return "cache results";
  case RankDivergence::ScheduleVsCode:
    return "schedule against the output code";
  }
  return "?";
}

std::string divergencePlace(const RankDivergence &D) {
  std::string N = std::to_string(D.Index + 1);
  switch (D.Kind) {
  case RankDivergence::Schedule:
    return D.Compile + ", collective " + N;
  case RankDivergence::TensorMeta:
    return D.Compile + ", op " + N;
  case RankDivergence::Execution:
    return "run " + N;
  case RankDivergence::ScheduleVsCode:
    return D.Compile + ", collective " + N;
  case RankDivergence::Missing:
  case RankDivergence::Cache:
    return D.Compile;
  }
  return D.Compile;
}

/// "ranks 0, 2: x; rank 1: y": the ranks grouped by what they have.
static std::string groupRanks(const std::map<int64_t, std::string> &At) {
  std::string Out;
  for (const auto &G : groupRanksByValue(At)) {
    if (!Out.empty())
      Out += "; ";
    Out += rankListText(G.second) + ": " + G.first;
  }
  return Out;
}

/// The first position where the ranks' lists differ, with what each has
/// there; false if they agree (same length, same items).
static bool firstDifference(
    const std::map<int64_t, std::vector<std::string>> &Lists, size_t &Index,
    std::map<int64_t, std::string> &At) {
  size_t Longest = 0;
  for (const auto &KV : Lists)
    Longest = std::max(Longest, KV.second.size());
  for (size_t I = 0; I < Longest; ++I) {
    std::set<std::string> Seen;
    for (const auto &KV : Lists)
      Seen.insert(I < KV.second.size() ? KV.second[I] : std::string("-"));
    if (Seen.size() < 2)
      continue;
    Index = I;
    for (const auto &KV : Lists)
      At[KV.first] = I < KV.second.size() ? KV.second[I] : std::string("-");
    return true;
  }
  return false;
}

RankRuntime compareRankRuntime(const Module &M, const CodeCollectives *Code) {
  RankRuntime Out;
  std::set<int64_t> Ranks;
  // Compiles by name, each with its record on each rank.
  std::map<std::string, RankCompileRow> ByName;
  std::vector<std::string> Order;
  for (size_t I = 0; I < M.Compiles.size(); ++I) {
    const CompileRecord &R = M.Compiles[I];
    // A log without ranks (one process) is rank -1.
    int64_t Rank = R.Rank.getValueOr(-1);
    Ranks.insert(Rank);
    for (const RuntimeRecord &E : R.Executions)
      for (const std::string &Id : E.Names)
        Out.Executions[Rank].push_back(Id);
    if (!R.Id)
      continue;
    std::string Name = R.idName();
    auto Ins = ByName.try_emplace(Name);
    if (Ins.second) {
      Ins.first->second.Compile = Name;
      Order.push_back(Name);
    }
    Ins.first->second.ByRank.emplace(Rank, I);
  }
  Out.Ranks.assign(Ranks.begin(), Ranks.end());
  auto HasRuntime = [&](const RankCompileRow &Row) {
    return llvm::any_of(Row.ByRank, [&](const auto &KV) {
      const CompileRecord &R = M.Compiles[KV.second];
      return !R.Schedules.empty() || !R.Runtimes.empty();
    });
  };
  // Rows in compile id order (Module::Compiles is sorted by rank first).
  std::vector<std::string> Sorted = Order;
  llvm::stable_sort(Sorted, [&](const std::string &A, const std::string &B) {
    const CompileRecord &RA = M.Compiles[ByName[A].ByRank.begin()->second];
    const CompileRecord &RB = M.Compiles[ByName[B].ByRank.begin()->second];
    return std::make_tuple(RA.Id->CompiledAutogradId.getValueOr(-1),
                           RA.Id->FrameId.getValueOr(-1),
                           RA.Id->FrameCompileId.getValueOr(-1), RA.Ordinal,
                           RA.Id->Attempt) <
           std::make_tuple(RB.Id->CompiledAutogradId.getValueOr(-1),
                           RB.Id->FrameId.getValueOr(-1),
                           RB.Id->FrameCompileId.getValueOr(-1), RB.Ordinal,
                           RB.Id->Attempt);
  });
  bool Several = Out.Ranks.size() > 1;
  for (const std::string &Name : Sorted) {
    const RankCompileRow &Row = ByName[Name];
    bool Runtime = HasRuntime(Row);
    if (Runtime)
      Out.Rows.push_back(Row);
    // On each rank, the schedule against the output code's calls. "At"
    // holds the schedule's entry as rank R and the code's as rank -2
    // ("the output code").
    if (Code)
      for (const auto &[Rank, I] : Row.ByRank) {
        const CompileRecord &R = M.Compiles[I];
        auto It = Code->find(I);
        if (R.Schedules.empty() || It == Code->end())
          continue;
        std::map<int64_t, std::vector<std::string>> Lists;
        for (const std::string &N : scheduleOf(R))
          Lists[Rank].push_back(shortKernelName(N));
        for (const std::string &N : It->second)
          Lists[CodeRank].push_back(shortKernelName(N));
        RankDivergence D;
        if (!firstDifference(Lists, D.Index, D.At))
          continue;
        D.Kind = RankDivergence::ScheduleVsCode;
        D.Compile = Name;
        std::string Who = Rank < 0 ? std::string("the schedule")
                                   : "rank " + std::to_string(Rank) +
                                         "'s schedule";
        D.Text = Name + ": collective " + std::to_string(D.Index + 1) + ": " +
                 Who + " has " + D.At[Rank] + ", its output code " +
                 D.At[CodeRank];
        Out.Divergences.push_back(std::move(D));
      }
    if (!Several)
      continue;
    if (Runtime && Row.ByRank.size() < Out.Ranks.size()) {
      RankDivergence D;
      D.Kind = RankDivergence::Missing;
      D.Compile = Name;
      for (int64_t R : Out.Ranks)
        D.At[R] = Row.ByRank.count(R) ? "compiled" : "-";
      D.Text = Name + ": not compiled on every rank: " + groupRanks(D.At);
      Out.Divergences.push_back(std::move(D));
    }
    if (Row.ByRank.size() < 2)
      continue;
    auto Compare = [&](RankDivergence::DivergenceKind K, const char *What,
                       auto Items) {
      std::map<int64_t, std::vector<std::string>> Lists;
      for (const auto &[Rank, I] : Row.ByRank)
        Lists[Rank] = Items(M.Compiles[I]);
      RankDivergence D;
      if (!firstDifference(Lists, D.Index, D.At))
        return;
      D.Kind = K;
      D.Compile = Name;
      D.Text = Name + ": " + What + " " + std::to_string(D.Index + 1) +
               " differs: " + groupRanks(D.At);
      Out.Divergences.push_back(std::move(D));
    };
    if (Runtime) {
      Compare(RankDivergence::Schedule, "collective",
              [](const CompileRecord &R) {
                std::vector<std::string> L = scheduleOf(R);
                for (std::string &N : L)
                  N = shortKernelName(N);
                return L;
              });
      Compare(RankDivergence::TensorMeta, "op",
              [](const CompileRecord &R) {
                std::vector<std::string> L;
                for (const RuntimeRecord &S : R.Runtimes)
                  for (const RuntimeOp &Op : S.Ops)
                    L.push_back(shortKernelName(Op.Name) + " -> " +
                                Op.Outputs);
                return L;
              });
    }
    // The cache: the same compile should hit or miss alike on every rank.
    std::map<int64_t, std::string> Cache;
    std::set<std::string> Kinds;
    for (const auto &[Rank, I] : Row.ByRank) {
      Cache[Rank] = M.Compiles[I].cacheSummary();
      Kinds.insert(Cache[Rank]);
    }
    if (Kinds.size() > 1) {
      RankDivergence D;
      D.Kind = RankDivergence::Cache;
      D.Compile = Name;
      D.At = Cache;
      D.Text = Name + ": cache results differ: " + groupRanks(D.At);
      Out.Divergences.push_back(std::move(D));
    }
  }
  if (Several && Out.Executions.size() > 1) {
    std::map<int64_t, std::vector<std::string>> Lists(Out.Executions.begin(),
                                                      Out.Executions.end());
    RankDivergence D;
    if (firstDifference(Lists, D.Index, D.At)) {
      D.Kind = RankDivergence::Execution;
      D.Text = "graph execution order: run " + std::to_string(D.Index + 1) +
               " differs: " + groupRanks(D.At);
      Out.Divergences.push_back(std::move(D));
    }
  }
  return Out;
}

} // namespace tlp
