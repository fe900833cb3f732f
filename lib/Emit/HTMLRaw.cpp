//===- HTMLRaw.cpp - The events shown raw in the HTML ---------------------===//
//
// docs/html.md, "Artifacts". Static HTML; tlp.js (raw.js) colours a
// payload when it is opened and saves one as a file.
//
//===----------------------------------------------------------------------===//

#include "HTMLRaw.h"

#include "EmitSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace llvm;

namespace tlp {
namespace emit {

std::string rawLink(const CompileRecord *R, bool DirMode) {
  std::string Slug = R ? R->slug() : std::string("log");
  return DirMode ? "raw-" + Slug + ".html" : "#raw-" + Slug;
}

static std::string lineCount(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " line" : " lines");
}

void writeRawEvents(raw_ostream &OS, const Module &M, ArrayRef<RawEvent> Raw,
                    StringRef Prefix, RawTextsFn Texts) {
  // Events without a payload (the fake tensors' describe_* records, say),
  // grouped by name in order of first appearance.
  std::vector<std::string> Names;
  std::map<std::string, std::vector<size_t>> Bare;
  for (size_t I = 0; I < Raw.size(); ++I) {
    const RawEvent &E = Raw[I];
    std::string Where = M.logName(E.Log) + ":" + std::to_string(E.Line);
    std::string Line, Text;
    bool Have = Texts(E, Line, Text);
    if (!E.PayloadLines && Have) {
      auto &List = Bare[E.Name.str()];
      if (List.empty())
        Names.push_back(E.Name.str());
      List.push_back(I);
      continue;
    }
    OS << "<details class=\"raw-event\" id=\"raw-" << escapeHTML(Prefix)
       << "-" << I << "\"><summary><code>" << escapeHTML(E.Name)
       << "</code> <span class=\"raw-where\">line " << E.Line << " · "
       << lineCount(E.PayloadLines);
    if (!E.Encoding.empty())
      OS << " · " << escapeHTML(E.Encoding);
    OS << "</span></summary>\n";
    if (!Have) {
      OS << "<p class=\"empty\">" << escapeHTML(Where)
         << ": the text is not available (the log is gone, or changed since it was read)"
            "</p></details>\n";
      continue;
    }
    StringRef Lang = rawLanguage(E, Text);
    OS << "<div class=\"raw-bar\"><span title=\"the event's line in its "
          "log\">"
       << escapeHTML(Where) << "</span> <button type=\"button\" "
       << "class=\"raw-download\" data-file=\""
       << escapeHTML(rawFileName(E, Lang)) << "\">download</button></div>\n"
       << "<pre class=\"raw-line\">" << HTMLText{Line} << "</pre>\n"
       // A newline right after <pre> is dropped by the HTML parser: this
       // one, so that a payload's own first empty line is kept.
       << "<pre class=\"raw-text\" data-lang=\"" << Lang << "\">\n"
       << HTMLText{Text} << "</pre></details>\n";
  }
  for (const std::string &Name : Names) {
    const std::vector<size_t> &List = Bare[Name];
    OS << "<details class=\"raw-group\"><summary><code>" << escapeHTML(Name)
       << "</code> <span class=\"raw-where\">" << List.size()
       << (List.size() == 1 ? " event" : " events")
       << " without a payload</span></summary>\n<table class=\"raw-meta\">"
          "<tbody>\n";
    for (size_t I : List) {
      std::string Line, Text;
      Texts(Raw[I], Line, Text);
      OS << "<tr id=\"raw-" << escapeHTML(Prefix) << "-" << I << "\"><td>"
         << Raw[I].Line << "</td><td><code>" << HTMLText{Line}
         << "</code></td></tr>\n";
    }
    OS << "</tbody></table></details>\n";
  }
}

/// "describe_tensor ×294, dynamo_output_graph": the names of \p Raw with
/// their counts, in order of first appearance.
static std::string rawSummary(ArrayRef<RawEvent> Raw) {
  std::vector<std::pair<std::string, size_t>> Counts;
  for (const RawEvent &E : Raw) {
    auto It = llvm::find_if(Counts, [&](const auto &P) {
      return P.first == E.Name;
    });
    if (It == Counts.end())
      Counts.emplace_back(E.Name.str(), 1);
    else
      ++It->second;
  }
  std::string Out;
  for (const auto &P : Counts) {
    if (!Out.empty())
      Out += ", ";
    Out += "<code>" + escapeHTML(P.first) + "</code>";
    if (P.second > 1)
      Out += " ×" + std::to_string(P.second);
  }
  return Out;
}

void writeArtifactsSection(raw_ostream &OS, const Module &M, bool DirMode,
                           RawTextsFn Texts) {
  OS << "<h2 id=\"artifacts-head\">Artifacts</h2>\n";
  size_t Total = M.Raw.size();
  for (const CompileRecord &R : M.Compiles)
    Total += R.Raw.size();
  if (!Total) {
    OS << "<p class=\"empty\">every event of the log is read and shown "
          "above</p>\n";
    return;
  }
  OS << "<p>What each compile logged that tlp does not interpret (Dynamo's "
        "graph, the AOT graphs, <code>fx_graph_runnable</code>, bytecode, "
        "names it does not know), shown raw with its log line: "
     << Total << (Total == 1 ? " event" : " events") << ".</p>\n"
     << "<table id=\"artifacts\">\n<thead><tr><th>compile</th>"
        "<th>events</th><th>what</th></tr></thead>\n<tbody>\n";
  auto Row = [&](const CompileRecord *R, ArrayRef<RawEvent> Raw) {
    if (Raw.empty())
      return;
    OS << "<tr><td><a href=\"" << escapeHTML(rawLink(R, DirMode)) << "\">"
       << escapeHTML(R ? R->displayName() : "no compile") << "</a></td><td>"
       << Raw.size() << "</td><td>" << rawSummary(Raw) << "</td></tr>\n";
  };
  for (const CompileRecord &R : M.Compiles)
    Row(&R, R.Raw);
  Row(nullptr, M.Raw);
  OS << "</tbody>\n</table>\n";
  if (DirMode)
    return;
  // The one page: the events themselves, a section per compile.
  auto Inline = [&](const CompileRecord *R, ArrayRef<RawEvent> Raw) {
    if (Raw.empty())
      return;
    std::string Slug = R ? R->slug() : std::string("log");
    OS << "<section class=\"raw-compile\" id=\"raw-" << escapeHTML(Slug)
       << "\"><h3>" << escapeHTML(R ? "compile " + R->displayName()
                                    : std::string("no compile"))
       << "</h3>\n";
    writeRawEvents(OS, M, Raw, Slug, Texts);
    OS << "</section>\n";
  };
  for (const CompileRecord &R : M.Compiles)
    Inline(&R, R.Raw);
  Inline(nullptr, M.Raw);
}

} // namespace emit
} // namespace tlp
