//===- EnumsTest.cpp - The tables of Enums.def and UnitSlots.def ----------===//

#include "tlp/IR/Enums.h"

#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace tlp;

// Every value has a distinct name that parses back to it; an unknown name
// does not parse.
template <typename T>
static void checkTable(llvm::StringRef (*Name)(T),
                       bool (*Parse)(llvm::StringRef, T &), size_t Size) {
  llvm::ArrayRef<T> Values = enumValues<T>();
  EXPECT_EQ(Values.size(), Size);
  llvm::StringSet<> Seen;
  for (T V : Values) {
    llvm::StringRef N = Name(V);
    EXPECT_FALSE(N.empty());
    EXPECT_TRUE(Seen.insert(N).second) << N.str();
    T Back;
    ASSERT_TRUE(Parse(N, Back)) << N.str();
    EXPECT_EQ(Back, V) << N.str();
  }
  T Out;
  EXPECT_FALSE(Parse("no-such-name", Out));
  EXPECT_FALSE(Parse("", Out));
}

TEST(Enums, NamesRoundTrip) {
  checkTable(graphKindName, parseGraphKind, 4);
  checkTable(nodeOpName, parseNodeOp, 7);
  checkTable(kernelKindName, parseKernelKind, 8);
  checkTable(languageName, parseLanguage, 2);
  checkTable(edgeOriginName, parseEdgeOrigin, 8);
  checkTable(compileEventKindName, parseCompileEventKind, 4);
  checkTable(artifactKindName, parseArtifactKind, 12);
  checkTable(unitSlotRole, parseUnitSlot, NumUnitSlots);
}

TEST(Enums, TextForms) {
  // The IR text form and JSON depend on these spellings.
  EXPECT_EQ(graphKindName(GraphKind::Inference), "inference");
  EXPECT_EQ(nodeOpName(NodeOp::GetAttr), "get_attr");
  EXPECT_EQ(edgeOriginName(EdgeOrigin::FXComment), "fx-comment");
  EXPECT_EQ(compileEventKindName(CompileEvent::AotBackward),
            "aot_backward_graph");
  EXPECT_EQ(artifactKindName(Artifact::AK_KernelToPostGradNodes),
            "kernel_to_post_grad_nodes");
  EXPECT_EQ(unitSlotRole(UnitSlot::KernelCode), "kernel_code");
  EXPECT_EQ(unitSlotTitle(UnitSlot::StackTraces), "stack traces");
}

TEST(UnitSlots, KindsFillTheirSlot) {
  EXPECT_EQ(NumUnitSlots, 11u);
  EXPECT_EQ(unitSlotOf(Artifact::AK_OutputCode), UnitSlot::Code);
  EXPECT_EQ(unitSlotOf(Artifact::AK_IRPreFusion), UnitSlot::PreFusion);
  EXPECT_EQ(unitSlotOf(Artifact::AK_IRPostFusion), UnitSlot::PostFusion);
  EXPECT_EQ(unitSlotOf(Artifact::AK_AOTWrapperCode), UnitSlot::Code);
  EXPECT_EQ(unitSlotOf(Artifact::AK_AOTKernelCode), UnitSlot::KernelCode);
  CompileUnit U;
  unsigned Filled = 0;
  for (Artifact::ArtifactKind K : enumValues<Artifact::ArtifactKind>()) {
    std::unique_ptr<Artifact> A = createArtifact(K);
    ASSERT_TRUE(A);
    EXPECT_EQ(A->getKind(), K);
    Artifact *Raw = A.get();
    U.setSlot(std::move(A));
    EXPECT_EQ(U.slot(unitSlotOf(K)), Raw) << artifactKindName(K).str();
  }
  std::vector<UnitSlot> Order;
  U.forEachArtifact([&](UnitSlot S, const Artifact &) {
    Order.push_back(S);
    ++Filled;
  });
  EXPECT_EQ(Filled, NumUnitSlots);
  EXPECT_TRUE(std::is_sorted(Order.begin(), Order.end()));
  // The wrapper slot holds the last code artifact set.
  EXPECT_EQ(U.Code->getKind(), Artifact::AK_AOTWrapperCode);
}
