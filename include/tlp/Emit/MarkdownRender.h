//===- MarkdownRender.h - Markdown to HTML with cmark-gfm -------*- C++ -*-===//
//
// Part of tlp. Renders GitHub-flavoured Markdown (with tables) to HTML for
// `tlp-emit --md --render=html` and for the docs. Raw HTML in the input is
// never passed through: it is shown as text; links and images that leave
// the page become text unless the document is trusted. Headings get the ids GitHub
// gives them, so `#anchor` links work the same on GitHub and in the HTML.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_EMIT_MARKDOWNRENDER_H
#define TLP_EMIT_MARKDOWNRENDER_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tlp {

struct MarkdownRenderOptions {
  /// The page title; empty: the text of the first heading.
  std::string Title;
  /// A whole page (doctype, head, style) rather than a fragment.
  bool Standalone = true;
  /// Rewrite relative links to `x.md` (and `x.md#a`) to `x.html`.
  bool RewriteMarkdownLinks = false;
  /// Keep every link and image (tlp's own docs). Otherwise (a report of a
  /// log) only links to the page's `#anchors` and relative `.md` pages stay;
  /// other links and all images become their text.
  bool TrustedLinks = false;
};

/// Render \p Markdown to HTML.
std::string renderMarkdownToHTML(llvm::StringRef Markdown,
                                 const MarkdownRenderOptions &Opts);

/// \p Text's sha256 as a Content-Security-Policy source: 'sha256-BASE64'.
std::string cspHash(llvm::StringRef Text);

/// The anchor GitHub makes for a heading whose text is \p Text: lower case,
/// punctuation but '-' and '_' dropped, spaces as '-'.
std::string headingAnchor(llvm::StringRef Text);

} // namespace tlp

#endif // TLP_EMIT_MARKDOWNRENDER_H
