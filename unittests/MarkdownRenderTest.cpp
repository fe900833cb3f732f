//===- MarkdownRenderTest.cpp - Safe rendering of reports -----------------===//

#include "tlp/Emit/MarkdownRender.h"

#include "gtest/gtest.h"

using namespace tlp;

namespace {

std::string render(llvm::StringRef MD, bool Trusted = false) {
  MarkdownRenderOptions O;
  O.TrustedLinks = Trusted;
  return renderMarkdownToHTML(MD, O);
}

bool has(const std::string &S, llvm::StringRef Sub) {
  return S.find(Sub.str()) != std::string::npos;
}

} // namespace

// A report's Markdown that escaped nothing (the renderer's own defence):
// no link leaves the page, no image is fetched, no HTML passes, no script
// URL survives.
TEST(MarkdownRender, ReportLinksStayInThePage) {
  std::string H = render(
      "# R\n\n"
      "[Click here for the fix](javascript:alert(1)) "
      "[s](JavaScript:alert(1)) [md](javascript:x.md) "
      "![](http://host.invalid/x.png) [![i](http://host.invalid/y.png)](#r) "
      "[w](https://host.invalid/) [p](//host.invalid/a.md) "
      "<img src=x onerror=alert(2)> <http://host.invalid/auto> "
      "[ok](#r) [doc](other.md#a) [ref]\n\n[ref]: javascript:alert(3)\n");
  EXPECT_FALSE(has(H, "<img")) << H;
  EXPECT_FALSE(has(H, "href=\"javascript")) << H;
  EXPECT_FALSE(has(H, "href=\"JavaScript")) << H;
  EXPECT_FALSE(has(H, "href=\"http")) << H;
  EXPECT_FALSE(has(H, "href=\"//")) << H;
  EXPECT_FALSE(has(H, "href=\"\"")) << H;
  EXPECT_FALSE(has(H, "<img src=x")) << H;
  EXPECT_TRUE(has(H, "&lt;img src=x onerror=alert(2)&gt;")) << H;
  EXPECT_TRUE(has(H, "<a href=\"#r\">ok</a>")) << H;
  EXPECT_TRUE(has(H, "<a href=\"other.md#a\">doc</a>")) << H;
  // The text of what was a link or image stays.
  EXPECT_TRUE(has(H, "Click here for the fix")) << H;
  EXPECT_TRUE(has(H, "<a href=\"#r\">i</a>")) << H;
  // The heading anchor (the only HTML the renderer adds).
  EXPECT_TRUE(has(H, "<h1><a id=\"r\" class=\"anchor\" href=\"#r\"></a>R</h1>"))
      << H;
}

// Every page carries a policy that allows nothing but its own style.
TEST(MarkdownRender, ContentSecurityPolicy) {
  std::string H = render("# R\n");
  size_t P = H.find("<meta http-equiv=\"Content-Security-Policy\" "
                    "content=\"default-src 'none'; style-src 'sha256-");
  ASSERT_NE(P, std::string::npos) << H;
  EXPECT_LT(P, H.find("<style>"));
  EXPECT_EQ(cspHash(""), "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
}

// The docs (ours) keep their links; script URLs are still dropped.
TEST(MarkdownRender, TrustedDocsKeepLinks) {
  std::string H = render("[w](https://example.org/) [j](javascript:alert(1))\n",
                         /*Trusted=*/true);
  EXPECT_TRUE(has(H, "<a href=\"https://example.org/\">w</a>")) << H;
  EXPECT_FALSE(has(H, "javascript")) << H;
}
