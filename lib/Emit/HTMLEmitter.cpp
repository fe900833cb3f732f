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
#include "HTMLRaw.h"

#include "tlp/Analysis/PassTimeline.h"
#include "tlp/Analysis/UnitDigest.h"
#include "tlp/Analysis/UnitView.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/Emit/MarkdownRender.h"
#include "tlp/Emit/UnitJSON.h"
#include "tlp/Support/FileUtilities.h"
#include "tlp/Support/Parallel.h"
#include "tlp/Support/Version.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

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

/// A unit page's data block (unitPageJSON) as scriptJSON writes a DOM:
/// script-safe, and with --pretty in prettyJSON's layout (the writer's
/// Block and Inline containers, one space a level).
std::string unitPageData(const UnitView &V, StringRef Id, bool Pretty) {
  std::string S;
  raw_string_ostream OS(S);
  OS.SetBuffered();
  JSONWriter::Options O;
  O.Pretty = Pretty;
  O.IndentWidth = 1;
  O.ScriptSafe = true;
  {
    JSONWriter W(OS, O);
    unitPageJSON(W, V, Id);
  }
  OS.flush();
  return S;
}

/// The units' measured time for their pages' time column (--profile;
/// docs/html.md, "Time on the unit page"; read by time.js): a list of
/// [unit id, times] for the units with a timed kernel, where times holds
///   kernels: [row, calls, total ns, self ns, share of the region or null]
///   post, pre: [node index, ns, kernels it has a share of]
///   lines: ["file:line", ns, kernels]
/// Shared times are rounded to the nanosecond. Lists, not objects keyed
/// by names from the log, so that no name can be a special key.
ojson profilePageJSON(const ProfileReport &R, ArrayRef<ProfileUnit> Units) {
  std::vector<UnitTimes> Times = unitTimes(R, Units);
  ojson J = ojson::object();
  ojson List = ojson::array();
  for (size_t U = 0; U < Units.size(); ++U) {
    const UnitTimes &T = Times[U];
    if (T.Kernels.empty())
      continue;
    ojson E = ojson::object();
    ojson Ks = ojson::array();
    for (auto [Row, I] : T.Kernels) {
      const ProfileReport::KernelTime &K = R.Kernels[I];
      Ks.push_back(ojson::array({Row, K.Count, K.Total, K.Self,
                                 K.Share ? ojson(*K.Share) : ojson(nullptr)}));
    }
    E["kernels"] = std::move(Ks);
    auto Shared = [](const std::vector<UnitTimes::Shared> &V, bool Line) {
      ojson A = ojson::array();
      for (const UnitTimes::Shared &S : V)
        A.push_back(ojson::array({Line ? ojson(S.Line) : ojson(S.Node),
                                  std::llround(S.Time), S.Kernels}));
      return A;
    };
    E["post"] = Shared(T.Post, false);
    E["pre"] = Shared(T.Pre, false);
    E["lines"] = Shared(T.Lines, true);
    List.push_back(ojson::array({Units[U].Id, std::move(E)}));
  }
  J["units"] = std::move(List);
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
  /// The artifacts tlp read into the unit: name and log line, in line
  /// order (listed on its compile's artifacts page).
  std::vector<std::pair<std::string, uint32_t>> Read;
};

std::string percent(const CoverageCount &C) {
  if (!C.Total)
    return "-";
  return formatv("{0}/{1} ({2}%)", C.Linked, C.Total,
                 unsigned(C.ratio() * 100.0 + 0.5))
      .str();
}

/// " (+N by pre-grad name only)" for post-grad nodes the mapping gives a
/// pre-grad node the unit has no graph of; "" if none.
std::string byName(const CoverageCount &C) {
  if (!C.ByPreGradName)
    return "";
  return formatv(" <span title=\"not linked: the provenance mapping names "
                 "their pre-grad node, but the unit has no pre-grad graph (an "
                 "AOTAutograd cache hit logs none)\">(+{0} by pre-grad name "
                 "only)</span>",
                 C.ByPreGradName)
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

  /// A directory (index, a page per unit) or, for -o PAGE.html or stdout,
  /// one self-contained page (isDirectoryOutput).
  EmitterTraits traits() const override {
    EmitterTraits T;
    T.NeedsDigests = true;
    T.NeedsProfile = !Opts.Profile.empty();
    if (isDirectoryOutput(Opts.Output)) {
      T.Shape = OutputShape::Directory;
      T.IndexFile = "index.html";
      T.Signature = "<meta name=\"generator\" content=\"tlp ";
      T.Flag = "--html";
    }
    return T;
  }

  Error begin(const Module &M) override;
  Error unit(const Module &M, const CompileUnit &U) override;
  std::unique_ptr<PreparedUnit>
  prepareUnit(const Module &M, const CompileUnit &U) const override;
  Error preparedUnit(const Module &M, const CompileUnit &U,
                     std::unique_ptr<PreparedUnit> Prepared) override;
  Error end(const Module &M) override;

private:
  Optional<ProfileTrace> Profile;
  /// The join of Profile onto the units, made once at the end.
  Optional<ProfileReport> Report;
  const ProfileReport &profileReport() {
    if (!Report)
      Report = attributeProfile(*Profile, facts().ProfileUnits);
    return *Report;
  }
  bool DirMode = false;
  std::string Dir;
  std::vector<UnitSummary> Summaries;

  /// Write the file \p Name of the output directory.
  Error write(StringRef Name, StringRef Text);
  void writeHead(raw_ostream &OS, StringRef Title, StringRef Mode);
  void writeApp(raw_ostream &OS);
  void writeIndexBody(raw_ostream &OS, const Module &M, bool Links);
  void writeRanks(raw_ostream &OS, const Module &M, bool Links);
  /// Directory: the side-by-side pages writeRanks() made, by file name.
  std::vector<std::pair<std::string, std::string>> SideBySidePages;
  /// Single page: the units' pass timeline sections, written at the end.
  std::vector<std::string> TimelineSections;
  /// Reads a raw event's texts (Emitter::rawTexts).
  auto rawTextsFn() const {
    return [this](const RawEvent &E, std::string &Line, std::string &Text) {
      return rawTexts(E, Line, Text);
    };
  }
};

/// The theme the reader picked (tlp.js toggleTheme), set before the first
/// paint; without one, the system's (prefers-color-scheme in tlp.css).
static const char ThemeScript[] =
    "try{var t=localStorage.getItem(\"tlp-theme\");"
    "if(t===\"dark\"||t===\"light\")"
    "document.documentElement.dataset.theme=t}catch(e){}";

/// The Content-Security-Policy of every page (docs/html.md, Safety): no
/// request but the directory's own files, no script but the theme script
/// and tlp.js (by hash on a single page, 'self' in a directory). Inline
/// style is allowed: tlp.js colours kernel groups with style="--gh:N" on
/// rows; with nothing loadable, style cannot fetch or run anything.
static std::string contentSecurityPolicy(bool DirMode) {
  static const std::string Single =
      "default-src 'none'; script-src " + cspHash(ThemeScript) + " " +
      cspHash("\n" + std::string(TlpJS)) +
      "; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
  static const std::string Dir =
      "default-src 'none'; script-src " + cspHash(ThemeScript) +
      " 'self'; style-src 'self' 'unsafe-inline'; base-uri 'none'; "
      "form-action 'none'";
  return DirMode ? Dir : Single;
}

void HTMLEmitter::writeHead(raw_ostream &OS, StringRef Title, StringRef Mode) {
  OS << "<!DOCTYPE html>\n"
     << "<html lang=\"en\">\n"
     << "<head>\n"
     << "<meta charset=\"utf-8\">\n"
     << "<meta http-equiv=\"Content-Security-Policy\" content=\""
     << contentSecurityPolicy(DirMode) << "\">\n"
     << "<meta name=\"viewport\" content=\"width=device-width, "
        "initial-scale=1\">\n"
     << "<meta name=\"generator\" content=\"tlp " << TLP_VERSION_STRING
     << "\">\n"
     << "<title>" << escapeHTML(Title) << "</title>\n"
     << "<script>" << ThemeScript << "</script>\n";
  // A directory shares one copy of the CSS and the JS among its pages
  // (written once, cached by the browser); a single page carries its own.
  if (DirMode)
    OS << "<link rel=\"stylesheet\" href=\"tlp.css\">\n";
  else
    OS << "<style>\n" << TlpCSS << "</style>\n";
  // A unit's page asks for its scripts (writeApp) at once: at the end of
  // the page, after the unit's data, they were asked for only once all of
  // it was read, and one after the other.
  if (DirMode && Mode == "unit")
    OS << "<link rel=\"preload\" href=\"units.js\" as=\"script\">\n"
       << (Profile
               ? "<link rel=\"preload\" href=\"profile.js\" as=\"script\">\n"
               : "")
       << "<link rel=\"preload\" href=\"tlp.js\" as=\"script\">\n";
  OS << "</head>\n"
     << "<body data-mode=\"" << Mode << "\">\n";
}

/// The page skeleton the JS fills, then the JS. Panels: pre-grad graph,
/// post-grad graph (with the fusion graph, fusion.js, as a second tab),
/// generated code (with the AOT kernel file as a second
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
     << "<div class=\"column\" id=\"post-column\">"
     << "<nav class=\"tabs\" id=\"post-tabs\" hidden></nav>"
     << "<section class=\"panel\" data-panel=\"post\"></section>"
     << "<section class=\"panel\" data-panel=\"fusion\" hidden></section>"
     << "</div>\n"
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
  // profile.js (--profile): the units' measured time, written at the end
  // (the join needs every unit), read by time.js.
  if (DirMode)
    OS << "<script src=\"units.js\"></script>\n"
       << (Profile ? "<script src=\"profile.js\"></script>\n" : "")
       << "<script src=\"tlp.js\"></script>\n";
  else
    OS << "<script>\n" << TlpJS << "</script>\n";
  OS << "</body>\n"
     << "</html>\n";
}

/// \p Text escaped, its `code` spans (the digests' notation) as <code>.
static std::string codeSpans(StringRef Text) {
  std::string Out;
  bool Open = false;
  for (;;) {
    size_t Tick = Text.find('`');
    Out += escapeHTML(Text.take_front(Tick));
    if (Tick == StringRef::npos)
      break;
    Out += Open ? "</code>" : "<code>";
    Open = !Open;
    Text = Text.drop_front(Tick + 1);
  }
  if (Open)
    Out += "</code>";
  return Out;
}

/// A digest's rows of one kind, for the side-by-side view: the text that
/// must be equal (Key) and what the cell shows (HTML).
struct SideRows {
  /// Rows are paired by Align (the op, the kernel's name) and differ when
  /// their Keys (with the arguments, the code, the fusion) differ.
  std::vector<std::string> Align, Keys, Cells;
};

static SideRows graphRows(const UnitDigest &D) {
  SideRows R;
  for (const DigestNode &N : D.Post) {
    R.Align.push_back(N.Op);
    R.Keys.push_back(N.Op + " " + N.Args);
    R.Cells.push_back("<code>" + escapeHTML(N.Name) + "</code> " +
                      escapeHTML(N.Op) + " <span class=\"args\">" +
                      escapeHTML(N.Args) + "</span>");
  }
  return R;
}

static SideRows kernelRows(const UnitDigest &D) {
  SideRows R;
  for (const DigestKernel &K : D.Kernels) {
    R.Align.push_back(K.NormName);
    R.Keys.push_back(K.NormName + " " + utohexstr(K.CodeHash) + " [" +
                     join(K.PostNodes, ", ") + "]");
    std::string Cell = "<code>" + escapeHTML(K.Name) + "</code>";
    if (!K.PostNodes.empty())
      Cell += " fuses " + escapeHTML(join(K.PostNodes, ", "));
    if (!K.Sources.empty())
      Cell += " <span class=\"args\">from " +
              escapeHTML(join(K.Sources, ", ")) + "</span>";
    R.Cells.push_back(std::move(Cell));
  }
  return R;
}

static SideRows collectiveRows(const UnitDigest &D) {
  SideRows R;
  for (const std::string &C : D.Collectives) {
    R.Align.push_back(C);
    R.Keys.push_back(C);
    R.Cells.push_back("<code>" + escapeHTML(C) + "</code>");
  }
  return R;
}

/// Two units next to each other (docs/html.md, Ranks): the post-grad
/// nodes, the kernels and the collectives of each, aligned, the rows that
/// differ marked.
static void writeSideBySide(raw_ostream &OS, const UnitDigest &A,
                            const UnitDigest &B, StringRef HrefA,
                            StringRef HrefB) {
  auto Head = [](const UnitDigest &D, StringRef Href) {
    return "<th>rank " + std::to_string(D.Key.Rank.getValueOr(0)) +
           ": <a href=\"" + escapeHTML(Href) + "\">" + escapeHTML(D.Id) +
           "</a></th>";
  };
  OS << "<table class=\"side-by-side\">\n<thead><tr><th></th>"
     << Head(A, HrefA) << Head(B, HrefB) << "</tr></thead>\n<tbody>\n";
  auto Part = [&](StringRef Name, const SideRows &X, const SideRows &Y) {
    auto Rows = alignSequences(X.Align, Y.Align);
    auto Same = [&](const std::pair<Optional<size_t>, Optional<size_t>> &P) {
      return P.first && P.second && X.Keys[*P.first] == Y.Keys[*P.second];
    };
    size_t Differ = Rows.size() - llvm::count_if(Rows, Same);
    OS << "<tr class=\"part\"><th colspan=\"3\">" << Name << " ("
       << (Differ ? std::to_string(Differ) + " rows differ" : "the same")
       << ")</th></tr>\n";
    size_t N = 0;
    for (const auto &P : Rows) {
      OS << "<tr" << (Same(P) ? "" : " class=\"differ\"") << "><td>" << ++N
         << "</td><td>" << (P.first ? X.Cells[*P.first] : "")
         << "</td><td>" << (P.second ? Y.Cells[*P.second] : "")
         << "</td></tr>\n";
    }
  };
  Part("post-grad graph", graphRows(A), graphRows(B));
  Part("kernels", kernelRows(A), kernelRows(B));
  Part("collectives", collectiveRows(A), collectiveRows(B));
  OS << "</tbody>\n</table>\n";
}

/// The ranks compared: a table of compile id x rank, the cells that differ
/// marked and named, and the first divergent unit next to its reference.
/// A directory also gets a side-by-side page for each unit that differs.
void HTMLEmitter::writeRanks(raw_ostream &OS, const Module &M, bool Links) {
  const std::vector<UnitDigest> &Digests = facts().Digests;
  RankComparison RC = compareRanks(Digests, &M);
  if (RC.Rows.empty())
    return;
  StringMap<const UnitDigest *> ById;
  for (const UnitDigest &D : Digests)
    ById[D.Id] = &D;
  auto Href = [&](const std::string &Id) {
    return Links ? Id + ".html" : "#unit=" + Id;
  };
  auto VsFile = [](const std::string &Id) { return "vs-" + Id + ".html"; };
  size_t Diverge = RC.divergentRows();
  OS << "<h2 id=\"ranks-head\">Ranks</h2>\n<p>Each rank against the lowest, "
        "per compiled graph (a compile's forward, backward or inference "
        "graph): the post-grad graph, the kernels and the collectives, "
        "noise normalised. "
     << (Diverge ? std::to_string(Diverge) + " of " +
                       std::to_string(RC.Rows.size()) +
                       (RC.Rows.size() == 1 ? " graph diverges."
                                            : " graphs diverge.")
                 : "All " + std::to_string(RC.Rows.size()) +
                       (RC.Rows.size() == 1 ? " graph agrees on all "
                                            : " graphs agree on all ") +
                       std::to_string(RC.Ranks.size()) + " ranks.")
     << "</p>\n";
  // A directory: a side-by-side page for each unit that differs.
  StringSet<> Pages;
  for (const RankRow &Row : RC.Rows) {
    auto A = ById.find(Row.ReferenceId);
    for (const RankCell &C : Row.Cells) {
      auto B = ById.find(C.UnitId);
      if (!Links || C.UnitId.empty() || C.Difference.empty() ||
          A == ById.end() || B == ById.end())
        continue;
      Pages.insert(C.UnitId);
      std::string Text;
      raw_string_ostream P(Text);
      writeHead(P, "tlp: " + C.UnitId + " against " + Row.ReferenceId,
                "compare");
      P << "<main id=\"index\">\n<p><a href=\"index.html#ranks-head\">"
           "Ranks</a></p>\n<h1>"
        << escapeHTML(C.UnitId) << " against " << escapeHTML(Row.ReferenceId)
        << "</h1>\n<p class=\"diverge\">" << codeSpans(C.Difference)
        << "</p>\n";
      writeSideBySide(P, *A->second, *B->second, Href(Row.ReferenceId),
                      Href(C.UnitId));
      P << "</main>\n</body>\n</html>\n";
      SideBySidePages.emplace_back(VsFile(C.UnitId), std::move(P.str()));
    }
  }
  auto SideLink = [&](const std::string &Id, StringRef Text) {
    return Pages.count(Id) ? " (<a href=\"" + escapeHTML(VsFile(Id)) +
                                 "\">" + Text.str() + "</a>)"
                           : std::string();
  };

  if (RC.Ranks.size() > MaxRankColumns) {
    // Many ranks: by outcome, not a column per rank.
    OS << "<table id=\"ranks\">\n<thead><tr><th>compile id</th><th>graph"
          "</th><th>reference</th><th>agree</th><th>differ</th></tr>"
          "</thead>\n<tbody>\n";
    for (const RankRow &Row : RC.Rows) {
      OS << "<tr" << (Row.agrees() ? "" : " class=\"diverge\"") << "><td>"
         << escapeHTML(Row.CompileId) << "</td><td>" << escapeHTML(Row.Graph)
         << "</td><td><a href=\"" << escapeHTML(Href(Row.ReferenceId))
         << "\">rank " << Row.ReferenceRank << "</a></td><td>";
      auto Outcomes = Row.outcomes();
      OS << (Outcomes[0].second.empty() ? "none"
                                        : rankRanges(Outcomes[0].second))
         << "</td><td>";
      if (Outcomes.size() == 1)
        OS << "none";
      for (size_t I = 1; I < Outcomes.size(); ++I) {
        const std::vector<int64_t> &Rs = Outcomes[I].second;
        OS << (I > 1 ? "<br>" : "") << (Rs.size() == 1 ? "rank " : "ranks ")
           << rankRanges(Rs) << ": <span class=\"diverge\">"
           << (StringRef(Outcomes[I].first).startswith("missing") ? "missing"
                                                                 : "differs")
           << "</span>";
        StringRef Text = Outcomes[I].first;
        if (Text.startswith("missing"))
          OS << escapeHTML(Text.drop_front(7));
        else
          OS << ": " << codeSpans(Text);
        // The side-by-side pages of the group's first units.
        size_t Shown = 0, Of = 0;
        for (const RankCell &C : Row.Cells)
          if (!C.UnitId.empty() && C.Difference == Outcomes[I].first &&
              Pages.count(C.UnitId) && Of++ < 8)
            OS << (Shown++ ? ", " : " (side by side: ") << "<a href=\""
               << escapeHTML(VsFile(C.UnitId)) << "\">rank " << C.Rank
               << "</a>";
        if (Shown)
          OS << (Of > Shown ? " and " + std::to_string(Of - Shown) + " more"
                            : std::string())
             << ")";
      }
      OS << "</td></tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  } else {
    OS << "<table id=\"ranks\">\n<thead><tr><th>compile id</th><th>graph"
          "</th>";
    for (int64_t R : RC.Ranks)
      OS << "<th>rank " << R << "</th>";
    OS << "</tr></thead>\n<tbody>\n";
    for (const RankRow &Row : RC.Rows) {
      OS << "<tr" << (Row.agrees() ? "" : " class=\"diverge\"") << "><td>"
         << escapeHTML(Row.CompileId) << "</td><td>" << escapeHTML(Row.Graph)
         << "</td>";
      for (int64_t R : RC.Ranks) {
        OS << "<td>";
        bool First = true;
        for (const RankCell &C : Row.Cells) {
          if (C.Rank != R)
            continue;
          OS << (First ? "" : "<br>");
          First = false;
          if (C.UnitId.empty()) {
            StringRef Why = StringRef(C.Difference).drop_front(
                std::min<size_t>(C.Difference.size(), 7)); // after "missing"
            OS << "<span class=\"diverge\">missing</span>"
               << escapeHTML(Why);
            continue;
          }
          OS << "<a href=\"" << escapeHTML(Href(C.UnitId)) << "\">";
          if (C.UnitId == Row.ReferenceId)
            OS << "reference";
          else if (C.Difference.empty())
            OS << "agrees";
          else
            OS << "<span class=\"diverge\">differs</span>";
          OS << "</a>";
          if (!C.Difference.empty())
            OS << ": " << codeSpans(C.Difference)
               << SideLink(C.UnitId, "side by side");
        }
        OS << "</td>";
      }
      OS << "</tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }
  if (RC.FirstRow) {
    const RankRow &Row = RC.Rows[*RC.FirstRow];
    const RankCell &C = Row.Cells[*RC.FirstCell];
    OS << "<p id=\"first-divergent\" class=\"diverge\">First divergent unit: ";
    if (C.UnitId.empty())
      OS << "rank " << C.Rank << " has no unit for "
         << escapeHTML(Row.CompileId) << " " << escapeHTML(Row.Graph);
    else
      OS << "<a href=\"" << escapeHTML(Href(C.UnitId)) << "\">"
         << escapeHTML(C.UnitId) << "</a>";
    OS << " against <a href=\"" << escapeHTML(Href(Row.ReferenceId)) << "\">"
       << escapeHTML(Row.ReferenceId) << "</a> (rank " << Row.ReferenceRank
       << "): " << codeSpans(C.Difference) << "</p>\n";
    auto A = ById.find(Row.ReferenceId), B = ById.find(C.UnitId);
    if (A != ById.end() && B != ById.end())
      writeSideBySide(OS, *A->second, *B->second, Href(Row.ReferenceId),
                      Href(C.UnitId));
  }
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
  OS << "<p class=\"torch-version\">" << escapeHTML(emit::torchVersionText(M))
     << "</p>\n";
  // The units of each compile record: their name and their page.
  emit::RecordUnits RecordUnits;
  for (const auto &[Record, Units] : facts().UnitsOfRecord)
    for (size_t I : Units) {
      const ModuleFacts::Unit &F = facts().Units[I];
      RecordUnits[Record].push_back(
          {F.Name, DirMode ? F.Id + ".html" : "#unit=" + F.Id});
    }
  emit::writeDashboard(OS, M, RecordUnits, DirMode, Opts.Threads);
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
         << "<td>" << percent(S.Coverage.Post) << byName(S.Coverage.Post)
         << "</td>"
         << "<td>" << percent(S.Coverage.Kernels) << "</td>"
         << "<td>" << (S.Code.empty() ? "-" : S.Code) << "</td>"
         << "<td>" << escapeHTML(S.Frame.empty() ? "-" : S.Frame)
         << "</td></tr>\n";
    }
    OS << "</tbody>\n</table>\n";
  }
  writeRanks(OS, M, Links);
  emit::writeRankRuntime(OS, M, &facts().Collectives);
  if (Profile)
    emit::writeProfile(OS, *Profile, profileReport(), facts().ProfileUnits);
  emit::writeArtifactsSection(OS, M, DirMode, rawTextsFn());
  // What the reader counted and did not read (Stats.UnknownKinds).
  OS << "<h2>Not read</h2>\n";
  if (M.Stats.UnknownKinds.empty()) {
    OS << "<p class=\"empty\">tlp read every event</p>\n";
  } else {
    uint64_t Total = 0;
    for (auto &KV : M.Stats.UnknownKinds)
      Total += KV.second;
    OS << "<p>" << Total << " of " << M.Stats.Events
       << " events are of kinds or artifact names tlp does not interpret; "
          "they are shown raw under <a href=\"#artifacts-head\">Artifacts"
          "</a>:</p>\n"
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

/// A unit's pass timeline and dump files (a depyf dump's): the stages as
/// an ordered list, each linking to its text and to its changes against
/// the stage before (the diff's graph comparison), then the files with
/// Dynamo's guards. Anchors are prefixed with \p Id (one page may hold
/// several units' sections).
static void writeTimeline(raw_ostream &OS, const Module &M,
                          const CompileUnit &U, StringRef Id) {
  std::string P = "timeline-" + Id.str();
  OS << "<h1>Pass timeline of " << escapeHTML(U.Key.displayName()) << "</h1>\n";
  if (!U.Stages.empty()) {
    std::vector<TimelineStep> Steps = passTimeline(M, U);
    OS << "<p>The graph stage after stage, in pipeline order, each compared "
          "with the stage before by the diff's graph comparison (nodes by "
          "name: added, removed, changed op or arguments).</p>\n"
       << "<ol class=\"timeline\" id=\"" << escapeHTML(P) << "-stages\">\n";
    for (const TimelineStep &S : Steps) {
      const PassStage &PS = U.Stages[S.Stage];
      std::string N = std::to_string(S.Stage + 1);
      OS << "<li><a href=\"#" << escapeHTML(P) << "-stage-" << N << "\"><code>"
         << escapeHTML(PS.Stage) << "</code></a> <span class=\"file\">"
         << escapeHTML(PS.Graph ? PS.Graph->Name : std::string())
         << "</span>: " << S.Nodes << " nodes; ";
      if (!S.Changes.empty())
        OS << "<a href=\"#" << escapeHTML(P) << "-diff-" << N << "\">"
           << escapeHTML(emit::timelineStepText(S)) << "</a>";
      else
        OS << escapeHTML(emit::timelineStepText(S));
      OS << "</li>\n";
    }
    OS << "</ol>\n";
    for (const TimelineStep &S : Steps) {
      if (S.Changes.empty())
        continue;
      std::string N = std::to_string(S.Stage + 1);
      OS << "<section class=\"stage-diff\" id=\"" << escapeHTML(P) << "-diff-"
         << N << "\"><h2>" << N << ". <code>"
         << escapeHTML(U.Stages[S.Stage].Stage) << "</code> against <code>"
         << escapeHTML(U.Stages[S.Stage - 1].Stage) << "</code></h2>\n"
         << "<table><thead><tr><th>change</th><th>node</th><th>what</th>"
            "</tr></thead><tbody>\n";
      for (const DigestChange &C : S.Changes)
        OS << "<tr class=\"" << escapeHTML(C.Change) << "\"><td>"
           << escapeHTML(C.Change) << "</td><td><code>" << escapeHTML(C.What)
           << "</code></td><td><code>" << escapeHTML(C.Detail)
           << "</code></td></tr>\n";
      OS << "</tbody></table></section>\n";
    }
    for (const TimelineStep &S : Steps) {
      const PassStage &PS = U.Stages[S.Stage];
      std::string N = std::to_string(S.Stage + 1);
      OS << "<details class=\"stage-text\" id=\"" << escapeHTML(P)
         << "-stage-" << N << "\"><summary>" << N << ". <code>"
         << escapeHTML(PS.Stage) << "</code> "
         << escapeHTML(PS.Graph ? M.logName(PS.Graph->Log) : std::string())
         << "</summary><pre>"
         << escapeHTML(PS.Graph ? PS.Graph->Text : std::string())
         << "</pre></details>\n";
    }
  }
  if (U.Files.empty())
    return;
  OS << "<h2>Dump files</h2>\n";
  for (size_t I = 0; I < U.Files.size(); ++I) {
    const UnitFile &F = U.Files[I];
    OS << "<details class=\"dump-file\" id=\"" << escapeHTML(P) << "-file-"
       << I + 1 << "\"><summary>" << escapeHTML(emit::unitFileTitle(F.Kind))
       << " <code>" << escapeHTML(M.logName(F.Log)) << "</code>";
    if (F.Kind == UnitFile::DynamoCode)
      OS << (F.GuardLog ? ", " + std::to_string(F.Guards.size()) +
                              " guards in <code>" +
                              escapeHTML(M.logName(*F.GuardLog)) + "</code>"
                        : std::string(", no guards found"));
    OS << "</summary><pre>" << escapeHTML(F.Text) << "</pre>";
    if (!F.Guards.empty()) {
      OS << "<table class=\"guards\"><thead><tr><th>line</th><th>guard</th>"
            "<th>source</th></tr></thead><tbody>\n";
      for (const DynamoGuard &G : F.Guards)
        OS << "<tr><td>" << G.Line << "</td><td><code>" << escapeHTML(G.Code)
           << "</code></td><td>" << escapeHTML(G.Comment) << "</td></tr>\n";
      OS << "</tbody></table>";
    }
    OS << "</details>\n";
  }
}

Error HTMLEmitter::write(StringRef Name, StringRef Text) {
  return outDir().write(Name, Text);
}

Error HTMLEmitter::begin(const Module &M) {
  if (!emit::readProfile(Opts, Diags, Profile))
    return createStringError(inconvertibleErrorCode(),
                             "the profile could not be read");
  DirMode = isDirectoryOutput(Opts.Output);
  if (DirMode) {
    Dir = Opts.Output;
    for (auto [Name, Text] :
         {std::pair<const char *, const char *>{"tlp.css", TlpCSS},
          {"tlp.js", TlpJS}})
      if (Error Err = write(Name, Text))
        return Err;
    return Error::success();
  }
  writeHead(out(), pageTitle(M), "single");
  return Error::success();
}

static UnitSummary summarize(const Module &M, const CompileUnit &U,
                             const UnitCoverage &Coverage, StringRef Id) {
  UnitSummary S;
  S.Id = Id.str();
  S.Name = U.Key.displayName();
  S.File = S.Id + ".html";
  S.Log = M.logName(U.Key.Log);
  S.Rank = U.Key.Rank;
  if (U.Key.Id)
    S.CompileId = emit::unitCompileName(M, U);
  S.Graph = graphKindName(U.Key.Graph).str();
  if (U.Frame)
    S.Frame = formatv("{0}:{1} in {2}", U.Frame->File, U.Frame->Line,
                      U.Frame->Function)
                  .str();
  S.Kernels = U.Kernels.size();
  S.Coverage = Coverage;
  U.forEachArtifact([&](UnitSlot, const Artifact &A) {
    S.Read.push_back({A.Name, A.Line});
  });
  llvm::sort(S.Read, [](const auto &A, const auto &B) {
    return A.second < B.second;
  });
  if (U.Code)
    S.Code = languageName(U.Code->Lang).str();
  return S;
}

/// What prepareUnit() hands to preparedUnit(): the unit's coverage (for
/// the index, so that the main thread need not index the unit again) and
/// its data block.
struct PreparedPage final : PreparedUnit {
  UnitCoverage Coverage;
  std::string Data;
};

std::unique_ptr<PreparedUnit>
HTMLEmitter::prepareUnit(const Module &M, const CompileUnit &U) const {
  // The expensive part, on a worker: the unit's data block, for the id the
  // unit has unless its slug clashes (preparedUnit() then redoes it).
  UnitView V(M, U);
  auto P = std::make_unique<PreparedPage>();
  P->Coverage = V.coverage();
  P->Data = unitPageData(V, V.slug(), Opts.Pretty);
  return P;
}

Error HTMLEmitter::unit(const Module &M, const CompileUnit &U) {
  return preparedUnit(M, U, prepareUnit(M, U));
}

Error HTMLEmitter::preparedUnit(const Module &M, const CompileUnit &U,
                                std::unique_ptr<PreparedUnit> Prepared) {
  auto &P = static_cast<PreparedPage &>(*Prepared);
  const std::string &Id = facts().current().Id;
  UnitSummary S = summarize(M, U, P.Coverage, Id);
  if (Id != U.Key.slug()) // a rare clash of slugs: render for the new id
    P.Data = unitPageData(UnitView(M, U), Id, Opts.Pretty);
  const std::string &Data = P.Data;
  Summaries.push_back(S);

  bool HasTimeline = !U.Stages.empty() || !U.Files.empty();
  if (!DirMode) {
    out() << "<script type=\"application/json\" class=\"tlp-unit\" "
                  "data-unit=\""
               << escapeHTML(S.Id) << "\">" << Data << "</script>\n";
    if (HasTimeline) {
      std::string T;
      raw_string_ostream TS(T);
      TS << "<section class=\"timeline-unit\" id=\"timeline-"
         << escapeHTML(S.Id) << "\">\n";
      writeTimeline(TS, M, U, S.Id);
      TS << "</section>\n";
      TimelineSections.push_back(std::move(TS.str()));
    }
    return Error::success();
  }
  if (HasTimeline) {
    std::string T;
    raw_string_ostream TS(T);
    writeHead(TS, "tlp: pass timeline of " + S.Name, "timeline");
    TS << "<main id=\"timeline\">\n<p><a href=\"index.html\">tlp</a> · "
       << "<a href=\"" << escapeHTML(S.File) << "\">" << escapeHTML(S.Name)
       << "</a></p>\n";
    writeTimeline(TS, M, U, S.Id);
    TS << "</main>\n</body>\n</html>\n";
    if (Error Err = write("timeline-" + S.Id + ".html", TS.str()))
      return Err;
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
    raw_ostream &OS = out();
    OS << "<section id=\"overview\" hidden>\n";
    writeIndexBody(OS, M, /*Links=*/false);
    for (const std::string &T : TimelineSections)
      OS << T;
    OS << "</section>\n";
    if (Profile)
      OS << "<script type=\"application/json\" id=\"tlp-profile\">"
         << scriptJSON(profilePageJSON(profileReport(), facts().ProfileUnits),
                       Opts.Pretty)
         << "</script>\n";
    writeApp(OS);
    return Error::success();
  }
  // units.js: the unit list of the pages' selectors.
  ojson List = ojson::array();
  for (const UnitSummary &S : Summaries)
    List.push_back(ojson::array({S.Id, S.Name, S.File}));
  if (Error Err = write("units.js", "window.TLP_UNITS = " +
                                        scriptJSON(List, Opts.Pretty) + ";\n"))
    return Err;
  if (Profile)
    if (Error Err = write("profile.js",
                          "window.TLP_PROFILE = " +
                              scriptJSON(profilePageJSON(profileReport(),
                                                         facts().ProfileUnits),
                                         Opts.Pretty) +
                              ";\n"))
      return Err;

  // Written as it is made: the index of a large log is tens of MB, held
  // whole (and twice while its string grew) it was the run's peak.
  if (Error Err = outDir().write("index.html", [&](raw_ostream &OS) {
        writeHead(OS, pageTitle(M), "index");
        OS << "<main id=\"index\">\n";
        writeIndexBody(OS, M, /*Links=*/true);
        OS << "</main>\n</body>\n</html>\n";
      }))
    return Err;
  // A page per compile that logged events shown raw, rendered on the
  // workers (the raw texts are read from the logs there) and written in
  // order, then the page of the events of no compile.
  auto RawPage = [&](const CompileRecord *R, raw_ostream &PS) {
    ArrayRef<RawEvent> Raw = R ? R->Raw : M.Raw;
    if (Raw.empty())
      return;
    std::string Title = R ? "compile " + R->displayName() : "no compile";
    writeHead(PS, "tlp: artifacts of " + Title, "raw");
    PS << "<main id=\"raw\">\n<p><a href=\"index.html\">tlp</a>"
       << (R ? " · <a href=\"index.html#" + emit::compileAnchor(*R) +
                   "\">the compile's row</a>"
             : std::string())
       << "</p>\n<h1>Artifacts of " << escapeHTML(Title) << "</h1>\n"
       << "<p>What the log holds of it that tlp does not interpret, raw, "
          "with its log line; open one to read it.</p>\n";
    // What tlp read of the compile: shown in its units' pages.
    if (R) {
      auto It = facts().UnitsOfRecord.find(static_cast<size_t>(R - M.Compiles.data()));
      if (It != facts().UnitsOfRecord.end()) {
        PS << "<table id=\"read\">\n<thead><tr><th>read by tlp</th>"
              "<th>line</th><th>shown in</th></tr></thead>\n<tbody>\n";
        for (size_t U : It->second) {
          if (U >= Summaries.size())
            continue;
          const UnitSummary &S = Summaries[U];
          for (const auto &A : S.Read)
            PS << "<tr><td><code>" << escapeHTML(A.first) << "</code></td><td>"
               << A.second << "</td><td><a href=\"" << escapeHTML(S.File)
               << "\">" << escapeHTML(S.Name) << "</a></td></tr>\n";
        }
        PS << "</tbody>\n</table>\n";
      }
    }
    emit::writeRawEvents(PS, M, Raw, R ? R->slug() : "log", rawTextsFn());
    PS << "</main>\n<script src=\"tlp.js\"></script>\n</body>\n</html>\n";
  };
  size_t N = M.Compiles.size();
  Error Err = Error::success();
  {
    // The writer sets Err; the first failure stops the writing.
    ErrorAsOutParameter ErrAsOut(&Err);
    renderInOrder(
        N, Opts.Threads,
        [&](size_t I, raw_ostream &PS) { RawPage(&M.Compiles[I], PS); },
        [&](size_t I, StringRef Page) {
          if (!Page.empty())
            Err = write(emit::rawLink(&M.Compiles[I], /*DirMode=*/true),
                        Page);
          return !Err;
        },
        // A page a batch: a compile's raw events may be megabytes (its
        // payloads), and a batch holds its pages until written.
        /*Batch=*/1);
  }
  if (Err)
    return Err;
  // The events of no compile, written as the page is made: tens of MB on a
  // long log (33 MB on the 2 GB benchmark log, held twice while its string
  // grew: the run's peak).
  if (!M.Raw.empty())
    if (Error Err =
            outDir().write(emit::rawLink(nullptr, /*DirMode=*/true),
                           [&](raw_ostream &OS) { RawPage(nullptr, OS); }))
      return Err;
  for (const auto &Page : SideBySidePages)
    if (Error Err = write(Page.first, Page.second))
      return Err;
  return Error::success();
}

} // namespace

std::unique_ptr<Emitter> createHTMLEmitter(const EmitOptions &Opts,
                                           DiagnosticEngine &Diags) {
  return std::make_unique<HTMLEmitter>(Opts, Diags);
}

} // namespace tlp
