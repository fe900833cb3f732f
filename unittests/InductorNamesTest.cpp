//===- InductorNamesTest.cpp - What PyTorch's and Inductor's names say ----===//
//
// The naming rules of tlp/IR/InductorNames.h: kernel kinds from names,
// collectives, op targets, AOTInductor shim names.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/InductorNames.h"

#include "gtest/gtest.h"

using namespace tlp;

namespace {
using Names = std::vector<std::string>;

TEST(InductorNamesTest, KernelKinds) {
  EXPECT_EQ(guessKernelKind("triton_tem_fused_mm_0"), KernelKind::Template);
  EXPECT_EQ(guessKernelKind("triton_poi_fused_add_0"), KernelKind::Triton);
  EXPECT_EQ(guessKernelKind("cpp_fused_mul_1"), KernelKind::Cpp);
  EXPECT_EQ(guessKernelKind("extern_kernels.mm"), KernelKind::Extern);
  EXPECT_EQ(guessKernelKind("aoti_torch_cuda_mm_out"), KernelKind::Extern);
  EXPECT_EQ(guessKernelKind("aoti_torch_proxy_executor_call_function"),
            KernelKind::Fallback);
  EXPECT_EQ(guessKernelKind("torch.ops._c10d_functional.all_reduce_.default"),
            KernelKind::Collective);
  EXPECT_EQ(guessKernelKind("torch.ops.aten.nonzero.default"),
            KernelKind::Fallback);
  EXPECT_EQ(guessKernelKind("aten.randint.low_out"), KernelKind::Fallback);
  EXPECT_EQ(guessKernelKind("my_kernel"), KernelKind::Unknown);
  EXPECT_EQ(launchedKernelKind("my_kernel"), KernelKind::Triton);
  EXPECT_EQ(launchedKernelKind("triton_tem_fused_mm_0"), KernelKind::Template);
  EXPECT_EQ(backendKernelKind("triton", "triton_tem_fused_mm_0"),
            KernelKind::Template);
  EXPECT_EQ(backendKernelKind("cpp_pybinding", "cpp_fused_mul_0"),
            KernelKind::Cpp);
  EXPECT_EQ(backendKernelKind("halide", "halide_kernel_0"),
            KernelKind::Unknown);
}

// One definition of a collective for node targets and kernels alike
// (before, the kernel kind and the rank digests had one each).
TEST(InductorNamesTest, Collectives) {
  EXPECT_TRUE(isCollectiveOp("torch.ops._c10d_functional.all_reduce_.default"));
  EXPECT_TRUE(isCollectiveOp("torch.ops._c10d_functional.wait_tensor.default"));
  EXPECT_TRUE(isCollectiveOp("torch.ops.c10d_functional.wait_tensor"));
  EXPECT_TRUE(isCollectiveOp("torch.ops.c10d.allreduce_.default"));
  EXPECT_TRUE(isCollectiveOp("aoti_torch_cpu__c10d_functional_all_reduce_"));
  // PyTorch's autograd-aware collectives: the kernel kind called them
  // fallbacks.
  EXPECT_TRUE(isCollectiveOp(
      "torch.ops._c10d_functional_autograd.all_to_all_single.default"));
  EXPECT_EQ(guessKernelKind("torch.ops._c10d_functional_autograd."
                            "reduce_scatter_tensor.default"),
            KernelKind::Collective);
  // DTensor's all-to-all is one (the digests missed it); the other op of
  // its namespace returns a process group and is not.
  EXPECT_TRUE(isCollectiveOp("torch.ops._dtensor.shard_dim_alltoall.default"));
  EXPECT_FALSE(
      isCollectiveOp("torch.ops._dtensor.mesh_get_process_group.default"));
  EXPECT_EQ(guessKernelKind("torch.ops._dtensor.mesh_get_process_group"),
            KernelKind::Fallback);
  // A name that merely holds "c10d" is not one.
  EXPECT_FALSE(isCollectiveOp("torch.ops.aten.mm.default"));
  EXPECT_FALSE(isCollectiveOp("triton_poi_fused__c10d_functional_copy_0"));
  EXPECT_FALSE(
      isCollectiveOp("torch._C._distributed_c10d._SymmetricMemory.empty"));
  EXPECT_FALSE(isCollectiveOp("torch.ops.c10d"));
}

TEST(InductorNamesTest, KernelNames) {
  EXPECT_EQ(dropKernelCounter("triton_poi_fused_add_3"), "triton_poi_fused_add");
  EXPECT_EQ(dropKernelCounter("cpp_fused_relu_12"), "cpp_fused_relu");
  EXPECT_EQ(dropKernelCounter("extern_kernels.mm"), "extern_kernels.mm");
  EXPECT_EQ(dropKernelCounter("triton_poi_fused_add_"), "triton_poi_fused_add_");
  EXPECT_TRUE(isFusedKernelName("triton_poi_fused_add_3"));
  EXPECT_FALSE(isFusedKernelName("extern_kernels.mm"));
  EXPECT_TRUE(isExternKernelName("extern_kernels.addmm"));
  EXPECT_TRUE(isOpKernelCall("torch.ops.aten.nonzero.default"));
  EXPECT_FALSE(isOpKernelCall("torch.ops.inductor._alloc_from_pool"));
  EXPECT_EQ(kernelOpTokens("triton_poi_fused_addmm_relu_0"),
            (Names{"addmm", "relu"}));
  EXPECT_EQ(kernelOpTokens("extern_kernels.mm"), (Names{"mm"}));
  EXPECT_EQ(kernelOpTokens("aoti_torch_cpu_addmm_out"), (Names{"addmm"}));
  EXPECT_EQ(kernelOpTokens("torch.ops.aten.cumsum.default"), (Names{"cumsum"}));
  EXPECT_EQ(kernelOpTokens("my_kernel"), (Names{}));
}

TEST(InductorNamesTest, AOTINames) {
  EXPECT_TRUE(isAOTIKernelCall("aoti_torch_cpu_addmm_out"));
  EXPECT_TRUE(isAOTIKernelCall(AOTIProxyExecutorCall));
  EXPECT_FALSE(isAOTIKernelCall("aoti_torch_empty_strided"));
  EXPECT_TRUE(isAOTIShimName("aoti_torch_empty_strided"));
  EXPECT_EQ(aotiLaunchWrapper("triton_poi_fused_add_0"),
            "call_triton_poi_fused_add_0");
  llvm::StringRef C = "call_triton_poi_fused_add_0";
  EXPECT_TRUE(consumeAOTILaunchWrapper(C));
  EXPECT_EQ(C, "triton_poi_fused_add_0");
}

TEST(InductorNamesTest, TargetOps) {
  EXPECT_EQ(shortTarget("torch.ops.aten.mm.default"), "aten.mm.default");
  EXPECT_EQ(targetOp("torch.ops.aten.add.Tensor"), "add");
  EXPECT_EQ(targetOp("torch.sigmoid"), "sigmoid");
  EXPECT_EQ(targetOp("operator.mul"), "mul");
  EXPECT_EQ(targetOp("aten._softmax.default"), "softmax");
  EXPECT_TRUE(isViewOp("view"));
  EXPECT_FALSE(isViewOp("add"));
}

TEST(InductorNamesTest, TargetAliases) {
  EXPECT_EQ(targetAliases("torch.ops.aten.sigmoid.default"),
            (Names{"torch.ops.aten.sigmoid.default", "aten.sigmoid.default",
                   "aten.sigmoid", "sigmoid"}));
  EXPECT_EQ(targetAliases("aten.add.Tensor"),
            (Names{"aten.add.Tensor", "aten.add", "add"}));
  EXPECT_EQ(targetAliases("torch.sigmoid"), (Names{"torch.sigmoid", "sigmoid"}));
  EXPECT_EQ(targetAliases("torch._C._nn.linear"),
            (Names{"torch._C._nn.linear", "linear"}));
  EXPECT_EQ(targetAliases("<built-in method sigmoid of type object at 0x7f>"),
            (Names{"torch.sigmoid", "sigmoid"}));
  EXPECT_EQ(targetAliases("<built-in function add>"), (Names{"add"}));
  EXPECT_EQ(targetAliases("operator.mul"), (Names{"operator.mul", "mul"}));
  EXPECT_EQ(targetAliases("relu"), (Names{"relu"}));
  EXPECT_EQ(targetAliases(""), (Names{}));
}

} // namespace
