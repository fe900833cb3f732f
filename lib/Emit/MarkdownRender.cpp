//===- MarkdownRender.cpp - Markdown to HTML with cmark-gfm ---------------===//
//
// The document is parsed with the GFM table extension, then edited as a
// tree before rendering: raw HTML nodes become text (so nothing from a log
// can inject markup), links and images whose target is not in the page
// (`#anchor`) or a relative `.md` page become their text unless the caller
// trusts the document (the docs), headings get an empty anchor element
// carrying their GitHub id (a custom node: the only raw HTML rendered), and
// links to .md pages may be pointed at .html. Rendering is cmark's safe
// mode, which also drops `javascript:` and like URLs. The page carries a
// Content-Security-Policy allowing nothing but its own style.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/MarkdownRender.h"

#include "EmitSupport.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/SHA256.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm.h>

#include <array>
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

/// True if \p URL is relative: no scheme (no ':' before the first '/', '?'
/// or '#'), not from the root or another host ('/', '\\').
static bool isRelative(StringRef URL) {
  if (URL.startswith("/") || URL.startswith("\\"))
    return false;
  size_t Colon = URL.find(':');
  return Colon == StringRef::npos || Colon > URL.find_first_of("/?#");
}

static bool isRelativeMarkdownLink(StringRef URL) {
  if (URL.empty() || URL.startswith("#") || !isRelative(URL))
    return false;
  StringRef Path = URL.substr(0, URL.find('#'));
  return Path.endswith(".md");
}

/// A target a report may link to: an anchor of the page or a relative .md
/// page.
static bool isSafeTarget(StringRef URL) {
  return (URL.startswith("#") && URL.find_first_of(":/\\") == StringRef::npos) ||
         isRelativeMarkdownLink(URL);
}

/// Replace link or image \p N by its text: a link by its children, an image
/// by the plain text of its description.
static void unlink(cmark_node *N) {
  if (cmark_node_get_type(N) == CMARK_NODE_IMAGE) {
    std::string Alt;
    plainText(N, Alt);
    cmark_node *Text = cmark_node_new(CMARK_NODE_TEXT);
    cmark_node_set_literal(Text, Alt.c_str());
    cmark_node_replace(N, Text);
    cmark_node_free(N);
    return;
  }
  while (cmark_node *C = cmark_node_first_child(N))
    cmark_node_insert_before(N, C);
  cmark_node_unlink(N);
  cmark_node_free(N);
}

/// The sha256 of \p Text in a CSP source: 'sha256-BASE64'.
std::string cspHash(StringRef Text) {
  std::array<uint8_t, 32> H = SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Text.data()),
                        Text.size()));
  return "'sha256-" + encodeBase64(H) + "'";
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
    case CMARK_NODE_IMAGE:
      Links.push_back(N);
      break;
    default:
      break;
    }
  }
  cmark_iter_free(It);

  // Links and images to anything but the page's anchors and relative .md
  // pages become text (an image of the log would be fetched on opening, a
  // link could lead anywhere). Deepest first: an image inside a link is
  // replaced before the link is.
  if (!Opts.TrustedLinks) {
    std::vector<cmark_node *> Kept;
    for (auto I = Links.rbegin(); I != Links.rend(); ++I) {
      const char *U = cmark_node_get_url(*I);
      if (cmark_node_get_type(*I) == CMARK_NODE_LINK && U && isSafeTarget(U))
        Kept.push_back(*I);
      else
        unlink(*I);
    }
    Links.assign(Kept.rbegin(), Kept.rend());
  }

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
    // A custom node: rendered as is in safe mode, where raw HTML is not.
    cmark_node *Anchor = cmark_node_new(CMARK_NODE_CUSTOM_INLINE);
    std::string A = "<a id=\"" + escapeHTML(Id) +
                    "\" class=\"anchor\" href=\"#" + escapeHTML(Id) + "\"></a>";
    cmark_node_set_on_enter(Anchor, A.c_str());
    cmark_node_prepend_child(H, Anchor);
  }

  if (Opts.RewriteMarkdownLinks)
    for (cmark_node *L : Links) {
      if (cmark_node_get_type(L) != CMARK_NODE_LINK)
        continue;
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

  char *HTML = cmark_render_html(Doc, CMARK_OPT_DEFAULT,
                                 cmark_parser_get_syntax_extensions(Parser));
  std::string Body = HTML ? HTML : "";
  std::free(HTML);
  cmark_node_free(Doc);
  cmark_parser_free(Parser);

  if (!Opts.Standalone)
    return Body;
  static const char *const Style = R"(
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
)";
  // Nothing but the style below: no script, no request (docs/security.md).
  std::string Page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
                     "<meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" "
                     "content=\"default-src 'none'; style-src " +
                     cspHash(Style) + "\">\n<title>" + escapeHTML(Title) +
                     "</title>\n";
  Page += "<style>" + std::string(Style) + "</style>\n</head>\n<body>\n";
  Page += Body;
  Page += "</body>\n</html>\n";
  return Page;
}

} // namespace tlp
