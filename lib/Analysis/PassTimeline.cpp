//===- PassTimeline.cpp - What each pass of a unit's pipeline changed -----===//

#include "tlp/Analysis/PassTimeline.h"

#include "llvm/Support/Casting.h"

using namespace llvm;

namespace tlp {

std::vector<TimelineStep> passTimeline(const Module &M, const CompileUnit &U) {
  std::vector<TimelineStep> Steps;
  UnitDigest Prev;
  for (size_t I = 0; I < U.Stages.size(); ++I) {
    const PassStage &S = U.Stages[I];
    // The stage's graph as a unit's post-grad graph: its digest holds the
    // nodes the diff compares.
    CompileUnit Tmp;
    Tmp.Key = U.Key;
    if (S.Graph)
      Tmp.PostGrad.reset(cast<GraphArtifact>(S.Graph->clone().release()));
    UnitDigest D = digestUnit(M, Tmp, /*KeepCode=*/false);
    TimelineStep Step;
    Step.Stage = I;
    Step.Nodes = D.Post.size();
    if (I) {
      const PassStage &P = U.Stages[I - 1];
      Step.SameText = P.Graph && S.Graph && P.Graph->Text == S.Graph->Text;
      for (DigestChange &C : diffDigests(Prev, D)) {
        if (C.Kind != "node")
          continue;
        if (C.Change == "added")
          ++Step.Added;
        else if (C.Change == "removed")
          ++Step.Removed;
        else
          ++Step.Changed;
        Step.Changes.push_back(std::move(C));
      }
    }
    Prev = std::move(D);
    Steps.push_back(std::move(Step));
  }
  return Steps;
}

} // namespace tlp
