//===- MarkdownEmitter.cpp - A report to paste into a bug -----------------===//
//
// docs/markdown.md describes the output. The report is GitHub-flavoured
// Markdown: one document for the whole input, a section per unit with its
// kernel table, the pre-grad nodes that vanished or went to library calls,
// coverage and diagnostics. With --node or --source it answers "where did
// my op go?" instead. Every string from the log is escaped (code spans,
// fenced blocks or backslash escapes). Sections are rendered as units
// arrive; only the text is kept, and the document is written at end(),
// when the diagnostics are complete.
//
//===----------------------------------------------------------------------===//

#include "EmitSupport.h"

#include "tlp/Analysis/CompilePhases.h"
#include "tlp/Analysis/Configs.h"
#include "tlp/Analysis/Export.h"
#include "tlp/Analysis/GraphBreaks.h"
#include "tlp/Analysis/Guards.h"
#include "tlp/Analysis/Metrics.h"
#include "tlp/Analysis/PassTimeline.h"
#include "tlp/Analysis/Query.h"
#include "tlp/Analysis/Profile.h"
#include "tlp/Analysis/RankRuntime.h"
#include "tlp/Analysis/UnitDigest.h"
#include "tlp/Analysis/UnitView.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/Emit/MarkdownRender.h"
#include "tlp/IR/InductorNames.h"
#include "tlp/IR/Provenance.h"
#include "tlp/IR/TensorType.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Parallel.h"
#include "tlp/Support/PrintableStream.h"
#include "tlp/Support/SpillFile.h"
#include "tlp/Support/StringUtils.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace llvm;

namespace tlp {

using namespace emit;

namespace {

/// What a unit owns among the diagnostics: those that name it ("unit 0/0
/// forward: ...") and those located in one of its artifacts' payloads.
struct DiagScope {
  std::string Log;
  std::string Prefix;
  std::vector<std::pair<uint32_t, uint32_t>> Ranges;

  bool owns(const Diagnostic &D) const {
    if (StringRef(D.Message).startswith(Prefix))
      return true;
    if (D.File != Log || !D.Line)
      return false;
    for (auto &R : Ranges)
      if (D.Line >= R.first && D.Line <= R.second)
        return true;
    return false;
  }
};

struct Section {
  std::string Slug;
  std::string Body;
  DiagScope Scope;
};

/// The diagnostics each DiagScope owns (DiagScope::owns), found through an
/// index instead of asking every scope about every diagnostic: a report
/// of 10,000 units and 100,000 diagnostics asked 10^9 questions.
class DiagOwners {
public:
  explicit DiagOwners(llvm::ArrayRef<const Diagnostic *> All) : All(All) {
    for (size_t I = 0; I < All.size(); ++I) {
      const Diagnostic &D = *All[I];
      if (D.Line)
        ByFile[D.File].push_back({D.Line, I});
      // A scope's prefix is "unit NAME:": the message is filed under each
      // of its beginnings that end at a ':'.
      StringRef Msg(D.Message);
      if (!Msg.startswith("unit "))
        continue;
      for (size_t C = Msg.find(':'); C != StringRef::npos && C < MaxPrefix;
           C = Msg.find(':', C + 1))
        ByPrefix[Msg.take_front(C + 1)].push_back(I);
    }
    for (auto &KV : ByFile)
      llvm::sort(KV.second);
  }
  /// The indices (into All) of the diagnostics \p S owns, ascending.
  std::vector<size_t> ownedBy(const DiagScope &S) const {
    std::vector<size_t> Out;
    if (S.Prefix.size() >= MaxPrefix) { // not indexed: ask each
      for (size_t I = 0; I < All.size(); ++I)
        if (S.owns(*All[I]))
          Out.push_back(I);
      return Out;
    }
    auto P = ByPrefix.find(S.Prefix);
    if (P != ByPrefix.end())
      Out = P->second;
    auto F = ByFile.find(S.Log);
    if (F != ByFile.end())
      for (const std::pair<uint32_t, uint32_t> &R : S.Ranges)
        for (auto It = std::lower_bound(F->second.begin(), F->second.end(),
                                        std::make_pair(R.first, size_t(0)));
             It != F->second.end() && It->first <= R.second; ++It)
          Out.push_back(It->second);
    llvm::sort(Out);
    Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
    return Out;
  }

private:
  static constexpr size_t MaxPrefix = 1024;
  llvm::ArrayRef<const Diagnostic *> All;
  llvm::StringMap<std::vector<std::pair<uint32_t, size_t>>> ByFile;
  llvm::StringMap<std::vector<size_t>> ByPrefix;
};

std::string percent(const CoverageCount &C) {
  if (!C.Total)
    return "n/a";
  std::string S;
  raw_string_ostream OS(S);
  OS << C.Linked << "/" << C.Total << " ("
     << format("%.0f", 100.0 * C.Linked / C.Total) << "%)";
  // Post-grad nodes whose pre-grad node is known by name only: the
  // mapping names it, the unit has no pre-grad graph (a cache hit).
  if (C.ByPreGradName)
    OS << " (+" << C.ByPreGradName << " by pre-grad name only)";
  return OS.str();
}

std::string formatDouble(double V) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format("%g", V);
  return OS.str();
}

std::string countOf(size_t N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// Source labels for one unit: the base name of the file when no other
/// file of the unit has the same base name, else the full path.
class SourceNames {
public:
  explicit SourceNames(const CompileUnit &U) {
    std::map<std::string, std::set<std::string>> Files;
    for (const SourceLoc &S : U.Sources)
      Files[baseName(S.File).str()].insert(S.File);
    for (auto &KV : Files)
      if (KV.second.size() > 1)
        for (const std::string &F : KV.second)
          Ambiguous.insert(F);
  }
  std::string label(const SourceLoc &S) const {
    std::string F = Ambiguous.count(S.File) ? S.File : baseName(S.File).str();
    return F + ":" + std::to_string(S.Line) + callSuffix(S);
  }
  /// " self.a(y)": the part of the line a kernel stack trace underlined,
  /// which tells two calls on one line apart; nothing without one.
  static std::string callSuffix(const SourceLoc &S) {
    return S.hasSpan() ? " " + S.underlined().str() : std::string();
  }

private:
  std::set<std::string> Ambiguous;
};

std::string fullLabel(const SourceLoc &S) {
  return S.File + ":" + std::to_string(S.Line) + SourceNames::callSuffix(S);
}

/// The line alone, span or not.
std::string lineLabel(const SourceLoc &S) {
  return S.File + ":" + std::to_string(S.Line);
}

std::vector<std::string> preNames(const CompileUnit &U,
                                  ArrayRef<uint32_t> Idx) {
  std::vector<std::string> Out;
  if (U.PreGrad)
    for (uint32_t I : Idx)
      Out.push_back(U.PreGrad->Nodes[I].qualifiedName());
  return Out;
}

std::vector<std::string> postNames(const CompileUnit &U,
                                   ArrayRef<uint32_t> Idx) {
  std::vector<std::string> Out;
  if (U.PostGrad)
    for (uint32_t I : Idx)
      Out.push_back(U.PostGrad->Nodes[I].qualifiedName());
  return Out;
}

std::vector<std::string> kernelKeys(const CompileUnit &U,
                                    ArrayRef<uint32_t> Rows) {
  std::vector<std::string> Out;
  for (uint32_t R : Rows)
    Out.push_back(U.Kernels[R].key());
  return Out;
}

std::string callLines(const Kernel &K) {
  std::string Out;
  for (size_t I = 0; I < K.CallLines.size(); ++I) {
    if (I == 8) {
      Out += " and " + std::to_string(K.CallLines.size() - 8) + " more";
      break;
    }
    Out += (I ? ", " : "") + std::to_string(K.CallLines[I]);
  }
  return Out;
}

/// `name` (`target`, `f32[8, 16]`)
std::string nodeSummary(const Node &N) {
  std::vector<std::string> Parts;
  if (!N.Target.empty())
    Parts.push_back(mdCode(shortTarget(N.Target), false));
  std::string T = shortTypeLabel(N.Type);
  if (!T.empty())
    Parts.push_back(mdCode(T, false));
  std::string S = mdCode(N.qualifiedName(), false);
  for (size_t I = 0; I < Parts.size(); ++I)
    S += (I ? ", " : " (") + Parts[I];
  return Parts.empty() ? S : S + ")";
}

DiagScope diagScope(const Module &M, const CompileUnit &U) {
  DiagScope D;
  D.Log = M.logName(U.Key.Log);
  D.Prefix = "unit " + U.Key.displayName() + ":";
  auto Add = [&](const Artifact *A, StringRef Text) {
    if (!A || A->Log != U.Key.Log)
      return;
    D.Ranges.push_back({A->Line, A->Line + countLines(Text)});
  };
  U.forEachArtifact([&](UnitSlot, const Artifact &A) {
    if (const auto *G = dyn_cast<GraphArtifact>(&A))
      Add(&A, G->Text);
    else if (const auto *C = dyn_cast<CodeArtifact>(&A))
      Add(&A, C->Text);
    else
      Add(&A, "");
  });
  return D;
}

std::string diagnosticText(ArrayRef<const Diagnostic *> Diags) {
  std::string Body;
  raw_string_ostream OS(Body);
  for (const Diagnostic *D : Diags)
    printDiagnostic(OS, *D, "tlp", /*UseColor=*/false);
  return mdFence(OS.str());
}

class MarkdownEmitter : public Emitter {
public:
  using Emitter::Emitter;

  EmitterTraits traits() const override {
    EmitterTraits T;
    T.Select = &Opts.Unit;
    T.NeedsDigests = !Opts.Query;
    T.NeedsProfile = !Opts.Profile.empty() && !Opts.Query;
    return T;
  }

  Error begin(const Module &M) override {
    if (!Opts.Query && !emit::readProfile(Opts, Diags, Profile))
      return createStringError(inconvertibleErrorCode(),
                               "the profile could not be read");
    // The engine remembers the names it saw, for notFound().
    Query = Opts.Query;
    return Error::success();
  }

  Error unit(const Module &M, const CompileUnit &U) override {
    if (!facts().current().Selected)
      return Error::success();
    ++Selected;
    UnitView V(M, U);
    if (Query && Query->isNode())
      answerNode(V);
    else if (Query)
      answerSource(V);
    else
      reportUnit(V);
    return Error::success();
  }

  Error end(const Module &M) override {
    // No control character or invalid UTF-8 from a log reaches a terminal
    // or the page (docs/markdown.md): every piece is made printable()
    // (pieces meet at line ends, so this is the document made printable).
    if (!Query && Opts.Render == RenderFormat::Markdown)
      return writeReport(M, out());
    std::string Doc;
    if (Query) {
      if (Error E = assembleAnswer(M, Doc))
        return E;
      Doc = printable(Doc);
    } else {
      raw_string_ostream OS(Doc);
      if (Error E = writeReport(M, OS))
        return E;
      OS.flush();
    }
    if (Opts.Render == RenderFormat::HTML) {
      MarkdownRenderOptions RO;
      Doc = renderMarkdownToHTML(Doc, RO);
    }
    out() << Doc;
    return Error::success();
  }

private:
  Optional<ProfileTrace> Profile;
  size_t Selected = 0;
  // The report.
  std::vector<std::string> SummaryRows;
  /// The units' sections, in unit order: each body kept in Spill (made
  /// printable already) until end() writes it after the summary, so that
  /// memory does not grow with the report.
  struct UnitSection {
    SpillFile::Piece Body;
    DiagScope Scope;
  };
  std::vector<UnitSection> Sections;
  std::unique_ptr<SpillFile> Spill;
  // --node / --source.
  Optional<ProvenanceQuery> Query;
  /// Whether every unit answered a --node name as a pre-grad node's.
  bool AllPreNodes = true;
  std::vector<Section> Answers;

  /// Text for a table cell: one line, escaped, at most \p Max bytes.
  static std::string cell(StringRef S, size_t Max = 160) {
    return mdCell(S, Max);
  }

  /// The ranks compared: for each compile, each rank against the lowest.
  void reportRanks(raw_ostream &OS, const Module &M) {
    RankComparison RC = compareRanks(facts().Digests, &M);
    if (RC.Rows.empty())
      return;
    auto Link = [](const std::string &Id) {
      return "[" + mdCode(Id) + "](#" + headingAnchor("Unit " + Id) + ")";
    };
    size_t Diverge = RC.divergentRows();
    OS << "## Ranks\n\n"
       << "For each compiled graph (a compile's forward, backward or "
          "inference graph), does each rank agree with the lowest rank on "
          "the post-grad graph (its ops and their arguments, in order), the "
          "kernels (names, code and fusion, noise normalised) and the "
          "collectives? "
       << (RC.Rows.size() - Diverge) << " of "
       << countOf(RC.Rows.size(), "graph agrees", "graphs agree")
       << " on all " << RC.Ranks.size() << " ranks.\n\n";
    if (RC.Ranks.size() > MaxRankColumns) {
      // Many ranks: by outcome, not a column per rank.
      OS << "| compile id | graph | reference | agree | differ |\n"
         << "|---|---|---|---|---|\n";
      for (const RankRow &Row : RC.Rows) {
        auto Outcomes = Row.outcomes();
        std::vector<std::string> Differ;
        for (size_t I = 1; I < Outcomes.size(); ++I)
          Differ.push_back(
              (Outcomes[I].second.size() == 1 ? "rank " : "ranks ") +
              rankRanges(Outcomes[I].second) + ": " +
              (StringRef(Outcomes[I].first).startswith("missing")
                   ? ""
                   : "**differs**: ") +
              cell(Outcomes[I].first, 200));
        OS << "| " << mdCode(Row.CompileId) << " | " << Row.Graph
           << " | rank " << Row.ReferenceRank << " | "
           << (Outcomes[0].second.empty() ? "none"
                                          : rankRanges(Outcomes[0].second))
           << " | " << (Differ.empty() ? "none" : llvm::join(Differ, "; "))
           << " |\n";
      }
      OS << "\n";
    } else {
      OS << "| compile id | graph |";
      for (int64_t R : RC.Ranks)
        OS << " rank " << R << " |";
      OS << "\n|---|---|";
      for (size_t I = 0; I < RC.Ranks.size(); ++I)
        OS << "---|";
      OS << "\n";
      for (const RankRow &Row : RC.Rows) {
        OS << "| " << mdCode(Row.CompileId) << " | " << Row.Graph << " |";
        for (int64_t R : RC.Ranks) {
          std::vector<std::string> Parts;
          for (const RankCell &C : Row.Cells) {
            if (C.Rank != R)
              continue;
            if (C.UnitId == Row.ReferenceId)
              Parts.push_back("reference");
            else if (C.UnitId.empty())
              Parts.push_back(cell(C.Difference, 200));
            else if (C.Difference.empty())
              Parts.push_back("agrees");
            else
              Parts.push_back("**differs**: " + cell(C.Difference, 200));
          }
          OS << " " << llvm::join(Parts, "; ") << " |";
        }
        OS << "\n";
      }
      OS << "\n";
    }
    if (RC.FirstRow) {
      const RankRow &Row = RC.Rows[*RC.FirstRow];
      const RankCell &C = Row.Cells[*RC.FirstCell];
      OS << "First divergent unit: "
         << (C.UnitId.empty()
                 ? "rank " + std::to_string(C.Rank) + " has no unit for " +
                       mdCode(Row.CompileId) + " " + Row.Graph
                 : Link(C.UnitId))
         << ", against " << Link(Row.ReferenceId) << " (rank "
         << Row.ReferenceRank << "): " << mdText(C.Difference) << ".\n\n";
    }
  }

  /// " (`f.py:12`)" for the place PyTorch names; with the innermost frame
  /// in the user's files when that is another place, " (`f.py:12` in your
  /// code; PyTorch names `custom_ops.py:863`)". "" when neither is known.
  static std::string places(const Optional<SourceLoc> &Named,
                            const Optional<SourceLoc> &User) {
    auto Text = [](const SourceLoc &L) {
      return mdCode(sys::path::filename(L.File).str() + ":" +
                    std::to_string(L.Line));
    };
    if (User && !(Named && Named->File == User->File &&
                  Named->Line == User->Line))
      return " (" + Text(*User) + " in your code" +
             (Named ? "; PyTorch names " + Text(*Named) : std::string()) +
             ")";
    return Named ? " (" + Text(*Named) + ")" : std::string();
  }

  /// places() of a failure; with no place logged, the frame Dynamo was
  /// compiling, said as such.
  static std::string failPlaces(const CompileRecord &R) {
    if (!R.FailFrame && !R.FailUserFrame && R.frame())
      return " (no place logged; while compiling " +
             mdCode(sys::path::filename(R.frame()->File).str() + ":" +
                    std::to_string(R.frame()->Line)) +
             ")";
    return places(R.FailFrame, R.FailUserFrame);
  }

  /// "### Reasons": every failure, graph-break, restart and recompile
  /// reason of each compile, whole, in fenced blocks (a fence longer than
  /// any backtick run of the text), with the tracebacks.
  void reportReasons(const Module &M, const std::vector<size_t> &Order,
                     raw_ostream &Out) {
    auto Render = [&](size_t K, raw_ostream &OS) {
      const CompileRecord &R = M.Compiles[Order[K]];
      bool Failed = R.Status == CompileStatus::Failure;
      if (!Failed && R.Breaks.empty() && R.RecompileReasons.empty())
        return;
      // Paragraphs, not headings or emphasis: the report's HTML rendering
      // then holds no element a log could not have made before.
      std::string Head = "Compile " + mdCode(R.displayName(), false) + ", " +
                         compileStatusName(R.Status).str() + ": ";
      if (Failed) {
        OS << Head << "failed with " << mdText(R.FailType)
           << failPlaces(R) << ":\n\n";
        if (!R.FailReason.empty())
          OS << mdFence(R.FailReason, "text") << "\n";
        if (R.failureSuppressed())
          OS << "PyTorch suppressed it (`config_suppress_errors`: "
                "`torch._dynamo.config.suppress_errors`): the frame ran "
                "without this compile.\n\n";
        if (!R.FailTraceback.empty())
          OS << "Its traceback (`dynamo_error`):\n\n"
             << mdFence(R.tracebackWithoutReason(), "text") << "\n";
      }
      for (const BreakReason &B : R.Breaks) {
        OS << Head << B.kindName() << places(B.Where, B.UserFrame);
        if (B.Count > 1)
          OS << ", " << B.Count << " times";
        OS << ":\n\n" << mdFence(B.Reason, "text") << "\n";
        if (!B.Traceback.empty())
          OS << "Its user code traceback:\n\n"
             << mdFence(B.Traceback, "text") << "\n";
      }
      if (!R.RecompileReasons.empty()) {
        OS << Head << "recompiled because:\n\n"
           << mdFence(llvm::join(R.RecompileReasons, "\n"), "text") << "\n";
        reportFailedGuards(M, R, OS);
      }
    };
    renderSectionInOrder(Out,
                         "### Reasons\n\nEach failure, graph break, restart "
                         "and recompile reason in full.\n\n",
                         Order.size(), Opts.Threads, Render);
  }

  /// For a recompile: the guard that failed of each reason (the compile
  /// and line, how it was found), then the guards against those of the
  /// compile whose guard failed (tlp/Analysis/Guards.h).
  void reportFailedGuards(const Module &M, const CompileRecord &R,
                          raw_ostream &OS) {
    RecompileGuards G = recompileGuards(M, R);
    for (const FailedGuard &F : G.Failed) {
      OS << "The guard that failed (" << mdCode(clip(F.Reason, 120), false)
         << "): ";
      if (!F.Guarded) {
        OS << "unknown: the log has "
           << (F.Named.empty() ? std::string("no earlier compile of the "
                                             "frame with guards")
                               : "no guards of " + mdCode(F.Named, false))
           << ".\n\n";
        continue;
      }
      std::string Of = mdCode(F.Guarded->idName(), false);
      if (!F.Check.Line) {
        OS << "not found among the guards of " << Of << ".\n\n";
        continue;
      }
      OS << "line " << F.Check.Line << " of the guards of " << Of << ", "
         << mdCode(clip((F.Check.Kind + ": " + F.Check.Expr).str(), 200),
                   false)
         << " (found by " << F.How << ")";
      if (!F.Check.Comment.empty())
        OS << "; made at " << mdCode(clip(F.Check.Comment, 200), false);
      OS << ".\n\n";
    }
    if (!G.Against)
      return;
    if (G.Diff.empty())
      OS << "Its guards are the same as those of "
         << mdCode(G.Against->idName(), false) << ".\n\n";
    else
      OS << "Its guards against those of "
         << mdCode(G.Against->idName(), false) << ":\n\n"
         << mdFence(G.Diff, "diff") << "\n";
  }

  /// "## Graph breaks": each distinct break once, over every compile and
  /// rank (tlp/Analysis/GraphBreaks.h), most compiles first.
  void reportGraphBreaks(const Module &M, raw_ostream &OS) {
    std::vector<DistinctBreak> Breaks = distinctBreaks(M);
    if (Breaks.empty())
      return;
    OS << "## Graph breaks\n\n"
       << countOf(Breaks.size(), "distinct break", "distinct breaks")
       << " (graph breaks and restarts), each once over every compile"
       << (M.Logs.size() > 1 ? " and log" : "")
       << "; their whole texts are under Compiles, Reasons.\n\n"
       << "| break | where | compiles | frames | ranks | times |\n"
          "|---|---|---|---|---|---|\n";
    for (const DistinctBreak &D : Breaks) {
      const BreakReason &B = *D.First;
      std::vector<std::string> Ids;
      for (size_t I : D.Records)
        Ids.push_back(M.Compiles[I].displayName());
      std::string Where = StringRef(places(B.Where, B.UserFrame)).trim().str();
      if (Where.size() >= 2 && Where.front() == '(' && Where.back() == ')')
        Where = Where.substr(1, Where.size() - 2);
      std::vector<std::string> Ranks;
      for (int64_t R : D.Ranks)
        Ranks.push_back(std::to_string(R));
      OS << "| " << B.kindName() << ": " << cell(B.label()) << " | "
         << (Where.empty() ? std::string("?") : Where) << " | "
         << mdCodeList(Ids, 8) << " | " << D.Frames << " | "
         << (Ranks.empty() ? std::string("-") : llvm::join(Ranks, ", "))
         << " | " << D.Hits << " |\n";
    }
    OS << "\n";
  }

  /// "## Where the time goes" (tlp-emit --profile): the profile's time
  /// joined onto the units (tlp/Analysis/Profile.h; docs/profile.md).
  void reportProfile(raw_ostream &OS) {
    if (!Profile)
      return;
    const std::vector<ProfileUnit> &Units = facts().ProfileUnits;
    ProfileReport R = attributeProfile(*Profile, Units);
    const size_t Top = 20;
    auto Us = [](double Ns) { return formatMicros(Ns); };
    OS << "## Where the time goes\n\n"
       << "From the profile " << mdCode(Profile->Path) << ": " << R.Events
       << " timed events; " << R.Matched << " are kernel calls (with "
       << R.Nested << " events inside them), " << R.Structural
       << " compiled regions and graph calls, " << R.UnmatchedCount
       << " match no kernel";
    if (R.Damaged)
      OS << "; " << R.Damaged << " damaged events were left out";
    OS << ". Times in microseconds; a kernel's time is its events' "
          "duration with what they called (self: without). A kernel's time "
          "is split evenly among the post-grad nodes, the pre-grad nodes "
          "and the user lines it is linked to.\n\n";
    if (R.UnknownGraphCalls)
      OS << R.UnknownGraphCalls
         << " graph calls name no kernel of a unit of their compile; their "
            "events are listed as unmatched.\n\n";
    OS << "### Per compile\n\n"
       << "| compile id | regions | region time | graph calls | graph call "
          "time | kernel time |\n|---|---|---|---|---|---|\n";
    for (const ProfileReport::CompileTime &C : R.Compiles)
      OS << "| "
         << (C.CompileId.empty() ? std::string("(no region)")
                                 : mdCode(C.CompileId))
         << " | " << C.Regions << " | " << Us(C.RegionTime) << " | "
         << C.GraphCalls << " | " << Us(C.GraphCallTime) << " | "
         << Us(C.KernelTime) << " |\n";
    OS << "\n### Top kernels\n\n";
    if (R.Kernels.empty()) {
      OS << "No event matched a kernel.\n\n";
    } else {
      OS << "| unit | kernel | event | calls | total | mean | self | share "
            "of region |\n|---|---|---|---|---|---|---|---|\n";
      for (size_t I = 0; I < R.Kernels.size() && I < Top; ++I) {
        const ProfileReport::KernelTime &K = R.Kernels[I];
        const ProfileUnit::Row &Row = Units[K.Unit].Rows[K.Row];
        char Share[32] = "-";
        if (K.Share)
          std::snprintf(Share, sizeof(Share), "%.1f%%", *K.Share * 100);
        OS << "| " << mdCode(Units[K.Unit].Id) << " | " << mdCode(Row.Key)
           << " | " << mdCode(profileNameOfKernel(Row)) << " | " << K.Count
           << " | " << Us(K.Total) << " | "
           << Us(K.Count ? double(K.Total) / K.Count : 0) << " | "
           << Us(K.Self) << " | " << Share << " |\n";
      }
      if (R.Kernels.size() > Top)
        OS << "\n"
           << (R.Kernels.size() - Top) << " more kernels (--json lists "
           << "all).\n";
      OS << "\n";
    }
    auto Shared = [&](const char *Title, const char *What,
                      const std::vector<ProfileReport::SharedTime> &V,
                      bool WithUnit) {
      OS << "### " << Title << "\n\n";
      if (V.empty()) {
        OS << "No timed kernel is linked to any.\n\n";
        return;
      }
      OS << (WithUnit ? "| unit " : "") << "| " << What
         << " | time | kernels |\n"
         << (WithUnit ? "|---" : "") << "|---|---|---|\n";
      for (size_t I = 0; I < V.size() && I < Top; ++I) {
        if (WithUnit)
          OS << "| " << mdCode(Units[V[I].Unit].Id) << " ";
        OS << "| " << mdCode(V[I].Name) << " | " << Us(V[I].Time) << " | "
           << V[I].Kernels << " |\n";
      }
      if (V.size() > Top)
        OS << "\n" << (V.size() - Top) << " more (--json lists all).\n";
      OS << "\n";
    };
    Shared("Top user lines", "line", R.Lines, false);
    Shared("Top post-grad nodes", "node", R.PostNodes, true);
    Shared("Top pre-grad nodes", "node", R.PreNodes, true);
    OS << "### Unmatched events\n\n";
    if (R.UnmatchedEvents.empty()) {
      OS << "Every timed event is a region, a graph call, a kernel call or "
            "inside one.\n\n";
      return;
    }
    OS << "| event | where | count | self time |\n|---|---|---|---|\n";
    for (const ProfileReport::Unmatched &E : R.UnmatchedEvents)
      OS << "| " << mdCode(clip(E.Name, 160)) << " | " << E.Where << " | "
         << E.Count << " | " << Us(E.Self) << " |\n";
    OS << "\n";
  }

  /// "## Ranks at run time": what each rank scheduled, estimated and ran
  /// (tlp/Analysis/RankRuntime.h), and where the ranks first differ.
  void reportRankRuntime(raw_ostream &OS, const Module &M) {
    RankRuntime RT = compareRankRuntime(M, &facts().Collectives);
    if (RT.empty())
      return;
    OS << "## Ranks at run time\n\n"
       << "What Inductor scheduled and estimated for each compile "
          "(`inductor_collective_schedule`, `inductor_runtime_and_tensor_meta`)"
          " and the order the graphs ran (`graph_execution`), per rank.\n\n";
    if (RT.Ranks.size() > 1) {
      if (RT.Divergences.empty()) {
        OS << "The ranks agree: the same collectives in the same order, the "
              "same tensor metadata, the same cache results and execution "
              "order.\n\n";
      } else {
        OS << "Where the ranks first differ:\n\n";
        for (const RankDivergence &D : RT.Divergences) {
          OS << "- " << divergenceTitle(D.Kind) << ", "
             << mdText(divergencePlace(D)) << ": ";
          bool First = true;
          for (const auto &G : groupRanksByValue(D.At)) {
            OS << (First ? "" : "; ") << rankListText(G.second) << " "
               << (G.first == "-" ? std::string("nothing")
                                  : mdCode(clip(G.first, 160)));
            First = false;
          }
          OS << "\n";
        }
        OS << "\n";
      }
    }
    if (!RT.Rows.empty()) {
      OS << "| compile | rank | collectives scheduled | ops estimated | "
            "estimated time |\n|---|---|---|---|---|\n";
      for (const RankCompileRow &Row : RT.Rows)
        for (const auto &[Rank, I] : Row.ByRank) {
          const CompileRecord &R = M.Compiles[I];
          std::vector<std::string> Sched = scheduleOf(R);
          for (std::string &N : Sched)
            N = shortKernelName(N);
          EstimateTotal E = estimateOf(R);
          OS << "| " << mdCode(Row.Compile) << " | "
             << (Rank < 0 ? std::string("-") : std::to_string(Rank)) << " | "
             << (Sched.empty() ? std::string("-") : mdCodeList(Sched, 12))
             << " | " << E.Ops << " | "
             << estimateText(E.Ns) << " |\n";
        }
      OS << "\n";
    }
    if (!RT.Executions.empty()) {
      OS << "Graph execution order:\n\n";
      for (const auto &[Rank, L] : RT.Executions)
        OS << "- " << (Rank < 0 ? std::string("the process")
                                : "rank " + std::to_string(Rank))
           << ": " << mdCodeList(L, 40) << "\n";
      OS << "\n";
    }
  }

  /// "## Export": what each torch.export log says (tlp/Analysis/Export.h):
  /// its verdict, the exported programs, the operators without a fake
  /// kernel or with one that disagrees, the data-dependent errors, the
  /// guards and runtime asserts, the symbols.
  void reportExports(const Module &M, raw_ostream &OS) {
    std::vector<ExportReport> Reports = exportReports(M);
    if (Reports.empty())
      return;
    OS << "## Export\n\n";
    auto User = [](const Optional<SourceLoc> &F) {
      if (!F)
        return std::string("?");
      return mdCode(sys::path::filename(F->File).str() + ":" +
                    std::to_string(F->Line)) +
             (F->Code.empty() ? std::string()
                              : " " + mdCode(clip(F->Code, 120)));
    };
    for (const ExportReport &X : Reports) {
      const CompileRecord &R = M.Compiles[X.Record];
      OS << mdCode(M.logName(R.Log)) << ": " << X.verdict() << ".\n\n";
      if (!X.Programs.empty()) {
        OS << "| exported program | lines |\n|---|---|\n";
        for (const ExportEvent *P : X.Programs)
          OS << "| line " << P->Line << " | " << P->Lines << " |\n";
        OS << "\n";
      }
      if (!X.FakeKernels.empty()) {
        OS << "| operator | fake kernel | line |\n|---|---|---|\n";
        for (const ExportEvent *E : X.FakeKernels)
          OS << "| " << mdCode(E->Op.empty() ? "?" : E->Op) << " | "
             << (E->Kind == ExportEvent::MissingFakeKernel
                     ? std::string("missing")
                     : "disagrees" + (E->Reason.empty()
                                          ? std::string()
                                          : ": " + cell(E->Reason)))
             << " | " << E->Line << " |\n";
        OS << "\n";
      }
      auto Shapes = [&](const char *Head,
                        const std::vector<const ShapeEvent *> &List) {
        if (List.empty())
          return;
        OS << "| " << Head << " | line | user line |\n|---|---|---|\n";
        for (const ShapeEvent *S : List) {
          std::string What = !S->Expr.empty() ? S->Expr : S->Sym;
          if (S->Kind == ShapeEvent::Symbol ||
              S->Kind == ShapeEvent::UnbackedSymbol) {
            What = S->Sym;
            if (!S->Source.empty())
              What += " = " + S->Source;
            if (!S->Range.empty())
              What += " in " + S->Range;
          }
          OS << "| " << mdCode(clip(What, 160)) << " | " << S->Line << " | "
             << User(S->UserFrame) << " |\n";
        }
        OS << "\n";
      };
      Shapes("data-dependent error or decision", X.DataDependent);
      Shapes("guard or runtime assert", X.Guards);
      Shapes("symbol", X.Symbols);
    }
  }

  /// "### Symbolic shapes": per compile, its symbols, guards and
  /// specializations in log order, with the user line that made each.
  void reportShapes(const Module &M, const std::vector<size_t> &Order,
                    raw_ostream &OS) {
    bool Any = false;
    for (size_t I : Order) {
      const CompileRecord &R = M.Compiles[I];
      if (R.Shapes.empty())
        continue;
      if (!Any)
        OS << "### Symbolic shapes\n\nThe symbols each compile made for "
              "sizes, the guards on them and the specializations "
              "(`create_symbol`, `guard_added_fast`, "
              "`symbolic_shape_specialization`, ...), in log order.\n\n";
      Any = true;
      OS << "Compile " << mdCode(R.displayName(), false) << ":\n\n"
         << "| line | kind | symbol | source | value | range | guard or "
            "reason | user line |\n|---|---|---|---|---|---|---|---|\n";
      auto C = [&](const std::string &S) {
        return S.empty() ? std::string() : mdCode(clip(S, 160));
      };
      for (const ShapeEvent &E : R.Shapes) {
        std::string User;
        if (E.UserFrame)
          User = mdCode(sys::path::filename(E.UserFrame->File).str() + ":" +
                        std::to_string(E.UserFrame->Line)) +
                 (E.UserFrame->Code.empty()
                      ? std::string()
                      : " " + mdCode(clip(E.UserFrame->Code, 120)));
        OS << "| " << E.Line << " | " << shapeKindName(E.Kind) << " | "
           << C(E.Sym) << " | " << C(E.Source) << " | " << C(E.Value)
           << " | " << C(E.Range) << " | " << C(E.Expr) << " | " << User
           << " |\n";
      }
      OS << "\n";
    }
  }

  /// "## Artifacts": per compile, the events tlp does not interpret (the
  /// HTML pages show them raw), by log line, those without a payload
  /// counted by name; then those of no compile.
  void reportArtifacts(const Module &M, raw_ostream &OS) {
    std::vector<size_t> Order;
    for (size_t I = 0; I < M.Compiles.size(); ++I)
      Order.push_back(I);
    bool Any = false;
    auto List = [&](const std::string &Title, ArrayRef<RawEvent> Raw) {
      if (Raw.empty())
        return;
      if (!Any)
        OS << "## Artifacts\n\nWhat each compile logged that tlp does not "
              "interpret (Dynamo's graph, the AOT graphs, "
              "`fx_graph_runnable`, bytecode, names it does not know), by "
              "log line; `tlp-emit --html` shows each raw and `--dump` "
              "writes each to a file.\n\n";
      Any = true;
      OS << Title << ":\n\n| line | artifact | payload lines |\n|---|---|---|\n";
      std::vector<std::pair<std::string, size_t>> Bare;
      for (const RawEvent &E : Raw) {
        if (E.PayloadLines) {
          OS << "| " << E.Line << " | " << mdCode(E.Name) << " | "
             << E.PayloadLines << " |\n";
          continue;
        }
        auto It = llvm::find_if(
            Bare, [&](const auto &P) { return P.first == E.Name; });
        if (It == Bare.end())
          Bare.emplace_back(E.Name.str(), 1);
        else
          ++It->second;
      }
      for (const auto &P : Bare)
        OS << "| | " << mdCode(P.first) << " ×" << P.second
           << " (no payload) | |\n";
      OS << "\n";
    };
    for (size_t I : Order)
      List("Compile " + mdCode(M.Compiles[I].displayName(), false),
           M.Compiles[I].Raw);
    List("No compile", M.Raw);
  }

  /// "### Metrics": every metric of each compile (compilation_metrics, and
  /// those of its backward and runtime records), grouped: reasons, times,
  /// cache, counts, other (tlp/Analysis/Metrics.h).
  void reportMetrics(const Module &M, const std::vector<size_t> &Order,
                     raw_ostream &Out) {
    auto Render = [&](size_t K, raw_ostream &OS) {
      const CompileRecord &R = M.Compiles[Order[K]];
      // A compile with several backward compiles (MoreBwdMetrics) has a
      // part for each: "backward #2".
      std::vector<std::pair<std::string, const MetricList *>> Parts = {
          {"", &R.Metrics},
          {"backward (`bwd_compilation_metrics`)", &R.BwdMetrics}};
      for (size_t J = 0; J < R.MoreBwdMetrics.size(); ++J)
        Parts.push_back({"backward #" + std::to_string(J + 2) +
                             " (`bwd_compilation_metrics`)",
                         &R.MoreBwdMetrics[J]});
      Parts.push_back({"at run time (`compilation_metrics_runtime`)",
                       &R.RuntimeMetrics});
      Parts.push_back({"backward at run time "
                       "(`bwd_compilation_metrics_runtime`)",
                       &R.BwdRuntimeMetrics});
      for (const auto &P : Parts) {
        if (P.second->empty())
          continue;
        OS << "Compile " << mdCode(R.displayName(), false)
           << (P.first.empty() ? "" : ", ") << P.first << ":\n\n";
        auto Groups = groupMetrics(*P.second);
        for (unsigned G = 0; G < NumMetricGroups; ++G) {
          if (Groups[G].empty())
            continue;
          OS << "- " << metricGroupName(static_cast<MetricGroup>(G)) << ": ";
          for (size_t J = 0; J < Groups[G].size(); ++J)
            OS << (J ? ", " : "") << mdCode(Groups[G][J].first, false) << " "
               << mdCode(clip(Groups[G][J].second, 200), false);
          OS << "\n";
        }
        OS << "\n";
      }
    };
    renderSectionInOrder(Out,
                         "### Metrics\n\nEvery metric of each compile, "
                         "grouped (the configuration dumps are under "
                         "Configuration).\n\n",
                         Order.size(), Opts.Threads, Render);
  }

  /// "### Configuration": the settings that changed from the previous
  /// compile with configuration, then each configuration dump once, a
  /// setting a line (tlp/Analysis/Configs.h).
  void reportConfigs(const Module &M, const std::vector<size_t> &Order,
                     raw_ostream &OS) {
    std::vector<ConfigDump> Dumps = groupConfigs(M, Order);
    if (Dumps.empty())
      return;
    OS << "### Configuration\n\nThe configuration each compile ran with "
          "(the `*_config` dumps of `compilation_metrics`): the settings "
          "that differ from the previous compile's, then each dump once.\n\n";
    ConfigComparer Configs(M);
    auto Render = [&](size_t I, raw_ostream &Piece) {
      const CompileRecord &R = M.Compiles[I];
      // Settings the compile ran with that its dump does not show.
      std::vector<ConfigChange> Patched = Configs.patchedSettings(R);
      if (!Patched.empty()) {
        Piece << "Compile " << mdCode(R.displayName(), false)
              << " compiled with "
              << countOf(Patched.size(), "setting", "settings")
              << " its `inductor_config` dump does not show: its FX graph "
                 "cache key has them (torch.compile's `mode` and `options` "
                 "patch the configuration for the compile; PyTorch dumps "
                 "it outside the patch):\n\n"
              << "| config | setting | dump | cache key |\n|---|---|---|---|\n";
        for (const ConfigChange &C : Patched)
          Piece << "| " << mdCode(C.Config) << " | " << mdCode(C.Key) << " | "
                << mdCode(clip(C.Before, 160)) << " | "
                << mdCode(clip(C.After, 160)) << " |\n";
        Piece << "\n";
      }
      const CompileRecord *Prev = nullptr;
      std::vector<ConfigChange> Ch = Configs.changesFromPrevious(I, Prev);
      if (Ch.empty())
        return;
      size_t Reordered = llvm::count_if(
          Ch, [](const ConfigChange &C) { return C.Reordered; });
      Piece << "Compile " << mdCode(R.displayName(), false)
            << ": its configuration differs from "
            << mdCode(Prev->displayName(), false) << "'s in "
            << countOf(Ch.size(), "setting", "settings");
      if (Reordered)
        Piece << " ("
              << (Reordered == Ch.size()
                      ? std::string(Reordered == 1 ? "it holds" : "each holds")
                      : Twine(Reordered).str() +
                            (Reordered == 1 ? " of them holds" : " of them hold"))
              << " the same items in another order: the same if the "
                 "setting is a set, whose dumped order can differ from "
                 "process to process)";
      Piece << ":\n\n"
            << "| config | setting | before | after |\n|---|---|---|---|\n";
      for (const ConfigChange &C : Ch)
        Piece << "| " << mdCode(C.Config) << " | "
              << (C.Key.empty() ? std::string("(all)") : mdCode(C.Key))
              << " | "
              << (C.Before.empty() ? std::string("absent")
                                   : mdCode(clip(C.Before, 160)))
              << " | "
              << (C.After.empty() ? std::string("absent")
                                  : mdCode(clip(C.After, 160)))
              << (C.Reordered ? " (same items, another order)" : "")
              << " |\n";
      Piece << "\n";
    };
    renderSectionInOrder(OS, "", M.Compiles.size(), Opts.Threads, Render);
    for (const ConfigDump &D : Dumps) {
      std::vector<std::string> Names;
      for (size_t I : D.Records)
        Names.push_back(M.Compiles[I].displayName());
      std::string Lines = configLines(M.ConfigTexts[D.Text]);
      size_t N = std::count(Lines.begin(), Lines.end(), '\n');
      OS << mdCode(D.Name, false) << " of "
         << (Names.size() == 1 ? "compile " : "compiles ") << mdCodeList(Names)
         << " (" << countOf(N, "setting", "settings") << "):\n\n"
         << mdFence(Lines, "text") << "\n";
    }
  }

  /// "### Guards": each distinct guard text once, after the compiles that
  /// have it.
  void reportGuards(const Module &M, const std::vector<size_t> &Order,
                    raw_ostream &OS) {
    std::vector<GuardGroup> Groups = groupGuards(M, Order);
    if (Groups.empty())
      return;
    OS << "### Guards\n\nThe guards of each compile "
          "(`dynamo_cpp_guards_str`, else the `dynamo_guards` code), each "
          "distinct text once.\n\n";
    for (const GuardGroup &G : Groups) {
      std::vector<std::string> Names;
      for (size_t I : G.Records)
        Names.push_back(M.Compiles[I].displayName());
      OS << (Names.size() == 1 ? "Compile " : "Compiles ")
         << mdCodeList(Names) << guardChecksText(G, "`", "`") << ".\n\n"
         << mdFence(*G.Text, "text") << "\n";
    }
  }

  /// Where the time went: per compile, its forward and backward parts
  /// and both together, each phase without the phases inside it
  /// (CompilePhases; docs/markdown.md).
  void reportPhases(const Module &M, const std::vector<size_t> &Order,
                    raw_ostream &OS) {
    std::string Rows;
    raw_string_ostream RS(Rows);
    // The compiles whose backward was compiled inside the frame's
    // compile: one line under the table names them all.
    std::string Runtime, Inside, Loaded;
    size_t NumInside = 0, NumLoaded = 0;
    auto Row = [&](const CompileRecord &R, StringRef Part,
                   Optional<double> Total, auto Seconds) {
      RS << "| " << mdCode(R.displayName()) << " | " << Part << " | "
         << phaseSecondsText(Total);
      for (unsigned I = 0; I < NumPhases; ++I)
        RS << " | " << phaseSecondsText(Seconds(static_cast<Phase>(I)));
      RS << " |\n";
    };
    for (size_t I : Order) {
      const CompileRecord &R = M.Compiles[I];
      CompilePhases C = CompilePhases::compute(R);
      if (!C.any())
        continue;
      // The metrics' first part is the frame's compile: an inference
      // graph's when the compile's units are all inference graphs.
      bool Inference = false;
      auto Units = facts().UnitsOfRecord.find(I);
      if (Units != facts().UnitsOfRecord.end())
        Inference = llvm::all_of(Units->second, [&](size_t U) {
          return facts().Units[U].Graph == GraphKind::Inference;
        });
      // A compile that reached no backend has no forward: one that failed
      // first (the recompile limit, a trace error), one Dynamo traced to
      // an empty graph.
      bool NoUnits = Units == facts().UnitsOfRecord.end() ||
                     Units->second.empty();
      std::string FrameLabel =
          C.BackwardInForward                 ? "forward and backward"
          : Inference && !C.Backward.logged() ? "inference"
                                              : "forward";
      if (NoUnits && !C.Backward.logged() && !C.BackwardInForward) {
        if (R.Status == CompileStatus::Failure)
          FrameLabel = "failed";
        else if (R.tracedEmptyGraph())
          FrameLabel = "Dynamo (empty graph)";
      }
      for (const CompilePart *P : {&C.Forward, &C.Backward})
        if (P->logged())
          Row(R, P == &C.Backward ? "backward" : FrameLabel, P->Total,
              [&](Phase Ph) { return (*P)[Ph].Seconds; });
      if (C.BackwardFromCache) {
        Loaded += Loaded.empty() ? "- " : ", ";
        Loaded += mdCode(R.displayName(), false);
        ++NumLoaded;
      } else if (C.BackwardInForward) {
        Inside += Inside.empty() ? "- " : ", ";
        Inside += mdCode(R.displayName(), false);
        ++NumInside;
      }
      if (C.Forward.logged() && C.Backward.logged())
        Row(R, "together", C.total(),
            [&](Phase Ph) { return C.together(Ph); });
      if (C.RuntimeAutotune)
        Runtime += "- " + mdCode(R.displayName(), false) + ": " +
                   phaseSecondsText(C.RuntimeAutotune) +
                   " s of autotuning when the compiled code first ran "
                   "(`runtime_triton_autotune_time_us`; not compile "
                   "time).\n";
    }
    if (Rows.empty())
      return;
    OS << "### Where the time went\n\n"
       << "Seconds; each phase without the phases inside it, so a part's "
          "phases add up to its total. `?`: the log does not tell.\n\n"
       << "| compile id | part | total";
    for (unsigned I = 0; I < NumPhases; ++I)
      OS << " | " << phaseName(static_cast<Phase>(I));
    OS << " |\n|---|---|---";
    for (unsigned I = 0; I < NumPhases; ++I)
      OS << "|---";
    OS << "|\n" << RS.str() << "\n";
    auto Holds = [&](const std::string &Ids, size_t Num, StringRef Why) {
      if (Num)
        OS << Ids << ": " << Why << ", so "
           << (Num == 1 ? "its row holds" : "each of their rows holds")
           << " both.\n\n";
    };
    Holds(Inside, NumInside,
          "the backward was compiled inside the frame's compile (a "
          "`bw_compiler` span during the frame's compile; no backward "
          "metrics)");
    Holds(Loaded, NumLoaded,
          "the backward was loaded inside the frame's compile, with the "
          "forward, by an AOTAutograd cache hit (an FX graph cache lookup "
          "of the backward graph before the hit; no backward metrics)");
    if (!Runtime.empty())
      OS << Runtime << "\n";
  }

  /// The compile table (failures first) and the cache-miss explanations.
  void reportCompiles(const Module &M, raw_ostream &OS) {
    std::vector<size_t> Order;
    // A compile without a compile id (AOTInductor's): a line of its own,
    // after the table or alone.
    std::string NoId;
    for (size_t I = 0; I < M.Compiles.size(); ++I) {
      if (M.Compiles[I].Id) {
        Order.push_back(I);
        continue;
      }
      std::vector<std::string> Names;
      auto Units = facts().UnitsOfRecord.find(I);
      if (Units != facts().UnitsOfRecord.end())
        for (size_t U : Units->second)
          Names.push_back(mdCode(facts().Units[U].Id, false));
      std::string T = M.Compiles[I].noIdCompileText(Names);
      if (!T.empty())
        NoId += T + "\n\n";
    }
    if (Order.empty()) {
      if (!NoId.empty())
        OS << "## Compiles\n\n" << NoId;
      return;
    }
    std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
      return (M.Compiles[A].Status == CompileStatus::Failure) >
             (M.Compiles[B].Status == CompileStatus::Failure);
    });
    OS << "## Compiles\n\n"
       << countOf(Order.size(), "compile", "compiles") << ": "
       << statusCountsText(M, Order) << ".\n\n"
       << "| compile id | status | time (s) | why | cache | Inductor output "
          "|\n|---|---|---|---|---|---|\n";
    for (size_t I : Order) {
      const CompileRecord &R = M.Compiles[I];
      // Every reason, one line each: a compile that broke its graph and
      // recompiled shows both (the whole texts follow, "Reasons").
      std::vector<std::string> Whys;
      if (R.Status == CompileStatus::Failure)
        Whys.push_back(cell(R.failSummary()) +
                       failPlaces(R));
      for (const BreakReason &B : R.Breaks)
        Whys.push_back(B.kindName().str() + ": " + cell(B.label()) +
                       places(B.Where, B.UserFrame) +
                       (B.Count > 1 ? " (" + std::to_string(B.Count) + "x)"
                                    : std::string()));
      for (const std::string &Why : R.RecompileReasons)
        Whys.push_back("recompile: " + cell(Why));
      std::string Why = llvm::join(Whys, "; ");
      std::string Time = R.timeText();
      // A restarted attempt's units hold what it logged before the restart
      // (its graph): discarded, not output.
      // A failed compile may have logged its graphs but no code: that is
      // no output, with the graphs said.
      auto Units = facts().UnitsOfRecord.find(I);
      bool HasUnits = Units != facts().UnitsOfRecord.end();
      bool HasCode =
          HasUnits && llvm::any_of(Units->second, [&](size_t U) {
            return facts().Units[U].HasCode;
          });
      std::string Output =
          !HasUnits ? cell(R.noOutputReason())
          : R.Status == CompileStatus::Restart
              ? cell("discarded: " + R.restartText())
          : HasCode ? "yes" + ddpSplitText(R, /*Markdown=*/true)
          : R.Status == CompileStatus::Failure
              ? cell(R.noOutputReason() + " (its graphs only)")
              : std::string("graphs only: no code in the log");
      OS << "| " << mdCode(R.displayName()) << " | "
         << compileStatusName(R.Status) << " | " << Time << " | " << Why
         << " | " << R.cacheSummary() << " | " << Output << " |\n";
    }
    OS << "\n" << NoId;
    reportReasons(M, Order, OS);
    reportGuards(M, Order, OS);
    reportConfigs(M, Order, OS);
    reportShapes(M, Order, OS);
    reportMetrics(M, Order, OS);
    reportPhases(M, Order, OS);
    // "(region `r`, line N)" of a lookup.
    auto Place = [](const CacheLookup &C) {
      return "(" +
             (C.Subgraph.empty() ? std::string()
                                 : "region " + mdCode(C.Subgraph, false) + ", ") +
             "line " + std::to_string(C.Line) + ")";
    };
    auto Render = [&](size_t K, raw_ostream &Piece) {
      const CompileRecord &R = M.Compiles[Order[K]];
      std::vector<Module::CacheMissDiff> Diffs = M.cacheMissDiffs(R);
      for (const Module::CacheMissDiff &D : Diffs) {
        Piece << "- " << mdCode(R.displayName(), false) << ": "
              << cacheKindName(D.Miss->Cache) << " cache miss "
              << Place(*D.Miss) << "; against " << mdCode(D.Against->displayName(), false)
              << " (line " << D.Before->Line << "), "
              << countOf(D.Changes.size(), "component", "components")
              << " of " << D.Miss->Components.size() << " differ"
              << alignedText(D.Aligned, [](StringRef S) {
                   return mdCode(S, false);
                 })
              << (D.Changes.empty() ? ".\n" : ":\n");
        for (const Module::KeyChange &KC : D.Changes) {
          Piece << "  - " << mdCode(KC.Name, false);
          if (!KC.BeforeName.empty())
            Piece << " (was " << mdCode(KC.BeforeName, false) << ")";
          else if (KC.Aligned && KC.After.empty())
            Piece << " (its index before)";
          Piece << ": ";
          // A value of several lines (a changed `gm`): the first lines
          // that differ, as a small diff; their first lines are often
          // the same (`<lambda>()`).
          std::string Diff = KC.Before.empty() || KC.After.empty()
                                 ? std::string()
                                 : keyValueDiff(KC.Before, KC.After);
          if (!Diff.empty()) {
            Piece << "line " << firstDifferingLine(KC.Before, KC.After)
                  << " differs:\n\n";
            std::string Block = mdFence(Diff, "diff");
            SmallVector<StringRef, 16> Lines;
            StringRef(Block).rtrim('\n').split(Lines, '\n');
            for (StringRef L : Lines)
              Piece << "    " << L << "\n";
            Piece << "\n";
            continue;
          }
          Piece << (KC.Before.empty() ? std::string(KC.Aligned ? "(inserted)"
                                                               : "(absent)")
                                      : mdCode(clipDifference(KC.Before,
                                                              KC.After, 120),
                                               false))
                << " -> "
                << (KC.After.empty() ? std::string(KC.Aligned ? "(removed)"
                                                              : "(absent)")
                                     : mdCode(clipDifference(KC.After,
                                                             KC.Before, 120),
                                              false))
                << "\n";
        }
      }
      // The misses with nothing to compare are listed too, with why.
      for (const Module::UndiffedMiss &U : M.cacheMissesNotDiffed(R, Diffs))
        Piece << "- " << mdCode(R.displayName(), false) << ": "
              << cacheKindName(U.Miss->Cache) << " cache miss "
              << Place(*U.Miss) << ": " << U.why() << ".\n";
      // A bypass: PyTorch did not use the cache, and says why.
      for (const CacheLookup &C : R.Caches) {
        if (C.Result != CacheLookup::Bypass)
          continue;
        Piece << "- " << mdCode(R.displayName(), false) << ": "
              << cacheKindName(C.Cache) << " cache bypass " << Place(C)
              << ": "
              << (C.Reason.empty() ? std::string("PyTorch logged no reason")
                                   : mdText(StringRef(C.Reason).trim()))
              << "\n";
      }
    };
    if (renderSectionInOrder(OS, "### Why did the cache miss?\n\n",
                             Order.size(), Opts.Threads, Render))
      OS << "\n";
  }

  std::string madeBy() const {
    std::string S = "Made by tlp " TLP_VERSION_STRING;
    if (!Opts.CommandLine.empty())
      S += " with " + mdCode(Opts.CommandLine, false);
    return S + ".\n";
  }

  //===--------------------------------------------------------------------===//
  // The report
  //===--------------------------------------------------------------------===//

  /// A unit's part of the report: its row of the summary table, its
  /// section (made printable) and the diagnostics it owns. Made from the
  /// unit alone, under the id \p Slug, so that workers make it
  /// (prepareUnit).
  struct PreparedSection final : PreparedUnit {
    std::string Slug;
    std::string Row;
    std::string Body;
    DiagScope Scope;
  };

  std::unique_ptr<PreparedUnit>
  prepareUnit(const Module &M, const CompileUnit &U) const override {
    // A question, or --unit (the selection is known only in order): the
    // unit is handled by unit(), on this thread.
    if (Query || !Opts.Unit.empty())
      return nullptr;
    return renderUnit(UnitView(M, U), U.Key.slug());
  }

  Error preparedUnit(const Module &M, const CompileUnit &U,
                     std::unique_ptr<PreparedUnit> Prepared) override {
    if (!Prepared)
      return unit(M, U);
    if (!facts().current().Selected)
      return Error::success();
    ++Selected;
    auto *P = static_cast<PreparedSection *>(Prepared.get());
    // A rare clash of slugs: the unit's unique id is another.
    std::unique_ptr<PreparedSection> Again;
    if (P->Slug != facts().current().Id) {
      Again = renderUnit(UnitView(M, U), facts().current().Id);
      P = Again.get();
    }
    addSection(*P);
    return Error::success();
  }

  void reportUnit(const UnitView &V) {
    addSection(*renderUnit(V, facts().current().Id));
  }

  void addSection(PreparedSection &P) {
    SummaryRows.push_back(std::move(P.Row));
    if (!Spill)
      Spill = std::make_unique<SpillFile>();
    Sections.push_back({Spill->append(P.Body), std::move(P.Scope)});
  }

  std::unique_ptr<PreparedSection> renderUnit(const UnitView &V,
                                              const std::string &Slug) const {
    const Module &M = V.module();
    const CompileUnit &U = V.unit();
    const UnitProvenance &P = V.provenance();
    const UnitCoverage &C = V.coverage();
    auto Out = std::make_unique<PreparedSection>();
    Out->Slug = Slug;
    std::string Heading = "Unit " + Slug;
    Out->Row =
        "| [" + mdCode(Slug) + "](#" + headingAnchor(Heading) + ") | " +
        (U.Key.Id                 ? mdCode(unitCompileName(M, U))
         : !U.Key.Fn.empty()      ? "none (depyf " + mdCode(U.Key.Fn) + ")"
         : !U.Key.Folder.empty() ? std::string("unknown")
                                  : std::string("aot")) +
        " | " + graphKindName(U.Key.Graph).str() + " | " +
        (U.Key.Rank ? std::to_string(*U.Key.Rank) : std::string()) + " | " +
        (M.Logs.size() > 1 ? mdCode(sys::path::filename(M.logName(U.Key.Log))
                                        .str()) +
                                 " | "
                           : std::string()) +
        std::to_string(U.Kernels.size()) + " | " + percent(C.Pre) + " | " +
        percent(C.Post) + " | " + percent(C.Kernels) + " |\n";

    std::string S;
    raw_string_ostream OS(S);
    SourceNames Names(U);
    OS << "## Unit " << mdCode(Slug, false) << "\n\n";
    OS << mdText(U.Key.displayName()) << ", from "
       << mdCode(M.logName(U.Key.Log), false);
    if (U.Frame)
      OS << "; Dynamo compiled " << mdCode(U.Frame->Function, false) << " at "
         << mdCode(fullLabel(*U.Frame), false);
    OS << ".\n\n";
    // A restarted attempt's unit: the graph it logged before the restart.
    if (const CompileRecord *R = V.compile())
      if (R->Status == CompileStatus::Restart)
        OS << "Discarded attempt: the attempt " << mdText(R->restartText())
           << "; a later attempt compiled the frame, so nothing below ran "
              "and its nodes have no kernels for that reason.\n\n";
    artifactLine(OS, U);
    OS << "Coverage (linked / computing nodes): pre-grad " << percent(C.Pre)
       << ", post-grad " << percent(C.Post) << "; kernels linked "
       << percent(C.Kernels) << ".";
    if (C.Post.ByPreGradName)
      OS << " " << C.Post.ByPreGradName << " post-grad "
         << (C.Post.ByPreGradName == 1 ? "node is" : "nodes are")
         << " not linked only because the unit has no pre-grad graph (an "
            "AOTAutograd cache hit logs none): the provenance mapping names "
         << (C.Post.ByPreGradName == 1 ? "its" : "their")
         << " pre-grad node.";
    OS << "\n\n";
    inferredLine(OS, V);

    passTimeline(OS, M, U);
    dumpFiles(OS, M, U);
    kernelTable(OS, U, P, Names);
    schedulerTable(OS, U);
    sourceTable(OS, V);
    vanished(OS, U, P);
    externs(OS, U, P);
    OS.flush();
    Out->Body = printable(S);
    Out->Scope = diagScope(M, U);
    return Out;
  }

  /// How many edges were inferred (docs/inference.md), by origin, with
  /// their confidence range; nothing when none was.
  void inferredLine(raw_ostream &OS, const UnitView &V) const {
    const UnitView::InferredEdges &I = V.inferred();
    const CompileUnit &U = V.unit();
    if (!hasProvenanceRecord(U)) {
      // What is known and how: no record, so every link below is either
      // a code comment PyTorch wrote or an inference.
      OS << "No provenance mapping for this graph ("
         << (U.Mapping ? "the mapping PyTorch logged is empty"
                       : "none was logged")
         << "); " << countOf(I.Count, "link", "links") << " inferred";
      if (!I.Count) {
        OS << ".\n\n";
        return;
      }
      OS << ", of " << U.Edges.size() << " edges";
    } else {
      if (!I.Count)
        return;
      OS << "Inferred links (no provenance mapping for them): " << I.Count
         << " of " << U.Edges.size() << " edges";
    }
    OS << ", confidence " << I.Low;
    if (I.High != I.Low)
      OS << "-" << I.High;
    OS << "% (" << I.SourceLine << " source-line, " << I.OpMatch
       << " op-match, " << I.FXComment << " fx-comment";
    if (I.CodeComment)
      OS << ", " << I.CodeComment
         << " code-comment names matched against the forward's pre-grad "
            "graph";
    OS << ").\n\n";
  }

  /// The pass timeline (a depyf dump's stage graphs): a table of the
  /// stages, then what each changed against the stage before.
  void passTimeline(raw_ostream &OS, const Module &M,
                    const CompileUnit &U) const {
    if (U.Stages.empty())
      return;
    std::vector<TimelineStep> Steps = tlp::passTimeline(M, U);
    OS << "### Pass timeline\n\n"
       << "The graph stage after stage, in pipeline order, each compared "
          "with the stage before by the diff's graph comparison (nodes by "
          "name).\n\n"
       << "| # | stage | file | nodes | against the stage before |\n"
          "|---|---|---|---|---|\n";
    for (const TimelineStep &S : Steps) {
      const PassStage &PS = U.Stages[S.Stage];
      OS << "| " << S.Stage + 1 << " | " << mdCode(PS.Stage) << " | "
         << mdCode(PS.Graph ? PS.Graph->Name : std::string()) << " | "
         << S.Nodes << " | " << mdText(timelineStepText(S)) << " |\n";
    }
    OS << "\n";
    constexpr size_t MaxChanges = 40;
    for (const TimelineStep &S : Steps) {
      if (S.Changes.empty())
        continue;
      OS << "#### " << S.Stage + 1 << ". "
         << mdCode(U.Stages[S.Stage].Stage, false)
         << " against " << mdCode(U.Stages[S.Stage - 1].Stage, false)
         << "\n\n";
      for (size_t I = 0; I < S.Changes.size() && I < MaxChanges; ++I) {
        const DigestChange &C = S.Changes[I];
        OS << "- " << C.Change << " " << mdCode(C.What, false) << ": "
           << mdCode(C.Detail, false) << "\n";
      }
      if (S.Changes.size() > MaxChanges)
        OS << "- and " << S.Changes.size() - MaxChanges << " more\n";
      OS << "\n";
    }
  }

  /// The files of a depyf dump the unit keeps: kernel modules, autotune
  /// configs, Dynamo's code with the guards of its cache entry.
  void dumpFiles(raw_ostream &OS, const Module &M,
                 const CompileUnit &U) const {
    if (U.Files.empty())
      return;
    OS << "### Dump files\n\n";
    for (const UnitFile &F : U.Files) {
      OS << "- " << unitFileTitle(F.Kind) << " "
         << mdCode(sys::path::filename(M.logName(F.Log)), false) << " ("
         << emit::textFileLines(F.Text) << " lines)";
      if (F.Kind == UnitFile::DynamoCode)
        OS << (F.GuardLog
                   ? ", " + std::to_string(F.Guards.size()) + " guards in " +
                         mdCode(sys::path::filename(M.logName(*F.GuardLog)),
                                false)
                   : std::string(", no guards found"));
      OS << "\n";
    }
    OS << "\n";
    for (const UnitFile &F : U.Files) {
      if (F.Guards.empty())
        continue;
      OS << "#### Guards of "
         << mdCode(sys::path::filename(M.logName(F.Log)), false)
         << "\n\n| line | guard | source |\n|---|---|---|\n";
      for (const DynamoGuard &G : F.Guards)
        OS << "| " << G.Line << " | " << mdCode(G.Code) << " | "
           << (G.Comment.empty() ? std::string() : mdCode(G.Comment)) << " |\n";
      OS << "\n";
    }
  }

  void artifactLine(raw_ostream &OS, const CompileUnit &U) const {
    std::vector<std::string> Parts;
    auto Add = [&](const Artifact *A, StringRef What) {
      if (A)
        Parts.push_back(What.str() + " " + mdCode(A->Name, false) + " (line " +
                        std::to_string(A->Line) + ")");
    };
    U.forEachArtifact([&](UnitSlot S, const Artifact &A) {
      std::string Title = unitSlotTitle(S).str();
      if (const auto *Map = dyn_cast<MappingArtifact>(&A))
        Title += Map->Version ? " v" + mdText(formatDouble(*Map->Version))
                              : std::string(" v1");
      Add(&A, Title);
    });
    if (Parts.empty()) {
      OS << "No artifacts.\n\n";
      return;
    }
    OS << "Artifacts (log lines): ";
    for (size_t I = 0; I < Parts.size(); ++I)
      OS << (I ? ", " : "") << Parts[I];
    OS << ".\n\n";
  }

  void kernelTable(raw_ostream &OS, const CompileUnit &U,
                   const UnitProvenance &P, const SourceNames &Names) const {
    OS << "### Kernels\n\n";
    if (U.Kernels.empty()) {
      OS << "No kernels.\n\n";
      return;
    }
    OS << "| kernel | kind | handle | call lines | post-grad nodes | pre-grad "
          "nodes | user source lines |\n"
          "|---|---|---|---|---|---|---|\n";
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      const Kernel &K = U.Kernels[R];
      std::vector<std::string> Src;
      for (uint32_t S : P.sourcesOfKernel(R))
        Src.push_back(Names.label(U.Sources[S]));
      OS << "| " << mdCode(K.key()) << " | " << kernelKindName(K.Kind) << " | "
         << (K.Handle ? std::to_string(*K.Handle) : std::string()) << " | "
         << callLines(K) << " | " << mdCodeList(postNames(U, P.postOfKernel(R)))
         << " | " << mdCodeList(preNames(U, P.preOfKernel(R))) << " | "
         << mdCodeList(Src) << " |\n";
    }
    OS << "\n";
  }

  /// "### Scheduler nodes": the scheduler IR after fusion
  /// (TORCH_COMPILE_DEBUG's ir_post_fusion.txt), each top-level node with
  /// the nodes it fused, the buffers it reads and writes, its kernel.
  void schedulerTable(raw_ostream &OS, const CompileUnit &U) const {
    const SchedulerIRArtifact *S = U.PostFusion.get();
    if (!S)
      return;
    OS << "### Scheduler nodes\n\n"
          "The scheduler nodes after fusion ("
       << mdCode(S->Name, false)
       << "), each with the nodes it fused, the nodes before fusion it "
          "came from, the buffers it reads and writes, and the kernel that "
          "runs it.\n\n";
    const SchedulerIRArtifact *Pre = U.PreFusion.get();
    auto PostNames = [&](const SchedulerNode &X) {
      std::vector<std::string> Post;
      for (uint32_t P : X.PostNodes)
        if (U.PostGrad && P < U.PostGrad->Nodes.size())
          Post.push_back(U.PostGrad->Nodes[P].Name);
      return Post;
    };
    OS << "| node | class | fused | before fusion | reads | writes | kernel "
          "| found by | post-grad nodes |\n"
          "|---|---|---|---|---|---|---|---|---|\n";
    bool AnyFused = false;
    for (const SchedulerNode &N : S->Nodes) {
      if (N.Parent)
        continue;
      std::vector<std::string> Fused, Before;
      std::vector<std::string> Post = PostNames(N);
      for (uint32_t I : N.SubNodes)
        if (I < S->Nodes.size())
          Fused.push_back(S->Nodes[I].Name);
      AnyFused |= !Fused.empty();
      for (uint32_t I : N.PreFusionNodes)
        if (Pre && I < Pre->Nodes.size())
          Before.push_back(Pre->Nodes[I].Name);
      OS << "| " << mdCode(N.Name) << " | " << mdCode(N.Class) << " | "
         << mdCodeList(Fused) << " | "
         << (Pre ? mdCodeList(Before) : std::string("no ir_pre_fusion.txt"))
         << " | " << mdCodeList(S->readBuffers(N))
         << " | " << mdCodeList(S->writtenBuffers(N)) << " | "
         << (N.Kernel && *N.Kernel < U.Kernels.size()
                 ? mdCode(U.Kernels[*N.Kernel].key())
                 : std::string())
         << " | " << mdCell(N.KernelBy) << " | " << mdCodeList(Post)
         << " |\n";
    }
    OS << "\n";
    if (!AnyFused)
      return;
    // Each fused node's share of its kernel's post-grad nodes.
    OS << "Each fused node's post-grad nodes, by data flow in its kernel "
          "(unknown where the data does not decide).\n\n"
          "| fused node | in | post-grad nodes | found by | confidence |\n"
          "|---|---|---|---|---|\n";
    for (const SchedulerNode &N : S->Nodes) {
      if (N.Parent)
        continue;
      for (uint32_t I : N.SubNodes) {
        if (I >= S->Nodes.size())
          continue;
        const SchedulerNode &X = S->Nodes[I];
        OS << "| " << mdCode(X.Name) << " | " << mdCode(N.Name) << " | ";
        if (!X.PostNodesUnknown.empty())
          OS << "unknown | " << mdCell(X.PostNodesUnknown) << " | |\n";
        else
          OS << mdCodeList(PostNames(X)) << " | " << mdCell(X.PostNodesBy)
             << " | "
             << (X.PostNodesBy.empty()
                     ? std::string()
                     : std::to_string(X.PostNodesConfidence))
             << " |\n";
      }
    }
    OS << "\n";
  }

  void sourceTable(raw_ostream &OS, const UnitView &V) const {
    const CompileUnit &U = V.unit();
    const UnitProvenance &P = V.provenance();
    if (U.Sources.empty())
      return;
    // Sources in file and line order; the kernels of each line as
    // UnitProvenance::kernelsOfSource says (the same answer as --source).
    std::vector<uint32_t> Order(U.Sources.size());
    for (uint32_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    llvm::stable_sort(Order, [&](uint32_t A, uint32_t B) {
      return U.Sources[A] < U.Sources[B];
    });
    // Rows of one spot that differ by function alone (a lambda's body and
    // the call around it, a generator expression) say their function.
    std::map<std::tuple<StringRef, uint32_t, uint32_t, uint32_t>,
             std::set<StringRef>>
        Functions;
    for (const SourceLoc &L : U.Sources)
      Functions[{L.File, L.Line, L.SpanBegin, L.SpanEnd}].insert(L.Function);
    auto Table = [&](ArrayRef<uint32_t> Rows) {
      OS << "| source line | code | pre-grad nodes | kernels |\n"
            "|---|---|---|---|\n";
      for (uint32_t S : Rows) {
        const SourceLoc &L = U.Sources[S];
        std::string Label = fullLabel(L);
        if (Functions[{L.File, L.Line, L.SpanBegin, L.SpanEnd}].size() > 1 &&
            !L.Function.empty())
          Label += " in " + L.Function;
        OS << "| " << mdCode(Label) << " | "
           << (L.Code.empty() ? std::string() : mdCode(L.Code)) << " | "
           << mdCodeList(preNames(U, V.preOfSource(S))) << " | "
           << mdCodeList(kernelKeys(U, P.kernelsOfSource(S))) << " |\n";
      }
      OS << "\n";
    };
    // Lines of PyTorch's or Python's own files apart (isUserFile).
    std::vector<uint32_t> User, Library;
    for (uint32_t S : Order)
      (isUserFile(U.Sources[S].File) ? User : Library).push_back(S);
    if (!User.empty()) {
      OS << "### User source lines\n\n";
      Table(User);
    }
    if (!Library.empty()) {
      OS << "### Source lines in PyTorch and Python\n\n"
            "Lines of PyTorch's or Python's own files that the graphs' `# "
            "File:` comments or the kernels' stack traces name: an op "
            "PyTorch implements in Python (`flex_attention`, an optimizer "
            "step) is traced inside it, and a graph's comment names the "
            "line there, not the call in your code.\n\n";
      Table(Library);
    }
  }

  void vanished(raw_ostream &OS, const CompileUnit &U,
                const UnitProvenance &P) const {
    if (!U.PreGrad)
      return;
    // "Vanished" needs evidence: PyTorch's record of where the nodes of
    // the node's graph went, for the unit's own pre-grad graph. Otherwise
    // a node with no link is unknown.
    std::vector<uint32_t> Gone, Unknown;
    unsigned Computing = 0;
    for (uint32_t I = 0; I < U.PreGrad->Nodes.size(); ++I) {
      if (!isComputeNode(U.PreGrad->Nodes[I]))
        continue;
      ++Computing;
      if (P.preLinked(I))
        continue;
      (P.unlinkedFate(I) == UnitProvenance::UnlinkedFate::Vanished ? Gone
                                                                    : Unknown)
          .push_back(I);
    }
    bool Vanish = unlinkedPreVanished(U);
    OS << (Vanish && (!Gone.empty() || Unknown.empty())
               ? "### Pre-grad nodes that vanished\n\n"
               : "### Pre-grad nodes not linked\n\n");
    if (!Computing) {
      OS << "The pre-grad graph has no computing nodes.\n\n";
      return;
    }
    if (Gone.empty() && Unknown.empty()) {
      OS << "None: every computing pre-grad node went to a post-grad node "
            "or a kernel.\n\n";
      return;
    }
    if (Gone.size() + Unknown.size() == Computing) {
      OS << "No pre-grad node is linked to a post-grad node or kernel: this "
            "unit has no provenance for them (no mapping, or one that names "
            "no pre-grad node, or no compile after the pre-grad graph), so "
            "this says nothing about what Inductor did with them.\n\n";
      return;
    }
    SourceNames Names(U);
    auto List = [&](const std::vector<uint32_t> &Nodes, bool Named) {
      bool AnyNamed = false;
      for (uint32_t I : Nodes) {
        const Node &N = U.PreGrad->Nodes[I];
        OS << "- " << nodeSummary(N) << ", line " << N.Line;
        if (N.Source && *N.Source < U.Sources.size())
          OS << ", from " << mdCode(Names.label(U.Sources[*N.Source]), false);
        if (Named) {
          std::vector<std::string> Kernels = kernelsNamedAfter(U, N);
          if (!Kernels.empty())
            OS << "; kernels named after its op: "
               << mdCodeList(Kernels, 16, false);
          AnyNamed |= !Kernels.empty();
        }
        OS << "\n";
      }
      OS << "\n";
      if (AnyNamed && U.Key.Graph == GraphKind::Backward)
        OS << BackwardNames << "\n\n";
    };
    if (!Gone.empty()) {
      OS << "Mapped to no post-grad node and no kernel (dead code, folded "
            "constants, or provenance Inductor lost):\n\n";
      List(Gone, false);
    }
    if (Unknown.empty())
      return;
    // No record, a backward's view of the forward, or a record that names
    // no pre-grad node: the same for every node of the unit.
    using Fate = UnitProvenance::UnlinkedFate;
    Fate First = P.unlinkedFate(Unknown.front());
    if (First == Fate::NoRecord || First == Fate::ForwardGraph ||
        First == Fate::NoPreRecord) {
      OS << notRecordedReason(U, First)
         << "; where these went is unknown, not vanished:\n\n";
      List(Unknown, true);
      return;
    }
    // Per node: higher-order ops and the bodies the record does not name,
    // transform and autograd bookkeeping, items of linked results.
    std::vector<uint32_t> Hop, Book, Item;
    std::vector<std::string> Bodies;
    for (uint32_t I : Unknown) {
      Fate F = P.unlinkedFate(I);
      if (F == Fate::Bookkeeping)
        Book.push_back(I);
      else if (F == Fate::ItemOfLinked)
        Item.push_back(I);
      else
        Hop.push_back(I);
      if (F == Fate::UnnamedBody)
        Bodies.push_back(U.PreGrad->Nodes[I].Scope);
    }
    llvm::sort(Bodies);
    Bodies.erase(std::unique(Bodies.begin(), Bodies.end()), Bodies.end());
    if (!Hop.empty()) {
      OS << "Not linked: higher-order ops and their outputs (their work is "
            "their bodies')"
         << (Bodies.empty() ? std::string()
                            : ", and the nodes of bodies whose nodes the "
                              "provenance mapping PyTorch logged does not "
                              "name (" +
                                  mdCodeList(Bodies, 16, false) + ")")
         << "; where these went is unknown, not vanished:\n\n";
      List(Hop, false);
    }
    if (!Book.empty()) {
      OS << "Not linked: bookkeeping of torch.func transforms and autograd "
            "(batch dimensions, grad levels, saved-tensor hooks, grad "
            "mode), which computes no data: AOTAutograd traces it away, "
            "and the work is in the nodes it wraps:\n\n";
      List(Book, false);
    }
    if (!Item.empty()) {
      OS << "Not linked: items (`operator.getitem`) of a linked node's "
            "result or of bookkeeping: their data is that node's:\n\n";
      List(Item, false);
    }
  }

  /// Why a pre-grad node with no link is not known to have vanished, for
  /// the reasons that hold for the whole unit (\p Fate: NoRecord,
  /// ForwardGraph or NoPreRecord).
  static std::string notRecordedReason(const CompileUnit &U,
                                       UnitProvenance::UnlinkedFate Fate) {
    std::string S;
    if (Fate == UnitProvenance::UnlinkedFate::NoPreRecord)
      return "The provenance mapping PyTorch logged for this graph names no "
             "pre-grad node (its pre-grad halves are empty)";
    if (!hasProvenanceRecord(U))
      S = U.Mapping ? "The provenance mapping PyTorch logged for this graph "
                      "is empty"
                    : "PyTorch logged no provenance mapping for this graph";
    if (U.Key.Graph == GraphKind::Backward)
      S += std::string(S.empty() ? "This" : ", and this") +
           " backward unit shows the forward's pre-grad graph (a node may "
           "need no backward code)";
    return S;
  }

  /// What a name match is worth in a backward unit.
  static constexpr const char *BackwardNames =
      "In a backward, a kernel is named after the ops of the gradients it "
      "computes, and one op's gradient may be another op (`sin`'s is a "
      "`cos`): a kernel named after a node's op may compute another node's "
      "gradient.";

  /// The kernels whose name holds the op of \p N (`max_pool2d` in
  /// `cpp_fused_..._max_pool2d_with_indices_backward_...`): a name match,
  /// shown as such, not a link.
  static std::vector<std::string> kernelsNamedAfter(const CompileUnit &U,
                                                    const Node &N) {
    std::vector<std::string> Out;
    StringRef Op = StringRef(N.Target).rsplit('.').second;
    if (Op.empty())
      Op = N.Target;
    if (Op.size() < 3)
      return Out;
    for (const Kernel &K : U.Kernels) {
      StringRef Name = K.Name;
      size_t At = Name.find(Op);
      bool Word = false;
      while (At != StringRef::npos && !Word) {
        size_t End = At + Op.size();
        Word = (At == 0 || Name[At - 1] == '_' || Name[At - 1] == '.') &&
               (End == Name.size() || Name[End] == '_' || Name[End] == '.');
        At = Name.find(Op, At + 1);
      }
      if (Word)
        Out.push_back(K.key());
    }
    return Out;
  }

  void externs(raw_ostream &OS, const CompileUnit &U, const UnitProvenance &P) const {
    if (!U.PreGrad)
      return;
    std::string Items;
    for (uint32_t I = 0; I < U.PreGrad->Nodes.size(); ++I) {
      std::vector<std::string> Calls;
      for (uint32_t R : P.kernelsOfPre(I)) {
        KernelKind K = U.Kernels[R].Kind;
        if (K == KernelKind::Extern || K == KernelKind::Fallback)
          Calls.push_back(mdCode(U.Kernels[R].key(), false) + " (" +
                          kernelKindName(K).str() + ")");
      }
      if (Calls.empty())
        continue;
      Items +=
          "- " + mdCode(U.PreGrad->Nodes[I].qualifiedName(), false) + " → ";
      for (size_t C = 0; C < Calls.size(); ++C)
        Items += (C ? ", " : "") + Calls[C];
      Items += "\n";
    }
    OS << "### Pre-grad nodes in extern or fallback calls\n\n";
    if (Items.empty())
      OS << "None.\n\n";
    else
      OS << Items << "\n";
  }

  /// The report, written to \p Out piece by piece: the head (made here),
  /// then each unit's section (from Spill) with its diagnostics, then the
  /// diagnostics no unit owns.
  Error writeReport(const Module &M, raw_ostream &Out) {
    // The head goes out a line at a time, made printable as it goes: held
    // whole and then copied by printable(), it was twice its size at the
    // end of the run (50 MB on the 356 MB benchmark log).
    PrintableStream OS(Out);
    std::vector<const Diagnostic *> All;
    for (const Diagnostic &D : M.Diagnostics)
      All.push_back(&D);
    unsigned Errors = 0, Warnings = 0, Notes = 0;
    for (const Diagnostic *D : All)
      (D->Sev == Severity::Error     ? Errors
       : D->Sev == Severity::Warning ? Warnings
                                     : Notes)++;

    OS << "# tlp report\n\n"
       << madeBy() << "\n" << mdText(torchVersionText(M)) << ".\n\n";
    // The event rank column only when a log's events carry a rank other
    // than its file name's.
    bool EventRanks = llvm::any_of(
        M.Logs, [](const LogFile &L) { return L.EventRank.hasValue(); });
    auto OptRank = [](const Optional<int64_t> &R) {
      return R ? std::to_string(*R) : std::string();
    };
    OS << (EventRanks ? "| log | rank | event rank |\n|---|---|---|\n"
                      : "| log | rank |\n|---|---|\n");
    for (uint32_t I = 0; I < M.Logs.size(); ++I) {
      OS << "| " << mdCode(M.logName(I)) << " | " << OptRank(M.Logs[I].Rank);
      if (EventRanks)
        OS << " | " << OptRank(M.Logs[I].EventRank);
      OS << " |\n";
    }
    OS << "\n"
       << M.Stats.Lines << " lines, "
       << countOf(M.Stats.Events, "event", "events") << ", "
       << countOf(M.Stats.Payloads, "payload", "payloads") << "; "
       << countOf(Sections.size(), "compile unit", "compile units") << "; "
       << countOf(Errors, "error", "errors") << ", "
       << countOf(Warnings, "warning", "warnings") << ", "
       << countOf(Notes, "note", "notes") << ".\n\n";

    reportCompiles(M, OS);
    reportGraphBreaks(M, OS);
    reportExports(M, OS);
    reportArtifacts(M, OS);

    OS << "## Units\n\n";
    if (SummaryRows.empty()) {
      OS << "No compile units: the input has no graph or code that tlp "
            "groups into a compile.\n\n";
    } else {
      // With several logs, the log of each unit (0-based, the table above).
      if (M.Logs.size() > 1)
        OS << "| unit | compile id | graph | rank | log | kernels | pre-grad "
              "linked | post-grad linked | kernels linked |\n"
              "|---|---|---|---|---|---|---|---|---|\n";
      else
        OS << "| unit | compile id | graph | rank | kernels | pre-grad linked "
              "| post-grad linked | kernels linked |\n"
              "|---|---|---|---|---|---|---|---|\n";
      for (const std::string &R : SummaryRows)
        OS << R;
      OS << "\n";
    }

    reportRanks(OS, M);
    reportRankRuntime(OS, M);
    reportProfile(OS);

    // What the reader counted and did not read (Stats.UnknownKinds).
    OS << "## Not read\n\n";
    if (M.Stats.UnknownKinds.empty()) {
      OS << "tlp read every event.\n\n";
    } else {
      uint64_t Total = 0;
      for (auto &KV : M.Stats.UnknownKinds)
        Total += KV.second;
      OS << Total << " of " << countOf(M.Stats.Events, "event", "events")
         << " are of kinds or artifact names tlp does not interpret; "
            "\"Artifacts\" lists each:\n\n"
         << "| kind | events |\n|---|---|\n";
      for (auto &KV : M.Stats.UnknownKinds)
        OS << "| " << mdCode(KV.first) << " | " << KV.second << " |\n";
      OS << "\n";
    }

    OS.finish();

    std::vector<bool> Owned(All.size());
    DiagOwners Owners(All);
    for (const UnitSection &S : Sections) {
      if (!Spill->writeTo(S.Body, Out))
        return createStringError(
            std::errc::io_error,
            "cannot read back the report's unit sections from their "
            "temporary file (is the disk full?)");
      std::vector<const Diagnostic *> Mine;
      for (size_t I : Owners.ownedBy(S.Scope)) {
        Mine.push_back(All[I]);
        Owned[I] = true;
      }
      Out << "### Diagnostics\n\n";
      if (Mine.empty())
        Out << "None.\n\n";
      else
        Out << printable(diagnosticText(Mine)) << "\n";
    }
    std::vector<const Diagnostic *> Rest;
    for (size_t I = 0; I < All.size(); ++I)
      if (!Owned[I])
        Rest.push_back(All[I]);
    Out << (Sections.empty() ? "## Diagnostics\n\n"
                             : "## Other diagnostics\n\n");
    if (Rest.empty())
      Out << "None.\n";
    else
      Out << printable(diagnosticText(Rest));
    return Error::success();
  }

  //===--------------------------------------------------------------------===//
  // Where did my op go?
  //===--------------------------------------------------------------------===//

  /// The kernels table of an answer: each kernel, the post-grad nodes it
  /// fused (those from the query in bold) and the pre-grad nodes it fused
  /// them with.
  void fusedTable(raw_ostream &OS, const CompileUnit &U,
                  const UnitProvenance &P, ArrayRef<uint32_t> Rows,
                  const std::set<uint32_t> &QueryPre,
                  const std::set<uint32_t> &QueryPost) {
    SourceNames Names(U);
    OS << "| kernel | kind | call lines | post-grad nodes (**these**) | fused "
          "with pre-grad nodes | user source lines |\n"
          "|---|---|---|---|---|---|\n";
    for (uint32_t R : Rows) {
      const Kernel &K = U.Kernels[R];
      std::string Post;
      size_t N = 0;
      for (uint32_t Q : P.postOfKernel(R)) {
        if (N == 16) {
          Post +=
              " and " + std::to_string(P.postOfKernel(R).size() - 16) + " more";
          break;
        }
        std::string C = mdCode(U.PostGrad->Nodes[Q].qualifiedName());
        Post += (N++ ? ", " : "") + (QueryPost.count(Q) ? "**" + C + "**" : C);
      }
      std::vector<uint32_t> Others;
      for (uint32_t Q : P.preOfKernel(R))
        if (!QueryPre.count(Q))
          Others.push_back(Q);
      std::vector<std::string> Src;
      for (uint32_t S : P.sourcesOfKernel(R))
        Src.push_back(Names.label(U.Sources[S]));
      OS << "| " << mdCode(K.key()) << " | " << kernelKindName(K.Kind) << " | "
         << callLines(K) << " | " << Post << " | "
         << (Others.empty() ? std::string("nothing")
                            : mdCodeList(preNames(U, Others)))
         << " | " << mdCodeList(Src) << " |\n";
    }
    OS << "\n";
  }

  void postTable(raw_ostream &OS, const CompileUnit &U, const UnitProvenance &P,
                 ArrayRef<uint32_t> Post) {
    OS << "| post-grad node | target | type | kernels |\n|---|---|---|---|\n";
    for (uint32_t Q : Post) {
      const Node &N = U.PostGrad->Nodes[Q];
      std::string T = shortTypeLabel(N.Type);
      OS << "| " << mdCode(N.qualifiedName()) << " | "
         << mdCode(shortTarget(N.Target)) << " | "
         << (T.empty() ? std::string() : mdCode(T)) << " | "
         << (P.kernelsOfPost(Q).empty()
                 ? std::string("none")
                 : mdCodeList(kernelKeys(U, P.kernelsOfPost(Q))))
         << " |\n";
    }
    OS << "\n";
  }

  /// How a --node name matched in a unit, unless it is a pre-grad node's
  /// name: the op of nodes, a post-grad node, a kernel or source text.
  void nameMatchLine(raw_ostream &OS, const CompileUnit &U,
                     const QueryAnswer &A) {
    std::string What = mdCode(Query->text().str(), false);
    auto Names = [&](const GraphArtifact *G, const std::vector<uint32_t> &V) {
      std::vector<std::string> N;
      for (uint32_t I : V)
        N.push_back(G->Nodes[I].qualifiedName());
      return mdCodeList(N, 16, false);
    };
    std::vector<uint32_t> Post(A.Post.begin(), A.Post.end());
    switch (A.How) {
    case NameMatchKind::PreNode:
      return;
    case NameMatchKind::PostNode:
      OS << What << " is a post-grad node here";
      break;
    case NameMatchKind::Kernel:
      OS << What << " is a kernel here";
      break;
    case NameMatchKind::Op:
      OS << What << " is the op of ";
      if (!A.Hits.empty() && U.PreGrad) {
        std::vector<uint32_t> Own;
        for (uint32_t I : A.Hits)
          if (llvm::is_contained(targetAliases(U.PreGrad->Nodes[I].Target),
                                 Query->text()))
            Own.push_back(I);
        if (!Own.empty())
          OS << countOf(Own.size(), "pre-grad node", "pre-grad nodes") << " ("
             << Names(U.PreGrad.get(), Own) << ")"
             << (Post.empty() ? "" : " and ");
      }
      if (!Post.empty())
        OS << countOf(Post.size(), "post-grad node", "post-grad nodes") << " ("
           << Names(U.PostGrad.get(), Post) << ")";
      break;
    case NameMatchKind::SourceText: {
      std::vector<std::string> L;
      for (uint32_t S : A.Lines)
        L.push_back(fullLabel(U.Sources[S]));
      OS << What << " is in the user source "
         << (L.size() == 1 ? "line " : "lines ") << mdCodeList(L, 16, false);
      break;
    }
    }
    if (A.Hits.empty())
      OS << ".\n\n";
    else if (A.How == NameMatchKind::Op && Post.empty())
      OS << ":\n\n";
    else
      OS << "; the pre-grad "
         << (A.Hits.size() == 1 ? "node it came" : "nodes they came")
         << " from:\n\n";
  }

  void answerNode(const UnitView &V) {
    const CompileUnit &U = V.unit();
    const UnitProvenance &P = V.provenance();
    Optional<QueryAnswer> A = V.answer(*Query);
    if (!A)
      return;
    const std::vector<uint32_t> &Hits = A->Hits;
    std::string S;
    raw_string_ostream OS(S);
    OS << "## Unit " << mdCode(facts().current().Id, false) << "\n\n"
       << mdText(U.Key.displayName()) << ".\n\n";
    if (A->How != NameMatchKind::PreNode)
      AllPreNodes = false;
    nameMatchLine(OS, U, *A);
    for (uint32_t I : Hits) {
      const Node &N = U.PreGrad->Nodes[I];
      OS << "Pre-grad node " << nodeSummary(N) << ", line " << N.Line
         << " of the pre-grad graph";
      if (N.Source && *N.Source < U.Sources.size()) {
        const SourceLoc &L = U.Sources[*N.Source];
        OS << ", from " << mdCode(fullLabel(L), false);
        if (!L.Code.empty())
          OS << ": " << mdCode(L.Code, false);
      }
      OS << ".\n\n";
      const std::vector<uint32_t> &Post = P.postOfPre(I);
      const std::vector<uint32_t> &Rows = P.kernelsOfPre(I);
      if (Post.empty() && Rows.empty()) {
        UnitProvenance::UnlinkedFate Fate = P.unlinkedFate(I);
        if (Fate == UnitProvenance::UnlinkedFate::Vanished) {
          OS << "It vanished: no post-grad node and no kernel is linked to "
                "it (dead code, a folded constant, or provenance Inductor "
                "lost: a pattern rewrite, such as attention fused into one "
                "`scaled_dot_product` call, maps its nodes to nothing).\n\n";
          continue;
        }
        if (Fate == UnitProvenance::UnlinkedFate::Bookkeeping) {
          OS << "No post-grad node and no kernel is linked to it. It is "
                "bookkeeping of a torch.func transform or of autograd, "
                "which computes no data: AOTAutograd traces it away, and "
                "the work is in the nodes it wraps.\n\n";
          continue;
        }
        if (Fate == UnitProvenance::UnlinkedFate::ItemOfLinked) {
          const Node &In = U.PreGrad->Nodes[N.Inputs.front()];
          OS << "No post-grad node and no kernel is linked to it. It is an "
                "item (`operator.getitem`) of "
             << mdCode(In.qualifiedName(), false)
             << "'s result: its data is that node's ("
             << mdCode("--node " + In.qualifiedName(), false) << ").\n\n";
          continue;
        }
        OS << "No post-grad node and no kernel is linked to it. "
           << (Fate == UnitProvenance::UnlinkedFate::HigherOrderOp
                   ? std::string("It is a higher-order op or an output of "
                                 "one (its work is its body's)")
               : Fate == UnitProvenance::UnlinkedFate::UnnamedBody
                   ? "It is a node of the body " + mdCode(N.Scope, false) +
                         ", whose nodes the provenance mapping PyTorch "
                         "logged does not name"
                   : notRecordedReason(U, Fate))
           << ", so where it went is unknown.";
        std::vector<std::string> Named = kernelsNamedAfter(U, N);
        if (!Named.empty()) {
          OS << " Kernels named after its op (a name match, not a link): "
             << mdCodeList(Named, 16, false) << ".";
          if (U.Key.Graph == GraphKind::Backward)
            OS << " " << BackwardNames;
        }
        OS << "\n\n";
        continue;
      }
      OS << "It became "
         << countOf(Post.size(), "post-grad node", "post-grad nodes")
         << " and went into " << countOf(Rows.size(), "kernel", "kernels")
         << ".\n\n";
      if (!Post.empty())
        postTable(OS, U, P, Post);
      if (!Rows.empty())
        fusedTable(OS, U, P, Rows, {I},
                   std::set<uint32_t>(Post.begin(), Post.end()));
    }
    // What the name named that no pre-grad node stands for (a unit with
    // no pre-grad graph, a post-grad node or kernel linked to none).
    if (Hits.empty() && !A->Post.empty()) {
      std::vector<uint32_t> PostSorted(A->Post.begin(), A->Post.end());
      OS << "Post-grad nodes:\n\n";
      postTable(OS, U, P, PostSorted);
    }
    if (Hits.empty() && !A->Kernels.empty()) {
      std::vector<uint32_t> Rows(A->Kernels.begin(), A->Kernels.end());
      OS << "Kernels:\n\n";
      fusedTable(OS, U, P, Rows, {}, A->Post);
    }
    OS.flush();
    Answers.push_back({facts().current().Id, std::move(S), {}});
  }

  /// The calls of a line that kernel stack traces underline, in the order
  /// of the code, each with its kernels; then the kernels of the line
  /// that no underline places.
  void callTable(raw_ostream &OS, const CompileUnit &U,
                 const UnitProvenance &P, std::vector<uint32_t> Calls,
                 const std::set<uint32_t> &Rows) {
    llvm::stable_sort(Calls, [&](uint32_t A, uint32_t B) {
      const SourceLoc &LA = U.Sources[A], &LB = U.Sources[B];
      return std::make_tuple(LA.File, LA.Line, LA.SpanBegin, LA.SpanEnd) <
             std::make_tuple(LB.File, LB.Line, LB.SpanBegin, LB.SpanEnd);
    });
    OS << "Calls on the line, as the kernels' stack traces underline them "
          "(characters of the code as shown, from 1):\n\n"
          "| underlined | characters | kernels |\n|---|---|---|\n";
    std::set<uint32_t> Placed;
    for (size_t I = 0; I < Calls.size(); ++I) {
      const SourceLoc &L = U.Sources[Calls[I]];
      if (I && L.sameSpot(U.Sources[Calls[I - 1]]))
        continue;
      const std::vector<uint32_t> &Ks = P.kernelsOfSource(Calls[I]);
      Placed.insert(Ks.begin(), Ks.end());
      OS << "| " << mdCode(L.underlined()) << " | " << L.SpanBegin + 1 << "-"
         << L.SpanEnd << " | " << mdCodeList(kernelKeys(U, Ks)) << " |\n";
    }
    OS << "\n";
    std::vector<uint32_t> Rest;
    for (uint32_t R : Rows)
      if (!Placed.count(R))
        Rest.push_back(R);
    if (!Rest.empty())
      OS << "Kernels of the line whose stack traces underline no call of it: "
         << mdCodeList(kernelKeys(U, Rest), 16, false) << ".\n\n";
  }

  void answerSource(const UnitView &V) {
    const CompileUnit &U = V.unit();
    const UnitProvenance &P = V.provenance();
    Optional<QueryAnswer> A = V.answer(*Query);
    if (!A)
      return;
    const std::vector<uint32_t> &Hits = A->Hits;
    const std::set<uint32_t> &Pre = A->Pre, &Post = A->Post,
                             &Rows = A->Kernels;
    std::string S;
    raw_string_ostream OS(S);
    OS << "## Unit " << mdCode(facts().current().Id, false) << "\n\n"
       << mdText(U.Key.displayName()) << ".\n\n";
    // The line once (its entries differ in the span their stack traces
    // underline), then its calls when traces underlined any.
    std::vector<uint32_t> Calls;
    for (uint32_t H : Hits) {
      const SourceLoc &L = U.Sources[H];
      if (L.hasSpan())
        Calls.push_back(H);
      if (llvm::any_of(Hits, [&](uint32_t O) {
            const SourceLoc &E = U.Sources[O];
            return O < H && E.File == L.File && E.Line == L.Line &&
                   E.Function == L.Function && E.Code == L.Code;
          }))
        continue;
      OS << "User line " << mdCode(lineLabel(L), false);
      if (!L.Function.empty())
        OS << " in " << mdCode(L.Function, false);
      if (!L.Code.empty())
        OS << ": " << mdCode(L.Code, false);
      OS << ".\n\n";
    }
    if (!Calls.empty())
      callTable(OS, U, P, Calls, Rows);
    auto NodeList = [&](const GraphArtifact *G, const std::set<uint32_t> &Idx) {
      std::vector<std::string> Names;
      for (uint32_t I : Idx)
        Names.push_back(G->Nodes[I].qualifiedName());
      return mdCodeList(Names, 32, false);
    };
    if (!Pre.empty())
      OS << "Pre-grad nodes: " << NodeList(U.PreGrad.get(), Pre) << ".\n\n";
    std::vector<uint32_t> PostSorted(Post.begin(), Post.end());
    llvm::stable_sort(PostSorted, [&](uint32_t A, uint32_t B) {
      return U.PostGrad->Nodes[A].Line < U.PostGrad->Nodes[B].Line;
    });
    if (!PostSorted.empty()) {
      OS << "Post-grad nodes:\n\n";
      postTable(OS, U, P, PostSorted);
    }
    if (Rows.empty()) {
      OS << "No kernel is linked to this line.\n\n";
    } else {
      OS << "Kernels:\n\n";
      std::vector<uint32_t> RowList(Rows.begin(), Rows.end());
      fusedTable(OS, U, P, RowList, Pre, Post);
    }
    OS.flush();
    Answers.push_back({facts().current().Id, std::move(S), {}});
  }

  Error assembleAnswer(const Module &M, std::string &Doc) {
    bool IsNode = Query->isNode();
    std::string What = Query->text().str();
    if (Answers.empty())
      return Query->notFound();
    raw_string_ostream OS(Doc);
    OS << "# Where did " << mdCode(What, false) << " go?\n\n"
       << madeBy() << "\n" << mdText(torchVersionText(M)) << ".\n\n"
       << mdCode(What, false)
       << (!IsNode        ? " is a user source line of "
           : AllPreNodes ? " is a pre-grad node of "
                         : " names nodes, kernels or source lines of ")
       << countOf(Answers.size(), "unit", "units") << " (of "
       << countOf(Selected, "unit", "units") << " read).\n\n";
    for (const Section &A : Answers)
      OS << A.Body;
    OS.flush();
    return Error::success();
  }
};

} // namespace

std::unique_ptr<Emitter> createMarkdownEmitter(const EmitOptions &Opts,
                                               DiagnosticEngine &Diags) {
  return std::make_unique<MarkdownEmitter>(Opts, Diags);
}

} // namespace tlp
