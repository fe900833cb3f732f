//===- StripProvenance.cpp - Hide the provenance artifacts ----------------===//
//
// Drops the artifacts PyTorch writes only with provenance tracking on
// (INDUCTOR_PROVENANCE): the node mappings, the older post-to-pre and
// kernel-to-post maps and the kernel stack traces. What is left (graphs,
// generated code and its comments) is what every log has, so the passes
// after this one link a unit as they would link a log written without
// provenance tracking. Run it before resolve-debug-handles; used to measure
// inferred links against the mapping (docs/inference.md).
//
//===----------------------------------------------------------------------===//

#include "tlp/Passes/Pass.h"

using namespace llvm;

namespace tlp {

namespace {

class StripProvenancePass : public UnitPass {
public:
  StringRef getName() const override { return "strip-provenance"; }

  void runOnUnit(const Module &, CompileUnit &U, DiagnosticEngine &) override {
    U.Mapping.reset();
    U.NodeTree.reset();
    U.KernelNodes.reset();
    U.StackTraces.reset();
    for (EdgeOrigin O : {EdgeOrigin::Mapping, EdgeOrigin::NodeTree,
                         EdgeOrigin::KernelNodes, EdgeOrigin::StackTrace})
      U.removeEdges(O);
    for (Kernel &K : U.Kernels)
      K.InMapping = false;
  }
};

} // namespace

std::unique_ptr<Pass> createStripProvenancePass() {
  return std::make_unique<StripProvenancePass>();
}

} // namespace tlp
