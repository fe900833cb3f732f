//===- RankRuntime.h - What ran on each rank, and where ranks differ -*- C++ -*-===//
//
// Part of tlp. A distributed job hangs or slows when its ranks stop doing
// the same thing: one rank schedules a collective the others do not, one
// compiled a graph for other shapes, one runs its graphs in another order,
// one missed the cache the others hit. Inductor logs what it scheduled
// (inductor_collective_schedule), what it estimated (
// inductor_runtime_and_tensor_meta) and, on request, the order the graphs
// ran (graph_execution); the compile records hold them per rank. This
// compares them across ranks and finds, for each, the first point where
// the ranks differ. See docs/IR.md, "Ranks at run time".
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_RANKRUNTIME_H
#define TLP_ANALYSIS_RANKRUNTIME_H

#include "tlp/IR/Module.h"

#include <map>
#include <string>
#include <vector>

namespace tlp {

/// The collective calls of each compile record's output code, in call
/// order, by record (index into Module::Compiles).
using CodeCollectives = std::map<size_t, std::vector<std::string>>;

/// One compile (by its name, "0/0", "0/0 #2") on each rank that has it.
struct RankCompileRow {
  std::string Compile;
  /// Rank -> its record (index into Module::Compiles).
  std::map<int64_t, size_t> ByRank;
};

/// Where ranks first differ in one respect.
struct RankDivergence {
  enum DivergenceKind {
    Missing,
    Schedule,
    TensorMeta,
    Execution,
    Cache,
    /// On one rank: the schedule Inductor logged is not the order of the
    /// collective calls in the output code it wrote.
    ScheduleVsCode
  };
  DivergenceKind Kind = Missing;
  /// The compile ("0/0"); empty for the execution order.
  std::string Compile;
  /// 0-based position of the first difference (collective, op, graph run).
  size_t Index = 0;
  /// What each rank has there ("-": nothing, its list ended), by rank.
  std::map<int64_t, std::string> At;
  /// One line for people: "0/0: collective 2 of the schedule: rank 0
  /// wait_tensor, rank 1 all_reduce_".
  std::string Text;
};
llvm::StringRef divergenceKindName(RankDivergence::DivergenceKind K);

struct RankRuntime {
  /// The ranks with records, ascending.
  std::vector<int64_t> Ranks;
  /// The compiles with schedules, estimates or executions on any rank,
  /// in compile id order.
  std::vector<RankCompileRow> Rows;
  /// Each rank's graph execution order (its records' graph_execution
  /// lists, in log order).
  std::map<int64_t, std::vector<std::string>> Executions;
  /// The first point of each divergence, in the order of Rows (a missing
  /// compile, its schedule, its tensor metadata, its cache results), then
  /// the execution order.
  std::vector<RankDivergence> Divergences;
  bool empty() const { return Rows.empty() && Executions.empty(); }
};

/// The runtime records of \p M's ranks, compared. The records of a log
/// without ranks (one process) are rank -1; with one rank there is nothing
/// to compare, but the rows are still made.
/// \p Code, if given: the output code's collective calls of each record,
/// each compared with the record's schedule (ScheduleVsCode).
RankRuntime compareRankRuntime(const Module &M,
                               const CodeCollectives *Code = nullptr);

/// The ranks of \p At grouped by what they have, in order of first rank:
/// [("wait_tensor", {0, 2}), ("all_reduce_", {1})].
std::vector<std::pair<std::string, std::vector<int64_t>>>
groupRanksByValue(const std::map<int64_t, std::string> &At);
/// "ranks 0, 2" / "rank 1".
std::string rankListText(const std::vector<int64_t> &Ranks);
/// What a divergence is about, for people: "collective schedule", "tensor
/// metadata", "execution order", "cache results", "compiled on".
llvm::StringRef divergenceTitle(RankDivergence::DivergenceKind K);
/// Where, for people: "0/0, collective 2", "run 3", "0/0".
std::string divergencePlace(const RankDivergence &D);

/// A record's collective schedules, joined (full kernel names, in log
/// order).
std::vector<std::string> scheduleOf(const CompileRecord &R);
/// A record's estimated ops: how many, and their estimates summed (ns).
struct EstimateTotal {
  size_t Ops = 0;
  double Ns = 0;
};
EstimateTotal estimateOf(const CompileRecord &R);

/// An estimated time for people: "250 ns", "21.5 us", "3.200 ms", "1.25 s".
std::string estimateText(double Ns);

/// "all_reduce_" for "torch.ops._c10d_functional.all_reduce_.default".
std::string shortKernelName(llvm::StringRef Name);

} // namespace tlp

#endif // TLP_ANALYSIS_RANKRUNTIME_H
