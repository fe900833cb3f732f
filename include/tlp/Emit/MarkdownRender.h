//===- MarkdownRender.h - Markdown to HTML with cmark-gfm -------*- C++ -*-===//
//
// Part of tlp. Renders GitHub-flavoured Markdown (with tables) to HTML for
// `tlp-emit --md --render=html` and for the docs. Raw HTML in the input is
// never passed through: it is shown as text. Headings get the ids GitHub
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
};

/// Render \p Markdown to HTML.
std::string renderMarkdownToHTML(llvm::StringRef Markdown,
                                 const MarkdownRenderOptions &Opts);

/// The anchor GitHub makes for a heading whose text is \p Text: lower case,
/// punctuation but '-' and '_' dropped, spaces as '-'.
std::string headingAnchor(llvm::StringRef Text);

} // namespace tlp

#endif // TLP_EMIT_MARKDOWNRENDER_H
