//===- JSONEmitter.cpp - Machine-readable JSON ----------------------------===//
//
// Schema: docs/json.md. The document is written unit by unit, so memory
// holds one unit's JSON at a time; keys keep a fixed order.
//
//===----------------------------------------------------------------------===//

#include "EmitSupport.h"

#include "tlp/Analysis/CompilePhases.h"
#include "tlp/Analysis/Configs.h"
#include "tlp/Analysis/Export.h"
#include "tlp/Analysis/GraphBreaks.h"
#include "tlp/Analysis/Guards.h"
#include "tlp/Analysis/Profile.h"
#include "tlp/Analysis/Query.h"
#include "tlp/Analysis/RankRuntime.h"
#include "tlp/Analysis/UnitDigest.h"
#include "tlp/Analysis/UnitView.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/Emit/UnitJSON.h"
#include "tlp/IR/Provenance.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Parallel.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <map>
#include <set>

using namespace llvm;
using ojson = nlohmann::ordered_json;

namespace tlp {

const char *const JSONSchemaVersion = "tlp-json/3";

namespace {

std::string dump(const ojson &J, bool Pretty, unsigned Indent) {
  std::string S = J.dump(Pretty ? 2 : -1, ' ', /*ensure_ascii=*/false,
                         ojson::error_handler_t::replace);
  if (!Pretty || !Indent)
    return S;
  std::string Pad(Indent, ' ');
  std::string Out;
  Out.reserve(S.size() + S.size() / 8);
  for (char C : S) {
    Out += C;
    if (C == '\n')
      Out += Pad;
  }
  return Out;
}

ojson optInt(const Optional<int64_t> &V) {
  return V ? ojson(*V) : ojson(nullptr);
}

/// A string the log may not give: null when empty.
ojson optStr(const std::string &S) {
  return S.empty() ? ojson(nullptr) : ojson(S);
}

ojson optDouble(const Optional<double> &V) {
  return V ? ojson(*V) : ojson(nullptr);
}

/// Where the time went (docs/json.md, phases).
ojson phasesJSON(const CompilePhases &C) {
  if (!C.any())
    return nullptr;
  auto Part = [](const CompilePart &P) -> ojson {
    if (!P.logged())
      return nullptr;
    ojson O = ojson::object();
    O["total_s"] = *P.Total;
    O["total_origin"] = P.TotalOrigin;
    for (unsigned I = 0; I < NumPhases; ++I) {
      Phase Ph = static_cast<Phase>(I);
      ojson T = ojson::object();
      T["s"] = optDouble(P[Ph].Seconds);
      T["origin"] = P[Ph].Origin;
      O[phaseKey(Ph).str()] = std::move(T);
    }
    return O;
  };
  ojson J = ojson::object();
  J["total_s"] = optDouble(C.total());
  ojson Together = ojson::object();
  for (unsigned I = 0; I < NumPhases; ++I) {
    Phase Ph = static_cast<Phase>(I);
    Together[phaseKey(Ph).str()] = optDouble(C.together(Ph));
  }
  J["together"] = std::move(Together);
  J["forward"] = Part(C.Forward);
  J["backward"] = Part(C.Backward);
  J["runtime_autotune_s"] = optDouble(C.RuntimeAutotune);
  return J;
}

/// A compilation_metrics value: the JSON it was, or its text.
ojson metricJSON(StringRef Text) {
  ojson V = ojson::parse(Text.begin(), Text.end(), nullptr,
                         /*allow_exceptions=*/false);
  return V.is_discarded() ? ojson(Text.str()) : V;
}

ojson shapeJSON(const ShapeEvent &E) {
  ojson O = ojson::object();
  O["kind"] = shapeKindName(E.Kind).str();
  O["line"] = E.Line;
  O["symbol"] = optStr(E.Sym);
  O["source"] = optStr(E.Source);
  O["value"] = optStr(E.Value);
  O["range"] = optStr(E.Range);
  O["expr"] = optStr(E.Expr);
  O["user_frame"] = E.UserFrame ? sourceJSON(*E.UserFrame) : ojson(nullptr);
  return O;
}

/// What ran on each rank and where the ranks first differ
/// (tlp/Analysis/RankRuntime.h); null when no rank logged any of it.
ojson rankRuntimeJSON(const Module &M, const CodeCollectives *Code) {
  RankRuntime RT = compareRankRuntime(M, Code);
  if (RT.empty())
    return nullptr;
  ojson O = ojson::object();
  O["ranks"] = RT.Ranks;
  ojson Rows = ojson::array();
  for (const RankCompileRow &Row : RT.Rows) {
    ojson Per = ojson::object();
    for (const auto &[Rank, I] : Row.ByRank) {
      const CompileRecord &R = M.Compiles[I];
      ojson Ops = ojson::array();
      for (const RuntimeRecord &S : R.Runtimes)
        for (const RuntimeOp &Op : S.Ops)
          Ops.push_back(ojson::object({{"name", Op.Name},
                                       {"type", Op.Type},
                                       {"estimated_ns", Op.EstimatedNs},
                                       {"outputs", Op.Outputs}}));
      Per[std::to_string(Rank)] = ojson::object(
          {{"collective_schedule", scheduleOf(R)},
           {"ops", std::move(Ops)},
           {"estimated_ns", estimateOf(R).Ns}});
    }
    Rows.push_back(ojson::object({{"compile", Row.Compile},
                                  {"ranks", std::move(Per)}}));
  }
  O["compiles"] = std::move(Rows);
  ojson Exec = ojson::object();
  for (const auto &[Rank, L] : RT.Executions)
    Exec[std::to_string(Rank)] = L;
  O["executions"] = std::move(Exec);
  ojson Div = ojson::array();
  for (const RankDivergence &D : RT.Divergences) {
    ojson At = ojson::object();
    for (const auto &[Rank, V] : D.At)
      At[std::to_string(Rank)] = V;
    Div.push_back(ojson::object(
        {{"kind", divergenceKindName(D.Kind).str()},
         {"compile", D.Compile.empty() ? ojson(nullptr) : ojson(D.Compile)},
         {"index", D.Index},
         {"ranks", std::move(At)},
         {"text", D.Text}}));
  }
  O["divergences"] = std::move(Div);
  return O;
}

/// What each torch.export log says (tlp/Analysis/Export.h).
ojson exportsJSON(const Module &M) {
  ojson A = ojson::array();
  for (const ExportReport &X : exportReports(M)) {
    const CompileRecord &R = M.Compiles[X.Record];
    ojson O = ojson::object();
    O["log"] = R.Log;
    O["rank"] = optInt(R.Rank);
    O["verdict"] = X.verdict();
    O["starts"] = X.Starts;
    ojson P = ojson::array();
    for (const ExportEvent *E : X.Programs)
      P.push_back(ojson::object({{"line", E->Line}, {"lines", E->Lines}}));
    O["programs"] = std::move(P);
    ojson F = ojson::array();
    for (const ExportEvent *E : X.FakeKernels)
      F.push_back(ojson::object({{"kind", exportKindName(E->Kind).str()},
                                 {"op", optStr(E->Op)},
                                 {"reason", optStr(E->Reason)},
                                 {"line", E->Line}}));
    O["fake_kernels"] = std::move(F);
    auto List = [&](const std::vector<const ShapeEvent *> &L) {
      ojson Out = ojson::array();
      for (const ShapeEvent *S : L)
        Out.push_back(shapeJSON(*S));
      return Out;
    };
    O["data_dependent"] = List(X.DataDependent);
    O["guards"] = List(X.Guards);
    O["symbols"] = List(X.Symbols);
    A.push_back(std::move(O));
  }
  return A;
}

/// The events tlp does not interpret (shown raw by the pages and the
/// dump): where each is, not its text.
ojson rawEventsJSON(const std::vector<RawEvent> &Raw, const CompileRecord *R) {
  ojson A = ojson::array();
  for (const RawEvent &E : Raw) {
    ojson O = ojson::object();
    O["name"] = E.Name;
    O["log"] = E.Log;
    O["line"] = E.Line;
    O["rank"] = optInt(R ? R->Rank : E.Rank);
    O["compile_id"] = R && R->Id ? ojson(R->Id->str()) : ojson(nullptr);
    O["encoding"] = optStr(E.Encoding);
    O["payload_lines"] = E.PayloadLines;
    A.push_back(std::move(O));
  }
  return A;
}

ojson compileJSON(const Module &M, const CompileRecord &R,
                  const std::vector<std::string> &Units,
                  ConfigComparer &Configs_) {
  ojson J = ojson::object();
  J["id"] = R.slug();
  J["name"] = R.displayName();
  J["log"] = M.logName(R.Log);
  J["rank"] = optInt(R.Rank);
  J["compile_id"] = R.Id ? ojson(R.Id->str()) : ojson(nullptr);
  J["ordinal"] = R.Ordinal ? ojson(R.Ordinal) : ojson(nullptr);
  J["line"] = R.Line;
  J["status"] = compileStatusName(R.Status).str();
  if (R.Status == CompileStatus::Failure) {
    ojson F = ojson::object();
    F["type"] = R.FailType;
    F["reason"] = R.FailReason;
    F["summary"] = R.failSummary();
    F["frame"] = R.FailFrame ? sourceJSON(*R.FailFrame) : ojson(nullptr);
    F["user_frame"] =
        R.FailUserFrame ? sourceJSON(*R.FailUserFrame) : ojson(nullptr);
    F["traceback"] =
        R.FailTraceback.empty() ? ojson(nullptr) : ojson(R.FailTraceback);
    J["failure"] = std::move(F);
  } else {
    J["failure"] = nullptr;
  }
  J["time_s"] = optDouble(R.compileSeconds());
  J["backward_time_s"] = optDouble(R.backwardSeconds());
  J["total_time_s"] = optDouble(R.totalSeconds());
  J["phases"] = phasesJSON(CompilePhases::compute(R));
  J["frame"] = R.frame() ? sourceJSON(*R.frame()) : ojson(nullptr);
  ojson Stack = ojson::array();
  for (const SourceLoc &F : R.Stack)
    Stack.push_back(sourceJSON(F));
  J["stack"] = std::move(Stack);
  ojson Breaks = ojson::array();
  for (const BreakReason &B : R.Breaks) {
    ojson O = ojson::object();
    O["reason"] = B.Reason;
    O["summary"] = B.summary();
    O["kind"] = B.kindName().str();
    O["restart_class"] =
        B.restartClass().empty() ? ojson(nullptr) : ojson(B.restartClass());
    O["source"] = B.Where ? sourceJSON(*B.Where) : ojson(nullptr);
    O["user_source"] = B.UserFrame ? sourceJSON(*B.UserFrame) : ojson(nullptr);
    O["traceback"] = B.Traceback.empty() ? ojson(nullptr) : ojson(B.Traceback);
    O["count"] = B.Count;
    Breaks.push_back(std::move(O));
  }
  J["breaks"] = std::move(Breaks);
  J["recompile_reasons"] = R.RecompileReasons;
  J["guard_count"] =
      R.GuardCount ? ojson(*R.GuardCount) : ojson(nullptr);
  J["guards"] = R.Guards;
  // The guard that failed, for each recompile reason, and the guards
  // against those of the compile whose guard failed (tlp/Analysis/Guards.h).
  RecompileGuards G = recompileGuards(M, R);
  ojson Failed = ojson::array();
  for (const FailedGuard &F : G.Failed) {
    ojson O = ojson::object();
    O["reason"] = F.Reason;
    O["named"] = F.Named.empty() ? ojson(nullptr) : ojson(F.Named);
    O["compile"] = F.Guarded ? ojson(F.Guarded->slug()) : ojson(nullptr);
    bool Found = F.Check.Line != 0;
    O["line"] = Found ? ojson(F.Check.Line) : ojson(nullptr);
    O["check"] = Found ? ojson((F.Check.Kind + ": " + F.Check.Expr).str())
                       : ojson(nullptr);
    O["source"] = Found && !F.Check.Source.empty()
                      ? ojson(F.Check.Source.str())
                      : ojson(nullptr);
    O["made_at"] = Found && !F.Check.Comment.empty()
                       ? ojson(F.Check.Comment.str())
                       : ojson(nullptr);
    O["how"] = Found ? ojson(F.How) : ojson(nullptr);
    Failed.push_back(std::move(O));
  }
  J["failed_guards"] = std::move(Failed);
  if (G.Against) {
    ojson D = ojson::object();
    D["against"] = G.Against->slug();
    D["diff"] = G.Diff.empty() ? ojson(nullptr) : ojson(G.Diff);
    J["guards_diff"] = std::move(D);
  } else {
    J["guards_diff"] = nullptr;
  }
  ojson Metrics = ojson::object();
  for (const auto &KV : R.Metrics)
    Metrics[KV.first.str()] = metricJSON(KV.second);
  J["metrics"] = std::move(Metrics);
  // The configuration dumps (indices into config_texts) and what changed
  // since the previous compile with configuration (docs/json.md).
  ojson Configs = ojson::object();
  for (const auto &C : R.Configs)
    Configs[C.first] = C.second;
  J["configs"] = std::move(Configs);
  J["config_changes"] = nullptr;
  if (&R >= M.Compiles.data() && &R < M.Compiles.data() + M.Compiles.size()) {
    const CompileRecord *Prev = nullptr;
    std::vector<ConfigChange> Changes =
        Configs_.changesFromPrevious(&R - M.Compiles.data(), Prev);
    if (Prev) {
      ojson O = ojson::object();
      O["against"] = Prev->slug();
      ojson Ch = ojson::array();
      for (const ConfigChange &C : Changes) {
        ojson X = ojson::object();
        X["config"] = C.Config;
        X["key"] = C.Key.empty() ? ojson(nullptr) : ojson(C.Key);
        X["before"] = C.Before.empty() ? ojson(nullptr) : ojson(C.Before);
        X["after"] = C.After.empty() ? ojson(nullptr) : ojson(C.After);
        Ch.push_back(std::move(X));
      }
      O["changes"] = std::move(Ch);
      J["config_changes"] = std::move(O);
    }
  }
  for (auto Table : {std::make_pair("bwd_metrics", &R.BwdMetrics),
                     std::make_pair("runtime_metrics", &R.RuntimeMetrics),
                     std::make_pair("bwd_runtime_metrics",
                                    &R.BwdRuntimeMetrics)}) {
    ojson O = ojson::object();
    for (const auto &KV : *Table.second)
      O[KV.first.str()] = metricJSON(KV.second);
    J[Table.first] = std::move(O);
  }
  ojson Caches = ojson::array();
  for (const CacheLookup &C : R.Caches) {
    ojson O = ojson::object();
    O["cache"] = cacheKindName(C.Cache).str();
    O["result"] = cacheResultName(C.Result).str();
    O["line"] = C.Line;
    O["subgraph"] = C.Subgraph.empty() ? ojson(nullptr) : ojson(C.Subgraph);
    O["key"] = C.Key.empty() ? ojson(nullptr) : ojson(C.Key);
    O["reason"] = C.Reason.empty() ? ojson(nullptr) : ojson(C.Reason);
    O["time_saved_ms"] = optDouble(C.TimeSavedMs);
    O["components"] = C.Components;
    Caches.push_back(std::move(O));
  }
  J["caches"] = std::move(Caches);
  ojson Diffs = ojson::array();
  for (const Module::CacheMissDiff &D : M.cacheMissDiffs(R)) {
    ojson O = ojson::object();
    O["cache"] = cacheKindName(D.Miss->Cache).str();
    O["against"] = D.Against->slug();
    O["against_line"] = D.Before->Line;
    O["components"] = D.Miss->Components.size();
    ojson Ch = ojson::array();
    for (const Module::KeyChange &K : D.Changes) {
      ojson C = ojson::object();
      C["name"] = K.Name;
      C["before"] = K.Before.empty() ? ojson(nullptr) : ojson(K.Before);
      C["after"] = K.After.empty() ? ojson(nullptr) : ojson(K.After);
      // Where the values differ: the line, and for values of several
      // lines the first lines that differ (a changed `gm`).
      std::string Diff;
      unsigned Line = 0;
      if (!K.Before.empty() && !K.After.empty()) {
        Line = firstDifferingLine(K.Before, K.After);
        Diff = keyValueDiff(K.Before, K.After);
      }
      C["line"] = Line ? ojson(Line) : ojson(nullptr);
      C["diff"] = Diff.empty() ? ojson(nullptr) : ojson(Diff);
      Ch.push_back(std::move(C));
    }
    O["changed"] = std::move(Ch);
    Diffs.push_back(std::move(O));
  }
  J["cache_miss_diffs"] = std::move(Diffs);
  ojson Spans = ojson::array();
  for (const Span &S : R.Spans) {
    ojson O = ojson::object();
    O["name"] = S.Name.str();
    O["cat"] = S.Category.str();
    O["ph"] = std::string(1, S.Phase);
    O["start_us"] = S.Start;
    O["dur_us"] = S.Duration;
    O["tid"] = S.Tid;
    O["line"] = S.Line;
    Spans.push_back(std::move(O));
  }
  J["spans"] = std::move(Spans);
  ojson Shapes = ojson::array();
  for (const ShapeEvent &E : R.Shapes)
    Shapes.push_back(shapeJSON(E));
  J["shapes"] = std::move(Shapes);
  J["artifacts"] = rawEventsJSON(R.Raw, &R);
  J["units"] = Units;
  J["no_output"] = Units.empty() ? ojson(R.noOutputReason()) : ojson(nullptr);
  // A restarted attempt's units: the graph it logged before the restart.
  J["discarded"] = !Units.empty() && R.Status == CompileStatus::Restart
                       ? ojson(R.restartText())
                       : ojson(nullptr);
  return J;
}

/// The ranks compared (docs/json.md): null with fewer than two ranks.
ojson ranksJSON(const RankComparison &RC) {
  if (RC.Rows.empty())
    return ojson(nullptr);
  ojson J = ojson::object();
  J["ranks"] = RC.Ranks;
  J["agree"] = RC.divergentRows() == 0;
  ojson Rows = ojson::array();
  for (const RankRow &Row : RC.Rows) {
    ojson R = ojson::object();
    R["compile_id"] = Row.CompileId;
    R["graph"] = Row.Graph;
    R["reference"] = Row.ReferenceId;
    R["agree"] = Row.agrees();
    ojson Cells = ojson::array();
    for (const RankCell &C : Row.Cells) {
      ojson X = ojson::object();
      X["rank"] = C.Rank;
      X["id"] = C.UnitId.empty() ? ojson(nullptr) : ojson(C.UnitId);
      X["graph"] = C.SameGraph;
      X["kernels"] = C.SameKernels;
      X["collectives"] = C.SameCollectives;
      X["difference"] =
          C.Difference.empty() ? ojson(nullptr) : ojson(C.Difference);
      Cells.push_back(std::move(X));
    }
    R["units"] = std::move(Cells);
    Rows.push_back(std::move(R));
  }
  J["compiles"] = std::move(Rows);
  if (RC.FirstRow) {
    const RankRow &Row = RC.Rows[*RC.FirstRow];
    const RankCell &C = Row.Cells[*RC.FirstCell];
    ojson F = ojson::object();
    F["compile_id"] = Row.CompileId;
    F["graph"] = Row.Graph;
    F["rank"] = C.Rank;
    F["id"] = C.UnitId.empty() ? ojson(nullptr) : ojson(C.UnitId);
    F["reference"] = Row.ReferenceId;
    F["difference"] = C.Difference;
    J["first_divergent"] = std::move(F);
  } else {
    J["first_divergent"] = nullptr;
  }
  return J;
}

ojson diagnosticJSON(const Diagnostic &D) {
  ojson J = ojson::object();
  J["severity"] = severityName(D.Sev).str();
  J["file"] = D.File.empty() ? ojson(nullptr) : ojson(D.File);
  J["line"] = D.Line ? ojson(D.Line) : ojson(nullptr);
  J["message"] = D.Message;
  return J;
}

} // namespace

namespace {

/// tlp-emit --profile: the measured time joined onto the units
/// (tlp/Analysis/Profile.h; docs/json.md, "Profile"). Times in integer
/// nanoseconds, shared times fractional.
ojson profileJSON(const ProfileTrace &T, const ProfileReport &R,
                  ArrayRef<ProfileUnit> Units) {
  ojson O = ojson::object();
  O["trace"] = T.Path;
  O["rule"] = "a kernel's time is split evenly among the post-grad nodes, "
              "the pre-grad nodes and the user lines it is linked to";
  ojson Ev = ojson::object();
  Ev["timed"] = R.Events;
  Ev["kernel_calls"] = R.Matched;
  Ev["in_kernel_calls"] = R.Nested;
  Ev["regions_and_graph_calls"] = R.Structural;
  Ev["unmatched"] = R.UnmatchedCount;
  Ev["untimed"] = R.Untimed;
  Ev["damaged"] = R.Damaged;
  Ev["graph_calls_without_unit"] = R.UnknownGraphCalls;
  Ev["graph_calls_by_key"] = R.GraphCallsByKey;
  O["events"] = std::move(Ev);
  ojson Ks = ojson::array();
  for (const ProfileReport::KernelTime &K : R.Kernels) {
    const ProfileUnit &U = Units[K.Unit];
    const ProfileUnit::Row &Row = U.Rows[K.Row];
    ojson J = ojson::object();
    J["unit"] = U.Id;
    J["kernel"] = Row.Key;
    J["kind"] = kernelKindName(Row.Kind).str();
    J["event"] = profileNameOfKernel(Row);
    J["count"] = K.Count;
    J["total_ns"] = K.Total;
    J["self_ns"] = K.Self;
    J["mean_ns"] = K.Count ? double(K.Total) / K.Count : 0.0;
    J["share"] = K.Share ? ojson(*K.Share) : ojson(nullptr);
    Ks.push_back(std::move(J));
  }
  O["kernels"] = std::move(Ks);
  auto Shared = [&](const std::vector<ProfileReport::SharedTime> &V,
                    const char *NameKey, bool WithUnit) {
    ojson A = ojson::array();
    for (const ProfileReport::SharedTime &S : V) {
      ojson J = ojson::object();
      if (WithUnit)
        J["unit"] = Units[S.Unit].Id;
      J[NameKey] = S.Name;
      J["time_ns"] = S.Time;
      J["kernels"] = S.Kernels;
      A.push_back(std::move(J));
    }
    return A;
  };
  O["post_nodes"] = Shared(R.PostNodes, "node", true);
  O["pre_nodes"] = Shared(R.PreNodes, "node", true);
  O["lines"] = Shared(R.Lines, "line", false);
  ojson Cs = ojson::array();
  for (const ProfileReport::CompileTime &C : R.Compiles) {
    ojson J = ojson::object();
    J["compile_id"] = C.CompileId.empty() ? ojson(nullptr) : ojson(C.CompileId);
    J["regions"] = C.Regions;
    J["graph_calls"] = C.GraphCalls;
    J["region_ns"] = C.RegionTime;
    J["graph_call_ns"] = C.GraphCallTime;
    J["kernel_ns"] = C.KernelTime;
    // The graph calls by the FX graph cache key they name, and the unit
    // the key is of (docs/profile.md, "The unit of a graph call").
    ojson Keys = ojson::array();
    for (const auto &K : C.ByKey) {
      ojson KJ = ojson::object();
      KJ["key"] = K.Key;
      KJ["unit"] = K.Unit ? ojson(Units[*K.Unit].Id) : ojson(nullptr);
      KJ["calls"] = K.Calls;
      KJ["time_ns"] = K.Time;
      Keys.push_back(std::move(KJ));
    }
    J["graph_calls_by_key"] = std::move(Keys);
    Cs.push_back(std::move(J));
  }
  O["compiles"] = std::move(Cs);
  ojson Un = ojson::array();
  for (const ProfileReport::Unmatched &E : R.UnmatchedEvents) {
    ojson J = ojson::object();
    J["name"] = E.Name;
    J["where"] = E.Where;
    J["count"] = E.Count;
    J["self_ns"] = E.Self;
    Un.push_back(std::move(J));
  }
  O["unmatched"] = std::move(Un);
  return O;
}

/// Writes the top-level object by hand and each unit as one nlohmann DOM,
/// so memory holds one unit's JSON at a time.
class JSONEmitter : public Emitter {
public:
  using Emitter::Emitter;

  Error begin(const Module &M) override {
    if (!emit::readProfile(Opts, Diags, Profile))
      return createStringError(inconvertibleErrorCode(),
                               "the profile could not be read");
    Stream = &out();
    raw_ostream &OS = *Stream;
    OS << '{' << nl();
    key("schema");
    OS << '"' << JSONSchemaVersion << "\"," << nl();
    key("producer");
    OS << "\"tlp " << TLP_VERSION_STRING << "\"," << nl();
    ojson Logs = ojson::array();
    for (uint32_t I = 0; I < M.Logs.size(); ++I) {
      ojson L = ojson::object();
      L["path"] = M.logName(I);
      L["rank"] = optInt(M.Logs[I].Rank);
      L["event_rank"] = optInt(M.Logs[I].EventRank);
      L["torch_version"] = optStr(M.Logs[I].TorchVersion);
      L["torch_commit"] = optStr(M.Logs[I].TorchCommit);
      // A file of a depyf dump, not a log (docs/inputs.md).
      L["dump_file"] = M.Logs[I].DumpFile;
      L["pid"] = optInt(M.Logs[I].Pid);
      L["debug_folder"] = M.Logs[I].DebugFolder;
      Logs.push_back(std::move(L));
    }
    key("logs");
    OS << dump(Logs, Opts.Pretty, 2) << ',' << nl();
    key("units");
    OS << '[';
    return Error::success();
  }

  Error unit(const Module &M, const CompileUnit &U) override {
    return preparedUnit(M, U, prepareUnit(M, U));
  }

  std::unique_ptr<PreparedUnit>
  prepareUnit(const Module &M, const CompileUnit &U) const override {
    return std::make_unique<PreparedText>(
        dump(unitJSON(UnitView(M, U)), Opts.Pretty, 4));
  }

  EmitterTraits traits() const override {
    EmitterTraits T;
    T.NeedsDigests = true;
    T.NeedsProfile = !Opts.Profile.empty();
    return T;
  }

  Error preparedUnit(const Module &M, const CompileUnit &U,
                     std::unique_ptr<PreparedUnit> Prepared) override {
    std::string &Text = static_cast<PreparedText &>(*Prepared).Text;
    const std::string &Id = facts().current().Id;
    if (Id != U.Key.slug()) { // a rare clash of slugs: the unique id
      ojson J = unitJSON(UnitView(M, U));
      J["id"] = Id;
      Text = dump(J, Opts.Pretty, 4);
    }
    raw_ostream &OS = *Stream;
    OS << (Units++ ? "," : "") << nl() << (Opts.Pretty ? "    " : "");
    OS << Text;
    return Error::success();
  }

  Error end(const Module &M) override {
    raw_ostream &OS = *Stream;
    if (Units)
      OS << nl() << ind();
    OS << "]," << nl();
    key("compiles");
    OS << '[';
    // The records are rendered on the workers, a batch at a time (each
    // worker with its own ConfigComparer, whose cache is not shared), and
    // written in order: the end of the run is not one thread's work.
    unsigned Threads = resolveThreadCount(Opts.Threads);
    std::vector<std::unique_ptr<ConfigComparer>> Configs;
    for (unsigned T = 0; T < Threads; ++T)
      Configs.push_back(std::make_unique<ConfigComparer>(M));
    const size_t Batch = 64 * Threads;
    std::vector<std::string> Texts;
    for (size_t First = 0; First < M.Compiles.size(); First += Batch) {
      size_t N = std::min(Batch, M.Compiles.size() - First);
      Texts.assign(N, std::string());
      size_t Per = (N + Threads - 1) / Threads;
      parallelFor(Threads, Threads, [&](size_t T) {
        for (size_t K = T * Per; K < std::min(N, (T + 1) * Per); ++K) {
          size_t I = First + K;
          std::vector<std::string> Ids;
          auto It = facts().UnitsOfRecord.find(I);
          if (It != facts().UnitsOfRecord.end())
            for (size_t U : It->second)
              Ids.push_back(facts().Units[U].Id);
          Texts[K] = dump(compileJSON(M, M.Compiles[I], Ids, *Configs[T]),
                          Opts.Pretty, 4);
        }
      });
      for (size_t K = 0; K < N; ++K)
        OS << (First + K ? "," : "") << nl() << (Opts.Pretty ? "    " : "")
           << Texts[K];
    }
    if (!M.Compiles.empty())
      OS << nl() << ind();
    OS << "]," << nl();
    // Each distinct graph break once, over all ranks (docs/json.md).
    ojson Breaks = ojson::array();
    for (const DistinctBreak &D : distinctBreaks(M)) {
      const BreakReason &B = *D.First;
      ojson O = ojson::object();
      O["summary"] = B.label();
      O["kind"] = B.kindName().str();
      O["source"] = B.Where ? sourceJSON(*B.Where) : ojson(nullptr);
      O["user_source"] = B.UserFrame ? sourceJSON(*B.UserFrame) : ojson(nullptr);
      O["reason"] = B.Reason;
      ojson Ids = ojson::array();
      for (size_t I : D.Records)
        Ids.push_back(M.Compiles[I].slug());
      O["compiles"] = std::move(Ids);
      O["frames"] = D.Frames;
      O["ranks"] = D.Ranks;
      O["count"] = D.Hits;
      Breaks.push_back(std::move(O));
    }
    key("graph_breaks");
    OS << dump(Breaks, Opts.Pretty, 2) << ',' << nl();
    key("rank_runtime");
    OS << dump(rankRuntimeJSON(M, &facts().Collectives), Opts.Pretty, 2)
       << ',' << nl();
    key("exports");
    OS << dump(exportsJSON(M), Opts.Pretty, 2) << ',' << nl();
    key("artifacts");
    OS << dump(rawEventsJSON(M.Raw, nullptr), Opts.Pretty, 2) << ',' << nl();
    if (Profile) {
      key("profile");
      OS << dump(profileJSON(*Profile,
                             attributeProfile(*Profile, facts().ProfileUnits),
                             facts().ProfileUnits),
                 Opts.Pretty, 2)
         << ',' << nl();
    }
    key("key_components");
    OS << dump(ojson(M.KeyComponents), Opts.Pretty, 2) << ',' << nl();
    key("config_texts");
    OS << dump(ojson(M.ConfigTexts), Opts.Pretty, 2) << ',' << nl();
    key("ranks");
    OS << dump(ranksJSON(compareRanks(facts().Digests, &M)), Opts.Pretty, 2) << ','
       << nl();
    ojson Stats = ojson::object();
    Stats["lines"] = M.Stats.Lines;
    Stats["events"] = M.Stats.Events;
    Stats["payloads"] = M.Stats.Payloads;
    Stats["md5_mismatches"] = M.Stats.Md5Mismatches;
    Stats["malformed_lines"] = M.Stats.MalformedLines;
    ojson Unknown = ojson::object();
    for (auto &KV : M.Stats.UnknownKinds)
      Unknown[KV.first] = KV.second;
    Stats["unknown_kinds"] = std::move(Unknown);
    Stats["ungrouped_artifacts"] = M.Artifacts.size();
    key("stats");
    OS << dump(Stats, Opts.Pretty, 2) << ',' << nl();
    ojson Diag = ojson::array();
    for (const Diagnostic &D : M.Diagnostics)
      Diag.push_back(diagnosticJSON(D));
    key("diagnostics");
    OS << dump(Diag, Opts.Pretty, 2) << nl() << '}' << '\n';
    return Error::success();
  }

private:
  raw_ostream *Stream = nullptr;
  size_t Units = 0;
  Optional<ProfileTrace> Profile;
  /// Unit ids by compile record index.
  /// The units with a rank, for the ranks compared.

  const char *nl() const { return Opts.Pretty ? "\n" : ""; }
  const char *ind() const { return Opts.Pretty ? "  " : ""; }
  void key(StringRef K) {
    *Stream << ind() << '"' << K << '"' << (Opts.Pretty ? ": " : ":");
  }
};

/// `tlp-emit --json --node NAME` / `--source FILE:LINE`: the answer of
/// the query engine (tlp/Analysis/Query.h) in each unit, as data: what the
/// Markdown answer says, in names a program can look up in the full JSON
/// (unit ids, node names, kernel keys). docs/json.md, "Answers".
class JSONAnswerEmitter : public Emitter {
public:
  using Emitter::Emitter;

  EmitterTraits traits() const override {
    EmitterTraits T;
    T.Select = &Opts.Unit;
    return T;
  }

  Error begin(const Module &) override {
    Query = Opts.Query;
    return Error::success();
  }

  Error unit(const Module &M, const CompileUnit &U) override {
    if (!facts().current().Selected)
      return Error::success();
    ++Selected;
    UnitView V(M, U);
    Optional<QueryAnswer> A = V.answer(*Query);
    if (!A)
      return Error::success();
    const UnitProvenance &P = V.provenance();
    auto PreName = [&](uint32_t I) {
      return U.PreGrad->Nodes[I].qualifiedName();
    };
    auto PostName = [&](uint32_t I) { return U.PostGrad->Nodes[I].Name; };
    auto KernelKey = [&](uint32_t I) { return U.Kernels[I].key(); };
    auto Names = [](auto &&Idx, auto Name) {
      ojson Out = ojson::array();
      for (uint32_t I : Idx)
        Out.push_back(Name(I));
      return Out;
    };
    ojson J = ojson::object();
    J["unit"] = facts().current().Id;
    J["name"] = U.Key.displayName();
    if (Query->isNode()) {
      J["how"] = nameMatchKindName(A->How).str();
      // The pre-grad nodes the name stands for, each with where it went.
      ojson Pre = ojson::array();
      std::set<uint32_t> Post(A->Post), Kernels(A->Kernels);
      for (uint32_t I : A->Hits) {
        const std::vector<uint32_t> &To = P.postOfPre(I);
        const std::vector<uint32_t> &Rows = P.kernelsOfPre(I);
        Post.insert(To.begin(), To.end());
        Kernels.insert(Rows.begin(), Rows.end());
        ojson N = ojson::object();
        N["node"] = PreName(I);
        N["post_nodes"] = Names(To, PostName);
        N["kernels"] = Names(Rows, KernelKey);
        // "linked"; "vanished" only where the provenance data says so; else
        // "unknown" (no mapping, or a backward's view of the forward).
        N["fate"] = !To.empty() || !Rows.empty() ? "linked"
                    : unlinkedPreVanished(U)     ? "vanished"
                                                 : "unknown";
        Pre.push_back(std::move(N));
      }
      J["pre_nodes"] = std::move(Pre);
      J["post_nodes"] = Names(Post, PostName);
      J["kernels"] = Names(Kernels, KernelKey);
      ojson Src = ojson::array();
      for (uint32_t L : A->Lines)
        Src.push_back(sourceJSON(U.Sources[L]));
      J["sources"] = std::move(Src);
    } else {
      J["how"] = "source line";
      ojson Pre = ojson::array();
      for (uint32_t I : A->Pre) {
        ojson N = ojson::object();
        N["node"] = PreName(I);
        Pre.push_back(std::move(N));
      }
      J["pre_nodes"] = std::move(Pre);
      std::vector<uint32_t> PostSorted(A->Post.begin(), A->Post.end());
      llvm::stable_sort(PostSorted, [&](uint32_t X, uint32_t Y) {
        return U.PostGrad->Nodes[X].Line < U.PostGrad->Nodes[Y].Line;
      });
      J["post_nodes"] = Names(PostSorted, PostName);
      J["kernels"] = Names(A->Kernels, KernelKey);
      // The line's entries (one per call its stack traces underline), each
      // with its kernels.
      ojson Src = ojson::array();
      for (uint32_t H : A->Hits) {
        ojson S = sourceJSON(U.Sources[H]);
        S["kernels"] = Names(P.kernelsOfSource(H), KernelKey);
        Src.push_back(std::move(S));
      }
      J["sources"] = std::move(Src);
    }
    Answers.push_back(std::move(J));
    return Error::success();
  }

  Error end(const Module &) override {
    if (Answers.empty())
      return Query->notFound();
    ojson J = ojson::object();
    J["schema"] = JSONSchemaVersion;
    J["producer"] = "tlp " TLP_VERSION_STRING;
    ojson Q = ojson::object();
    Q["kind"] = Query->isNode() ? "node" : "source";
    Q["text"] = Query->text().str();
    J["query"] = std::move(Q);
    J["units_read"] = Selected;
    J["answers"] = std::move(Answers);
    out() << dump(J, Opts.Pretty, 0) << '\n';
    return Error::success();
  }

private:
  Optional<ProvenanceQuery> Query;
  size_t Selected = 0;
  ojson Answers = ojson::array();
};

} // namespace

std::unique_ptr<Emitter> createJSONEmitter(const EmitOptions &Opts,
                                           DiagnosticEngine &Diags) {
  if (Opts.Query)
    return std::make_unique<JSONAnswerEmitter>(Opts, Diags);
  return std::make_unique<JSONEmitter>(Opts, Diags);
}

} // namespace tlp
