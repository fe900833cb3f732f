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
