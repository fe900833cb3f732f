//===- GraphInfoTest.cpp - FX type labels and data-flow edges -------------===//

#include "tlp/Analysis/DataFlow.h"
#include "tlp/IR/TensorType.h"
#include "tlp/Parse/PayloadParsers.h"

#include "gtest/gtest.h"

using namespace tlp;

TEST(TensorType, Parse) {
  auto T = parseTensorType("f32[8, 16][16, 1]cuda:0");
  ASSERT_TRUE(T);
  EXPECT_EQ(T->DType, "f32");
  EXPECT_EQ(T->Sizes, (std::vector<std::string>{"8", "16"}));
  EXPECT_EQ(T->Strides, (std::vector<std::string>{"16", "1"}));
  EXPECT_EQ(T->Device, "cuda:0");
  EXPECT_EQ(T->shortForm(), "f32[8, 16]");
  T = parseTensorType("f32[][]cpu");
  ASSERT_TRUE(T);
  EXPECT_TRUE(T->Sizes.empty());
  EXPECT_EQ(T->shortForm(), "f32[]");
  T = parseTensorType("i64[u0, 1][1, 1]cuda:0");
  ASSERT_TRUE(T);
  EXPECT_EQ(T->shortForm(), "i64[u0, 1]");
  EXPECT_FALSE(parseTensorType("Sym(s0)"));
  EXPECT_FALSE(parseTensorType("[8]"));
  EXPECT_FALSE(parseTensorType("f32[8"));
}

TEST(TensorType, Labels) {
  EXPECT_EQ(shortTypeLabel("f32[8, 16][16, 1]cuda:0"), "f32[8, 16]");
  EXPECT_EQ(shortTypeLabel("f32[4][1]cpu, i64[4][1]cpu"), "f32[4], i64[4]");
  EXPECT_EQ(shortTypeLabel("Sym(s0)"), "Sym(s0)");
  EXPECT_EQ(shortTypeLabel(""), "");
}

static GraphArtifact graph(const char *Text,
                           std::vector<std::pair<const char *, unsigned>> Nodes,
                           unsigned Placeholders = 1) {
  GraphArtifact G(Artifact::AK_PostGradGraph);
  G.Text = Text;
  for (size_t I = 0; I < Nodes.size(); ++I) {
    Node N;
    N.Name = Nodes[I].first;
    N.Line = Nodes[I].second;
    N.Op = I < Placeholders        ? NodeOp::Placeholder
           : I + 1 == Nodes.size() ? NodeOp::Output
                                   : NodeOp::CallFunction;
    G.Nodes.push_back(N);
  }
  G.reindex();
  return G;
}

TEST(DataFlow, Inputs) {
  // Callees, attributes, keyword names and strings are not inputs; the
  // clean-up after ';  ' is not part of the expression; a long return
  // continues on the next lines.
  GraphArtifact G = graph(
      "def forward(self, x, dim):\n"                             // 1
      "    a: \"f32[4]\" = torch.relu(x);  x = None\n"           // 2
      "    b = a.sum(dim = 1, name = 'a x')\n"                   // 3
      "    c = torch.ops.aten.add.Tensor(a, b);  a = b = None\n" // 4
      "    return (c,\n"                                         // 5
      "            b)\n",                                        // 6
      {{"x", 1}, {"dim", 1}, {"a", 2}, {"b", 3}, {"c", 4}, {"output", 5}}, 2);
  computeFXNodeInputs(G);
  auto In = nodeInputs(G);
  ASSERT_EQ(In.size(), 6u);
  EXPECT_TRUE(In[0].empty());
  EXPECT_EQ(In[2], (std::vector<uint32_t>{0}));
  EXPECT_EQ(In[3], (std::vector<uint32_t>{2}));
  EXPECT_EQ(In[4], (std::vector<uint32_t>{2, 3}));
  EXPECT_EQ(In[5], (std::vector<uint32_t>{4, 3}));
  EXPECT_EQ(G.Nodes[4].Inputs, In[4]);
  // Computing again replaces the inputs; it does not append to them.
  computeFXNodeInputs(G);
  EXPECT_EQ(nodeInputs(G), In);
}
