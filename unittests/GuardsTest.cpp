//===- GuardsTest.cpp - The guard that failed, and guard diffs ------------===//

#include "tlp/Analysis/Guards.h"
#include "tlp/IR/Module.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace tlp;

namespace {

// The shape of a dynamo_cpp_guards_str payload of torch 2.13.
const char *Tree0 = R"(
TREE_GUARD_MANAGER:
+- RootGuardManager
| +- GLOBAL_STATE: ___check_global_state() against {"grad_mode":true}
| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=0), type=<class 'torch.Tensor'>, tag_safe=(False, False)
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, requires_grad=False, size=[4, 8], stride=[8, 1])  # y = x * 2  # prog.py:10 in f
| | +- DIMENSION_DYNAMIC_MARKING_GUARD: hasattr(L['x'], '_dynamo_dynamic_indices') == False  # y = x * 2  # prog.py:10 in f
| +- GuardManager: source=L['self'], accessed_by=FrameLocalsGuardAccessor(key='self', framelocals_idx=1), type=<class 'SGD'>, tag_safe=(False, False)
| | +- NO_HASATTR: not hasattr(L['self'], 'grad_scale')  # g = self.grad_scale  # sgd.py:140 in step
| | +- DictGuardManager: source=L['self'].state, accessed_by=GetAttrGuardAccessor(state), type=<class 'dict'>, tag_safe=(False, False)
| | | +- KeyValueManager pair at index=0
| | | | +- ValueManager: DictGuardManager: source=L['self'].state[list(dict.keys(L['self'].state))[0]], type=<class 'dict'>, tag_safe=(False, False)
| | +- LENGTH_CHECK: len(L['self'].param_groups) == 1  # for g in self.param_groups:  # sgd.py:118 in step

Guard latency = 48.02 us
)";

TEST(GuardsTest, ParsesTheTree) {
  std::vector<GuardCheck> C = parseGuardChecks(Tree0);
  ASSERT_EQ(C.size(), 11u);
  EXPECT_EQ(C[0].Kind, "RootGuardManager");
  EXPECT_EQ(C[1].Kind, "GLOBAL_STATE");
  EXPECT_EQ(C[1].Line, 4u);
  EXPECT_EQ(C[3].Kind, "TENSOR_MATCH");
  EXPECT_EQ(C[3].Depth, 2u);
  EXPECT_EQ(C[3].Source, "L['x']");
  EXPECT_EQ(C[3].Comment, "y = x * 2  # prog.py:10 in f");
  EXPECT_TRUE(C[3].Expr.endswith("stride=[8, 1])"));
  EXPECT_EQ(C[9].Kind, "ValueManager");
  EXPECT_EQ(C[9].Source,
            "L['self'].state[list(dict.keys(L['self'].state))[0]]");
  // Under L['self'], not under the dict manager closed above it.
  EXPECT_EQ(C[10].Kind, "LENGTH_CHECK");
  EXPECT_EQ(C[10].Source, "L['self']");
  EXPECT_FALSE(isGuardCheck(C[0]));
  EXPECT_FALSE(isGuardCheck(C[8]));
  EXPECT_TRUE(isGuardCheck(C[10]));
}

TEST(GuardsTest, ParsesTheGuardList) {
  // dynamo_guards of older PyTorch: a guard's code a line.
  std::vector<GuardCheck> C =
      parseGuardChecks("hasattr(L['x'], 'a') == False\nL['x'].size()[0] == 4\n");
  ASSERT_EQ(C.size(), 2u);
  EXPECT_EQ(C[1].Line, 2u);
  EXPECT_EQ(C[1].Expr, "L['x'].size()[0] == 4");
  EXPECT_TRUE(C[1].Kind.empty());
}

/// A module with compile 0/0 (guards \p Guards0) and 0/1 (reasons).
Module twoCompiles(const char *Guards0, std::vector<std::string> Reasons) {
  Module M;
  CompileRecord A;
  A.Id = CompileId::parse("0/0");
  A.Line = 10;
  A.Guards = Guards0;
  CompileRecord B;
  B.Id = CompileId::parse("0/1");
  B.Line = 20;
  B.RecompileReasons = std::move(Reasons);
  B.Guards = Guards0;
  M.Compiles.push_back(std::move(A));
  M.Compiles.push_back(std::move(B));
  return M;
}

TEST(GuardsTest, FindsTheFailedGuard) {
  Module M = twoCompiles(
      Tree0, {"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6",
              "0/0: GLOBAL_STATE changed: grad_mode ",
              "0/0: len(self.state[list(dict.keys(self.state))[0]]) != 0",
              "0/0: len(self.param_groups) == 1",
              "0/0: something no guard says",
              "0/3: tensor 'x' dtype mismatch. expected Float, actual Double"});
  std::vector<FailedGuard> F = failedGuards(M, M.Compiles[1]);
  ASSERT_EQ(F.size(), 6u);
  EXPECT_EQ(F[0].Guarded, &M.Compiles[0]);
  EXPECT_EQ(F[0].Named, "0/0");
  EXPECT_EQ(F[0].Check.Kind, "TENSOR_MATCH");
  EXPECT_EQ(F[0].How, "tensor source");
  EXPECT_EQ(F[1].Check.Kind, "GLOBAL_STATE");
  EXPECT_EQ(F[1].How, "guard kind");
  // The dict's own manager, not the NO_HASATTR of L['self'].
  EXPECT_EQ(F[2].Check.Kind, "ValueManager");
  EXPECT_EQ(F[2].How, "source in the reason");
  EXPECT_EQ(F[3].Check.Kind, "LENGTH_CHECK");
  EXPECT_EQ(F[3].How, "the reason's text");
  // Not found: said, not guessed.
  EXPECT_EQ(F[4].Guarded, &M.Compiles[0]);
  EXPECT_EQ(F[4].Check.Line, 0u);
  EXPECT_TRUE(F[4].How.empty());
  // A compile the log does not have.
  EXPECT_EQ(F[5].Guarded, nullptr);
  EXPECT_EQ(F[5].Named, "0/3");
}

TEST(GuardsTest, SizeGuardUnderDynamicShapes) {
  Module M = twoCompiles(
      "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- LAMBDA_GUARD: "
      "L['x'].size()[0] == 4\n",
      {"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 6"});
  std::vector<FailedGuard> F = failedGuards(M, M.Compiles[1]);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Check.Line, 4u);
  EXPECT_EQ(F[0].How, "tensor source and size index");
}

TEST(GuardsTest, Diff) {
  EXPECT_EQ(guardsDiff("0/0", "a\nb\nGuard latency = 1 us\n", "0/1",
                       "a\nb\nGuard latency = 2 us\n"),
            "");
  EXPECT_EQ(guardsDiff("0/0", "a\nb\nc\nd\ne\nf\ng\nh\n", "0/1",
                       "a\nb\nc\nD\ne\nf\ng\nh\ni\n"),
            // Changes at most four same lines apart are one hunk.
            "--- 0/0\n+++ 0/1\n"
            "@@ -2,7 +2,8 @@\n b\n c\n-d\n+D\n e\n f\n g\n h\n+i\n");
  EXPECT_EQ(guardsDiff("0/0", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "0/1",
                       "A\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n"),
            "--- 0/0\n+++ 0/1\n"
            "@@ -1,3 +1,3 @@\n-a\n+A\n b\n c\n"
            "@@ -8,3 +8,3 @@\n h\n i\n-j\n+J\n");
  // Cut past MaxLines, and said.
  std::string Long, Other;
  for (int I = 0; I < 50; ++I) {
    Long += "x" + std::to_string(I) + "\n";
    Other += "y" + std::to_string(I) + "\n";
  }
  std::string D = guardsDiff("0/0", Long, "0/1", Other, 20);
  EXPECT_NE(D.find("@@ 83 more lines of the diff not shown @@\n"),
            std::string::npos)
      << D;
}

TEST(GuardsTest, DiffOfLongGuards) {
  // Changes at both ends of 3,000 lines: two small hunks, not the whole.
  std::string A, B;
  for (int I = 0; I < 3000; ++I) {
    A += "| +- CHECK_" + std::to_string(I) + "\n";
    B += "| +- CHECK_" + std::to_string(I == 5 || I == 2990 ? -I : I) + "\n";
  }
  std::string D = guardsDiff("0/0", A, "0/1", B);
  EXPECT_EQ(std::count(D.begin(), D.end(), '\n'), 2 + 2 * 7) << D;
}

TEST(GuardsTest, DiffIsMinimal) {
  // Random small texts (fixed seed): the diff changes as few lines as a
  // longest common subsequence allows.
  unsigned Seed = 7;
  auto Rand = [&] { return (Seed = Seed * 1103515245u + 12345u) >> 16; };
  for (int Round = 0; Round < 300; ++Round) {
    std::vector<std::string> X, Y;
    for (unsigned I = Rand() % 12; I > 0; --I)
      X.push_back(std::string(1, 'a' + Rand() % 4));
    for (unsigned I = Rand() % 12; I > 0; --I)
      Y.push_back(std::string(1, 'a' + Rand() % 4));
    std::string A, B;
    for (auto &L : X)
      A += L + "\n";
    for (auto &L : Y)
      B += L + "\n";
    std::string D = guardsDiff("a", A, "b", B, 100000);
    if (X == Y) {
      EXPECT_EQ(D, "");
      continue;
    }
    // Longest common subsequence.
    std::vector<std::vector<int>> L(X.size() + 1,
                                    std::vector<int>(Y.size() + 1, 0));
    for (size_t I = X.size(); I-- > 0;)
      for (size_t J = Y.size(); J-- > 0;)
        L[I][J] = X[I] == Y[J] ? L[I + 1][J + 1] + 1
                               : std::max(L[I + 1][J], L[I][J + 1]);
    size_t Changed = 0;
    llvm::SmallVector<llvm::StringRef, 64> Lines;
    llvm::StringRef(D).split(Lines, '\n');
    for (llvm::StringRef Line : Lines)
      if ((Line.startswith("-") && !Line.startswith("---")) ||
          (Line.startswith("+") && !Line.startswith("+++")))
        ++Changed;
    EXPECT_EQ(Changed, X.size() + Y.size() - 2 * L[0][0]) << A << "|" << B;
  }
}

} // namespace
