//===- TraceReaderTest.cpp - Event lines and the reader -------------------===//

#include "tlp/Parse/TraceReader.h"

#include "llvm/Support/MD5.h"

#include "gtest/gtest.h"

using namespace tlp;

TEST(TraceReader, SplitEventLine) {
  llvm::StringRef Json;
  ASSERT_TRUE(splitEventLine(
      "V0819 12:42:54.750000 888578 torch/_inductor/compile_fx.py:1063] "
      "{\"artifact\": {}}",
      Json));
  EXPECT_EQ(Json, "{\"artifact\": {}}");
  // A path with ':' and ']' in it, and a [rankN]: prefix.
  ASSERT_TRUE(splitEventLine(
      "[rank3]:I0101 00:00:00.000000 1 C:\\a]b\\x.py:7] {\"x\": 1}", Json));
  EXPECT_EQ(Json, "{\"x\": 1}");
  EXPECT_FALSE(splitEventLine("hello", Json));
  EXPECT_FALSE(splitEventLine("X0819 12:42:54.750000 1 a.py:1] {}", Json));
  EXPECT_FALSE(splitEventLine("V0819 12:42:54.750000 1 a.py] {}", Json));
}

TEST(TraceReader, RankFromFileName) {
  EXPECT_EQ(rankFromFileName("/d/dedicated_log_torch_trace_rank_12_ab.log")
                .getValueOr(-1),
            12);
  EXPECT_EQ(
      rankFromFileName("dedicated_log_torch_trace_rank_0.log").getValueOr(-1),
      0);
  EXPECT_FALSE(rankFromFileName("dedicated_log_torch_trace_x.log"));
}

TEST(TraceReader, BlankLineInPayloadIsKeptWhenTheMd5SaysSo) {
  // Payload "{\"k\":\n\n1}"; its lone-tab line was stripped to a blank line.
  std::string Log =
      "V0101 00:00:00.000000 1 x.py:1] {\"artifact\": {\"name\": "
      "\"triton_kernel_info\", \"encoding\": \"json\"}, \"frame_id\": 0, "
      "\"frame_compile_id\": 0, \"attempt\": 0, \"has_payload\": "
      "\"9168bd3d651f5bfbe75d10852d605d97\"}\n"
      "\t{\"k\":\n"
      "\n"
      "\t1}\n";
  Module M;
  DiagnosticEngine D;
  readTraceText(Log, "x.log", M, D);
  EXPECT_EQ(M.Stats.Md5Mismatches, 0u)
      << (D.size() ? D.diagnostics()[0].Message : "");
  ASSERT_EQ(M.Artifacts.size(), 1u);
}

// The records of compiles that logged the same guard text share it (every
// rank of a job logs the same guards for the same frame); a different text
// is its own. Compiles 0/0 and 0/1 and rank 1's 0/0 in one log.
TEST(TraceReader, SameGuardTextsAreShared) {
  auto Guards = [](const char *Ids, const char *Text) {
    std::string Payload = Text;
    llvm::MD5 H;
    H.update(Payload);
    llvm::MD5::MD5Result R;
    H.final(R);
    return "V0101 00:00:00.000000 1 x.py:1] {\"dynamo_cpp_guards_str\": {}, " +
           std::string(Ids) + ", \"has_payload\": \"" +
           std::string(R.digest().str()) + "\"}\n\t" + Payload + "\n";
  };
  std::string Log =
      Guards("\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0",
             "TREE_GUARD_MANAGER: check x") +
      Guards("\"frame_id\": 0, \"frame_compile_id\": 1, \"attempt\": 0",
             "TREE_GUARD_MANAGER: check y") +
      Guards("\"rank\": 1, \"frame_id\": 0, \"frame_compile_id\": 0, "
             "\"attempt\": 0",
             "TREE_GUARD_MANAGER: check x");
  Module M;
  DiagnosticEngine D;
  readTraceText(Log, "x.log", M, D);
  ASSERT_EQ(M.Compiles.size(), 3u);
  const CompileRecord *X0 = nullptr, *Y = nullptr, *X1 = nullptr;
  for (const CompileRecord &R : M.Compiles) {
    bool Rank1 = R.Rank && *R.Rank == 1;
    (R.Id->FrameCompileId.getValueOr(-1) == 1 ? Y : Rank1 ? X1 : X0) = &R;
  }
  ASSERT_TRUE(X0 && Y && X1);
  EXPECT_EQ(X0->Guards.str(), "TREE_GUARD_MANAGER: check x");
  EXPECT_EQ(Y->Guards.str(), "TREE_GUARD_MANAGER: check y");
  EXPECT_TRUE(X0->Guards.shares(X1->Guards));
  EXPECT_FALSE(X0->Guards.shares(Y->Guards));
}

// Cache lookups that logged the same key components (in the same order)
// share one list of indices; another list is its own. Rank 0's and rank 1's
// 0/0 log the same components, 0/1 one more.
TEST(TraceReader, SameComponentListsAreShared) {
  auto Miss = [](const char *Ids, const char *Components) {
    std::string Payload =
        std::string("{\"key\": \"k\", \"components\": [") + Components + "]}";
    llvm::MD5 H;
    H.update(Payload);
    llvm::MD5::MD5Result R;
    H.final(R);
    return "V0101 00:00:00.000000 1 x.py:1] {\"artifact\": {\"name\": "
           "\"fx_graph_cache_miss\", \"encoding\": \"json\"}, " +
           std::string(Ids) + ", \"has_payload\": \"" +
           std::string(R.digest().str()) + "\"}\n\t" + Payload + "\n";
  };
  std::string Log =
      Miss("\"frame_id\": 0, \"frame_compile_id\": 0, \"attempt\": 0",
           "\"[a] x: 1\", \"[b] y: 2\"") +
      Miss("\"frame_id\": 0, \"frame_compile_id\": 1, \"attempt\": 0",
           "\"[a] x: 1\", \"[b] y: 2\", \"[c] z: 3\"") +
      Miss("\"rank\": 1, \"frame_id\": 0, \"frame_compile_id\": 0, "
           "\"attempt\": 0",
           "\"[a] x: 1\", \"[b] y: 2\"");
  Module M;
  DiagnosticEngine D;
  readTraceText(Log, "x.log", M, D);
  ASSERT_EQ(M.Compiles.size(), 3u);
  const CacheLookup *A0 = nullptr, *B = nullptr, *A1 = nullptr;
  for (const CompileRecord &R : M.Compiles) {
    ASSERT_EQ(R.Caches.size(), 1u);
    bool Rank1 = R.Rank && *R.Rank == 1;
    (R.Id->FrameCompileId.getValueOr(-1) == 1 ? B : Rank1 ? A1 : A0) =
        &R.Caches[0];
  }
  ASSERT_TRUE(A0 && B && A1);
  EXPECT_EQ(A0->Components.vec(), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(B->Components.vec(), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_TRUE(A0->Components.shares(A1->Components));
  EXPECT_FALSE(A0->Components.shares(B->Components));
  EXPECT_EQ(M.KeyComponents,
            (std::vector<std::string>{"[a] x: 1", "[b] y: 2", "[c] z: 3"}));
}
