//===- AttributeSource.cpp - User source lines for nodes and kernels ------===//
//
// Nodes: the `# File: path:line in fn, code: text` comment that governs a
// node in its FX graph, as the FX parser read it
// (GraphArtifact::fileComment()). Kernels: the frames of
// inductor_provenance_tracking_kernel_stack_traces, as kernel -> source
// edges with origin stack-trace, the user's frames only when the trace has
// any (isUserFile). Sources are collected in a unit-wide table
// in a fixed order (pre-grad nodes, post-grad nodes, stack frames), so
// rerunning the pass gives the same indices.
//
//===----------------------------------------------------------------------===//

#include "tlp/IR/CompileRecord.h"
#include "tlp/IR/Module.h"
#include "tlp/IR/SourceInfo.h"
#include "tlp/Passes/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <map>

using namespace llvm;

namespace tlp {

namespace {

class SourceTable {
public:
  explicit SourceTable(CompileUnit &U) : U(U) { U.Sources.clear(); }
  uint32_t add(const SourceLoc &S) {
    auto It = Index.find(S);
    if (It != Index.end())
      return It->second;
    uint32_t I = U.Sources.size();
    U.Sources.push_back(S);
    Index.emplace(S, I);
    return I;
  }

private:
  CompileUnit &U;
  std::map<SourceLoc, uint32_t> Index;
};

class AttributeSourcePass : public UnitPass {
public:
  StringRef getName() const override { return "attribute-source"; }

  void runOnUnit(const Module &M, CompileUnit &U,
                 DiagnosticEngine &D) override {
    attribute(M, U, D);
  }

private:
  static void attribute(const Module &M, CompileUnit &U, DiagnosticEngine &D) {
    // Edges into the table are rebuilt below; the table itself is rebuilt
    // in the same order, so FX-comment edges from link-provenance keep
    // pointing at the same entries.
    U.removeEdges(EdgeOrigin::StackTrace);
    SourceTable Table(U);
    for (GraphArtifact *G : {U.PreGrad.get(), U.PostGrad.get()}) {
      if (!G)
        continue;
      DenseMap<uint32_t, Optional<uint32_t>> ByComment;
      for (Node &N : G->Nodes) {
        N.Source = None;
        if (!N.CommentLine)
          continue;
        auto It = ByComment.find(N.CommentLine);
        if (It == ByComment.end()) {
          Optional<uint32_t> Idx;
          if (Optional<SourceLoc> S = G->fileComment(N.CommentLine))
            Idx = Table.add(*S);
          It = ByComment.try_emplace(N.CommentLine, Idx).first;
        }
        N.Source = It->second;
      }
    }
    if (!U.StackTraces)
      return;
    unsigned Empty = 0;
    KernelKeyIndex Kernels(U);
    // Torch's own directory, from the compile's stack when the trace has
    // no Dynamo frame (a torch run from a source checkout).
    std::string CompileRoot;
    if (const CompileRecord *R = M.findCompile(U))
      CompileRoot = torchRootOf(R->Stack.vec());
    for (auto &KV : U.StackTraces->Traces) {
      Optional<uint32_t> Row = Kernels.find(KV.first);
      if (!Row)
        continue; // resolve-debug-handles makes a row for every key
      for (const std::string &Trace : KV.second) {
        std::vector<SourceLoc> Frames = parseStackTrace(Trace);
        if (Frames.empty())
          ++Empty;
        // A trace holds the whole stack: the user's lines and, between
        // them, torch's (torch.func's vmap and grad, functional_call,
        // autograd.Function's apply). The user's lines are the kernel's
        // sources; a trace with none (an optimizer's step, torch's code
        // compiled) keeps every frame.
        std::string Root = torchRootOf(Frames);
        if (Root.empty())
          Root = CompileRoot;
        std::vector<SourceLoc> User;
        for (SourceLoc &F : Frames)
          if (isUserFile(F.File, Root))
            User.push_back(std::move(F));
        if (!User.empty())
          Frames = std::move(User);
        for (const SourceLoc &F : Frames) {
          Edge E;
          E.From = Endpoint{Endpoint::KernelRow, *Row};
          E.To = Endpoint{Endpoint::Source, Table.add(F)};
          E.Origin = EdgeOrigin::StackTrace;
          U.Edges.push_back(E);
        }
      }
    }
    if (Empty)
      D.warning(M.logName(U.Key.Log), U.StackTraces->Line,
                Twine(Empty) + " kernel stack traces have no 'File \"...\", "
                               "line N' frame");
    U.canonicalizeEdges();
  }
};

} // namespace

std::unique_ptr<Pass> createAttributeSourcePass() {
  return std::make_unique<AttributeSourcePass>();
}

} // namespace tlp
