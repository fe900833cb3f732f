//===- HTMLEmitter.cpp - The provenance highlighter -----------------------===//
//
// docs/html.md. Two shapes of output:
//
//  - a directory: DIR/index.html (every unit, its coverage, the run's
//    diagnostics), one page per unit named after UnitKey::slug(), and
//    DIR/units.js, the unit list the pages' selectors read;
//  - one self-contained page (a FILE.html or stdout) holding every unit,
//    with a unit selector and the index as its overview.
//
// Pages carry their data as JSON in <script type="application/json">
// blocks and the page's CSS and JS (lib/Emit/html, embedded at build time)
// inline, so they work offline from file://. The JS renders the panels
// lazily from that data. Everything is streamed: a unit's page (or its data
// block) is written in unit(); end() writes what needs all units and the
// complete diagnostics.
//
//===----------------------------------------------------------------------===//

#include "EmitSupport.h"
#include "HTMLDashboard.h"

#include "tlp/Emit/Emitter.h"
#include "tlp/IR/NameMatch.h"
#include "tlp/IR/Provenance.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>

using namespace llvm;
using ojson = nlohmann::ordered_json;

namespace tlp {
using emit::escapeHTML;
namespace {

// TlpCSS, TlpJS: lib/Emit/html/tlp.css and tlp.js, embedded by
// lib/Emit/html/Embed.cmake.
#include "HTMLAssets.inc"

/// --pretty layout: the unit object and the objects under it (graphs,
/// code) one key per line; arrays of objects or arrays one element per
/// line; everything below that on one line, so a node, a kernel or a
/// source line is one line for grep and FileCheck.
void prettyJSON(const ojson &J, unsigned Depth, std::string &Out) {
  auto Compact = [](const ojson &V) {
    return V.dump(-1, ' ', /*ensure_ascii=*/false,
                  ojson::error_handler_t::replace);
  };
  std::string Pad(Depth + 1, ' ');
  if (J.is_object() && Depth < 2 && !J.empty()) {
    Out += "{\n";
    bool First = true;
    for (auto It = J.begin(); It != J.end(); ++It) {
      if (!First)
        Out += ",\n";
      First = false;
      Out += Pad + Compact(ojson(It.key())) + ": ";
      prettyJSON(It.value(), Depth + 1, Out);
    }
    Out += "\n" + std::string(Depth, ' ') + "}";
    return;
  }
  bool Nested = J.is_array() &&
                std::any_of(J.begin(), J.end(),
                            [](const ojson &E) { return E.is_structured(); });
  if (Nested && Depth < 3) {
    Out += "[\n";
    for (size_t I = 0; I < J.size(); ++I)
      Out += Pad + Compact(J[I]) + (I + 1 < J.size() ? ",\n" : "\n");
    Out += std::string(Depth, ' ') + "]";
    return;
  }
  Out += Compact(J);
}

/// Serialize \p J so that it can sit inside a <script> element and be read
/// as JSON or as a JavaScript expression: '<', '>' and '&' (which appear
/// only inside JSON strings) become \u escapes, so no "</script>" or "<!--"
/// in log text can end the element; so do U+2028 and U+2029.
std::string scriptJSON(const ojson &J, bool Pretty) {
  std::string S;
  if (Pretty)
    prettyJSON(J, 0, S);
  else
    S = J.dump(-1, ' ', /*ensure_ascii=*/false,
               ojson::error_handler_t::replace);
  std::string Out;
  Out.reserve(S.size() + S.size() / 16);
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    if (C == '<')
      Out += "\\u003c";
    else if (C == '>')
      Out += "\\u003e";
    else if (C == '&')
      Out += "\\u0026";
    else if (C == '\xe2' && I + 2 < S.size() && S[I + 1] == '\x80' &&
             (S[I + 2] == '\xa8' || S[I + 2] == '\xa9')) {
      Out += S[I + 2] == '\xa8' ? "\\u2028" : "\\u2029";
      I += 2;
    } else
      Out += C;
  }
  return Out;
}

ojson optInt(const Optional<int64_t> &V) {
  return V ? ojson(*V) : ojson(nullptr);
}

ojson range(uint32_t B, uint32_t E) { return ojson::array({B, E}); }

ojson indices(const std::vector<uint32_t> &V) {
  ojson A = ojson::array();
  for (uint32_t I : V)
    A.push_back(I);
  return A;
}

/// The names of the unit's ops, for the page's filter: one list of
/// targetAliases() per distinct target of a computing node (the same names
/// tlp-emit --node answers to), and each target's index.
struct OpNames {
  ojson Lists = ojson::array();
  StringMap<int64_t> Index;
  int64_t of(const Node &N) {
    if (N.Target.empty() || !(N.Op == NodeOp::CallFunction ||
                              N.Op == NodeOp::CallMethod ||
                              N.Op == NodeOp::CallModule))
      return -1;
    auto [It, New] = Index.try_emplace(N.Target, int64_t(Lists.size()));
    if (New) {
      ojson A = ojson::array();
      for (std::string &S : targetAliases(N.Target))
        A.push_back(std::move(S));
      Lists.push_back(std::move(A));
    }
    return It->second;
  }
};

/// A graph panel's data: its text and nodes. A node is an array, [name,
/// line, op, source index or -1, counterparts in the other graph, kernels
/// (indices), index of its op's names in the unit's "ops" or -1], then its
/// scope if nested. Targets and types are left to the node's line of text,
/// which shows them: graphs of 20,000 nodes must load fast, and load time
/// follows the page's size.
ojson graphData(const CompileUnit &U, const GraphArtifact *G,
                const UnitProvenance &P, bool Pre, OpNames &Ops) {
  if (!G)
    return nullptr;
  ojson J = ojson::object();
  J["artifact"] = G->Name;
  J["log_line"] = G->Line;
  ojson Nodes = ojson::array();
  bool HasOther = Pre ? U.PostGrad != nullptr : U.PreGrad != nullptr;
  for (uint32_t I = 0; I < G->Nodes.size(); ++I) {
    const Node &N = G->Nodes[I];
    ojson O = ojson::array();
    O.push_back(N.Name);
    O.push_back(N.Line);
    O.push_back(nodeOpName(N.Op).str());
    O.push_back(N.Source && *N.Source < U.Sources.size() ? int64_t(*N.Source)
                                                         : int64_t(-1));
    const std::vector<uint32_t> &Links = Pre ? P.postOfPre(I) : P.preOfPost(I);
    O.push_back(HasOther ? indices(Links) : ojson::array());
    O.push_back(indices(Pre ? P.kernelsOfPre(I) : P.kernelsOfPost(I)));
    O.push_back(Ops.of(N));
    if (!N.Scope.empty())
      O.push_back(N.Scope);
    Nodes.push_back(std::move(O));
  }
  J["nodes"] = std::move(Nodes);
  J["text"] = G->Text;
  return J;
}

ojson codeData(const CodeArtifact *C) {
  if (!C)
    return nullptr;
  ojson J = ojson::object();
  J["artifact"] = C->Name;
  J["log_line"] = C->Line;
  J["language"] = languageName(C->Lang).str();
  J["entry"] =
      C->EntryBegin ? range(C->EntryBegin, C->EntryEnd) : ojson(nullptr);
  J["text"] = C->Text;
  return J;
}

const KernelInfoArtifact::Entry *kernelInfo(const CompileUnit &U,
                                            StringRef Name) {
  if (!U.KernelInfo)
    return nullptr;
  for (const KernelInfoArtifact::Entry &E : U.KernelInfo->Entries)
    if (E.Kernel == Name)
      return &E;
  return nullptr;
}

ojson kernelsData(const CompileUnit &U, const UnitProvenance &P) {
  ojson Arr = ojson::array();
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    ojson J = ojson::object();
    J["name"] = K.Name;
    J["key"] = K.key();
    J["kind"] = kernelKindName(K.Kind).str();
    J["handle"] = K.Handle ? ojson(*K.Handle) : ojson(nullptr);
    J["calls"] = indices(K.CallLines);
    if (K.Def && U.Code && *K.Def < U.Code->Defs.size()) {
      const KernelDef &D = U.Code->Defs[*K.Def];
      J["def"] = range(D.HeaderBegin ? D.HeaderBegin : D.Begin, D.End);
      J["def_begin"] = D.Begin;
    }
    if (K.KernelCodeDef && U.KernelCode &&
        *K.KernelCodeDef < U.KernelCode->Defs.size()) {
      const KernelDef &D = U.KernelCode->Defs[*K.KernelCodeDef];
      J["kernel_def"] = range(D.HeaderBegin ? D.HeaderBegin : D.Begin, D.End);
      J["kernel_def_begin"] = D.Begin;
    }
    J["post"] = indices(P.postOfKernel(R));
    J["pre"] = indices(P.preOfKernel(R));
    ojson Src = ojson::array();
    const auto &Sources = P.sourcesOfKernel(R);
    const auto &Origins = P.sourceOriginsOfKernel(R);
    for (size_t I = 0; I < Sources.size(); ++I)
      Src.push_back(
          ojson::array({Sources[I], edgeOriginName(Origins[I]).str()}));
    J["sources"] = std::move(Src);
    J["in_mapping"] = K.InMapping;
    const KernelInfoArtifact::Entry *Info = kernelInfo(U, K.Name);
    J["info"] = Info ? ojson(Info->Info) : ojson(nullptr);
    Arr.push_back(std::move(J));
  }
  return Arr;
}

/// What the page lists as not linked: computing nodes that were mapped to
/// nothing, kernels with no node and kernels with no user source.
ojson unlinkedData(const CompileUnit &U, const UnitProvenance &P) {
  ojson J = ojson::object();
  auto Nodes = [&](const GraphArtifact *G, bool Pre) {
    ojson A = ojson::array();
    if (G)
      for (uint32_t I = 0; I < G->Nodes.size(); ++I)
        if (isComputeNode(G->Nodes[I]) &&
            !(Pre ? P.preLinked(I) : P.postLinked(I)))
          A.push_back(I);
    return A;
  };
  J["pre"] = Nodes(U.PreGrad.get(), true);
  J["post"] = Nodes(U.PostGrad.get(), false);
  ojson NoNodes = ojson::array(), NoSource = ojson::array();
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    if (!P.kernelLinked(R))
      NoNodes.push_back(R);
    if (P.sourcesOfKernel(R).empty())
      NoSource.push_back(R);
  }
  J["kernels_without_nodes"] = std::move(NoNodes);
  J["kernels_without_source"] = std::move(NoSource);
  return J;
}

/// Every edge of the unit with its origin and confidence, grouped: one
/// [origin, confidence, [from kind, from index, to kind, to index, ...]]
/// per origin and confidence, kinds as Endpoint::EndpointKind (0 pre,
/// 1 post, 2 kernel, 3 source). Flat, so that a unit of 40,000 edges stays
/// small and fast to parse; the page draws inferred links (confidence
/// under 100) dashed and lists them.
ojson edgesData(const CompileUnit &U) {
  std::vector<std::pair<std::pair<EdgeOrigin, uint8_t>, ojson>> Groups;
  for (const Edge &E : U.Edges) {
    auto Key = std::make_pair(E.Origin, E.Confidence);
    auto It = std::find_if(Groups.begin(), Groups.end(),
                           [&](const auto &G) { return G.first == Key; });
    if (It == Groups.end()) {
      Groups.emplace_back(Key, ojson::array());
      It = std::prev(Groups.end());
    }
    for (uint32_t V : {uint32_t(E.From.Kind), E.From.Index,
                       uint32_t(E.To.Kind), E.To.Index})
      It->second.push_back(V);
  }
  ojson J = ojson::array();
  for (auto &G : Groups)
    J.push_back(ojson::array({edgeOriginName(G.first.first).str(),
                              unsigned(G.first.second), std::move(G.second)}));
  return J;
}

ojson sourceData(const SourceLoc &S) {
  return ojson::array({S.File, S.Line, S.Function, S.Code});
}

ojson coverageData(const UnitCoverage &C) {
  auto One = [](const CoverageCount &N) {
    return ojson::array({N.Linked, N.Total});
  };
  ojson J = ojson::object();
  J["pre_grad"] = One(C.Pre);
  J["post_grad"] = One(C.Post);
  J["kernels"] = One(C.Kernels);
  return J;
}

/// What the index keeps of a unit.
struct UnitSummary {
  std::string Id;   ///< slug, unique within the output
  std::string Name; ///< display name
  std::string File; ///< page file name (directory output)
  std::string Log;
  Optional<int64_t> Rank;
  std::string CompileId; ///< empty for AOT / export
  std::string Graph;
  std::string Frame; ///< "file:line in fn", or empty
  size_t Kernels = 0;
  UnitCoverage Coverage;
  std::string Code; ///< "python", "cpp" or empty
};

ojson unitData(const Module &M, const CompileUnit &U, const UnitSummary &S,
               const UnitProvenance &P) {
  ojson J = ojson::object();
  J["id"] = S.Id;
  J["name"] = S.Name;
  J["log"] = S.Log;
  J["rank"] = optInt(U.Key.Rank);
  J["compile_id"] = U.Key.Id ? ojson(U.Key.Id->str()) : ojson(nullptr);
  J["graph"] = S.Graph;
  J["frame"] = U.Frame ? sourceData(*U.Frame) : ojson(nullptr);
  J["coverage"] = coverageData(S.Coverage);
  // The provenance artifacts the unit has: [role, artifact, log line].
  ojson Prov = ojson::array();
  for (UnitSlot S : {UnitSlot::Mapping, UnitSlot::NodeTree,
                     UnitSlot::KernelNodes, UnitSlot::StackTraces,
                     UnitSlot::KernelInfo})
    if (const Artifact *A = U.slot(S))
      Prov.push_back(ojson::array({unitSlotRole(S).str(), A->Name, A->Line}));
  J["provenance"] = std::move(Prov);
  ojson Sources = ojson::array();
  // [file, line, function, code, kernel rows]: the kernels of the line as
  // UnitProvenance::kernelsOfSource says (the Markdown and --source agree).
  for (uint32_t I = 0; I < U.Sources.size(); ++I) {
    ojson S = sourceData(U.Sources[I]);
    S.push_back(P.kernelsOfSource(I));
    Sources.push_back(std::move(S));
  }
  J["sources"] = std::move(Sources);
  OpNames Ops;
  J["pre"] = graphData(U, U.PreGrad.get(), P, true, Ops);
  J["post"] = graphData(U, U.PostGrad.get(), P, false, Ops);
  J["ops"] = std::move(Ops.Lists);
  J["code"] = codeData(U.Code.get());
  J["kernel_code"] = codeData(U.KernelCode.get());
  J["kernels"] = kernelsData(U, P);
  J["unlinked"] = unlinkedData(U, P);
  J["edges"] = edgesData(U);
  return J;
}

std::string percent(const CoverageCount &C) {
  if (!C.Total)
    return "-";
  return formatv("{0}/{1} ({2}%)", C.Linked, C.Total,
                 unsigned(C.ratio() * 100.0 + 0.5))
      .str();
}

/// How -o names the output: "-" is stdout; a path that ends in '/' or is a
/// directory is a directory; another existing path is a file; a new path
/// is a file if it ends in .html or .htm, else a directory.
bool isDirectoryOutput(StringRef Path) {
  if (Path == "-")
    return false;
  if (Path.endswith("/"))
    return true;
  if (sys::fs::exists(Path))
    return sys::fs::is_directory(Path);
  StringRef Ext = sys::path::extension(Path);
  return !(Ext.equals_insensitive(".html") || Ext.equals_insensitive(".htm"));
}

/// "tlp: log.txt" for one log, "tlp" for several.
std::string pageTitle(const Module &M) {
  if (M.Logs.size() != 1)
    return "tlp";
  return "tlp: " + sys::path::filename(M.logName(0)).str();
}

class HTMLEmitter : public Emitter {
public:
  using Emitter::Emitter;

  Error begin(const Module &M) override;
  Error unit(const Module &M, const CompileUnit &U) override;
  std::string prepareUnit(const Module &M, const CompileUnit &U) const override;
  Error preparedUnit(const Module &M, const CompileUnit &U,
                     std::string Data) override;
  Error end(const Module &M) override;

private:
  bool DirMode = false;
  std::string Dir;
  /// Single page: the page. Directory: every file written so far, kept
  /// only when the whole output succeeded.
  std::unique_ptr<OutputFile> Page;
  std::unique_ptr<OutputDirectory> Files;
  std::vector<UnitSummary> Summaries;
  StringSet<> Ids;
  /// The units of each compile record, for the dashboard.
  emit::RecordUnits RecordUnits;

  /// Write the file \p Name of the output directory.
  Error write(StringRef Name, StringRef Text);
  void writeHead(raw_ostream &OS, StringRef Title, StringRef Mode);
  void writeApp(raw_ostream &OS);
  void writeIndexBody(raw_ostream &OS, const Module &M, bool Links);
};

void HTMLEmitter::writeHead(raw_ostream &OS, StringRef Title, StringRef Mode) {
  OS << "<!DOCTYPE html>\n"
     << "<html lang=\"en\">\n"
     << "<head>\n"
     << "<meta charset=\"utf-8\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n"
     << "<meta name=\"generator\" content=\"tlp " << TLP_VERSION_STRING
     << "\">\n"
     << "<title>" << escapeHTML(Title) << "</title>\n"
     // The theme the reader picked (tlp.js toggleTheme), before the first
     // paint; without one, the system's (prefers-color-scheme in tlp.css).
     << "<script>try{var t=localStorage.getItem(\"tlp-theme\");"
        "if(t===\"dark\"||t===\"light\")"
        "document.documentElement.dataset.theme=t}catch(e){}</script>\n";
  // A directory shares one copy of the CSS and the JS among its pages
  // (written once, cached by the browser); a single page carries its own.
  if (DirMode)
    OS << "<link rel=\"stylesheet\" href=\"tlp.css\">\n";
  else
    OS << "<style>\n" << TlpCSS << "</style>\n";
  OS << "</head>\n"
     << "<body data-mode=\"" << Mode << "\">\n";
}

/// The page skeleton the JS fills, then the JS. Panels: pre-grad graph,
/// post-grad graph, generated code (with the AOT kernel file as a second
/// tab), user source; dividers between them resize them.
void HTMLEmitter::writeApp(raw_ostream &OS) {
  OS << "<header id=\"bar\">\n"
     << "<a id=\"home\" href=\"" << (DirMode ? "index.html" : "#")
     << "\" title=\"all units\">tlp</a>\n"
     << "<select id=\"unit-select\" aria-label=\"compile unit\"></select>\n"
     << "<span id=\"unit-facts\"></span>\n"
     << "<span id=\"bar-tools\">"
     << "<button id=\"colour-toggle\" type=\"button\" aria-pressed=\"false\" "
        "title=\"a colour per kernel group (c)\">colours</button>"
     << "<button id=\"filter-open\" type=\"button\" title=\"find a node, "
        "kernel, op or source line (/)\">filter</button>"
     << "<button id=\"search-open\" type=\"button\" title=\"search every "
        "panel (f)\">search</button>"
     << "<button id=\"theme-toggle\" type=\"button\" aria-pressed=\"false\" "
        "title=\"dark theme (t)\">dark</button>"
     << "<button id=\"help-open\" type=\"button\" title=\"keys (?)\">?</button>"
     << "</span>\n"
     << "</header>\n"
     << "<noscript><p class=\"none\">This page needs JavaScript to show "
        "the panels; the index lists the units without it.</p></noscript>\n"
     << "<main id=\"panels\" hidden>\n"
     << "<section class=\"panel\" data-panel=\"pre\"></section>\n"
     << "<div class=\"divider\" role=\"separator\"></div>\n"
     << "<section class=\"panel\" data-panel=\"post\"></section>\n"
     << "<div class=\"divider\" role=\"separator\"></div>\n"
     << "<div class=\"column\" id=\"code-column\">"
     << "<nav class=\"tabs\" id=\"code-tabs\" hidden></nav>"
     << "<section class=\"panel\" data-panel=\"code\"></section>"
     << "<section class=\"panel\" data-panel=\"kernel\" hidden></section>"
     << "</div>\n"
     << "<div class=\"divider\" role=\"separator\"></div>\n"
     << "<section class=\"panel\" data-panel=\"source\"></section>\n"
     << "</main>\n"
     << "<aside id=\"details\" hidden>"
     << "<nav class=\"tabs\" id=\"details-tabs\"></nav>"
     << "<div id=\"details-body\"></div></aside>\n"
     << "<div id=\"filter\" class=\"overlay\" hidden>"
     << "<input id=\"filter-input\" type=\"search\" autocomplete=\"off\" "
        "placeholder=\"node, kernel, op or source text\" "
        "aria-label=\"filter\">"
     << "<div id=\"filter-count\"></div>"
     << "<ol id=\"filter-results\"></ol></div>\n"
     << "<div id=\"search\" class=\"overlay\" hidden>"
     << "<input id=\"search-input\" type=\"search\" autocomplete=\"off\" "
        "placeholder=\"search every panel\" aria-label=\"search\">"
     << "<span id=\"search-count\"></span>"
     << "<button id=\"search-prev\" type=\"button\" title=\"previous "
        "(Shift+Enter)\">&#8593;</button>"
     << "<button id=\"search-next\" type=\"button\" title=\"next "
        "(Enter)\">&#8595;</button></div>\n"
     << "<div id=\"help\" class=\"overlay\" hidden></div>\n";
  if (DirMode)
    OS << "<script src=\"units.js\"></script>\n"
       << "<script src=\"tlp.js\"></script>\n";
  else
    OS << "<script>\n" << TlpJS << "</script>\n";
  OS << "</body>\n"
     << "</html>\n";
}

void HTMLEmitter::writeIndexBody(raw_ostream &OS, const Module &M, bool Links) {
  OS << "<h1>tlp: what torch.compile did</h1>\n";
  OS << "<p class=\"inputs\">";
  for (uint32_t I = 0; I < M.Logs.size(); ++I) {
    OS << (I ? ", " : "") << "<code>" << escapeHTML(M.logName(I)) << "</code>";
    if (M.Logs[I].Rank)
      OS << " (rank " << *M.Logs[I].Rank;
    if (M.Logs[I].Rank && M.Logs[I].EventRank)
      OS << ", events of rank " << *M.Logs[I].EventRank;
    if (M.Logs[I].Rank)
      OS << ")";
  }
  OS << ": " << M.Stats.Lines << " lines, " << M.Stats.Events << " events, "
     << Summaries.size() << (Summaries.size() == 1 ? " unit" : " units")
     << "</p>\n";
  emit::writeDashboard(OS, M, RecordUnits);
  OS << "<h2>Compile units</h2>\n";
  if (Summaries.empty()) {
    if (!M.Artifacts.empty())
      OS << "<p class=\"empty\">no compile units: " << M.Artifacts.size()
         << " artifacts are not grouped into units (on IR, run the passes: "
            "--passes=link-provenance)</p>\n";
    else
      OS << "<p class=\"empty\">no compile units: nothing reached Inductor, "
            "or the input has no graphs</p>\n";
  } else {
    OS << "<table id=\"units\">\n"
       << "<thead><tr><th>unit</th><th>compile id</th><th>rank</th>"
       << (M.Logs.size() > 1 ? "<th>log</th>" : "")
       << "<th>graph</th><th>kernels</th><th>pre-grad linked</th>"
          "<th>post-grad linked</th><th>kernels linked</th><th>code</th>"
          "<th>frame</th></tr></thead>\n<tbody>\n";
    for (const UnitSummary &S : Summaries) {
      OS << "<tr data-unit=\"" << escapeHTML(S.Id) << "\"><td><a href=\""
         << escapeHTML(Links ? S.File : "#unit=" + S.Id) << "\">"
         << escapeHTML(S.Name) << "</a></td>"
         << "<td>" << escapeHTML(S.CompileId.empty() ? "-" : S.CompileId)
         << "</td><td>" << (S.Rank ? std::to_string(*S.Rank) : "-");
      if (M.Logs.size() > 1)
        OS << "</td><td title=\"" << escapeHTML(S.Log) << "\"><code>"
           << escapeHTML(sys::path::filename(S.Log)) << "</code>";
      OS << "</td><td>" << S.Graph << "</td><td>" << S.Kernels << "</td>"
         << "<td>" << percent(S.Coverage.Pre) << "</td>"
         << "<td>" << percent(S.Coverage.Post) << "</td>"
         << "<td>" << percent(S.Coverage.Kernels) << "</td>"
         << "<td>" << (S.Code.empty() ? "-" : S.Code) << "</td>"
         << "<td>" << escapeHTML(S.Frame.empty() ? "-" : S.Frame)
         << "</td></tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }
  // What the reader counted and did not read (Stats.UnknownKinds).
  OS << "<h2>Not read</h2>\n";
  if (M.Stats.UnknownKinds.empty()) {
    OS << "<p class=\"empty\">tlp read every event</p>\n";
  } else {
    uint64_t Total = 0;
    for (auto &KV : M.Stats.UnknownKinds)
      Total += KV.second;
    OS << "<p>" << Total << " of " << M.Stats.Events
       << " events are of kinds or artifact names tlp does not read:</p>\n"
       << "<table id=\"not-read\">\n"
       << "<thead><tr><th>kind</th><th>events</th></tr></thead>\n<tbody>\n";
    for (auto &KV : M.Stats.UnknownKinds)
      OS << "<tr><td><code>" << escapeHTML(KV.first) << "</code></td><td>"
         << KV.second << "</td></tr>\n";
    OS << "</tbody>\n</table>\n";
  }
  OS << "<h2>Diagnostics</h2>\n";
  if (M.Diagnostics.empty()) {
    OS << "<p class=\"empty\">none</p>\n";
  } else {
    OS << "<table id=\"diagnostics\">\n"
       << "<thead><tr><th>severity</th><th>where</th><th>message</th>"
          "</tr></thead>\n<tbody>\n";
    for (const Diagnostic &D : M.Diagnostics) {
      std::string Where = D.File.empty() ? "-" : D.File;
      if (D.Line)
        Where += ":" + std::to_string(D.Line);
      OS << "<tr class=\"" << severityName(D.Sev) << "\"><td>"
         << severityName(D.Sev) << "</td><td>" << escapeHTML(Where)
         << "</td><td>" << escapeHTML(D.Message);
      if (!D.Excerpt.empty())
        OS << "<pre>" << escapeHTML(D.Excerpt) << "</pre>";
      OS << "</td></tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }
  OS << "<p class=\"producer\">tlp " << TLP_VERSION_STRING << ": <code>"
     << escapeHTML(Opts.CommandLine) << "</code></p>\n";
}

Error HTMLEmitter::write(StringRef Name, StringRef Text) {
  return Files->write(Name, Text);
}

Error HTMLEmitter::begin(const Module &M) {
  DirMode = isDirectoryOutput(Opts.Output);
  if (DirMode) {
    Dir = Opts.Output;
    Expected<std::unique_ptr<OutputDirectory>> D = OutputDirectory::create(
        Dir, "index.html", "<meta name=\"generator\" content=\"tlp ");
    if (!D)
      return D.takeError();
    Files = std::move(*D);
    for (auto [Name, Text] :
         {std::pair<const char *, const char *>{"tlp.css", TlpCSS},
          {"tlp.js", TlpJS}})
      if (Error Err = write(Name, Text))
        return Err;
    return Error::success();
  }
  Expected<std::unique_ptr<OutputFile>> F = openOutputFile(Opts.Output);
  if (!F)
    return F.takeError();
  Page = std::move(*F);
  writeHead(Page->os(), pageTitle(M), "single");
  return Error::success();
}

static UnitSummary summarize(const Module &M, const CompileUnit &U,
                             const UnitProvenance &P, StringRef Id) {
  UnitSummary S;
  S.Id = Id.str();
  S.Name = U.Key.displayName();
  S.File = S.Id + ".html";
  S.Log = M.logName(U.Key.Log);
  S.Rank = U.Key.Rank;
  if (U.Key.Id)
    S.CompileId = U.Key.Id->str();
  S.Graph = graphKindName(U.Key.Graph).str();
  if (U.Frame)
    S.Frame = formatv("{0}:{1} in {2}", U.Frame->File, U.Frame->Line,
                      U.Frame->Function)
                  .str();
  S.Kernels = U.Kernels.size();
  S.Coverage = P.coverage();
  if (U.Code)
    S.Code = languageName(U.Code->Lang).str();
  return S;
}

std::string HTMLEmitter::prepareUnit(const Module &M,
                                     const CompileUnit &U) const {
  // The expensive part, on a worker: the unit's data block, for the id the
  // unit has unless its slug clashes (preparedUnit() then redoes it).
  UnitProvenance P(U);
  UnitSummary S = summarize(M, U, P, U.Key.slug());
  return scriptJSON(unitData(M, U, S, P), Opts.Pretty);
}

Error HTMLEmitter::unit(const Module &M, const CompileUnit &U) {
  return preparedUnit(M, U, prepareUnit(M, U));
}

Error HTMLEmitter::preparedUnit(const Module &M, const CompileUnit &U,
                                std::string Data) {
  UnitProvenance P(U);
  std::string Id = U.Key.slug();
  for (unsigned N = 2; !Ids.insert(Id).second; ++N)
    Id = U.Key.slug() + "-dup" + std::to_string(N);
  UnitSummary S = summarize(M, U, P, Id);
  if (Id != U.Key.slug()) // a rare clash of slugs: render for the new id
    Data = scriptJSON(unitData(M, U, S, P), Opts.Pretty);
  Summaries.push_back(S);
  if (const CompileRecord *R = M.findCompile(U.Key))
    RecordUnits[static_cast<size_t>(R - M.Compiles.data())].push_back(
        {S.Name, DirMode ? S.File : "#unit=" + S.Id});

  if (!DirMode) {
    Page->os() << "<script type=\"application/json\" class=\"tlp-unit\" "
                  "data-unit=\""
               << escapeHTML(S.Id) << "\">" << Data << "</script>\n";
    return Error::success();
  }
  std::string Text;
  Text.reserve(Data.size() + 4096);
  raw_string_ostream OS(Text);
  writeHead(OS, "tlp: " + S.Name, "unit");
  OS << "<script type=\"application/json\" class=\"tlp-unit\" data-unit=\""
     << escapeHTML(S.Id) << "\">" << Data << "</script>\n";
  writeApp(OS);
  return write(S.File, OS.str());
}

Error HTMLEmitter::end(const Module &M) {
  if (!DirMode) {
    raw_ostream &OS = Page->os();
    OS << "<section id=\"overview\" hidden>\n";
    writeIndexBody(OS, M, /*Links=*/false);
    OS << "</section>\n";
    writeApp(OS);
    return Page->commit();
  }
  // units.js: the unit list of the pages' selectors.
  ojson List = ojson::array();
  for (const UnitSummary &S : Summaries)
    List.push_back(ojson::array({S.Id, S.Name, S.File}));
  if (Error Err = write("units.js", "window.TLP_UNITS = " +
                                        scriptJSON(List, Opts.Pretty) + ";\n"))
    return Err;

  std::string Text;
  raw_string_ostream OS(Text);
  writeHead(OS, pageTitle(M), "index");
  OS << "<main id=\"index\">\n";
  writeIndexBody(OS, M, /*Links=*/true);
  OS << "</main>\n</body>\n</html>\n";
  if (Error Err = write("index.html", OS.str()))
    return Err;
  return Files->commit();
}

} // namespace

std::unique_ptr<Emitter> createHTMLEmitter(const EmitOptions &Opts,
                                           DiagnosticEngine &Diags) {
  return std::make_unique<HTMLEmitter>(Opts, Diags);
}

} // namespace tlp
