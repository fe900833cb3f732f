//===- LinkSchedulerIR.cpp - Scheduler nodes to kernels and post-grad nodes ===//
//
// Each top-level node of a unit's scheduler IR after fusion
// (ir_post_fusion.txt) to the kernel row that runs it, and to the post-grad
// nodes it computes:
//
// - an extern node (`opN.node.kernel = extern_kernels.addmm`): the call of
//   that kernel that passes a buffer the node writes (`out=buf0`); else
//   the only call of that kernel;
// - any other node: the call whose argument in a written position (the
//   kernel's `out_ptrN` / `in_out_ptrN` parameter) is a buffer the node
//   (or, fused, one of its sub-nodes) writes;
// - post-grad nodes: those the kernel row's edges link to it (mapping,
//   code comments or inference, docs/inference.md), when the row runs
//   this node alone; the weakest edge's origin and confidence are kept.
//
// Triton launches (`.run(...)`) keep no arguments in the IR, so their
// nodes are linked only when a kernel's name is the extern kernel's.
//
//===----------------------------------------------------------------------===//

#include "tlp/Passes/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>

using namespace llvm;

namespace tlp {

namespace {

class LinkSchedulerIRPass : public UnitPass {
public:
  StringRef getName() const override { return "link-scheduler-ir"; }

  void runOnUnit(const Module &, CompileUnit &U, DiagnosticEngine &) override {
    SchedulerIRArtifact *S = U.PostFusion.get();
    if (!S || !S->isLoaded())
      return;
    for (SchedulerNode &N : S->Nodes) {
      N.Kernel = None;
      N.KernelBy.clear();
      N.PostNodes.clear();
      N.PostNodesBy.clear();
      N.PostNodesConfidence = 0;
    }
    if (!U.Code || !U.Code->isLoaded())
      return;
    const CodeArtifact &C = *U.Code;

    // The kernel row of each call line.
    std::map<uint32_t, uint32_t> RowOfLine;
    for (uint32_t R = 0; R < U.Kernels.size(); ++R)
      for (uint32_t L : U.Kernels[R].CallLines)
        RowOfLine.emplace(L, R);

    // The first call that writes each buffer: an argument passed as
    // `out=` or in a position the kernel's signature writes.
    StringMap<uint32_t> WrittenBy;
    for (uint32_t I = 0; I < C.Calls.size(); ++I) {
      const CallSite &CS = C.Calls[I];
      if (CS.Args.empty())
        continue;
      Optional<uint32_t> Def = C.findDef(CS.Kernel);
      const std::vector<KernelParam> *Params =
          Def ? &C.Defs[*Def].Params : nullptr;
      for (size_t A = 0; A < CS.Args.size(); ++A) {
        const CallArg &Arg = CS.Args[A];
        bool Written = Arg.Out || (Params && A < Params->size() &&
                                   (*Params)[A].writes());
        if (!Arg.Buffer.empty() && Written)
          WrittenBy.try_emplace(Arg.Buffer, I);
      }
    }

    // Which rows run which nodes, to give post-grad nodes only to a row's
    // only node.
    std::map<uint32_t, unsigned> NodesOfRow;
    for (SchedulerNode &N : S->Nodes) {
      if (N.Parent)
        continue;
      std::vector<std::string> Writes = S->writtenBuffers(N);
      auto Writes_ = [&](StringRef B) { return is_contained(Writes, B); };
      Optional<uint32_t> Call;
      std::string By;
      if (!N.ExternKernel.empty()) {
        std::vector<uint32_t> Named;
        for (uint32_t I = 0; I < C.Calls.size(); ++I)
          if (C.Calls[I].Kernel == N.ExternKernel)
            Named.push_back(I);
        for (uint32_t I : Named)
          if (any_of(C.Calls[I].Args,
                     [&](const CallArg &A) { return Writes_(A.Buffer); })) {
            Call = I;
            By = "extern kernel writing " + llvm::join(Writes, ", ");
            break;
          }
        if (!Call && Named.size() == 1) {
          Call = Named.front();
          By = "the only call of the extern kernel";
        }
      } else {
        // The first call, in line order, that writes one of the buffers.
        for (const std::string &B : Writes) {
          auto It = WrittenBy.find(B);
          if (It == WrittenBy.end())
            continue;
          if (!Call || It->second < *Call) {
            Call = It->second;
            By = "call writing " + B;
          }
        }
      }
      if (!Call)
        continue;
      auto It = RowOfLine.find(C.Calls[*Call].Line);
      if (It == RowOfLine.end())
        continue;
      N.Kernel = It->second;
      N.KernelBy = By;
      ++NodesOfRow[It->second];
    }

    for (SchedulerNode &N : S->Nodes) {
      if (!N.Kernel || NodesOfRow[*N.Kernel] != 1 || !U.PostGrad)
        continue;
      uint8_t Conf = 100;
      Optional<EdgeOrigin> Weakest;
      for (const Edge &E : U.Edges) {
        if (E.To.Kind != Endpoint::KernelRow || E.To.Index != *N.Kernel ||
            E.From.Kind != Endpoint::PostNode)
          continue;
        if (!is_contained(N.PostNodes, E.From.Index))
          N.PostNodes.push_back(E.From.Index);
        if (!Weakest || E.Confidence < Conf) {
          Conf = E.Confidence;
          Weakest = E.Origin;
        }
      }
      if (!Weakest)
        continue;
      llvm::sort(N.PostNodes);
      N.PostNodesBy = ("the kernel's " + edgeOriginName(*Weakest) + " edges")
                          .str();
      N.PostNodesConfidence = Conf;
    }
  }
};

} // namespace

std::unique_ptr<Pass> createLinkSchedulerIRPass() {
  return std::make_unique<LinkSchedulerIRPass>();
}

} // namespace tlp
