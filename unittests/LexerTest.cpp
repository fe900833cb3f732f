//===- LexerTest.cpp - The lexer of the FX and wrapper parsers ------------===//

#include "tlp/Parse/Lexer.h"

#include "gtest/gtest.h"

using namespace tlp;
using namespace tlp::lex;
using llvm::StringRef;

TEST(Lexer, Identifiers) {
  EXPECT_EQ(indentOf("    \tx = 1"), 5u);
  EXPECT_EQ(indentOf(""), 0u);
  EXPECT_EQ(identLen("l_x_ = L_x_"), 4u);
  EXPECT_EQ(identLen("1abc"), 0u);
  EXPECT_EQ(identLen(""), 0u);
  // Python chains stop before a separator with no identifier after it.
  EXPECT_EQ(chainLen("torch.ops.aten.mm.default(a, b)"), 25u);
  EXPECT_EQ(chainLen("a.b."), 3u);
  EXPECT_EQ(chainLen("a..b"), 1u);
  EXPECT_EQ(chainLen(".a"), 0u);
  // C++ chains.
  EXPECT_EQ(chainLen("torch::aot::run(x)", "::"), 15u);
  EXPECT_EQ(chainLen("a::", "::"), 1u);
  EXPECT_EQ(chainLen("a:b", "::"), 1u);
  EXPECT_EQ(chainLen("a.b", "::"), 1u);
}

TEST(Lexer, TopLevel) {
  // Brackets and string literals hide what is inside them.
  StringRef S = "f(a, b), 'x, y', \"(\", c";
  EXPECT_EQ(findTopLevel(S, ","), 7u);
  EXPECT_EQ(findTopLevel(S, ",", 8), 15u);
  EXPECT_EQ(findTopLevel(S, ",", 16), 20u);
  EXPECT_EQ(findTopLevel(S, "("), 1u);
  EXPECT_EQ(findTopLevel("'it\\'s;' ; x", ";"), 9u);
  EXPECT_EQ(findTopLevel("[a; b]", ";"), size_t(StringRef::npos));
  // An unmatched closing bracket is at depth 0.
  EXPECT_EQ(findTopLevel("a, b)", ")"), 4u);
  // Quotes themselves are not visited.
  EXPECT_EQ(findTopLevel("'a'", "'"), size_t(StringRef::npos));
  size_t Space = findTopLevelIf(StringRef("f(a + b) + c"),
                                [](size_t I) { return true; }, 1);
  EXPECT_EQ(Space, 1u);
}

TEST(Lexer, Quoted) {
  std::string Out;
  EXPECT_EQ(quoted("\"f32[8, 16]\" = x", Out), 12u);
  EXPECT_EQ(Out, "f32[8, 16]");
  EXPECT_EQ(quoted("f32", Out), 0u);
  EXPECT_EQ(quoted("\"open", Out), 0u);
}

TEST(Lexer, CppLines) {
  CppLineLexer Lx;
  CppLine L;
  Lx.lex("call_k(\"a(b\", x); // [Provenance debug handles] k:1", L);
  EXPECT_EQ(StringRef(L.Code).rtrim(), "call_k(\"   \", x);");
  EXPECT_EQ(L.Code.size(), 51u);
  EXPECT_EQ(L.Comment, " [Provenance debug handles] k:1");
  // A block comment spans lines; code resumes after it, same columns.
  Lx.lex("a(1); /* { (", L);
  EXPECT_EQ(L.Code, "a(1);       ");
  EXPECT_TRUE(L.Comment.empty());
  Lx.lex("still } */ b(2);", L);
  EXPECT_EQ(L.Code, "           b(2);");
  // A raw string literal with a delimiter, over two lines.
  Lx.lex("auto s = R\"x(not ) code", L);
  EXPECT_EQ(StringRef(L.Code).rtrim(), "auto s =");
  Lx.lex("more)\" )x\"; c(3);", L);
  EXPECT_EQ(StringRef(L.Code).trim(), "; c(3);");
  // A character literal with an escaped quote.
  Lx.lex("f('\\'', '{');", L);
  EXPECT_EQ(L.Code, "f('  ', ' ');");
}
