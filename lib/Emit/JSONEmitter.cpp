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

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdint>
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
  J["backward_in_forward"] = C.BackwardInForward;
  J["runtime_autotune_s"] = optDouble(C.RuntimeAutotune);
  return J;
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

void optSource(JSONWriter &W, const SourceLoc *S) {
  if (S)
    sourceJSON(W, *S);
  else
    W.null();
}

/// A compilation_metrics value: the JSON it was (as nlohmann writes it
/// again), or its text. The common forms that nlohmann would write back
/// unchanged (a small integer, a literal, a string without escapes) are
/// written without parsing.
void metricJSON(JSONWriter &W, StringRef Text) {
  auto IsPlainInt = [](StringRef T) {
    StringRef D = T.startswith("-") ? T.drop_front() : T;
    return !D.empty() && D.size() <= 18 && (D == "0" || D[0] != '0') &&
           llvm::all_of(D, [](char C) { return C >= '0' && C <= '9'; }) &&
           T != "-0";
  };
  auto IsPlainString = [](StringRef T) {
    return T.size() >= 2 && T.front() == '"' && T.back() == '"' &&
           llvm::all_of(T.drop_front().drop_back(), [](char C) {
             return C >= 0x20 && C < 0x7f && C != '"' && C != '\\';
           });
  };
  if (IsPlainInt(Text) || Text == "true" || Text == "false" ||
      Text == "null" || IsPlainString(Text))
    return W.rawValue(Text);
  ojson V = ojson::parse(Text.begin(), Text.end(), nullptr,
                         /*allow_exceptions=*/false);
  if (V.is_discarded())
    W.value(Text);
  else
    writeJSON(W, V);
}

/// A table of metrics as an object. A name logged twice keeps its first
/// place and its last value (as the DOM's operator[] did).
void metricsJSON(JSONWriter &W, const MetricList &T) {
  StringMap<size_t> Last;
  for (size_t I = 0; I < T.size(); ++I)
    Last[T[I].first] = I;
  W.object([&] {
    for (size_t I = 0; I < T.size(); ++I) {
      size_t &L = Last[T[I].first];
      if (L == SIZE_MAX)
        continue; // written already
      W.key(T[I].first);
      metricJSON(W, T[L].second);
      L = SIZE_MAX;
    }
  });
}

void shapeJSON(JSONWriter &W, const ShapeEvent &E) {
  writeJSON(W, shapeJSON(E));
}

/// The events tlp does not interpret (shown raw by the pages and the
/// dump): where each is, not its text.
void rawEventsJSON(JSONWriter &W, const std::vector<RawEvent> &Raw,
                   const CompileRecord *R) {
  W.arrayBegin();
  for (const RawEvent &E : Raw)
    W.object([&] {
      W.attribute("name", E.Name);
      W.attribute("log", E.Log);
      W.attribute("line", E.Line);
      W.key("rank");
      W.value(R ? R->Rank : E.Rank);
      W.key("compile_id");
      if (R && R->Id)
        W.value(R->Id->str());
      else
        W.null();
      W.attributeOrNull("encoding", E.Encoding);
      W.attribute("payload_lines", E.PayloadLines);
    });
  W.arrayEnd();
}

void compileJSON(JSONWriter &W, const Module &M, const CompileRecord &R,
                 const std::vector<std::string> &Units,
                 ConfigComparer &Configs_) {
  W.objectBegin();
  W.attribute("id", R.slug());
  W.attribute("name", R.displayName());
  W.attribute("log", M.logName(R.Log));
  W.attribute("rank", R.Rank);
  W.key("compile_id");
  if (R.Id)
    W.value(R.Id->str());
  else
    W.null();
  W.key("ordinal");
  if (R.Ordinal)
    W.value(R.Ordinal);
  else
    W.null();
  W.attribute("line", R.Line);
  W.attribute("status", compileStatusName(R.Status));
  W.key("failure");
  W.objectOrNull(R.Status == CompileStatus::Failure, [&] {
    W.attribute("type", R.FailType);
    W.attribute("reason", R.FailReason);
    W.attribute("summary", R.failSummary());
    W.key("frame");
    optSource(W, R.FailFrame ? &*R.FailFrame : nullptr);
    W.key("user_frame");
    optSource(W, R.FailUserFrame ? &*R.FailUserFrame : nullptr);
    W.attributeOrNull("traceback", R.FailTraceback);
    W.attribute("suppressed", R.failureSuppressed());
  });
  W.attribute("time_s", R.compileSeconds());
  W.attribute("backward_time_s", R.backwardSeconds());
  W.attribute("total_time_s", R.totalSeconds());
  W.key("phases");
  writeJSON(W, phasesJSON(CompilePhases::compute(R)));
  W.key("frame");
  optSource(W, R.frame());
  W.attributeArray("stack", [&] {
    for (const SourceLoc &F : R.Stack)
      sourceJSON(W, F);
  });
  W.attributeArray("breaks", [&] {
    for (const BreakReason &B : R.Breaks)
      W.object([&] {
        W.attribute("reason", B.Reason);
        W.attribute("summary", B.summary());
        W.attribute("kind", B.kindName());
        W.attributeOrNull("restart_class", B.restartClass());
        W.key("source");
        optSource(W, B.Where ? &*B.Where : nullptr);
        W.key("user_source");
        optSource(W, B.UserFrame ? &*B.UserFrame : nullptr);
        W.attributeOrNull("traceback", B.Traceback);
        W.attribute("count", B.Count);
      });
  });
  W.attribute("recompile_reasons", R.RecompileReasons);
  W.attribute("ddp_submodules", R.DdpSubmodules);
  W.attribute("guard_count", R.GuardCount);
  W.attribute("guards", R.Guards);
  // The guard that failed, for each recompile reason, and the guards
  // against those of the compile whose guard failed (tlp/Analysis/Guards.h).
  RecompileGuards G = recompileGuards(M, R);
  W.attributeArray("failed_guards", [&] {
    for (const FailedGuard &F : G.Failed)
      W.object([&] {
        W.attribute("reason", F.Reason);
        W.attributeOrNull("named", F.Named);
        W.key("compile");
        if (F.Guarded)
          W.value(F.Guarded->slug());
        else
          W.null();
        bool Found = F.Check.Line != 0;
        W.key("line");
        if (Found)
          W.value(F.Check.Line);
        else
          W.null();
        W.key("check");
        if (Found)
          W.value((F.Check.Kind + ": " + F.Check.Expr).str());
        else
          W.null();
        W.attributeOrNull("source", Found ? StringRef(F.Check.Source) : StringRef());
        W.attributeOrNull("made_at", Found ? StringRef(F.Check.Comment) : StringRef());
        W.key("how");
        if (Found)
          W.value(F.How);
        else
          W.null();
      });
  });
  W.key("guards_diff");
  W.objectOrNull(G.Against != nullptr, [&] {
    W.attribute("against", G.Against->slug());
    W.attributeOrNull("diff", G.Diff);
  });
  W.key("metrics");
  metricsJSON(W, R.Metrics);
  // The configuration dumps (indices into config_texts) and what changed
  // since the previous compile with configuration (docs/json.md).
  {
    StringMap<size_t> Last;
    for (size_t I = 0; I < R.Configs.size(); ++I)
      Last[R.Configs[I].first] = I;
    W.attributeObject("configs", [&] {
      for (size_t I = 0; I < R.Configs.size(); ++I) {
        size_t &L = Last[R.Configs[I].first];
        if (L == SIZE_MAX)
          continue;
        W.attribute(R.Configs[I].first, R.Configs[L].second);
        L = SIZE_MAX;
      }
    });
  }
  W.attributeArray("config_patched", [&] {
    for (const ConfigChange &C : Configs_.patchedSettings(R))
      W.object([&] {
        W.attribute("config", C.Config);
        W.attribute("key", C.Key);
        W.attribute("dump", C.Before);
        W.attribute("cache_key", C.After);
      });
  });
  W.key("config_changes");
  const CompileRecord *Prev = nullptr;
  std::vector<ConfigChange> Changes;
  if (&R >= M.Compiles.data() && &R < M.Compiles.data() + M.Compiles.size())
    Changes = Configs_.changesFromPrevious(&R - M.Compiles.data(), Prev);
  W.objectOrNull(Prev != nullptr, [&] {
    W.attribute("against", Prev->slug());
    W.attributeArray("changes", [&] {
      for (const ConfigChange &C : Changes)
        W.object([&] {
          W.attribute("config", C.Config);
          W.attributeOrNull("key", C.Key);
          W.attributeOrNull("before", C.Before);
          W.attributeOrNull("after", C.After);
          W.attribute("reordered", C.Reordered);
        });
    });
  });
  W.key("bwd_metrics");
  metricsJSON(W, R.BwdMetrics);
  W.attributeArray("more_bwd_metrics", [&] {
    for (const MetricList &L : R.MoreBwdMetrics)
      metricsJSON(W, L);
  });
  W.key("runtime_metrics");
  metricsJSON(W, R.RuntimeMetrics);
  W.key("bwd_runtime_metrics");
  metricsJSON(W, R.BwdRuntimeMetrics);
  W.attributeArray("caches", [&] {
    for (const CacheLookup &C : R.Caches)
      W.object([&] {
        W.attribute("cache", cacheKindName(C.Cache));
        W.attribute("result", cacheResultName(C.Result));
        W.attribute("line", C.Line);
        W.attributeOrNull("subgraph", C.Subgraph);
        W.attributeOrNull("key", C.Key);
        W.attributeOrNull("aot_id", C.AotId);
        W.attributeOrNull("reason", C.Reason);
        W.attribute("time_saved_ms", C.TimeSavedMs);
        W.attribute("components", C.Components.vec());
      });
  });
  W.attributeArray("cache_miss_diffs", [&] {
    for (const Module::CacheMissDiff &D : M.cacheMissDiffs(R))
      W.object([&] {
        W.attribute("cache", cacheKindName(D.Miss->Cache));
        W.attribute("against", D.Against->slug());
        W.attribute("against_line", D.Before->Line);
        W.attribute("components", D.Miss->Components.size());
        W.attributeArray("aligned_lists", [&] {
          for (const Module::AlignedList &A : D.Aligned)
            W.object([&] {
              W.attribute("name", A.Name);
              W.attribute("before", A.Before);
              W.attribute("after", A.After);
              W.attribute("moved", A.Moved);
            });
        });
        W.attributeArray("changed", [&] {
          for (const Module::KeyChange &K : D.Changes)
            W.object([&] {
              W.attribute("name", K.Name);
              W.attributeOrNull("before_name", K.BeforeName);
              W.attributeOrNull("before", K.Before);
              W.attributeOrNull("after", K.After);
              W.attribute("aligned", K.Aligned);
              // Where the values differ: the line, and for values of
              // several lines the first lines that differ (a changed `gm`).
              std::string Diff;
              unsigned Line = 0;
              if (!K.Before.empty() && !K.After.empty()) {
                Line = firstDifferingLine(K.Before, K.After);
                Diff = keyValueDiff(K.Before, K.After);
              }
              W.key("line");
              if (Line)
                W.value(Line);
              else
                W.null();
              W.attributeOrNull("diff", Diff);
            });
        });
      });
  });
  W.attributeArray("spans", [&] {
    for (const Span &S : R.Spans)
      W.object([&] {
        W.attribute("name", S.Name);
        W.attribute("cat", S.Category);
        W.attribute("ph", StringRef(&S.Phase, 1));
        W.attribute("start_us", S.Start);
        W.attribute("dur_us", S.Duration);
        W.attribute("tid", S.Tid);
        W.attribute("line", S.Line);
      });
  });
  W.attributeArray("shapes", [&] {
    for (const ShapeEvent &E : R.Shapes)
      shapeJSON(W, E);
  });
  W.key("artifacts");
  rawEventsJSON(W, R.Raw, &R);
  W.attribute("units", Units);
  W.key("no_output");
  if (Units.empty())
    W.value(R.noOutputReason());
  else
    W.null();
  // A restarted attempt's units: the graph it logged before the restart.
  W.key("discarded");
  if (!Units.empty() && R.Status == CompileStatus::Restart)
    W.value(R.restartText());
  else
    W.null();
  W.objectEnd();
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

/// Writes the document through one JSONWriter as it goes; each unit and
/// each compile record is written on a worker into its own text (with the
/// indentation of its place in the document), which the document takes as
/// it is, in order. No DOM is built but for the small, cold parts
/// (phases, exports, ranks, the profile).
class JSONEmitter : public Emitter {
public:
  using Emitter::Emitter;

  Error begin(const Module &M) override {
    if (!emit::readProfile(Opts, Diags, Profile))
      return createStringError(inconvertibleErrorCode(),
                               "the profile could not be read");
    Doc = std::make_unique<JSONWriter>(out(), writerOptions(0));
    JSONWriter &W = *Doc;
    W.objectBegin();
    W.attribute("schema", JSONSchemaVersion);
    W.attribute("producer", "tlp " TLP_VERSION_STRING);
    W.attributeArray("logs", [&] {
      for (uint32_t I = 0; I < M.Logs.size(); ++I)
        W.object([&] {
          W.attribute("path", M.logName(I));
          W.attribute("rank", M.Logs[I].Rank);
          W.attribute("event_rank", M.Logs[I].EventRank);
          W.attributeOrNull("torch_version", M.Logs[I].TorchVersion);
          W.attributeOrNull("torch_commit", M.Logs[I].TorchCommit);
          // A file of a depyf dump, not a log (docs/inputs.md).
          W.attribute("dump_file", M.Logs[I].DumpFile);
          W.attribute("pid", M.Logs[I].Pid);
          W.attribute("debug_folder", M.Logs[I].DebugFolder);
        });
    });
    W.key("units");
    W.arrayBegin();
    return Error::success();
  }

  Error unit(const Module &M, const CompileUnit &U) override {
    return preparedUnit(M, U, prepareUnit(M, U));
  }

  std::unique_ptr<PreparedUnit>
  prepareUnit(const Module &M, const CompileUnit &U) const override {
    return std::make_unique<PreparedText>(unitText(M, U, ""));
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
    if (Id != U.Key.slug()) // a rare clash of slugs: the unique id
      Text = unitText(M, U, Id);
    Doc->rawValue(Text);
    return Error::success();
  }

  Error end(const Module &M) override {
    JSONWriter &W = *Doc;
    W.arrayEnd();
    W.key("compiles");
    W.arrayBegin();
    // The records are rendered on the workers and written in order while
    // the next ones render (renderInOrder).
    ConfigComparer Configs(M);
    renderInOrder(
        M.Compiles.size(), Opts.Threads,
        [&](size_t I, raw_ostream &OS) {
          std::vector<std::string> Ids;
          auto It = facts().UnitsOfRecord.find(I);
          if (It != facts().UnitsOfRecord.end())
            for (size_t U : It->second)
              Ids.push_back(facts().Units[U].Id);
          JSONWriter CW(OS, writerOptions(2));
          compileJSON(CW, M, M.Compiles[I], Ids, Configs);
        },
        [&](size_t, StringRef Text) {
          W.rawValue(Text);
          return true;
        });
    W.arrayEnd();
    // Each distinct graph break once, over all ranks (docs/json.md).
    W.attributeArray("graph_breaks", [&] {
      for (const DistinctBreak &D : distinctBreaks(M)) {
        const BreakReason &B = *D.First;
        W.object([&] {
          W.attribute("summary", B.label());
          W.attribute("kind", B.kindName());
          W.key("source");
          optSource(W, B.Where ? &*B.Where : nullptr);
          W.key("user_source");
          optSource(W, B.UserFrame ? &*B.UserFrame : nullptr);
          W.attribute("reason", B.Reason);
          W.attributeArray("compiles", [&] {
            for (size_t I : D.Records)
              W.value(M.Compiles[I].slug());
          });
          W.attribute("frames", D.Frames);
          W.attribute("ranks", D.Ranks);
          W.attribute("count", D.Hits);
        });
      }
    });
    W.key("rank_runtime");
    writeJSON(W, rankRuntimeJSON(M, &facts().Collectives));
    W.key("exports");
    writeJSON(W, exportsJSON(M));
    W.key("artifacts");
    rawEventsJSON(W, M.Raw, nullptr);
    if (Profile) {
      W.key("profile");
      writeJSON(W, profileJSON(*Profile,
                               attributeProfile(*Profile, facts().ProfileUnits),
                               facts().ProfileUnits));
    }
    W.attribute("key_components", M.KeyComponents);
    W.attribute("config_texts", M.ConfigTexts);
    W.key("ranks");
    writeJSON(W, ranksJSON(compareRanks(facts().Digests, &M)));
    W.attributeObject("stats", [&] {
      W.attribute("lines", M.Stats.Lines);
      W.attribute("events", M.Stats.Events);
      W.attribute("payloads", M.Stats.Payloads);
      W.attribute("md5_mismatches", M.Stats.Md5Mismatches);
      W.attribute("malformed_lines", M.Stats.MalformedLines);
      StringMap<size_t> Last;
      const auto &Unknown = M.Stats.UnknownKinds;
      for (size_t I = 0; I < Unknown.size(); ++I)
        Last[Unknown[I].first] = I;
      W.attributeObject("unknown_kinds", [&] {
        for (size_t I = 0; I < Unknown.size(); ++I) {
          size_t &L = Last[Unknown[I].first];
          if (L == SIZE_MAX)
            continue;
          W.attribute(Unknown[I].first, Unknown[L].second);
          L = SIZE_MAX;
        }
      });
      W.attribute("ungrouped_artifacts", M.Artifacts.size());
    });
    W.attributeArray("diagnostics", [&] {
      for (const Diagnostic &D : M.Diagnostics)
        writeJSON(W, diagnosticJSON(D));
    });
    W.objectEnd();
    out() << '\n';
    Doc.reset();
    return Error::success();
  }

private:
  std::unique_ptr<JSONWriter> Doc;
  Optional<ProfileTrace> Profile;

  /// The writer's options for a value at \p Depth in the document.
  JSONWriter::Options writerOptions(unsigned Depth) const {
    JSONWriter::Options O;
    O.Pretty = Opts.Pretty;
    O.BaseIndent = Depth * O.IndentWidth;
    return O;
  }

  /// A unit's object, at its place in "units" (depth 2).
  std::string unitText(const Module &M, const CompileUnit &U,
                       StringRef Id) const {
    std::string Text;
    raw_string_ostream OS(Text);
    OS.SetBuffered();
    {
      JSONWriter W(OS, writerOptions(2));
      unitJSON(W, UnitView(M, U), Id);
    }
    OS.flush();
    return Text;
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
                    : P.unlinkedFate(I) ==
                            UnitProvenance::UnlinkedFate::Vanished
                        ? "vanished"
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
