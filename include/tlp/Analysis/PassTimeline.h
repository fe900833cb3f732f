//===- PassTimeline.h - What each pass of a unit changed --------*- C++ -*-===//
//
// Part of tlp. A unit's pass timeline (CompileUnit::Stages, read from a
// depyf dump) is stored in the IR; what each stage changed against the one
// before is computed here, with the graph comparison of the semantic diff
// (diffDigests of tlp/Analysis/UnitDigest.h: nodes added, removed, changed
// op or arguments, matched by name), for the emitters to show.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_PASSTIMELINE_H
#define TLP_ANALYSIS_PASSTIMELINE_H

#include "tlp/Analysis/UnitDigest.h"
#include "tlp/IR/Module.h"

#include <vector>

namespace tlp {

/// One stage of the timeline and its changes against the stage before.
struct TimelineStep {
  /// Index into CompileUnit::Stages.
  size_t Stage = 0;
  /// The computing nodes of the stage's graph (placeholders and the output
  /// left out, as the diff counts them).
  size_t Nodes = 0;
  /// The stage has the same text as the one before (depyf writes each
  /// stage's graph; a pass that changed nothing leaves the same text).
  bool SameText = false;
  /// The node changes against the stage before (Kind "node"), in the
  /// diff's order; empty for the first stage.
  std::vector<DigestChange> Changes;
  unsigned Added = 0, Removed = 0, Changed = 0;
};

/// The timeline of \p U (of \p M), one step per stage, in stage order.
std::vector<TimelineStep> passTimeline(const Module &M, const CompileUnit &U);

} // namespace tlp

#endif // TLP_ANALYSIS_PASSTIMELINE_H
