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
