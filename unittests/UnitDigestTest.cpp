//===- UnitDigestTest.cpp - Noise normalised, sequences aligned ----------===//
//
// normalizeNoise(), normalizeKernelName(), isCollectiveName(),
// alignSequences() and compareRanks() (tlp/Analysis/UnitDigest.h): what the
// cross-rank view and tlp-emit --diff treat as noise, and how they line
// two units up.
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/UnitDigest.h"

#include "gtest/gtest.h"

using namespace tlp;

namespace {

TEST(UnitDigestTest, NormalizeNoise) {
  // Device indices.
  EXPECT_EQ(normalizeNoise("f32[4, 8][8, 1]cuda:0"), "f32[4, 8][8, 1]cuda:#");
  EXPECT_EQ(normalizeNoise("device(type='cuda', index=1) xpu:12"),
            "device(type='cuda', index=#) xpu:#");
  EXPECT_EQ(normalizeNoise("f32[4][1]cpu"), "f32[4][1]cpu");
  EXPECT_EQ(normalizeNoise("DeviceProperties(type='cuda', index=3, cc=80)"),
            "DeviceProperties(type='cuda', index=#, cc=80)");
  EXPECT_EQ(normalizeNoise("index=i"), "index=i");
  // Absolute paths, but not a division or a single '/'.
  EXPECT_EQ(normalizeNoise("#include \"/tmp/torchinductor_u0/ab/c.h\""),
            "#include \"<path>\"");
  EXPECT_EQ(normalizeNoise("x = a / b; y = a/b"), "x = a / b; y = a/b");
  // Addresses of 4+ hex digits; shorter hex literals stay.
  EXPECT_EQ(normalizeNoise("at 0x7f3a12bc00 and 0xff"), "at 0x# and 0xff");
  // Buffer counters.
  EXPECT_EQ(normalizeNoise("buf12 = empty(); del buf3"),
            "buf# = empty(); del buf#");
  EXPECT_EQ(normalizeNoise("buffer buf buf1x"), "buffer buf buf1x");
  // Generated kernel names lose their counter; the kernel's own name is
  // KERNEL.
  EXPECT_EQ(normalizeNoise("triton_poi_fused_add_3.run(buf0)"),
            "triton_poi_fused_add.run(buf#)");
  EXPECT_EQ(normalizeNoise("def cpp_fused_mul_0(x):", "cpp_fused_mul_0"),
            "def KERNEL(x):");
  EXPECT_EQ(normalizeNoise("arg0_1 + tmp_3"), "arg0_1 + tmp_3");
}

TEST(UnitDigestTest, KernelNames) {
  EXPECT_EQ(normalizeKernelName("triton_poi_fused_add_3"),
            "triton_poi_fused_add");
  EXPECT_EQ(normalizeKernelName("cpp_fused_relu_12"), "cpp_fused_relu");
  EXPECT_EQ(normalizeKernelName("extern_kernels.mm"), "extern_kernels.mm");
  EXPECT_EQ(normalizeKernelName("triton_poi_fused_add_"),
            "triton_poi_fused_add_");
}

using Rows = std::vector<std::pair<llvm::Optional<size_t>, llvm::Optional<size_t>>>;

TEST(UnitDigestTest, AlignSequences) {
  std::vector<std::string> A{"a", "b", "c", "d"}, B{"a", "x", "b", "d"};
  Rows R = alignSequences(A, B);
  ASSERT_EQ(R.size(), 5u);
  EXPECT_EQ(R[0], std::make_pair(llvm::Optional<size_t>(0), llvm::Optional<size_t>(0)));
  EXPECT_EQ(R[1], std::make_pair(llvm::Optional<size_t>(), llvm::Optional<size_t>(1)));
  EXPECT_EQ(R[2], std::make_pair(llvm::Optional<size_t>(1), llvm::Optional<size_t>(2)));
  EXPECT_EQ(R[3], std::make_pair(llvm::Optional<size_t>(2), llvm::Optional<size_t>()));
  EXPECT_EQ(R[4], std::make_pair(llvm::Optional<size_t>(3), llvm::Optional<size_t>(3)));
  EXPECT_TRUE(alignSequences({}, {}).empty());
  EXPECT_EQ(alignSequences({}, B).size(), 4u);
}

UnitDigest digest(int64_t Rank, std::vector<std::string> Ops) {
  UnitDigest D;
  D.Key.Rank = Rank;
  D.Key.Id = CompileId();
  D.Id = "r" + std::to_string(Rank);
  for (std::string &Op : Ops)
    D.Post.push_back({Op, "call_function " + Op, "()"});
  return D;
}

TEST(UnitDigestTest, CompareRanks) {
  std::vector<UnitDigest> Ds{digest(1, {"relu", "add"}),
                             digest(0, {"relu", "add"}),
                             digest(2, {"relu", "mul"})};
  RankComparison RC = compareRanks(Ds);
  EXPECT_EQ(RC.Ranks, (std::vector<int64_t>{0, 1, 2}));
  ASSERT_EQ(RC.Rows.size(), 1u);
  EXPECT_EQ(RC.Rows[0].ReferenceId, "r0");
  ASSERT_EQ(RC.Rows[0].Cells.size(), 3u);
  EXPECT_TRUE(RC.Rows[0].Cells[1].agrees());
  EXPECT_FALSE(RC.Rows[0].Cells[2].SameGraph);
  EXPECT_EQ(RC.Rows[0].Cells[2].Difference,
            "graph: post-grad node 2 is `mul` (call_function mul), not `add` "
            "(call_function add)");
  ASSERT_TRUE(RC.FirstRow && RC.FirstCell);
  EXPECT_EQ(*RC.FirstCell, 2u);
  // One rank: nothing to compare.
  EXPECT_TRUE(compareRanks(llvm::makeArrayRef(Ds).take_front(1)).Rows.empty());
}

} // namespace

namespace {

DigestKernel kernel(const char *Key, const char *Name,
                    std::vector<std::string> Post) {
  DigestKernel K;
  K.Key = Key;
  K.Name = Name;
  K.NormName = normalizeKernelName(Name);
  K.PostNodes = std::move(Post);
  return K;
}

// A log with the provenance mapping keys each call of an extern kernel by
// its debug handle (a row per call); one without it has one row for both
// calls. Compared as one row a side, the two agree; their post-grad nodes
// taken together still have to.
TEST(UnitDigestTest, HandleRowsAgainstOneRow) {
  UnitDigest A, B;
  A.Kernels.push_back(kernel("extern_kernels.addmm:1", "extern_kernels.addmm",
                             {"addmm"}));
  A.Kernels.push_back(kernel("extern_kernels.addmm:3", "extern_kernels.addmm",
                             {"addmm_1"}));
  B.Kernels.push_back(kernel("extern_kernels.addmm", "extern_kernels.addmm",
                             {"addmm", "addmm_1"}));
  EXPECT_TRUE(diffDigests(A, B).empty());
  EXPECT_TRUE(diffDigests(B, A).empty());

  B.Kernels[0].PostNodes = {"addmm"};
  std::vector<DigestChange> C = diffDigests(A, B);
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Kind, "kernel");
  EXPECT_EQ(C[0].Change, "changed");
  EXPECT_EQ(C[0].Detail, "fuses [addmm, addmm_1] -> [addmm]");

  // Rows keyed alike on both sides are still compared one by one.
  UnitDigest D;
  D.Kernels.push_back(A.Kernels[0]);
  C = diffDigests(A, D);
  ASSERT_EQ(C.size(), 1u);
  EXPECT_EQ(C[0].Change, "removed");
  EXPECT_EQ(C[0].Detail, "fuses [addmm_1]");
}

} // namespace
