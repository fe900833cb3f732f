//===- SourceInfoTest.cpp - FX comments and stack traces ------------------===//

#include "tlp/IR/SourceInfo.h"

#include "gtest/gtest.h"

using namespace tlp;

TEST(SourceInfo, FXFileComment) {
  auto L = parseFXFileComment(
      "         # File: /a/b.py:79 in forward, code: x = self.fc1(x)");
  ASSERT_TRUE(L);
  EXPECT_EQ(L->File, "/a/b.py");
  EXPECT_EQ(L->Line, 79u);
  EXPECT_EQ(L->Function, "forward");
  EXPECT_EQ(L->Code, "x = self.fc1(x)");
  // Windows paths hold ':'; the newest form has an Annotation.
  L = parseFXFileComment("# Annotation: {'pp_stage': 0} File: C:\\m.py:7 in "
                         "f, code: y = g(x)");
  ASSERT_TRUE(L);
  EXPECT_EQ(L->File, "C:\\m.py");
  EXPECT_EQ(L->Line, 7u);
  EXPECT_FALSE(parseFXFileComment("# No stacktrace found for following nodes"));
  EXPECT_FALSE(parseFXFileComment("x = 1  # File: a.py:1 in f"));
}

TEST(SourceInfo, StackTraces) {
  auto Jit = parseStackTrace(
      "  File \"/a/m.py\", line 81, in forward\n    x = self.sigmoid(x)\n");
  ASSERT_EQ(Jit.size(), 1u);
  EXPECT_EQ(Jit[0].File, "/a/m.py");
  EXPECT_EQ(Jit[0].Line, 81u);
  EXPECT_EQ(Jit[0].Function, "forward");
  EXPECT_EQ(Jit[0].Code, "x = self.sigmoid(x)");
  auto Export = parseStackTrace(
      "File \"/a/m.py\", line 81, in forward\n    x = self.sigmoid(x)\n"
      "  File \"/t/activation.py\", line 359, in forward\n    return "
      "torch.sigmoid(input)");
  ASSERT_EQ(Export.size(), 2u);
  EXPECT_EQ(Export[1].File, "/t/activation.py");
  EXPECT_EQ(Export[1].Code, "return torch.sigmoid(input)");
  EXPECT_TRUE(parseStackTrace("no frames here").empty());
}

// Traces escaped twice hold a literal backslash-n: every frame is kept and
// no code line swallows the frames after it.
TEST(SourceInfo, EscapedStackTraces) {
  auto Frames = parseStackTrace(
      "  File \"/a/m.py\", line 7, in forward\\n    y = f(x)\\n"
      "  File \"/t/act.py\", line 359, in forward\\n    return g(x)\\n");
  ASSERT_EQ(Frames.size(), 2u);
  EXPECT_EQ(Frames[0].Function, "forward");
  EXPECT_EQ(Frames[0].Code, "y = f(x)");
  EXPECT_EQ(Frames[1].File, "/t/act.py");
  EXPECT_EQ(Frames[1].Line, 359u);
  EXPECT_EQ(Frames[1].Code, "return g(x)");
  // Real and literal newlines mixed.
  auto Mixed = parseStackTrace("File \"/a/m.py\", line 8, in f\n    z = y"
                               "\\nFile \"/b.py\", line 2, in g\\n    h()");
  ASSERT_EQ(Mixed.size(), 2u);
  EXPECT_EQ(Mixed[0].Code, "z = y");
  EXPECT_EQ(Mixed[1].Code, "h()");
  EXPECT_EQ(decodeStackTraceText("a\\nb\\\\c"), "a\nb\\\\c");
}

// The underline under a code line (Python 3.11+) is a span of the code as
// printed (without its indentation): [begin, end), 0-based.
TEST(SourceInfo, UnderlineSpans) {
  auto F = parseStackTrace("  File \"/a/m.py\", line 5, in forward\n"
                           "    h = self.a(x) + self.a(y)\n"
                           "                    ^^^^^^^^^\n"
                           "  File \"/a/m.py\", line 6, in forward\n"
                           "    return f(x) + g(y)\n"
                           "           ~~~~~^~~~~~\n"
                           "  File \"/a/m.py\", line 7, in forward\n"
                           "    z = y\n");
  ASSERT_EQ(F.size(), 3u);
  EXPECT_EQ(F[0].SpanBegin, 16u);
  EXPECT_EQ(F[0].SpanEnd, 25u);
  EXPECT_EQ(F[0].underlined(), "self.a(y)");
  EXPECT_EQ(F[1].underlined(), "f(x) + g(y)");
  EXPECT_FALSE(F[2].hasSpan());
  EXPECT_EQ(F[2].underlined(), "");
  // No span when the underline leaves the code, starts in the indentation
  // or the code is not ASCII (Python counts display columns); the
  // underline line is still no frame or code.
  auto Bad = parseStackTrace("File \"/a.py\", line 1, in f\n    ab\n    ^^^^^\n"
                             "File \"/a.py\", line 2, in f\n    ab\n  ^^^\n"
                             "File \"/a.py\", line 3, in f\n    \xc3\xa9 = g()\n"
                             "        ^^^\n");
  ASSERT_EQ(Bad.size(), 3u);
  for (const SourceLoc &L : Bad)
    EXPECT_FALSE(L.hasSpan());
  EXPECT_EQ(Bad[1].Code, "ab");
}
