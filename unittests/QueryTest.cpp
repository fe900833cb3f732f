//===- QueryTest.cpp - The "where did my op go?" engine -------------------===//
//
// ProvenanceQuery on the hand-written IR fixture test/Inputs/ir/one-kernel.tlp
// after the default pipeline: pre-grad `a` (/m.py:7) became post-grad `mul`
// in kernel row 0; `b` (/m.py:8) went nowhere.
//
//===----------------------------------------------------------------------===//

#include "tlp/Analysis/Query.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Passes/Pass.h"

#include "LinkedIRFixture.h"

#include "gtest/gtest.h"

using namespace tlp;

using Fixture = LinkedIRFixture;

TEST(Query, Node) {
  Fixture F;
  ASSERT_TRUE(F.M && F.M->Units.size() == 1);
  const CompileUnit &U = *F.M->Units[0];
  UnitProvenance P(U);
  ProvenanceQuery Q = ProvenanceQuery::forNode("a");
  EXPECT_TRUE(Q.isNode());
  llvm::Optional<QueryAnswer> A = Q.answer(U, P);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Hits, std::vector<uint32_t>{1});

  ProvenanceQuery Miss = ProvenanceQuery::forNode("aa");
  EXPECT_FALSE(Miss.answer(U, P));
  EXPECT_EQ(llvm::toString(Miss.notFound()),
            "no node named 'aa'; did you mean 'a', 'add', 'b'?");

  // Other names of the same node (NameMatch.h): the post-grad node it
  // became, that node's op, its own op.
  for (const char *Name : {"mul", "aten.mul", "operator.mul"}) {
    ProvenanceQuery Other = ProvenanceQuery::forNode(Name);
    llvm::Optional<QueryAnswer> B = Other.answer(U, P);
    ASSERT_TRUE(B) << Name;
    EXPECT_EQ(B->Hits, std::vector<uint32_t>{1}) << Name;
    EXPECT_EQ(B->How, std::string(Name) == "mul" ? NameMatchKind::PostNode
                                                 : NameMatchKind::Op)
        << Name;
  }
}

TEST(Query, Source) {
  Fixture F;
  ASSERT_TRUE(F.M && F.M->Units.size() == 1);
  const CompileUnit &U = *F.M->Units[0];
  UnitProvenance P(U);
  llvm::Expected<ProvenanceQuery> Q = ProvenanceQuery::forSource("m.py:7");
  ASSERT_TRUE(static_cast<bool>(Q));
  EXPECT_FALSE(Q->isNode());
  llvm::Optional<QueryAnswer> A = Q->answer(U, P);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Hits, std::vector<uint32_t>{0});
  EXPECT_EQ(A->Pre, std::set<uint32_t>{1});
  EXPECT_EQ(A->Post, std::set<uint32_t>{1});
  EXPECT_EQ(A->Kernels, std::set<uint32_t>{0});

  // Line 8 has provenance but no kernel; `other.py` is no suffix match.
  llvm::Optional<QueryAnswer> B =
      cantFail(ProvenanceQuery::forSource("/m.py:8")).answer(U, P);
  ASSERT_TRUE(B);
  EXPECT_TRUE(B->Kernels.empty());
  ProvenanceQuery Miss = cantFail(ProvenanceQuery::forSource("m.py:9"));
  EXPECT_FALSE(Miss.answer(U, P));
  EXPECT_EQ(llvm::toString(Miss.notFound()),
            "no unit has user source line 'm.py:9'; lines with provenance "
            "in '/m.py': 7, 8");

  for (const char *Bad : {"m.py", "m.py:", ":3", "m.py:0", "m.py:x"}) {
    llvm::Expected<ProvenanceQuery> E = ProvenanceQuery::forSource(Bad);
    ASSERT_FALSE(static_cast<bool>(E)) << Bad;
    EXPECT_EQ(llvm::toString(E.takeError()),
              std::string("--source expects FILE:LINE, got '") + Bad + "'");
  }
}
