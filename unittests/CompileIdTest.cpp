//===- CompileIdTest.cpp - Compile ids and kernel keys --------------------===//

#include "tlp/IR/CompileRecord.h"
#include "tlp/IR/Module.h"
#include "tlp/IR/Types.h"

#include "gtest/gtest.h"

using namespace tlp;

static std::string roundTrip(llvm::StringRef S) {
  llvm::Optional<CompileId> Id = CompileId::parse(S);
  return Id ? Id->str() : std::string("<invalid>");
}

TEST(CompileId, StringForms) {
  EXPECT_EQ(roundTrip("0/0"), "0/0");
  EXPECT_EQ(roundTrip("0/1"), "0/1");
  EXPECT_EQ(roundTrip("0/0_1"), "0/0_1");
  EXPECT_EQ(roundTrip("!1"), "!1");
  EXPECT_EQ(roundTrip("!1/2/0"), "!1/2/0");
  EXPECT_EQ(roundTrip("!1/2/0_3"), "!1/2/0_3");
  // Attempt 0 is not printed, as TraceId.__str__ does.
  EXPECT_EQ(roundTrip("0/0_0"), "0/0");
  for (const char *Bad : {"", "0", "0/", "/0", "a/b", "0/0/0", "!", "!1/2",
                          "0/0_", "0/0_x", "-1/0"})
    EXPECT_EQ(roundTrip(Bad), "<invalid>") << Bad;
}

TEST(CompileId, SlugAndOrder) {
  EXPECT_EQ(CompileId::parse("!1/2/0")->slug(), "ca1-2-0");
  EXPECT_EQ(CompileId::parse("3/4_1")->slug(), "3-4_1");
  EXPECT_TRUE(*CompileId::parse("0/9") < *CompileId::parse("0/10"));
  EXPECT_TRUE(*CompileId::parse("1/0") < *CompileId::parse("!0"));
}

TEST(KernelKey, SplitAtLastColonWithDigits) {
  llvm::StringRef Name;
  llvm::Optional<uint64_t> H;
  splitKernelKey("triton_poi_fused_mul_1:2", Name, H);
  EXPECT_EQ(Name, "triton_poi_fused_mul_1");
  EXPECT_EQ(H.getValueOr(0), 2u);
  splitKernelKey("ns::kernel:12", Name, H);
  EXPECT_EQ(Name, "ns::kernel");
  EXPECT_EQ(H.getValueOr(0), 12u);
  splitKernelKey("extern_kernels.mm", Name, H);
  EXPECT_EQ(Name, "extern_kernels.mm");
  EXPECT_FALSE(H);
  splitKernelKey("a::b", Name, H);
  EXPECT_EQ(Name, "a::b");
  EXPECT_FALSE(H);
  splitKernelKey("k:", Name, H);
  EXPECT_EQ(Name, "k:");
  EXPECT_FALSE(H);
}

TEST(Names, EnumsRoundTrip) {
  for (GraphKind K : {GraphKind::Forward, GraphKind::Backward,
                      GraphKind::Inference, GraphKind::Unknown}) {
    GraphKind Out;
    ASSERT_TRUE(parseGraphKind(graphKindName(K), Out));
    EXPECT_EQ(Out, K);
  }
}

// "Why did the cache miss?": the first lines of a key component that differ.
TEST(KeyValueDiff, FirstChangedRun) {
  // One line each: no diff (the emitters show both values).
  EXPECT_EQ(keyValueDiff("a", "b"), "");
  EXPECT_EQ(keyValueDiff("a\nb", "a\nb"), "");
  EXPECT_EQ(firstDifferingLine("a\nb", "a\nb"), 0u);
  EXPECT_EQ(firstDifferingLine("x\na\nb", "x\na\nc"), 3u);
  // A changed line between unchanged ones, with two lines of context.
  EXPECT_EQ(keyValueDiff("h\n1\n2\nold\n3\n4\n5", "h\n1\n2\nnew\n3\n4\n5"),
            "@@ -2,5 +2,5 @@\n 1\n 2\n-old\n+new\n 3\n 4\n");
  // An inserted line at the end.
  EXPECT_EQ(keyValueDiff("a\nb", "a\nb\nc"), "@@ -1,2 +1,3 @@\n a\n b\n+c\n");
  // A later difference is announced, not shown.
  EXPECT_EQ(keyValueDiff("a\nx\nb\nc\nd\ny", "a\nX\nb\nc\nd\nY", 1),
            "@@ -1,3 +1,3 @@\n a\n-x\n+X\n b\n@@ more lines differ below @@\n");
  // A run longer than Max is cut.
  EXPECT_EQ(keyValueDiff("a\n1\n2\n3", "a\n4\n5\n6", 1, 2),
            "@@ -1,3 +1,3 @@\n a\n-1\n-2\n+4\n+5\n@@ more lines differ below @@\n");
}

TEST(UserFrames, WhoseFileIsIt) {
  // Torch's: installed (site-packages, Debian's dist-packages), relative,
  // or under the torch directory a traceback's Dynamo frames show.
  EXPECT_FALSE(isUserFile(
      "/venv/lib/python3.11/site-packages/torch/_library/custom_ops.py"));
  EXPECT_FALSE(isUserFile("/usr/lib/python3/dist-packages/torch/optim/sgd.py"));
  EXPECT_FALSE(isUserFile("torch/_dynamo/convert_frame.py"));
  EXPECT_FALSE(isUserFile("/home/dev/pytorch/torch/optim/optimizer.py",
                          "/home/dev/pytorch/torch/"));
  EXPECT_TRUE(isUserFile("/home/dev/pytorch/torch/optim/optimizer.py"));
  EXPECT_FALSE(isUserFile("C:\\py\\Lib\\site-packages\\torch\\nn\\functional.py"));
  // The compile stack's other packages, the standard library, pseudo-files
  // and Inductor's generated code.
  EXPECT_FALSE(isUserFile("/venv/lib/python3.11/site-packages/triton/runtime/jit.py"));
  EXPECT_FALSE(isUserFile("/usr/lib/python3.11/contextlib.py"));
  EXPECT_FALSE(isUserFile("/opt/py/lib64/python3.12/functools.py"));
  EXPECT_FALSE(isUserFile("<frozen runpy>"));
  EXPECT_FALSE(isUserFile("/tmp/torchinductor_u/ct/cctny2sis.py"));
  // The user's: their files, other installed packages (Dynamo traces them
  // as user code), a directory that is only named like torch's.
  EXPECT_TRUE(isUserFile("/home/u/proj/train.py"));
  EXPECT_TRUE(isUserFile(
      "/venv/lib/python3.11/site-packages/transformers/models/llama.py"));
  EXPECT_TRUE(isUserFile("/home/u/torch/my_model.py"));
  EXPECT_TRUE(isUserFile("/home/u/lib/python3.11-notes/x.py"));
}

TEST(UserFrames, Innermost) {
  auto Loc = [](const char *F, uint32_t L) {
    SourceLoc S;
    S.File = F;
    S.Line = L;
    return S;
  };
  std::vector<SourceLoc> Frames = {
      Loc("/src/pytorch/torch/_dynamo/convert_frame.py", 2102),
      Loc("/home/u/model.py", 24), Loc("/usr/lib/python3.11/functools.py", 412),
      Loc("/src/pytorch/torch/_library/custom_ops.py", 863)};
  EXPECT_EQ(torchRootOf(Frames), "/src/pytorch/torch/");
  llvm::Optional<SourceLoc> U = innermostUserFrame(Frames);
  ASSERT_TRUE(U.hasValue());
  EXPECT_EQ(U->File, "/home/u/model.py");
  EXPECT_EQ(U->Line, 24u);
  // Without a Dynamo frame, the root given is used.
  Frames.erase(Frames.begin());
  EXPECT_EQ(innermostUserFrame(Frames)->File,
            "/src/pytorch/torch/_library/custom_ops.py");
  EXPECT_EQ(innermostUserFrame(Frames, "/src/pytorch/torch/")->File,
            "/home/u/model.py");
  EXPECT_FALSE(innermostUserFrame({Loc("<string>", 1)}).hasValue());
}

TEST(UserFrames, ReasonSummary) {
  EXPECT_EQ(reasonSummary("Encountered graph break when attempting to trace "
                          "CALL:\n\nCall to `f()`\n  Explanation: x"),
            "Call to `f()`");
  EXPECT_EQ(reasonSummary("backend='b' raised:\nRuntimeError: broken"),
            "backend='b' raised: RuntimeError: broken");
  EXPECT_EQ(reasonSummary("Failed to handle graph break gracefully. Graph "
                          "break encountered:\n\nCall to `g()`\n\n*** While "
                          "handling this graph break, another graph break "
                          "occurred: ***\n\ngraph break in loop\n  x"),
            "Call to `g()`; while handling it: graph break in loop");
  EXPECT_EQ(reasonSummary(""), "");
}

TEST(MetricList, NamesKeptOnceValuesInOrder) {
  MetricList A;
  EXPECT_TRUE(A.empty());
  A.emplace_back("guard_count", "9");
  A.emplace_back("co_name", "\"fn\"");
  A.emplace_back("", "1"); // an empty name is a name like any other
  ASSERT_EQ(A.size(), 3u);
  EXPECT_EQ(A[0].first, "guard_count");
  EXPECT_EQ(A[1].second, "\"fn\"");
  EXPECT_EQ(A[2].first, "");
  EXPECT_EQ(A.lookup("co_name"), "\"fn\"");
  EXPECT_EQ(A.lookup("missing"), "");
  // Two lists name the same metric with the same interned text.
  MetricList B;
  B.emplace_back("guard_count", "3");
  EXPECT_EQ(A[0].first.data(), B[0].first.data());
  // Copies are deep and compare by content; an emptied list equals a new
  // one.
  MetricList C = A;
  EXPECT_EQ(C, A);
  C.setValue(0, "10");
  EXPECT_NE(C, A);
  EXPECT_EQ(C.lookup("guard_count"), "10");
  EXPECT_EQ(A.lookup("guard_count"), "9");
  C.clear();
  EXPECT_EQ(C, MetricList());
  EXPECT_NE(C, A);
  MetricList D = std::move(A);
  EXPECT_EQ(D.size(), 3u);
}

TEST(HeapOptional, ReadsAndCopiesLikeOptional) {
  HeapOptional<SourceLoc> None;
  EXPECT_FALSE(None);
  EXPECT_FALSE(None.optional());
  SourceLoc L;
  L.File = "model.py";
  L.Line = 7;
  HeapOptional<SourceLoc> A = llvm::Optional<SourceLoc>(L);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->File, "model.py");
  HeapOptional<SourceLoc> B = A;
  B->Line = 8;
  EXPECT_EQ(A->Line, 7u);
  EXPECT_NE(A, B);
  llvm::Optional<SourceLoc> O = B;
  EXPECT_EQ(O->Line, 8u);
  B = llvm::None;
  EXPECT_FALSE(B);
  EXPECT_EQ(B, None);
}

TEST(SharedOptional, CopiesShareTheValue) {
  SourceLoc L;
  L.File = "model.py";
  SharedOptional<SourceLoc> A = L;
  SharedOptional<SourceLoc> B = A;
  ASSERT_TRUE(B);
  EXPECT_EQ(A.getPointer(), B.getPointer());
  EXPECT_EQ(B->File, "model.py");
  SharedOptional<SourceLoc> C = llvm::Optional<SourceLoc>(L);
  EXPECT_NE(C.getPointer(), A.getPointer());
  EXPECT_EQ(C, A);
  EXPECT_FALSE(SharedOptional<SourceLoc>(llvm::None));
}
