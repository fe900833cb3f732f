//===- TraceReaderTest.cpp - Event lines and the reader -------------------===//

#include "tlp/Parse/TraceReader.h"

#include "tlp/LogYAML/LogYAML.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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

/// A log of \p Events at pid 1 from `x.py:1`, written by lib/LogYAML (the
/// envelopes and the payloads' md5).
static std::string logOf(std::vector<logyaml::Event> Events) {
  logyaml::Log L;
  L.Pid = 1;
  L.Start = "0101 00:00:00.000000";
  L.Source = "x.py:1";
  L.Events = std::move(Events);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (llvm::Error E = logyaml::writeLog(L, OS))
    ADD_FAILURE() << llvm::toString(std::move(E));
  return OS.str();
}

/// Event \p Name (metadata \p Metadata) of compile 0/\p FrameCompileId of
/// \p Rank (none: the log's), with \p Payload.
static logyaml::Event event(const char *Name, const char *Metadata,
                            llvm::Optional<int64_t> Rank,
                            int64_t FrameCompileId, std::string Payload) {
  logyaml::Event E;
  E.Name = Name;
  E.Metadata = logyaml::JSONText{Metadata};
  E.Rank = Rank;
  E.FrameId = 0;
  E.FrameCompileId = FrameCompileId;
  E.Attempt = 0;
  E.Payload = std::move(Payload);
  return E;
}

/// The records of the log's 0/0, its 0/1 and rank 1's 0/0 (null if missing).
struct ThreeRecords {
  const CompileRecord *Own0 = nullptr, *One = nullptr, *Rank1 = nullptr;
};
static ThreeRecords threeRecords(const Module &M) {
  ThreeRecords T;
  for (const CompileRecord &R : M.Compiles)
    (R.Id->FrameCompileId.getValueOr(-1) == 1 ? T.One
     : R.Rank && *R.Rank == 1                  ? T.Rank1
                                               : T.Own0) = &R;
  return T;
}

/// Read \p Log into \p M and find its three records (threeRecords): a
/// fatal failure when there are not exactly these three.
static void readThree(const std::string &Log, Module &M, ThreeRecords &T) {
  DiagnosticEngine D;
  readTraceText(Log, "x.log", M, D);
  ASSERT_EQ(M.Compiles.size(), 3u);
  T = threeRecords(M);
  ASSERT_TRUE(T.Own0 && T.One && T.Rank1);
}

// The records of compiles that logged the same guard text share it (every
// rank of a job logs the same guards for the same frame); a different text
// is its own. Compiles 0/0 and 0/1 and rank 1's 0/0 in one log.
TEST(TraceReader, SameGuardTextsAreShared) {
  auto Guards = [](llvm::Optional<int64_t> Rank, int64_t Compile,
                   const char *Text) {
    return event("dynamo_cpp_guards_str", "{}", Rank, Compile, Text);
  };
  std::string Log = logOf({Guards(llvm::None, 0, "TREE_GUARD_MANAGER: check x"),
                           Guards(llvm::None, 1, "TREE_GUARD_MANAGER: check y"),
                           Guards(1, 0, "TREE_GUARD_MANAGER: check x")});
  Module M;
  ThreeRecords T;
  ASSERT_NO_FATAL_FAILURE(readThree(Log, M, T));
  EXPECT_EQ(T.Own0->Guards.str(), "TREE_GUARD_MANAGER: check x");
  EXPECT_EQ(T.One->Guards.str(), "TREE_GUARD_MANAGER: check y");
  EXPECT_TRUE(T.Own0->Guards.shares(T.Rank1->Guards));
  EXPECT_FALSE(T.Own0->Guards.shares(T.One->Guards));
}

// Cache lookups that logged the same key components (in the same order)
// share one list of indices; another list is its own. Rank 0's and rank 1's
// 0/0 log the same components, 0/1 one more.
TEST(TraceReader, SameComponentListsAreShared) {
  auto Miss = [](llvm::Optional<int64_t> Rank, int64_t Compile,
                 const char *Components) {
    return event("artifact",
                 "{\"name\": \"fx_graph_cache_miss\", \"encoding\": \"json\"}",
                 Rank, Compile,
                 std::string("{\"key\": \"k\", \"components\": [") +
                     Components + "]}");
  };
  std::string Log =
      logOf({Miss(llvm::None, 0, "\"[a] x: 1\", \"[b] y: 2\""),
             Miss(llvm::None, 1, "\"[a] x: 1\", \"[b] y: 2\", \"[c] z: 3\""),
             Miss(1, 0, "\"[a] x: 1\", \"[b] y: 2\"")});
  Module M;
  ThreeRecords T;
  ASSERT_NO_FATAL_FAILURE(readThree(Log, M, T));
  for (const CompileRecord &R : M.Compiles)
    ASSERT_EQ(R.Caches.size(), 1u);
  const SharedIndices &A0 = T.Own0->Caches[0].Components,
                      &B = T.One->Caches[0].Components,
                      &A1 = T.Rank1->Caches[0].Components;
  EXPECT_EQ(A0.vec(), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(B.vec(), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_TRUE(A0.shares(A1));
  EXPECT_FALSE(A0.shares(B));
  EXPECT_EQ(M.KeyComponents,
            (std::vector<std::string>{"[a] x: 1", "[b] y: 2", "[c] z: 3"}));
}

// The records of compiles that logged the same dynamo_start stack share it
// (every rank of a job logs the same frames); its file names come from the
// `str` table, whole only at the end: the entry for index 0 comes after
// the starts that name it. 0/1 starts at another line: its own stack.
TEST(TraceReader, SameStacksAreShared) {
  auto Start = [](llvm::Optional<int64_t> Rank, int64_t Compile,
                  const char *Stack) {
    logyaml::Event E = event("dynamo_start", "{}", Rank, Compile, "");
    E.Metadata = logyaml::JSONText{std::string("{\"stack\": ") + Stack + "}"};
    return E;
  };
  const char *Here = "[{\"line\": 3, \"name\": \"f\", \"filename\": 0}]";
  logyaml::Event Str;
  Str.Name = "str";
  Str.Metadata = logyaml::JSONText{"[\"/u/prog.py\", 0]"};
  std::string Log = logOf(
      {Start(llvm::None, 0, Here),
       Start(llvm::None, 1, "[{\"line\": 4, \"name\": \"f\", \"filename\": 0}]"),
       Start(1, 0, Here), Str});
  Module M;
  ThreeRecords T;
  ASSERT_NO_FATAL_FAILURE(readThree(Log, M, T));
  ASSERT_TRUE(T.Own0->frame() && T.One->frame());
  EXPECT_EQ(T.Own0->frame()->File, "/u/prog.py");
  EXPECT_EQ(T.Own0->frame()->Line, 3u);
  EXPECT_EQ(T.One->frame()->File, "/u/prog.py");
  EXPECT_EQ(T.One->frame()->Line, 4u);
  EXPECT_TRUE(T.Own0->Stack.shares(T.Rank1->Stack));
  EXPECT_FALSE(T.Own0->Stack.shares(T.One->Stack));
}

// Across the logs of a directory too: each rank's log has its own `str`
// table (other indices for the same file), and the same frames share one
// stack once resolved.
TEST(TraceReader, SameStacksAreSharedAcrossLogs) {
  auto LogWith = [](const char *Strs, int64_t Index) {
    logyaml::Event Start = event("dynamo_start", "{}", llvm::None, 0, "");
    Start.Metadata = logyaml::JSONText{
        "{\"stack\": [{\"line\": 3, \"name\": \"f\", \"filename\": " +
        std::to_string(Index) + "}]}"};
    logyaml::Event Str;
    Str.Name = "str";
    Str.Metadata = logyaml::JSONText{Strs};
    return logOf({Str, Start});
  };
  llvm::SmallString<64> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tlp-stacks", Dir));
  auto Write = [&](const char *Name, const std::string &Text) {
    llvm::SmallString<64> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    ASSERT_FALSE(EC);
    OS << Text;
  };
  Write("dedicated_log_torch_trace_rank_0_a.log",
        LogWith("[\"/u/prog.py\", 0]", 0));
  Write("dedicated_log_torch_trace_rank_1_b.log",
        LogWith("[\"/u/prog.py\", 7]", 7));
  Module M;
  DiagnosticEngine D;
  TraceSources Sources;
  llvm::Error E = readTrace(Dir, M, Sources, D);
  EXPECT_FALSE(bool(E));
  llvm::consumeError(std::move(E));
  llvm::sys::fs::remove_directories(Dir);
  ASSERT_EQ(M.Compiles.size(), 2u);
  ASSERT_TRUE(M.Compiles[0].frame());
  EXPECT_EQ(M.Compiles[0].frame()->File, "/u/prog.py");
  EXPECT_TRUE(M.Compiles[0].Stack.shares(M.Compiles[1].Stack));
}
