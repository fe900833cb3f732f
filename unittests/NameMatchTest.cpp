//===- NameMatchTest.cpp - What a name given to a query stands for --------===//
//
// closeNames() (tlp/Analysis/NameMatch.h), the names tlp-emit --node
// and the HTML filter suggest; targetAliases() is in InductorNamesTest.
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/NameMatch.h"

#include "gtest/gtest.h"

using namespace tlp;

namespace {
using Names = std::vector<std::string>;

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
