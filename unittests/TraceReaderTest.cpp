//===- TraceReaderTest.cpp - Event lines and the reader -------------------===//

#include "tlp/Parse/TraceReader.h"

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
