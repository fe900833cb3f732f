//===- HTMLDashboard.cpp - The compile health part of the HTML index ------===//
//
// docs/html.md, "The dashboard". Everything here is static HTML and inline
// SVG: a bar's tooltip is its <title>, so the timeline needs no script.
//
//===----------------------------------------------------------------------===//

#include "HTMLDashboard.h"

#include "EmitSupport.h"
#include "HTMLRaw.h"
#include "tlp/Analysis/CompilePhases.h"
#include "tlp/Analysis/Configs.h"
#include "tlp/Analysis/Export.h"
#include "tlp/Analysis/GraphBreaks.h"
#include "tlp/Analysis/Guards.h"
#include "tlp/Analysis/Metrics.h"
#include "tlp/Analysis/Profile.h"
#include "tlp/Analysis/RankRuntime.h"
#include "tlp/Support/Parallel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <set>

using namespace llvm;

namespace tlp {
namespace emit {

std::string compileAnchor(const CompileRecord &R) {
  return "compile-" + R.slug();
}

namespace {

std::string where(const SourceLoc &L) {
  return baseName(L.File).str() + ":" + std::to_string(L.Line);
}

/// "850 µs", "12.3 ms", "1.23 s".
std::string duration(int64_t Us) {
  if (Us < 1000)
    return std::to_string(Us) + " \xC2\xB5s";
  if (Us < 1000000)
    return formatv("{0:f1} ms", Us / 1000.0).str();
  return formatv("{0:f2} s", Us / 1e6).str();
}

/// \p S for a <pre>, escaped, each line break as "&#10;": a compile's row
/// stays one line of the page's source.
std::string preText(StringRef S) { return escapePreHTML(S); }

/// Links to the rows of the compiles \p Records (indices into
/// Module::Compiles), joined by \p Sep: the first \p Max, then "and N
/// more".
void writeCompileLinks(raw_ostream &OS, const Module &M,
                       const std::vector<size_t> &Records, size_t Max,
                       StringRef Sep) {
  for (size_t J = 0; J < Records.size(); ++J) {
    if (J == Max) {
      OS << " and " << Records.size() - Max << " more";
      break;
    }
    const CompileRecord &R = M.Compiles[Records[J]];
    OS << (J ? Sep : "") << "<a href=\"#" << escapeHTML(compileAnchor(R))
       << "\"><code>" << escapeHTML(R.displayName()) << "</code></a>";
  }
}

/// A unified diff as preText, each removed, added and hunk line in a span
/// of its own (`d-del`, `d-add`, `d-hunk`) for its colour.
std::string diffText(StringRef Diff) {
  std::string Out;
  for (StringRef Rest = Diff; !Rest.empty();) {
    StringRef L;
    std::tie(L, Rest) = Rest.split('\n');
    const char *Class = L.startswith("@@")                            ? "d-hunk"
                        : L.startswith("-") && !L.startswith("---") ? "d-del"
                        : L.startswith("+") && !L.startswith("+++") ? "d-add"
                                                                    : nullptr;
    if (Class)
      Out += std::string("<span class=\"") + Class + "\">" + preText(L) +
             "</span>";
    else
      Out += preText(L);
    Out += "&#10;";
  }
  return Out;
}

/// The place PyTorch names, as <code title="PATH">file:line</code>; with
/// the innermost frame in the user's files when that is another place,
/// "USER in your code; PyTorch names NAMED".
void writePlaces(raw_ostream &OS, const Optional<SourceLoc> &Named,
                 const Optional<SourceLoc> &User) {
  auto Code = [&](const SourceLoc &L) {
    OS << "<code title=\"" << escapeHTML(L.File) << "\">"
       << escapeHTML(where(L)) << "</code>";
  };
  if (User &&
      !(Named && Named->File == User->File && Named->Line == User->Line)) {
    OS << " ";
    Code(*User);
    OS << " in your code";
    if (Named) {
      OS << "; PyTorch names ";
      Code(*Named);
    }
    return;
  }
  if (Named) {
    OS << " ";
    Code(*Named);
  }
}

/// Records with a compile id, failures first, then in module order.
std::vector<size_t> compileOrder(const Module &M) {
  std::vector<size_t> Order;
  for (size_t I = 0; I < M.Compiles.size(); ++I)
    if (M.Compiles[I].Id)
      Order.push_back(I);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return (M.Compiles[A].Status == CompileStatus::Failure) >
           (M.Compiles[B].Status == CompileStatus::Failure);
  });
  return Order;
}

/// Where a compile's time went, as a stacked bar (SVG, no script: each
/// segment's tooltip is its <title>: its seconds and origin) of the phases, forward and backward
/// together; a phase the log does not tell leaves a grey "not told
/// apart" segment.
void writePhaseBar(raw_ostream &OS, const CompilePhases &C) {
  Optional<double> Total = C.total();
  if (!Total || *Total <= 0)
    return;
  const int W = 160, H = 12;
  OS << formatv("<svg class=\"phase-bar\" width=\"{0}\" height=\"{1}\" "
                "role=\"img\" aria-label=\"where the time went\">",
                W, H);
  double X = 0, Known = 0;
  auto Segment = [&](StringRef Class, StringRef Key, double S,
                     const std::string &Title) {
    double Width = double(W) * S / *Total;
    OS << formatv("<rect class=\"{0}\" data-phase=\"{1}\" data-s=\"{2:f6}\" "
                  "x=\"{3:f2}\" y=\"0\" width=\"{4:f2}\" height=\"{5}\">"
                  "<title>",
                  Class, Key, S, X, Width, H)
       << escapeHTML(Title) << "</title></rect>";
    X += Width;
  };
  // A backward compiled inside the frame's compile is in the forward's
  // figures (CompilePhases::BackwardInForward).
  std::string Inside =
      C.BackwardFromCache
          ? ". The backward was loaded inside the frame's compile by an "
            "AOTAutograd cache hit (no backward metrics): these figures "
            "hold both"
      : C.BackwardInForward
          ? ". The backward was compiled inside the frame's compile (no "
            "backward metrics): these figures hold both"
          : "";
  for (unsigned I = 0; I < NumPhases; ++I) {
    Phase P = static_cast<Phase>(I);
    Optional<double> S = C.together(P);
    if (!S || *S <= 0)
      continue;
    Known += *S;
    std::string Title = formatv("{0}: {1} s", phaseName(P),
                                phaseSecondsText(S)).str();
    bool Both = C.Forward.logged() && C.Backward.logged();
    if (Both)
      Title += " (forward " + phaseSecondsText(C.Forward[P].Seconds) +
               ", backward " + phaseSecondsText(C.Backward[P].Seconds) + ")";
    for (const CompilePart *Part : {&C.Forward, &C.Backward})
      if (Part->logged())
        Title += std::string(". ") +
                 (Both ? (Part == &C.Forward ? "forward: " : "backward: ")
                       : "") +
                 (*Part)[P].Origin;
    Title += Inside;
    Segment(("ph ph-" + phaseKey(P)).str(), phaseKey(P), *S, Title);
  }
  // Phases the log does not tell: the rest of the total, not split.
  double Rest = *Total - Known;
  if (Rest > 5e-4)
    Segment("ph ph-unknown", "unknown", Rest,
            formatv("not told apart: {0} s (the log does not tell all "
                    "phases){1}",
                    phaseSecondsText(Rest), Inside)
                .str());
  OS << "</svg>";
}

/// For a recompile: each reason and the guard that failed, then the
/// guards against those of the compile whose guard failed (a <details>).
void writeRecompiles(raw_ostream &OS, const Module &M,
                     const CompileRecord &R) {
  RecompileGuards G = recompileGuards(M, R);
  for (const FailedGuard &F : G.Failed) {
    OS << "<div class=\"recompile\">recompile: " << HTMLText{F.Reason, true}
       << "</div><div class=\"failed-guard\">failed guard: ";
    if (!F.Guarded) {
      OS << "unknown (the log has "
         << (F.Named.empty()
                 ? std::string("no earlier compile of the frame with guards")
                 : "no guards of <code>" + escapeHTML(F.Named) + "</code>")
         << ")</div>";
      continue;
    }
    OS << "<a href=\"#" << escapeHTML(compileAnchor(*F.Guarded)) << "\"><code>"
       << escapeHTML(F.Guarded->idName()) << "</code></a>";
    if (!F.Check.Line)
      OS << ", not found among its guards";
    else
      OS << " line " << F.Check.Line << ": <code>"
         << escapeHTML(clip((F.Check.Kind + ": " + F.Check.Expr).str(), 300))
         << "</code> <span class=\"how\">(found by " << escapeHTML(F.How)
         << ")</span>";
    OS << "</div>";
  }
  if (!G.Against)
    return;
  if (G.Diff.empty())
    OS << "<div class=\"guards-same\">guards the same as <code>"
       << escapeHTML(G.Against->idName()) << "</code>'s</div>";
  else
    OS << "<details class=\"guards-diff\"><summary>guards against <code>"
       << escapeHTML(G.Against->idName())
       << "</code>'s</summary><pre class=\"guards-diff\">" << diffText(G.Diff)
       << "</pre></details>";
}

/// The settings of record \p I's configuration that differ from the
/// previous compile's (`div.config-change`; the first 8, then how many
/// more).
void writeConfigChanges(raw_ostream &OS, const Module &M, size_t I,
                        ConfigComparer &Configs) {
  // Settings the compile ran with that its dump does not show (its FX
  // graph cache keys name them: torch.compile's mode and options).
  std::vector<ConfigChange> Patched =
      Configs.patchedSettings(M.Compiles[I]);
  if (!Patched.empty()) {
    OS << "<div class=\"config-change\">compiled with (its FX graph cache "
          "key; the <code>inductor_config</code> dump, taken outside "
          "torch.compile's <code>mode</code> and <code>options</code>, "
          "says otherwise): ";
    for (size_t J = 0; J < Patched.size(); ++J)
      OS << (J ? "; " : "") << "<code>" << escapeHTML(Patched[J].Key)
         << "</code> <code>" << escapeHTML(clip(Patched[J].After, 80))
         << "</code> (dump: <code>" << escapeHTML(clip(Patched[J].Before, 80))
         << "</code>)";
    OS << "</div>";
  }
  const CompileRecord *Prev = nullptr;
  std::vector<ConfigChange> Ch = Configs.changesFromPrevious(I, Prev);
  if (Ch.empty())
    return;
  OS << "<div class=\"config-change\">config changed since <a href=\"#"
     << escapeHTML(compileAnchor(*Prev)) << "\"><code>"
     << escapeHTML(Prev->displayName()) << "</code></a>: ";
  for (size_t J = 0; J < Ch.size(); ++J) {
    if (J == 8) {
      OS << "; and " << Ch.size() - 8 << " more (the JSON's config_changes)";
      break;
    }
    const ConfigChange &C = Ch[J];
    OS << (J ? "; " : "") << "<code>" << escapeHTML(C.Config)
       << (C.Key.empty() ? "" : ".") << escapeHTML(C.Key) << "</code> "
       << (C.Before.empty() ? std::string("absent")
                            : "<code>" + escapeHTML(clip(C.Before, 80)) +
                                  "</code>")
       << " &rarr; "
       << (C.After.empty() ? std::string("absent")
                           : "<code>" + escapeHTML(clip(C.After, 80)) +
                                 "</code>")
       << (C.Reordered ? " (same items, another order: the same set, or "
                         "a list whose order changed)"
                       : "");
  }
  OS << "</div>";
}

/// The symbolic shape events of each compile (`details.shapes`, a table
/// each), with the user line that made each.
void writeShapes(raw_ostream &OS, const Module &M,
                 const std::vector<size_t> &Order) {
  bool Any = false;
  for (size_t I : Order) {
    const CompileRecord &R = M.Compiles[I];
    if (R.Shapes.empty())
      continue;
    if (!Any)
      OS << "<h2 id=\"shapes-head\">Symbolic shapes</h2>\n<p>The symbols "
            "each compile made for sizes, the guards on them and the "
            "specializations, in log order.</p>\n";
    Any = true;
    OS << "<details class=\"shapes\" id=\"shapes-" << escapeHTML(R.slug())
       << "\"><summary><a href=\"#" << escapeHTML(compileAnchor(R))
       << "\"><code>" << escapeHTML(R.displayName()) << "</code></a>: "
       << R.Shapes.size() << (R.Shapes.size() == 1 ? " event" : " events")
       << "</summary><table class=\"shapes\"><thead><tr><th>line</th>"
          "<th>kind</th><th>symbol</th><th>source</th><th>value</th>"
          "<th>range</th><th>guard or reason</th><th>user line</th></tr>"
          "</thead><tbody>";
    auto Cell = [&](const std::string &S) {
      OS << "<td>";
      if (!S.empty())
        OS << "<code>" << escapeHTML(clip(S, 300)) << "</code>";
      OS << "</td>";
    };
    for (const ShapeEvent &E : R.Shapes) {
      OS << "<tr><td>" << E.Line << "</td><td>" << shapeKindName(E.Kind)
         << "</td>";
      Cell(E.Sym);
      Cell(E.Source);
      Cell(E.Value);
      Cell(E.Range);
      Cell(E.Expr);
      OS << "<td>";
      if (E.UserFrame) {
        writePlaces(OS, E.UserFrame, None);
        if (!E.UserFrame->Code.empty())
          OS << " <code>" << escapeHTML(clip(E.UserFrame->Code, 200))
             << "</code>";
      }
      OS << "</td></tr>";
    }
    OS << "</tbody></table></details>\n";
  }
}

/// Every metric of each compile, grouped (`details.metrics#metrics-ID`, a
/// `dl` per part: the compile, its backward, at run time).
void writeMetrics(raw_ostream &Out, const Module &M,
                  const std::vector<size_t> &Order, unsigned Threads) {
  auto Render = [&](size_t K, raw_ostream &OS) {
    const CompileRecord &R = M.Compiles[Order[K]];
    // A compile with several backward compiles (MoreBwdMetrics) has a
    // part for each: "bwd_compilation_metrics #2".
    std::vector<std::pair<std::string, const MetricList *>> Parts = {
        {"compilation_metrics", &R.Metrics},
        {"bwd_compilation_metrics", &R.BwdMetrics}};
    for (size_t J = 0; J < R.MoreBwdMetrics.size(); ++J)
      Parts.push_back({"bwd_compilation_metrics #" + std::to_string(J + 2),
                       &R.MoreBwdMetrics[J]});
    Parts.push_back({"compilation_metrics_runtime", &R.RuntimeMetrics});
    Parts.push_back(
        {"bwd_compilation_metrics_runtime", &R.BwdRuntimeMetrics});
    size_t N = 0;
    for (const auto &P : Parts)
      N += P.second->size();
    if (!N)
      return;
    OS << "<details class=\"metrics\" id=\"metrics-" << escapeHTML(R.slug())
       << "\"><summary><a href=\"#" << escapeHTML(compileAnchor(R))
       << "\"><code>" << escapeHTML(R.displayName()) << "</code></a>: " << N
       << (N == 1 ? " metric" : " metrics") << "</summary>";
    for (const auto &P : Parts) {
      if (P.second->empty())
        continue;
      OS << "<h4><code>" << P.first << "</code></h4><dl class=\"metrics\">";
      auto Groups = groupMetrics(*P.second);
      for (unsigned G = 0; G < NumMetricGroups; ++G) {
        if (Groups[G].empty())
          continue;
        OS << "<dt>" << metricGroupName(static_cast<MetricGroup>(G))
           << "</dt><dd>";
        for (size_t J = 0; J < Groups[G].size(); ++J)
          OS << (J ? "<br>" : "") << "<code>"
             << escapeHTML(Groups[G][J].first) << "</code> <code>"
             << escapeHTML(clip(Groups[G][J].second, 400)) << "</code>";
        OS << "</dd>";
      }
      OS << "</dl>";
    }
    OS << "</details>\n";
  };
  renderSectionInOrder(
      Out,
      "<h2 id=\"metrics-head\">Metrics</h2>\n<p>Every metric of each "
      "compile, grouped: reasons, times, cache, counts, other (the "
      "configuration dumps are under Configuration).</p>\n",
      Order.size(), Threads, Render);
}

/// Each configuration dump once (`details.config-text`), a setting a line,
/// with the compiles that ran with it.
void writeConfigs(raw_ostream &OS, const Module &M,
                  const std::vector<size_t> &Order) {
  std::vector<ConfigDump> Dumps = groupConfigs(M, Order);
  if (Dumps.empty())
    return;
  OS << "<h2 id=\"configs-head\">Configuration</h2>\n<p>The configuration "
        "each compile ran with (the <code>*_config</code> dumps of "
        "<code>compilation_metrics</code>), each dump once; a compile whose "
        "settings differ from the previous compile's says which in its "
        "row.</p>\n";
  for (const auto &D : Dumps) {
    std::string Lines = configLines(M.ConfigTexts[D.Text]);
    size_t N = std::count(Lines.begin(), Lines.end(), '\n');
    OS << "<details class=\"config-text\"><summary><code>"
       << escapeHTML(D.Name) << "</code> of ";
    writeCompileLinks(OS, M, D.Records, 16, ", ");
    OS << ": " << N << (N == 1 ? " setting" : " settings")
       << "</summary><pre class=\"config-text\">" << HTMLText{Lines, true}
       << "</pre></details>\n";
  }
}

/// Each distinct graph break once over every compile and rank
/// (`table#graph-breaks`), most compiles first, its compiles linked.
void writeGraphBreaks(raw_ostream &OS, const Module &M) {
  std::vector<DistinctBreak> Breaks = distinctBreaks(M);
  if (Breaks.empty())
    return;
  OS << "<h2 id=\"graph-breaks-head\">Graph breaks</h2>\n<p class=\"counts\">"
     << Breaks.size()
     << (Breaks.size() == 1 ? " distinct break" : " distinct breaks")
     << " (graph breaks and restarts), each once over every compile"
     << (M.Logs.size() > 1 ? " and log" : "") << "</p>\n"
     << "<table id=\"graph-breaks\">\n<thead><tr><th>break</th><th>where</th>"
        "<th>compiles</th><th>frames</th><th>ranks</th><th>times</th></tr>"
        "</thead>\n<tbody>\n";
  for (const DistinctBreak &D : Breaks) {
    const BreakReason &B = *D.First;
    OS << "<tr><td><details class=\"break\"><summary>" << B.kindName()
       << ": " << escapeHTML(clip(B.label(), 300))
       << "</summary><pre class=\"reason\">" << HTMLText{B.Reason, true}
       << "</pre></details></td><td>";
    if (!B.Where && !B.UserFrame)
      OS << "?";
    writePlaces(OS, B.Where, B.UserFrame);
    OS << "</td><td>";
    writeCompileLinks(OS, M, D.Records, 32, " ");
    OS << "</td><td>" << D.Frames << "</td><td>";
    if (D.Ranks.empty())
      OS << "-";
    for (size_t J = 0; J < D.Ranks.size(); ++J)
      OS << (J ? ", " : "") << D.Ranks[J];
    OS << "</td><td>" << D.Hits << "</td></tr>\n";
  }
  OS << "</tbody>\n</table>\n";
}

/// Each distinct guard text once (`details.guard-text#guards-N`), with the
/// compiles that have it linked.
void writeGuards(raw_ostream &OS, const Module &M,
                 const std::vector<GuardGroup> &Groups) {
  if (Groups.empty())
    return;
  OS << "<h2 id=\"guards-head\">Guards</h2>\n<p>The guards of each compile "
        "(<code>dynamo_cpp_guards_str</code>, else the "
        "<code>dynamo_guards</code> code), each distinct text once.</p>\n";
  for (size_t K = 0; K < Groups.size(); ++K) {
    const GuardGroup &G = Groups[K];
    OS << "<details class=\"guard-text\" id=\"guards-" << K << "\"><summary>";
    writeCompileLinks(OS, M, G.Records, 16, ", ");
    OS << guardChecksText(G, "<code>", "</code>")
       << "</summary><pre class=\"guard-text\">" << HTMLText{*G.Text, true}
       << "</pre></details>\n";
  }
}

void writeCompiles(raw_ostream &Out, const Module &M,
                   const std::vector<size_t> &Order, const RecordUnits &Units,
                   const std::map<size_t, size_t> &GuardOf, bool DirMode,
                   unsigned Threads) {
  Out << "<h2 id=\"compiles-head\">Compiles</h2>\n<p class=\"counts\">"
      << Order.size() << (Order.size() == 1 ? " compile: " : " compiles: ")
      << statusCountsText(M, Order) << "</p>\n";
  ConfigComparer Configs(M);
  Out << "<table id=\"compiles\">\n<thead><tr><th>compile id</th><th>rank</th>"
         "<th>status</th><th>time (s)</th><th>where the time went</th>"
         "<th>why</th><th>cache</th>"
         "<th>units</th></tr></thead>\n<tbody>\n";
  // The rows, rendered on the workers and written in order.
  auto Row = [&](size_t K, raw_ostream &OS) {
    size_t I = Order[K];
    const CompileRecord &R = M.Compiles[I];
    StringRef Status = compileStatusName(R.Status);
    OS << "<tr id=\"" << escapeHTML(compileAnchor(R)) << "\" class=\"status-"
       << Status << "\" data-status=\"" << Status << "\"><td><a href=\"#"
       << escapeHTML(compileAnchor(R)) << "\"><code>"
       << escapeHTML(R.idName()) << "</code></a></td><td>"
       << (R.Rank ? std::to_string(*R.Rank) : std::string("-"))
       << "</td><td class=\"status\">" << Status << "</td><td>"
       << escapeHTML(R.timeText()) << "</td><td class=\"phases\">";
    writePhaseBar(OS, CompilePhases::compute(R));
    OS << "</td><td class=\"why\">";
    // Each reason: its line in a <summary>, the whole text (and the
    // tracebacks) in the <details> it opens; no script.
    if (R.Status == CompileStatus::Failure && !R.FailType.empty()) {
      OS << "<details class=\"fail\"><summary><b>" << escapeHTML(R.FailType)
         << "</b>";
      std::string Line = reasonSummary(R.FailReason);
      if (!Line.empty())
        OS << ": " << escapeHTML(clip(Line, 300));
      if (!R.FailFrame && !R.FailUserFrame && R.frame()) {
        // No place logged: the frame Dynamo was compiling, said as such.
        OS << " (no place logged; while compiling";
        writePlaces(OS, *R.frame(), None);
        OS << ")";
      } else {
        writePlaces(OS, R.FailFrame, R.FailUserFrame);
      }
      if (R.failureSuppressed())
        OS << "; suppressed (<code>suppress_errors</code>): the frame ran "
              "without this compile";
      OS << "</summary>";
      if (!R.FailReason.empty())
        OS << "<pre class=\"reason\">" << HTMLText{R.FailReason, true}
           << "</pre>";
      if (!R.FailTraceback.empty())
        OS << "<details class=\"traceback\"><summary>traceback "
              "(<code>dynamo_error</code>)</summary><pre class=\"reason\">"
           << HTMLText{R.tracebackWithoutReason(), true} << "</pre></details>";
      OS << "</details>";
    }
    for (const BreakReason &B : R.Breaks) {
      OS << "<details class=\"break\"><summary>" << B.kindName() << ": "
         << escapeHTML(clip(B.label(), 300));
      writePlaces(OS, B.Where, B.UserFrame);
      if (B.Count > 1)
        OS << " (" << B.Count << "x)";
      OS << "</summary><pre class=\"reason\">" << HTMLText{B.Reason, true}
         << "</pre>";
      if (!B.Traceback.empty())
        OS << "<details class=\"traceback\"><summary>user code "
              "traceback</summary><pre class=\"reason\">"
           << HTMLText{B.Traceback, true} << "</pre></details>";
      OS << "</details>";
    }
    writeRecompiles(OS, M, R);
    writeConfigChanges(OS, M, I, Configs);
    // Links to what the sections below hold of this compile.
    auto G = GuardOf.find(I);
    bool HasMetrics = !R.Metrics.empty() || !R.BwdMetrics.empty() ||
                      !R.RuntimeMetrics.empty() ||
                      !R.BwdRuntimeMetrics.empty();
    if (G != GuardOf.end() || HasMetrics || !R.Raw.empty()) {
      OS << "<div class=\"more\">";
      const char *Sep = "";
      if (G != GuardOf.end()) {
        OS << "<a href=\"#guards-" << G->second << "\">guards</a>";
        Sep = " ";
      }
      if (HasMetrics) {
        OS << Sep << "<a href=\"#metrics-" << escapeHTML(R.slug())
           << "\">metrics</a>";
        Sep = " ";
      }
      // What the compile logged that is shown raw (HTMLRaw.h).
      if (!R.Raw.empty())
        OS << Sep << "<a class=\"raw-link\" href=\""
           << escapeHTML(rawLink(&R, DirMode)) << "\">artifacts ("
           << R.Raw.size() << ")</a>";
      OS << "</div>";
    }
    OS << "</td><td>" << escapeHTML(R.cacheSummary()) << "</td><td>";
    auto It = Units.find(I);
    if (It != Units.end() && !It->second.empty()) {
      bool First = true;
      for (const auto &U : It->second) {
        OS << (First ? "" : " ") << "<a class=\"unit\" href=\""
           << escapeHTML(U.second) << "\">" << escapeHTML(U.first) << "</a>";
        First = false;
      }
      // A restarted attempt's units hold the graph it logged before the
      // restart: discarded, not output.
      if (R.Status == CompileStatus::Restart)
        OS << " <span class=\"discarded\">discarded: "
           << escapeHTML(R.restartText()) << "</span>";
      if (!R.DdpSubmodules.empty())
        OS << " <span class=\"empty\">"
           << escapeHTML(ddpSplitText(R, /*Markdown=*/false).substr(2))
           << "</span>";
    } else {
      OS << "<span class=\"empty\">" << escapeHTML(R.noOutputReason())
         << "</span>";
    }
    OS << "</td></tr>\n";
  };
  renderSectionInOrder(Out, "", Order.size(), Threads, Row);
  Out << "</tbody>\n</table>\n";
}

/// The frames that compiled, as a trie of their stacks (outermost first),
/// each frame with the compile ids that started there.
struct TrieNode {
  const SourceLoc *Loc = nullptr;
  std::vector<std::unique_ptr<TrieNode>> Kids;
  std::vector<size_t> Records;

  TrieNode &kid(const SourceLoc &L) {
    for (auto &K : Kids)
      if (*K->Loc == L)
        return *K;
    Kids.push_back(std::make_unique<TrieNode>());
    Kids.back()->Loc = &L;
    return *Kids.back();
  }
};

void writeTrieNode(raw_ostream &OS, const Module &M, const TrieNode &N) {
  OS << "<ul>\n";
  for (const auto &K : N.Kids) {
    const SourceLoc &L = *K->Loc;
    OS << "<li><code title=\"" << escapeHTML(L.File) << "\">"
       << escapeHTML(where(L)) << "</code>";
    if (!L.Function.empty())
      OS << " in <code>" << escapeHTML(L.Function) << "</code>";
    for (size_t I : K->Records) {
      const CompileRecord &R = M.Compiles[I];
      OS << " <a class=\"compile status-" << compileStatusName(R.Status)
         << "\" href=\"#" << escapeHTML(compileAnchor(R)) << "\">"
         << escapeHTML(R.displayName()) << "</a>";
    }
    OS << "\n";
    if (!K->Kids.empty())
      writeTrieNode(OS, M, *K);
    OS << "</li>\n";
  }
  OS << "</ul>\n";
}

void writeStackTrie(raw_ostream &OS, const Module &M) {
  TrieNode Root;
  std::vector<size_t> NoStack;
  for (size_t I = 0; I < M.Compiles.size(); ++I) {
    const CompileRecord &R = M.Compiles[I];
    if (!R.Id)
      continue;
    if (R.Stack.empty()) {
      NoStack.push_back(I);
      continue;
    }
    TrieNode *N = &Root;
    for (const SourceLoc &L : R.Stack)
      N = &N->kid(L);
    N->Records.push_back(I);
  }
  OS << "<h2>Stack trie</h2>\n<div id=\"stack-trie\" class=\"trie\">\n";
  if (Root.Kids.empty())
    OS << "<p class=\"empty\">no dynamo_start stack in the log</p>\n";
  else
    writeTrieNode(OS, M, Root);
  if (!NoStack.empty()) {
    OS << "<p class=\"nostack\">without a stack:";
    for (size_t I : NoStack) {
      const CompileRecord &R = M.Compiles[I];
      OS << " <a class=\"compile status-" << compileStatusName(R.Status)
         << "\" href=\"#" << escapeHTML(compileAnchor(R)) << "\">"
         << escapeHTML(R.displayName()) << "</a>";
    }
    OS << "</p>\n";
  }
  OS << "</div>\n";
}

/// One bar or instant of the timeline.
struct Bar {
  const Span *S;
  const CompileRecord *R;
  int64_t End;
  unsigned Depth = 0;
};

struct Lane {
  std::string Label;
  std::vector<Bar> Bars;
  unsigned Depths = 1;
};

/// At most this many complete spans are drawn (the longest): a page of a
/// log with a hundred thousand spans stays small, and the short ones
/// would be narrower than a pixel anyway.
constexpr size_t MaxBars = 5000;

void writeTimeline(raw_ostream &OS, const Module &M) {
  // Past MaxBars complete spans, drop the shortest (ties: the later ones).
  std::set<const Span *> Dropped;
  {
    std::vector<const Span *> Complete;
    for (const CompileRecord &R : M.Compiles)
      for (const Span &S : R.Spans)
        if (S.Phase == 'X')
          Complete.push_back(&S);
    if (Complete.size() > MaxBars) {
      std::stable_sort(Complete.begin(), Complete.end(),
                       [](const Span *A, const Span *B) {
                         if (A->Duration != B->Duration)
                           return A->Duration > B->Duration;
                         return A->Start < B->Start;
                       });
      Dropped.insert(Complete.begin() + MaxBars, Complete.end());
    }
  }
  // Lanes: a rank's (or a rank-less log's) thread, as --chrome-trace has
  // its processes and threads.
  std::map<std::pair<int64_t, int64_t>, Lane> Lanes;
  std::map<int64_t, std::set<int64_t>> Tids;
  int64_t T0 = INT64_MAX, T1 = INT64_MIN;
  size_t Count = 0;
  for (const CompileRecord &R : M.Compiles) {
    int64_t Pid = R.Rank ? *R.Rank : 1000 + static_cast<int64_t>(R.Log);
    for (const Span &S : R.Spans) {
      if (Dropped.count(&S))
        continue;
      Lane &L = Lanes[{Pid, S.Tid}];
      if (L.Label.empty())
        L.Label = R.Rank ? "rank " + std::to_string(*R.Rank)
                         : baseName(M.logName(R.Log)).str();
      Tids[Pid].insert(S.Tid);
      L.Bars.push_back({&S, &R, S.Start + S.Duration});
      T0 = std::min(T0, S.Start);
      T1 = std::max(T1, S.Start + S.Duration);
      ++Count;
    }
  }
  OS << "<h2>Timeline</h2>\n";
  if (!Count) {
    OS << "<p class=\"empty\">no chromium_event spans in the log</p>\n";
    return;
  }
  if (T1 <= T0)
    T1 = T0 + 1;
  const double LabelW = 120, ChartW = 1000, Row = 16, Gap = 8, Top = 22;
  double Scale = ChartW / static_cast<double>(T1 - T0);
  double Y = Top;
  for (auto &KV : Lanes) {
    Lane &L = KV.second;
    if (Tids[KV.first.first].size() > 1)
      L.Label += " tid " + std::to_string(KV.first.second);
    for (Bar &B : L.Bars)
      if (B.S->Phase == 'B')
        B.End = T1; // unfinished: to the end of the trace
    llvm::stable_sort(L.Bars, [](const Bar &A, const Bar &B) {
      if (A.S->Start != B.S->Start)
        return A.S->Start < B.S->Start;
      return A.End > B.End;
    });
    // Depth: how many spans of the lane hold this one.
    std::vector<int64_t> Stack;
    for (Bar &B : L.Bars) {
      while (!Stack.empty() && Stack.back() <= B.S->Start)
        Stack.pop_back();
      B.Depth = static_cast<unsigned>(Stack.size());
      L.Depths = std::max(L.Depths, B.Depth + 1);
      if (B.S->Phase != 'i')
        Stack.push_back(B.End);
    }
    Y += L.Depths * Row + Gap;
  }
  double Height = Y + 4;
  OS << "<p class=\"counts\">" << Count << " spans and instants, "
     << duration(T1 - T0) << "; hover a bar for its name and duration";
  if (!Dropped.empty())
    OS << "; the " << Dropped.size()
       << " shortest spans are not drawn (tlp-emit --chrome-trace has them "
          "all)";
  OS << "</p>\n"
     << "<svg id=\"timeline\" data-not-drawn=\"" << Dropped.size()
     << "\" xmlns=\"http://www.w3.org/2000/svg\" "
        "viewBox=\"0 0 "
     << formatv("{0:f0} {1:f0}", LabelW + ChartW + 10, Height)
     << "\" width=\"100%\" role=\"img\" aria-label=\"compile timeline\">\n";
  // Axis: five ticks, times from the first span.
  for (int I = 0; I <= 4; ++I) {
    double X = LabelW + ChartW * I / 4;
    OS << formatv("<line class=\"tick\" x1=\"{0:f1}\" y1=\"{1:f0}\" "
                  "x2=\"{0:f1}\" y2=\"{2:f0}\"/>",
                  X, Top - 4, Height)
       << formatv("<text class=\"tick\" x=\"{0:f1}\" y=\"12\" "
                  "text-anchor=\"{1}\">",
                  X, I == 0 ? "start" : I == 4 ? "end" : "middle")
       << (I ? duration((T1 - T0) * I / 4) : std::string("0"))
       << "</text>\n";
  }
  Y = Top;
  for (auto &KV : Lanes) {
    const Lane &L = KV.second;
    OS << "<g class=\"lane\" data-lane=\"" << escapeHTML(L.Label) << "\">"
       << formatv("<text class=\"lane-label\" x=\"0\" y=\"{0:f1}\">", Y + 12)
       << escapeHTML(L.Label) << "</text>\n";
    for (const Bar &B : L.Bars) {
      const Span &S = *B.S;
      const CompileRecord &R = *B.R;
      double X = LabelW + (S.Start - T0) * Scale;
      double BY = Y + B.Depth * Row;
      std::string Tip = S.Name.str();
      if (S.Phase == 'i')
        Tip += " (instant)";
      else if (S.Phase == 'B')
        Tip += ": did not end";
      else
        Tip += ": " + duration(S.Duration);
      if (R.Id)
        Tip += "\ncompile " + R.idName() + " (" +
               compileStatusName(R.Status).str() + ")";
      Tip += "\nlog line " + std::to_string(S.Line);
      std::string Status =
          R.Id ? compileStatusName(R.Status).str() : std::string("none");
      if (S.Phase == 'i') {
        OS << formatv("<path class=\"instant\" d=\"M{0:f1} {1:f1}l4 7h-8z\"",
                      X, BY + 4)
           << " data-name=\"" << escapeHTML(S.Name) << "\"><title>"
           << escapeHTML(Tip) << "</title></path>\n";
        continue;
      }
      double W = std::max(0.5, (B.End - S.Start) * Scale);
      if (R.Id)
        OS << "<a href=\"#" << escapeHTML(compileAnchor(R)) << "\">";
      OS << "<rect class=\"span status-" << Status
         << (S.Phase == 'B' ? " unfinished" : "") << "\" "
         << formatv("x=\"{0:f1}\" y=\"{1:f1}\" width=\"{2:f1}\" "
                    "height=\"{3:f0}\"",
                    X, BY + 1, W, Row - 2)
         << " data-name=\"" << escapeHTML(S.Name) << "\" data-dur-us=\""
         << (S.Phase == 'B' ? 0 : S.Duration) << "\"><title>"
         << escapeHTML(Tip) << "</title></rect>";
      // The name inside the bar when it fits (about 6 units a character).
      if (W > 6.5 * S.Name.size() + 6)
        OS << formatv("<text class=\"span-label\" x=\"{0:f1}\" y=\"{1:f1}\">",
                      X + 3, BY + 12)
           << escapeHTML(S.Name) << "</text>";
      OS << (R.Id ? "</a>\n" : "\n");
    }
    OS << "</g>\n";
    Y += L.Depths * Row + Gap;
  }
  OS << "</svg>\n";
}

void writeCacheMisses(raw_ostream &Out, const Module &M,
                      const std::vector<size_t> &Order, unsigned Threads) {
  // "(region <code>r</code>, line N)" of a lookup.
  auto Place = [](const CacheLookup &C) {
    return "(" +
           (C.Subgraph.empty()
                ? std::string()
                : "region <code>" + escapeHTML(C.Subgraph) + "</code>, ") +
           "line " + std::to_string(C.Line) + ")";
  };
  auto Render = [&](size_t K, raw_ostream &OS) {
    const CompileRecord &R = M.Compiles[Order[K]];
    std::vector<Module::CacheMissDiff> Diffs = M.cacheMissDiffs(R);
    for (const Module::CacheMissDiff &D : Diffs) {
      size_t N = D.Changes.size();
      OS << "<li><a href=\"#" << escapeHTML(compileAnchor(R)) << "\"><code>"
         << escapeHTML(R.displayName()) << "</code></a>: "
         << cacheKindName(D.Miss->Cache) << " cache miss " << Place(*D.Miss)
         << "; against <a href=\"#"
         << escapeHTML(compileAnchor(*D.Against)) << "\"><code>"
         << escapeHTML(D.Against->displayName()) << "</code></a> (line "
         << D.Before->Line << "), " << N
         << (N == 1 ? " component" : " components") << " of "
         << D.Miss->Components.size() << " differ"
         << alignedText(D.Aligned, [](StringRef S) {
              return "<code>" + escapeHTML(S) + "</code>";
            });
      if (N) {
        OS << ":\n<ul>\n";
        for (const Module::KeyChange &K : D.Changes) {
          OS << "<li><code>" << escapeHTML(K.Name) << "</code>";
          if (!K.BeforeName.empty())
            OS << " (was <code>" << escapeHTML(K.BeforeName) << "</code>)";
          else if (K.Aligned && K.After.empty())
            OS << " (its index before)";
          OS << ": ";
          // A value of several lines (a changed `gm`): the first lines
          // that differ, as a small diff.
          std::string Diff = K.Before.empty() || K.After.empty()
                                 ? std::string()
                                 : keyValueDiff(K.Before, K.After);
          if (!Diff.empty()) {
            OS << "line " << firstDifferingLine(K.Before, K.After)
               << " differs:\n<pre class=\"key-diff\">";
            SmallVector<StringRef, 16> Lines;
            StringRef(Diff).rtrim('\n').split(Lines, '\n');
            for (StringRef L : Lines) {
              StringRef Class = L.startswith("@@")  ? "hunk"
                                : L.startswith("-") ? "del"
                                : L.startswith("+") ? "ins"
                                                    : "";
              if (Class.empty())
                OS << escapeHTML(L) << "\n";
              else
                OS << "<span class=\"" << Class << "\">" << escapeHTML(L)
                   << "</span>\n";
            }
            OS << "</pre></li>\n";
            continue;
          }
          auto Show = [](StringRef V, StringRef Other) {
            StringRef First =
                V.take_until([](char C) { return C == '\n' || C == '\r'; });
            return "<code>" + escapeHTML(clipDifference(First, Other, 200)) +
                   "</code>";
          };
          OS << (K.Before.empty()
                     ? std::string(K.Aligned ? "(inserted)" : "(absent)")
                     : Show(K.Before, K.After))
             << " &rarr; "
             << (K.After.empty()
                     ? std::string(K.Aligned ? "(removed)" : "(absent)")
                                 : Show(K.After, K.Before))
             << "</li>\n";
        }
        OS << "</ul>";
      }
      OS << "</li>\n";
    }
    // The misses with nothing to compare are listed too, with why.
    for (const Module::UndiffedMiss &U : M.cacheMissesNotDiffed(R, Diffs)) {
      OS << "<li class=\"no-diff\"><a href=\"#" << escapeHTML(compileAnchor(R))
         << "\"><code>" << escapeHTML(R.displayName()) << "</code></a>: "
         << cacheKindName(U.Miss->Cache) << " cache miss " << Place(*U.Miss)
         << ": " << escapeHTML(U.why())
         << ".</li>\n";
    }
    // A bypass: PyTorch did not use the cache, and says why.
    for (const CacheLookup &C : R.Caches) {
      if (C.Result != CacheLookup::Bypass)
        continue;
      OS << "<li class=\"bypass\"><a href=\"#" << escapeHTML(compileAnchor(R))
         << "\"><code>" << escapeHTML(R.displayName()) << "</code></a>: "
         << cacheKindName(C.Cache) << " cache bypass " << Place(C) << ": "
         << (C.Reason.empty() ? std::string("PyTorch logged no reason")
                              : "<code>" + escapeHTML(StringRef(C.Reason).trim()) +
                                    "</code>")
         << "</li>\n";
    }
  };
  if (renderSectionInOrder(
          Out, "<h2>Why did the cache miss?</h2>\n<ul id=\"cache-misses\">\n",
          Order.size(), Threads, Render))
    Out << "</ul>\n";
}

} // namespace

/// "Export": what each torch.export log says (tlp/Analysis/Export.h): its
/// verdict, its exported programs (linked to their text, shown raw), the
/// operators without a fake kernel or with one that disagrees, the
/// data-dependent errors, guards and runtime asserts, and symbols.
void writeExports(raw_ostream &OS, const Module &M, bool DirMode) {
  std::vector<ExportReport> Reports = exportReports(M);
  if (Reports.empty())
    return;
  OS << "<h2 id=\"export-head\">Export</h2>\n";
  for (size_t K = 0; K < Reports.size(); ++K) {
    const ExportReport &X = Reports[K];
    const CompileRecord &R = M.Compiles[X.Record];
    OS << "<section class=\"export\" id=\"export-" << K << "\"><p><code>"
       << escapeHTML(M.logName(R.Log)) << "</code>: <b class=\"verdict\">"
       << escapeHTML(X.verdict()) << "</b></p>\n";
    if (!X.Programs.empty()) {
      OS << "<ul class=\"programs\">\n";
      for (const ExportEvent *P : X.Programs) {
        OS << "<li>exported program, line " << P->Line << ", " << P->Lines
           << " lines";
        if (const RawEvent *T = X.programText(M, *P)) {
          // Its text: the compile's raw events, or those of no compile.
          const std::vector<RawEvent> &List =
              T >= M.Raw.data() && T < M.Raw.data() + M.Raw.size() ? M.Raw
                                                                    : R.Raw;
          const CompileRecord *Owner = &List == &M.Raw ? nullptr : &R;
          std::string Slug = Owner ? Owner->slug() : std::string("log");
          std::string Anchor =
              "raw-" + Slug + "-" + std::to_string(T - List.data());
          OS << ": <a class=\"program\" href=\""
             << escapeHTML(DirMode ? rawLink(Owner, true) + "#" + Anchor
                                   : "#" + Anchor)
             << "\">the program</a>";
        }
        OS << "</li>\n";
      }
      OS << "</ul>\n";
    }
    if (!X.FakeKernels.empty()) {
      OS << "<table class=\"fake-kernels\"><thead><tr><th>operator</th>"
            "<th>fake kernel</th><th>line</th></tr></thead><tbody>\n";
      for (const ExportEvent *E : X.FakeKernels)
        OS << "<tr><td><code>" << escapeHTML(E->Op.empty() ? "?" : E->Op)
           << "</code></td><td>"
           << (E->Kind == ExportEvent::MissingFakeKernel
                   ? std::string("missing")
                   : "disagrees" + (E->Reason.empty()
                                        ? std::string()
                                        : ": " + escapeHTML(E->Reason)))
           << "</td><td>" << E->Line << "</td></tr>\n";
      OS << "</tbody></table>\n";
    }
    auto Shapes = [&](const char *Class, const char *Head,
                      const std::vector<const ShapeEvent *> &List) {
      if (List.empty())
        return;
      OS << "<table class=\"" << Class << "\"><thead><tr><th>" << Head
         << "</th><th>line</th><th>user line</th></tr></thead><tbody>\n";
      for (const ShapeEvent *S : List) {
        std::string What = S->Expr;
        if (S->Kind == ShapeEvent::Symbol ||
            S->Kind == ShapeEvent::UnbackedSymbol) {
          What = S->Sym;
          if (!S->Source.empty())
            What += " = " + S->Source;
          if (!S->Range.empty())
            What += " in " + S->Range;
        }
        OS << "<tr><td><code>" << escapeHTML(What) << "</code></td><td>"
           << S->Line << "</td><td>";
        if (S->UserFrame)
          OS << "<code>" << escapeHTML(where(*S->UserFrame)) << "</code>"
             << (S->UserFrame->Code.empty()
                     ? std::string()
                     : " <code>" + escapeHTML(S->UserFrame->Code) + "</code>");
        else
          OS << "?";
        OS << "</td></tr>\n";
      }
      OS << "</tbody></table>\n";
    };
    Shapes("data-dependent", "data-dependent error or decision",
           X.DataDependent);
    Shapes("export-guards", "guard or runtime assert", X.Guards);
    Shapes("export-symbols", "symbol", X.Symbols);
    OS << "</section>\n";
  }
}

/// The heat class of \p Part of \p Whole: heat0 (none) to heat5 (all).
static std::string heatClass(double Part, double Whole) {
  int N = Whole > 0 ? static_cast<int>(Part / Whole * 5 + 0.5) : 0;
  return "heat heat" + std::to_string(std::max(0, std::min(5, N)));
}

void writeProfile(raw_ostream &OS, const ProfileTrace &T,
                  const ProfileReport &R, ArrayRef<ProfileUnit> Units) {
  const size_t Top = 20;
  OS << "<h2 id=\"profile-head\">Where the time goes</h2>\n<p>From the "
        "profile <code>"
     << escapeHTML(T.Path) << "</code>: " << R.Events << " timed events; "
     << R.Matched << " kernel calls (with " << R.Nested
     << " events inside them), " << R.Structural
     << " compiled regions and graph calls, " << R.UnmatchedCount
     << " that match no kernel";
  if (R.Damaged)
    OS << "; " << R.Damaged << " damaged events left out";
  OS << ". Times in microseconds. A kernel's time is split evenly among "
        "the post-grad nodes, pre-grad nodes and user lines it is linked "
        "to (docs/profile.md).</p>\n";
  OS << "<table id=\"profile-compiles\">\n<thead><tr><th>compile id</th>"
        "<th>regions</th><th>region time</th><th>graph calls</th>"
        "<th>graph call time</th><th>kernel time</th></tr></thead>\n"
        "<tbody>\n";
  for (const ProfileReport::CompileTime &C : R.Compiles)
    OS << "<tr><td>"
       << (C.CompileId.empty() ? std::string("(no region)")
                               : "<code>" + escapeHTML(C.CompileId) +
                                     "</code>")
       << "</td><td>" << C.Regions << "</td><td>"
       << formatMicros(C.RegionTime) << "</td><td>" << C.GraphCalls
       << "</td><td>" << formatMicros(C.GraphCallTime) << "</td><td>"
       << formatMicros(C.KernelTime) << "</td></tr>\n";
  OS << "</tbody>\n</table>\n";
  double Max = R.Kernels.empty() ? 0 : double(R.Kernels.front().Total);
  OS << "<h3>Top kernels</h3>\n";
  if (R.Kernels.empty()) {
    OS << "<p class=\"empty\">no event matched a kernel</p>\n";
  } else {
    OS << "<table id=\"profile-kernels\">\n<thead><tr><th>unit</th>"
          "<th>kernel</th><th>event</th><th>calls</th><th>time</th>"
          "<th>mean</th><th>self</th><th>share of region</th></tr></thead>"
          "\n<tbody>\n";
    for (size_t I = 0; I < R.Kernels.size() && I < Top; ++I) {
      const ProfileReport::KernelTime &K = R.Kernels[I];
      const ProfileUnit::Row &Row = Units[K.Unit].Rows[K.Row];
      OS << "<tr><td><code>" << escapeHTML(Units[K.Unit].Id)
         << "</code></td><td><code>" << escapeHTML(Row.Key)
         << "</code></td><td><code>" << escapeHTML(profileNameOfKernel(Row))
         << "</code></td><td>" << K.Count << "</td><td class=\""
         << heatClass(K.Total, Max) << "\">" << formatMicros(K.Total)
         << "</td><td>"
         << formatMicros(K.Count ? double(K.Total) / K.Count : 0)
         << "</td><td>" << formatMicros(K.Self) << "</td><td>"
         << (K.Share ? formatv("{0:F1}%", *K.Share * 100).str()
                     : std::string("-"))
         << "</td></tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }
  OS << "<h3>Top user lines</h3>\n";
  if (R.Lines.empty()) {
    OS << "<p class=\"empty\">no timed kernel is linked to a user line</p>\n";
  } else {
    double MaxL = R.Lines.front().Time;
    OS << "<table id=\"profile-lines\">\n<thead><tr><th>line</th>"
          "<th>time</th><th>kernels</th></tr></thead>\n<tbody>\n";
    for (size_t I = 0; I < R.Lines.size() && I < Top; ++I)
      OS << "<tr><td><code>" << escapeHTML(R.Lines[I].Name)
         << "</code></td><td class=\"" << heatClass(R.Lines[I].Time, MaxL)
         << "\">" << formatMicros(R.Lines[I].Time) << "</td><td>"
         << R.Lines[I].Kernels << "</td></tr>\n";
    OS << "</tbody>\n</table>\n";
  }
  OS << "<h3>Unmatched events</h3>\n";
  if (R.UnmatchedEvents.empty()) {
    OS << "<p class=\"empty\">every timed event is a region, a graph call, "
          "a kernel call or inside one</p>\n";
    return;
  }
  OS << "<table id=\"profile-unmatched\">\n<thead><tr><th>event</th>"
        "<th>where</th><th>count</th><th>self time</th></tr></thead>\n"
        "<tbody>\n";
  for (const ProfileReport::Unmatched &E : R.UnmatchedEvents)
    OS << "<tr><td><code>" << escapeHTML(clip(E.Name, 160))
       << "</code></td><td>" << E.Where << "</td><td>" << E.Count
       << "</td><td>" << formatMicros(E.Self) << "</td></tr>\n";
  OS << "</tbody>\n</table>\n";
}

void writeRankRuntime(raw_ostream &OS, const Module &M,
                      const CodeCollectives *Code) {
  RankRuntime RT = compareRankRuntime(M, Code);
  if (RT.empty())
    return;
  OS << "<h2 id=\"rank-runtime-head\">Ranks at run time</h2>\n<p>What "
        "Inductor scheduled and estimated for each compile "
        "(<code>inductor_collective_schedule</code>, "
        "<code>inductor_runtime_and_tensor_meta</code>) and the order the "
        "graphs ran (<code>graph_execution</code>), per rank.</p>\n";
  if (RT.Ranks.size() > 1) {
    if (RT.Divergences.empty()) {
      OS << "<p class=\"agree\">The ranks agree: the same collectives in the "
            "same order, the same tensor metadata, the same cache results "
            "and execution order.</p>\n";
    } else {
      OS << "<ul id=\"rank-divergences\">\n";
      for (const RankDivergence &D : RT.Divergences) {
        OS << "<li class=\"diverge\" data-kind=\""
           << divergenceKindName(D.Kind) << "\"><b>"
           << escapeHTML(divergenceTitle(D.Kind)) << "</b>, "
           << escapeHTML(divergencePlace(D)) << ": ";
        bool First = true;
        for (const auto &G : groupRanksByValue(D.At)) {
          OS << (First ? "" : "; ") << escapeHTML(rankListText(G.second))
             << " "
             << (G.first == "-" ? std::string("nothing")
                                : "<code>" + escapeHTML(G.first) + "</code>");
          First = false;
        }
        OS << "</li>\n";
      }
      OS << "</ul>\n";
    }
  }
  if (!RT.Rows.empty()) {
    OS << "<table id=\"rank-runtime\">\n<thead><tr><th>compile</th>"
          "<th>rank</th><th>collectives scheduled</th><th>ops estimated</th>"
          "<th>estimated time</th></tr></thead>\n<tbody>\n";
    for (const RankCompileRow &Row : RT.Rows)
      for (const auto &[Rank, I] : Row.ByRank) {
        const CompileRecord &R = M.Compiles[I];
        std::string Sched;
        for (const std::string &N : scheduleOf(R))
          Sched += (Sched.empty() ? "" : " ") + ("<code title=\"" +
                   escapeHTML(N) + "\">" + escapeHTML(shortKernelName(N)) +
                   "</code>");
        EstimateTotal E = estimateOf(R);
        OS << "<tr><td><a href=\"#" << compileAnchor(R) << "\">"
           << escapeHTML(Row.Compile) << "</a></td><td>"
           << (Rank < 0 ? std::string("-") : std::to_string(Rank)) << "</td><td>"
           << (Sched.empty() ? std::string("-") : Sched) << "</td><td>" << E.Ops
           << "</td><td>" << estimateText(E.Ns) << "</td></tr>\n";
      }
    OS << "</tbody>\n</table>\n";
  }
  if (!RT.Executions.empty()) {
    OS << "<p>Graph execution order:</p>\n<ul id=\"executions\">\n";
    for (const auto &[Rank, L] : RT.Executions) {
      OS << "<li>" << (Rank < 0 ? std::string("the process")
                                : "rank " + std::to_string(Rank))
         << ":";
      for (const std::string &Id : L)
        OS << " <code>" << escapeHTML(Id) << "</code>";
      OS << "</li>\n";
    }
    OS << "</ul>\n";
  }
}

/// A compile without a compile id (AOTInductor's), a paragraph each
/// (`p.no-id-compile`): CompileRecord::noIdCompileText, its `code` spans
/// as <code>.
static void writeNoIdCompiles(raw_ostream &OS, const Module &M,
                              const RecordUnits &Units, bool Heading) {
  for (size_t I = 0; I < M.Compiles.size(); ++I) {
    const CompileRecord &R = M.Compiles[I];
    if (R.Id || R.Metrics.empty())
      continue;
    std::vector<std::string> Names;
    auto It = Units.find(I);
    if (It != Units.end())
      for (const auto &U : It->second)
        Names.push_back("`" + U.first + "`");
    std::string T = R.noIdCompileText(Names);
    if (T.empty())
      continue;
    if (Heading)
      OS << "<h2 id=\"compiles-head\">Compiles</h2>\n";
    Heading = false;
    OS << "<p class=\"no-id-compile\">";
    SmallVector<StringRef, 8> Parts;
    StringRef(T).split(Parts, '`');
    for (size_t J = 0; J < Parts.size(); ++J)
      OS << (J % 2 ? "<code>" : "") << escapeHTML(Parts[J])
         << (J % 2 ? "</code>" : "");
    OS << "</p>\n";
  }
}

void writeDashboard(raw_ostream &OS, const Module &M,
                    const RecordUnits &Units, bool DirMode, unsigned Threads) {
  writeExports(OS, M, DirMode);
  std::vector<size_t> Order = compileOrder(M);
  if (Order.empty())
    writeNoIdCompiles(OS, M, Units, /*Heading=*/true);
  if (!Order.empty()) {
    std::vector<GuardGroup> Groups = groupGuards(M, Order);
    std::map<size_t, size_t> GuardOf; // record -> its guard text
    for (size_t K = 0; K < Groups.size(); ++K)
      for (size_t I : Groups[K].Records)
        GuardOf[I] = K;
    writeCompiles(OS, M, Order, Units, GuardOf, DirMode, Threads);
    writeNoIdCompiles(OS, M, Units, /*Heading=*/false);
    writeGraphBreaks(OS, M);
    writeGuards(OS, M, Groups);
    writeConfigs(OS, M, Order);
    writeShapes(OS, M, Order);
    writeMetrics(OS, M, Order, Threads);
    writeCacheMisses(OS, M, Order, Threads);
    writeStackTrie(OS, M);
  }
  if (!Order.empty() ||
      llvm::any_of(M.Compiles,
                   [](const CompileRecord &R) { return !R.Spans.empty(); }))
    writeTimeline(OS, M);
}

} // namespace emit
} // namespace tlp
