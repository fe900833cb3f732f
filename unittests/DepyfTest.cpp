//===- DepyfTest.cpp - depyf dumps, unit keys by graph, the pass timeline -===//

#include "tlp/Analysis/PassTimeline.h"
#include "tlp/IR/Module.h"
#include "tlp/Parse/DepyfDump.h"
#include "tlp/Parse/PayloadParsers.h"

#include "gtest/gtest.h"

using namespace tlp;

static UnitKey fnKey(llvm::StringRef Fn, GraphKind G, uint32_t Log = 0) {
  UnitKey K;
  K.Fn = Fn.str();
  K.Graph = G;
  K.Rank = 0;
  K.Log = Log;
  return K;
}

TEST(Depyf, KeysNameTheGraph) {
  UnitKey K = fnKey("__compiled_fn_2", GraphKind::Backward);
  EXPECT_EQ(K.slug(), "r0-__compiled_fn_2-backward");
  EXPECT_EQ(K.displayName(), "rank 0 __compiled_fn_2 backward");
  // Graphs in number order, whatever the file (Log) each unit names.
  EXPECT_TRUE(fnKey("__compiled_fn_2", GraphKind::Forward, 9) <
              fnKey("__compiled_fn_11", GraphKind::Forward, 1));
  EXPECT_TRUE(fnKey("__compiled_fn_2", GraphKind::Forward, 9) <
              fnKey("__compiled_fn_2", GraphKind::Backward, 1));
  EXPECT_TRUE(fnKey("__compiled_fn_11", GraphKind::Forward) <
              fnKey("dp1-__compiled_fn_2", GraphKind::Forward));
  // A log's unit of the rank comes first.
  UnitKey Log;
  Log.Rank = 0;
  Log.Log = 5;
  Log.Id = CompileId::parse("0/0");
  EXPECT_TRUE(Log < fnKey("__compiled_fn_1", GraphKind::Forward, 0));
  EXPECT_FALSE(fnKey("__compiled_fn_1", GraphKind::Forward) ==
               fnKey("__compiled_fn_1", GraphKind::Backward));
}

TEST(Depyf, StageOrder) {
  // Training: the joint graph is logged before tensorify_python_scalars
  // runs on it; inference: the forward graph is.
  EXPECT_LT(depyfStageOrder("Joint_graph", true),
            depyfStageOrder("tensorify_python_scalars", true));
  EXPECT_LT(depyfStageOrder("tensorify_python_scalars", true),
            depyfStageOrder("Forward_graph", true));
  EXPECT_LT(depyfStageOrder("Forward_graph", false),
            depyfStageOrder("tensorify_python_scalars", false));
  EXPECT_LT(depyfStageOrder("__compiled_fn_1_abc", false),
            depyfStageOrder("pre_insert_deferred_runtime_asserts___compiled_"
                            "fn_1_abc",
                            false));
  EXPECT_LT(depyfStageOrder("after_split", false),
            depyfStageOrder("BEFORE_PRE_GRAD", false));
  EXPECT_LT(depyfStageOrder("my_pass", false),
            depyfStageOrder("AFTER_POST_GRAD", false));
  EXPECT_GT(depyfStageOrder("my_pass", false),
            depyfStageOrder("Backward_graph", false));
}

static PassStage stage(llvm::StringRef Name, llvm::StringRef Text,
                       DiagnosticEngine &Diags) {
  PassStage S;
  S.Stage = Name.str();
  S.Graph = std::make_unique<GraphArtifact>(Artifact::AK_PostGradGraph);
  S.Graph->Text = Text.str();
  PayloadContext Ctx(Diags, "t.py", 0, Name);
  parseFXGraph(*S.Graph, Ctx);
  return S;
}

TEST(Depyf, TimelineComparesStages) {
  DiagnosticEngine Diags;
  const char *A = "class GraphModule(torch.nn.Module):\n"
                  "    def forward(self, x: \"f32[4]\"):\n"
                  "        a: \"f32[4]\" = torch.ops.aten.relu.default(x)\n"
                  "        b: \"f32[4]\" = torch.ops.aten.mul.Tensor(a, 2)\n"
                  "        return (b,)\n";
  const char *B = "class GraphModule(torch.nn.Module):\n"
                  "    def forward(self, x: \"f32[4]\"):\n"
                  "        a: \"f32[4]\" = torch.ops.aten.relu.default(x)\n"
                  "        b: \"f32[4]\" = torch.ops.aten.mul.Tensor(a, 3)\n"
                  "        c: \"f32[4]\" = torch.ops.aten.neg.default(b)\n"
                  "        return (c,)\n";
  Module M;
  CompileUnit U;
  U.Stages.push_back(stage("one", A, Diags));
  U.Stages.push_back(stage("two", A, Diags));
  U.Stages.push_back(stage("three", B, Diags));
  std::vector<TimelineStep> T = passTimeline(M, U);
  ASSERT_EQ(T.size(), 3u);
  EXPECT_EQ(T[0].Nodes, 2u);
  EXPECT_TRUE(T[0].Changes.empty());
  EXPECT_TRUE(T[1].SameText);
  EXPECT_TRUE(T[1].Changes.empty());
  EXPECT_FALSE(T[2].SameText);
  EXPECT_EQ(T[2].Added, 1u);
  EXPECT_EQ(T[2].Removed, 0u);
  EXPECT_EQ(T[2].Changed, 1u); // b: mul by 3, not 2
  ASSERT_EQ(T[2].Changes.size(), 2u);
  EXPECT_EQ(T[2].Changes[0].What, "b");
  EXPECT_EQ(T[2].Changes[1].What, "c");
}

TEST(Depyf, ReadsTheFixture) {
  std::string Dir = std::string(TLP_TEST_INPUTS) + "/depyf/train";
  ASSERT_TRUE(looksLikeDepyfDump(Dir));
  EXPECT_FALSE(looksLikeDepyfDump(std::string(TLP_TEST_INPUTS) + "/ranks"));
  Module M;
  TraceSources Sources;
  DiagnosticEngine Diags;
  ASSERT_FALSE(bool(readDepyfDump(Dir, M, Sources, Diags)));
  EXPECT_EQ(Diags.numWarnings(), 0u);
  ASSERT_EQ(M.Units.size(), 2u);
  const CompileUnit &F = *M.Units[0], &B = *M.Units[1];
  EXPECT_EQ(F.Key.slug(), "__compiled_fn_1-forward");
  EXPECT_EQ(B.Key.slug(), "__compiled_fn_1-backward");
  EXPECT_EQ(F.Stages.size(), 7u);
  EXPECT_EQ(F.Stages.back().Stage, "AFTER_POST_GRAD");
  EXPECT_EQ(B.Stages.size(), 4u);
  ASSERT_EQ(F.Files.size(), 3u);
  EXPECT_EQ(F.Files[2].Kind, UnitFile::DynamoCode);
  EXPECT_EQ(F.Files[2].Guards.size(), 3u);
  EXPECT_TRUE(B.Files.empty());
  for (const LogFile &L : M.Logs)
    EXPECT_TRUE(L.DumpFile) << L.Path;
}
