//===- NameMatchTest.cpp - What a name given to a query stands for --------===//
//
// targetAliases() and closeNames() (tlp/Analysis/NameMatch.h), the names
// tlp-emit --node and the HTML filter answer to.
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/NameMatch.h"

#include "gtest/gtest.h"

using namespace tlp;

namespace {
using Names = std::vector<std::string>;

TEST(NameMatchTest, TargetAliases) {
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

TEST(NameMatchTest, CloseNames) {
  std::set<std::string> Known = {"sigmoid", "aten.sigmoid", "mul", "mm",
                                 "triton_poi_fused_mul_1", "x_1"};
  EXPECT_EQ(closeNames("sigmod", Known), (Names{"sigmoid"}));
  EXPECT_EQ(closeNames("aten.sigmod", Known), (Names{"aten.sigmoid"}));
  EXPECT_EQ(closeNames("mull", Known), (Names{"mul"}));
  EXPECT_EQ(closeNames("triton_poi_fused_mul_2", Known),
            (Names{"triton_poi_fused_mul_1"}));
  EXPECT_TRUE(closeNames("completely_different", Known).empty());
  // The name itself is no suggestion; at most Max, closest first.
  EXPECT_EQ(closeNames("mul", Known, 1), (Names{"mm"}));
}
} // namespace
