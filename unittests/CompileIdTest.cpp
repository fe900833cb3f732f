//===- CompileIdTest.cpp - Compile ids and kernel keys --------------------===//

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
  EXPECT_EQ(guessKernelKind("triton_tem_fused_mm_0"), KernelKind::Template);
  EXPECT_EQ(guessKernelKind("aoti_torch_cuda_mm_out"), KernelKind::Extern);
  EXPECT_EQ(guessKernelKind("torch.ops._c10d_functional.all_reduce_.default"),
            KernelKind::Collective);
  EXPECT_EQ(guessKernelKind("torch.ops.aten.nonzero.default"),
            KernelKind::Fallback);
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
