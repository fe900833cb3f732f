//===- MarkdownRender.cpp - Markdown to HTML with cmark-gfm ---------------===//
//
// The document is parsed with the GFM table extension, then edited as a
// tree before rendering: raw HTML nodes become text (so nothing from a log
// can inject markup), headings get an empty anchor element carrying their
// GitHub id, and links to .md pages may be pointed at .html. Rendering then
// allows raw HTML, which is only the anchors added here.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/MarkdownRender.h"

#include "EmitSupport.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <mutex>
#include <vector>

using namespace llvm;

namespace tlp {
using emit::escapeHTML;

std::string headingAnchor(StringRef Text) {
  std::string Out;
  for (unsigned char C : Text) {
    if (C >= 'A' && C <= 'Z')
      Out += char(C - 'A' + 'a');
    else if ((C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') || C == '-' ||
             C == '_' || C >= 0x80)
      Out += char(C);
    else if (C == ' ')
      Out += '-';
  }
  return Out;
}

/// The plain text of a node: its text and code descendants.
static void plainText(cmark_node *N, std::string &Out) {
  for (cmark_node *C = cmark_node_first_child(N); C; C = cmark_node_next(C)) {
    cmark_node_type T = cmark_node_get_type(C);
    if (T == CMARK_NODE_TEXT || T == CMARK_NODE_CODE) {
      if (const char *L = cmark_node_get_literal(C))
        Out += L;
    } else if (T == CMARK_NODE_SOFTBREAK || T == CMARK_NODE_LINEBREAK) {
      Out += ' ';
    } else {
      plainText(C, Out);
    }
  }
}

static bool isRelativeMarkdownLink(StringRef URL) {
  if (URL.empty() || URL.startswith("#") || URL.startswith("/") ||
      URL.contains("://") || URL.startswith("mailto:"))
    return false;
  StringRef Path = URL.substr(0, URL.find('#'));
  return Path.endswith(".md");
}

std::string renderMarkdownToHTML(StringRef Markdown,
                                 const MarkdownRenderOptions &Opts) {
  static std::once_flag Registered;
  std::call_once(Registered,
                 [] { cmark_gfm_core_extensions_ensure_registered(); });

  cmark_parser *Parser = cmark_parser_new(CMARK_OPT_DEFAULT);
  if (cmark_syntax_extension *Table = cmark_find_syntax_extension("table"))
    cmark_parser_attach_syntax_extension(Parser, Table);
  cmark_parser_feed(Parser, Markdown.data(), Markdown.size());
  cmark_node *Doc = cmark_parser_finish(Parser);

  // Collect first, edit after: the iterator must not see a changing tree.
  std::vector<cmark_node *> RawHTML, Headings, Links;
  cmark_iter *It = cmark_iter_new(Doc);
  for (cmark_event_type Ev; (Ev = cmark_iter_next(It)) != CMARK_EVENT_DONE;) {
    if (Ev != CMARK_EVENT_ENTER)
      continue;
    cmark_node *N = cmark_iter_get_node(It);
    switch (cmark_node_get_type(N)) {
    case CMARK_NODE_HTML_BLOCK:
    case CMARK_NODE_HTML_INLINE:
      RawHTML.push_back(N);
      break;
    case CMARK_NODE_HEADING:
      Headings.push_back(N);
      break;
    case CMARK_NODE_LINK:
      Links.push_back(N);
      break;
    default:
      break;
    }
  }
  cmark_iter_free(It);

  for (cmark_node *N : RawHTML) {
    const char *Lit = cmark_node_get_literal(N);
    cmark_node *Text = cmark_node_new(CMARK_NODE_TEXT);
    cmark_node_set_literal(Text, Lit ? Lit : "");
    cmark_node *Repl = Text;
    if (cmark_node_get_type(N) == CMARK_NODE_HTML_BLOCK) {
      Repl = cmark_node_new(CMARK_NODE_PARAGRAPH);
      cmark_node_append_child(Repl, Text);
    }
    cmark_node_replace(N, Repl);
    cmark_node_free(N);
  }

  std::string Title = Opts.Title;
  StringMap<unsigned> Seen;
  for (cmark_node *H : Headings) {
    std::string Text;
    plainText(H, Text);
    if (Title.empty())
      Title = Text;
    std::string Id = headingAnchor(Text);
    unsigned &Count = Seen[Id];
    if (Count)
      Id += "-" + std::to_string(Count);
    ++Count;
    cmark_node *Anchor = cmark_node_new(CMARK_NODE_HTML_INLINE);
    std::string A = "<a id=\"" + escapeHTML(Id) +
                    "\" class=\"anchor\" href=\"#" + escapeHTML(Id) + "\"></a>";
    cmark_node_set_literal(Anchor, A.c_str());
    cmark_node_prepend_child(H, Anchor);
  }

  if (Opts.RewriteMarkdownLinks)
    for (cmark_node *L : Links) {
      const char *U = cmark_node_get_url(L);
      if (!U || !isRelativeMarkdownLink(U))
        continue;
      StringRef URL(U);
      size_t Hash = URL.find('#');
      StringRef Path = URL.substr(0, Hash);
      std::string New = Path.drop_back(3).str() + ".html";
      if (Hash != StringRef::npos)
        New += URL.substr(Hash).str();
      cmark_node_set_url(L, New.c_str());
    }

  char *HTML = cmark_render_html(Doc, CMARK_OPT_UNSAFE,
                                 cmark_parser_get_syntax_extensions(Parser));
  std::string Body = HTML ? HTML : "";
  std::free(HTML);
  cmark_node_free(Doc);
  cmark_parser_free(Parser);

  if (!Opts.Standalone)
    return Body;
  std::string Page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                     "<meta charset=\"utf-8\">\n<title>" +
                     escapeHTML(Title) + "</title>\n";
  Page += R"(<style>
body { font: 15px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       max-width: 72em; margin: 2em auto; padding: 0 1em; color: #1f2328; }
code, pre { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace;
            background: #f6f8fa; border-radius: 4px; }
code { padding: 0.1em 0.3em; }
pre { padding: 0.8em; overflow: auto; }
pre code { padding: 0; }
table { border-collapse: collapse; margin: 1em 0; display: block; overflow: auto; }
th, td { border: 1px solid #d0d7de; padding: 0.25em 0.6em; vertical-align: top; }
th { background: #f6f8fa; }
a.anchor { float: left; margin-left: -1em; width: 1em; }
h1, h2, h3 { border-bottom: 1px solid #d8dee4; padding-bottom: 0.2em; }
</style>
</head>
<body>
)";
  Page += Body;
  Page += "</body>\n</html>\n";
  return Page;
}

} // namespace tlp
