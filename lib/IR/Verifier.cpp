//===- Verifier.cpp - IR invariant checks ---------------------------------===//

#include "tlp/IR/Verifier.h"
#include "tlp/IR/InductorNames.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace tlp {

bool lineNamesKernel(StringRef Line, StringRef Name) {
  if (findToken(Line, Name) != StringRef::npos)
    return true;
  // AOT Triton launches go through `call_<name>(` wrappers.
  if (findToken(Line, aotiLaunchWrapper(Name)) != StringRef::npos)
    return true;
  // An AOTInductor custom op (`aoti_torch_cpu_scale_rows`) is called
  // through the proxy executor.
  return isAOTIShimName(Name) &&
         findToken(Line, AOTIProxyExecutorCall) != StringRef::npos;
}

namespace {

class VerifierImpl {
public:
  explicit VerifierImpl(const Module &M) : M(M) {}

  Error runUnit(const CompileUnit &U) {
    checkUnit(U);
    return result();
  }

  Error run() {
    checkCompiles();
    for (size_t I = 0; I < M.Artifacts.size(); ++I)
      checkArtifact(*M.Artifacts[I], "artifact " + std::to_string(I));
    for (size_t I = 0; I < M.Units.size(); ++I) {
      const CompileUnit &U = *M.Units[I];
      checkUnit(U);
      if (I > 0 && !(M.Units[I - 1]->Key < U.Key))
        fail("unit " + U.Key.slug(),
             "units are not sorted by key or a key is repeated (after '" +
                 M.Units[I - 1]->Key.slug() + "')");
    }
    return result();
  }

  Error result() {
    if (Problems.empty())
      return Error::success();
    std::string Msg;
    for (size_t I = 0; I < Problems.size(); ++I) {
      if (I)
        Msg += "\n";
      Msg += Problems[I];
    }
    return createStringError(inconvertibleErrorCode(), Msg);
  }

private:
  const Module &M;
  std::vector<std::string> Problems;

  void fail(const std::string &Where, const Twine &What) {
    // Bound the report; one broken invariant tends to repeat.
    if (Problems.size() == 50)
      Problems.push_back("... more problems not shown");
    if (Problems.size() > 50)
      return;
    Problems.push_back(Where + ": " + What.str());
  }

  void checkRaw(const RawEvent &E, const std::string &W) {
    std::string Where = W + ": raw event '" + E.Name.str() + "'";
    if (E.Name.empty())
      fail(W, "raw event has no name");
    if (E.Log >= M.Logs.size())
      fail(Where, "log index " + Twine(E.Log) + " is out of range");
    if (E.Line == 0)
      fail(Where, "log line is 0");
  }

  void checkCompiles() {
    for (const RawEvent &E : M.Raw)
      checkRaw(E, "module");
    for (size_t I = 0; I < M.Compiles.size(); ++I) {
      const CompileRecord &R = M.Compiles[I];
      std::string W = "compile " + R.displayName();
      if (R.Log >= M.Logs.size())
        fail(W, "log index " + Twine(R.Log) + " is out of range");
      if (R.Line == 0)
        fail(W, "log line is 0");
      if (R.Id && !R.Id->isValid())
        fail(W, "compile id has neither a frame nor a compiled-autograd id");
      if (I > 0 && !(M.Compiles[I - 1] < R))
        fail(W, "compile records are not sorted or a key is repeated");
      if (R.Status == CompileStatus::Failure && R.FailType.empty())
        fail(W, "status is failure but there is no fail_type");
      if (R.Status != CompileStatus::Failure && !R.FailType.empty())
        fail(W, "has a fail_type but status " + compileStatusName(R.Status));
      if (R.Status == CompileStatus::Success && R.Metrics.empty())
        fail(W, "status is success but there are no metrics");
      if (!R.Id && R.Status != CompileStatus::Unknown)
        fail(W, "events outside any compile have a status");
      for (const BreakReason &B : R.Breaks)
        if (B.Count == 0 || (B.Where && B.Where->Line == 0))
          fail(W, "break reason '" + B.Reason.substr(0, 40) +
                      "' has count 0 or line 0");
      for (const Span &S : R.Spans) {
        if (S.Phase != 'X' && S.Phase != 'i' && S.Phase != 'B')
          fail(W, "span '" + S.Name + "' has phase '" + StringRef(&S.Phase, 1) +
                      "' (expected X, i or B)");
        if (S.Duration < 0 || (S.Phase != 'X' && S.Duration != 0))
          fail(W, "span '" + S.Name + "' has a bad duration " +
                      Twine(S.Duration));
        if (S.Line == 0)
          fail(W, "span '" + S.Name + "' has log line 0");
      }
      for (const CacheLookup &C : R.Caches) {
        if (C.Line == 0)
          fail(W, "cache lookup has log line 0");
        for (uint32_t I : C.Components)
          if (I >= M.KeyComponents.size())
            fail(W, "cache lookup component " + Twine(I) + " is out of range");
      }
      for (size_t J = 0; J < R.Metrics.size(); ++J)
        for (size_t K = 0; K < J; ++K)
          if (R.Metrics[K].first == R.Metrics[J].first)
            fail(W, "metric '" + R.Metrics[J].first + "' is repeated");
      for (const ShapeEvent &E : R.Shapes)
        if (E.Line == 0)
          fail(W, "symbolic shape event has log line 0");
      for (const RawEvent &E : R.Raw)
        checkRaw(E, W);
      for (const auto *List : {&R.Schedules, &R.Runtimes, &R.Executions})
        for (const RuntimeRecord &E : *List)
          if (E.Line == 0)
            fail(W, "runtime record has log line 0");
      for (const ExportEvent &E : R.Exports)
        if (E.Line == 0)
          fail(W, "export event has log line 0");
      for (const auto &C : R.Configs)
        if (C.second >= M.ConfigTexts.size())
          fail(W, "config '" + C.first + "' text " + Twine(C.second) +
                      " is out of range");
    }
  }

  void checkHeader(const Artifact &A, const std::string &Where) {
    if (A.Log >= M.Logs.size())
      fail(Where, "log index " + Twine(A.Log) + " is out of range");
    if (A.Line == 0)
      fail(Where, "log line is 0");
    if (A.Id && !A.Id->isValid())
      fail(Where, "compile id has neither a frame nor a compiled-autograd id");
  }

  void checkArtifact(const Artifact &A, const std::string &Where,
                     const CompileUnit *U = nullptr) {
    checkHeader(A, Where);
    if (!A.isLoaded())
      return; // nothing of the payload to check yet
    if (const auto *G = dyn_cast<GraphArtifact>(&A))
      checkGraph(*G, Where, U);
    else if (const auto *C = dyn_cast<CodeArtifact>(&A))
      checkCode(*C, Where);
    else if (const auto *S = dyn_cast<SchedulerIRArtifact>(&A))
      checkSchedulerIR(*S, Where, U);
  }

  /// Sub-nodes and parents agree, and the links name a kernel row,
  /// post-grad nodes and pre-fusion nodes of the unit.
  void checkSchedulerIR(const SchedulerIRArtifact &S, const std::string &Where,
                        const CompileUnit *U) {
    size_t N = S.Nodes.size();
    for (size_t I = 0; I < N; ++I) {
      const SchedulerNode &Node = S.Nodes[I];
      std::string W = Where + ": scheduler node '" + Node.Name + "'";
      if (Node.Name.empty())
        fail(W, "has no name");
      if (Node.Line == 0 || (Node.EndLine && Node.EndLine < Node.Line))
        fail(W, "line range is invalid");
      if (Node.Parent &&
          (*Node.Parent >= N ||
           !llvm::is_contained(S.Nodes[*Node.Parent].SubNodes, I)))
        fail(W, "parent does not list it as a sub-node");
      for (uint32_t J : Node.SubNodes)
        if (J >= N || S.Nodes[J].Parent != Optional<uint32_t>(I))
          fail(W, "sub-node " + Twine(J) + " is out of range or has "
                  "another parent");
      if (!U)
        continue;
      if (Node.Kernel && *Node.Kernel >= U->Kernels.size())
        fail(W, "kernel row " + Twine(*Node.Kernel) + " is out of range");
      for (uint32_t P : Node.PostNodes)
        if (!U->PostGrad || P >= U->PostGrad->Nodes.size())
          fail(W, "post-grad node " + Twine(P) + " is out of range");
      for (uint32_t P : Node.PreFusionNodes)
        if (!U->PreFusion || P >= U->PreFusion->Nodes.size())
          fail(W, "pre-fusion node " + Twine(P) + " is out of range");
      if (!Node.PostNodes.empty() && !Node.PostNodesUnknown.empty())
        fail(W, "has post-grad nodes and says why they are unknown");
    }
  }

  void checkGraph(const GraphArtifact &G, const std::string &Where,
                  const CompileUnit *U) {
    unsigned N = G.lines().size();
    for (size_t I = 0; I < G.Nodes.size(); ++I) {
      const Node &Nd = G.Nodes[I];
      std::string W = Where + ": node '" + Nd.Name + "'";
      if (Nd.Name.empty())
        fail(W, "has no name");
      if (Nd.Line == 0 || Nd.Line > N) {
        fail(W, "line " + Twine(Nd.Line) + " is outside the graph text (" +
                    Twine(N) + " lines)");
        continue;
      }
      StringRef Text = G.lines().line(G.Text, Nd.Line);
      // Output nodes are named 'output' but their line says 'return'.
      if (Nd.Op != NodeOp::Output &&
          findToken(Text, Nd.Name) == StringRef::npos)
        fail(W, "line " + Twine(Nd.Line) + " does not name the node");
      if (Nd.CommentLine) {
        if (Nd.CommentLine > N ||
            !trimWS(G.lines().line(G.Text, Nd.CommentLine)).startswith("#"))
          fail(W,
               "comment line " + Twine(Nd.CommentLine) + " is not a comment");
      }
      if (Nd.Source && (!U || *Nd.Source >= U->Sources.size()))
        fail(W, "source index " + Twine(*Nd.Source) + " is out of range");
      for (uint32_t J : Nd.Inputs) {
        if (J >= G.Nodes.size())
          fail(W, "input #" + Twine(J) + " is not a node of the graph");
        else if (J == I)
          fail(W, "uses itself as an input");
        else if (G.Nodes[J].Scope != Nd.Scope)
          fail(W, "input '" + G.Nodes[J].qualifiedName() +
                      "' is in another scope");
      }
    }
  }

  void checkCode(const CodeArtifact &C, const std::string &Where) {
    unsigned N = C.lines().size();
    if (C.EntryBegin > C.EntryEnd || C.EntryEnd > N)
      fail(Where, "entry function lines " + Twine(C.EntryBegin) + "-" +
                      Twine(C.EntryEnd) + " are outside the code");
    for (const KernelDef &D : C.Defs) {
      std::string W = Where + ": definition of '" + D.Name + "'";
      if (D.Begin == 0 || D.Begin > D.End || D.End > N) {
        fail(W, "lines " + Twine(D.Begin) + "-" + Twine(D.End) +
                    " are outside the code");
        continue;
      }
      if (!C.lines().line(C.Text, D.Begin).contains(D.Name))
        fail(W, "line " + Twine(D.Begin) + " does not name the kernel");
      if (D.HeaderBegin > D.Begin)
        fail(W, "header starts after the definition");
      for (size_t I = 0; I < D.Params.size(); ++I)
        for (size_t J = 0; J < I; ++J)
          if (!D.Params[I].Name.empty() &&
              D.Params[I].Name == D.Params[J].Name) {
            fail(W, "parameter '" + D.Params[I].Name + "' appears twice");
            break;
          }
    }
    uint32_t PrevAssign = 0;
    for (const BufferAssign &A : C.Assigns) {
      std::string W = Where + ": assignment of '" + A.Buffer + "'";
      if (A.Line <= C.EntryBegin || A.Line > C.EntryEnd) {
        fail(W, "line " + Twine(A.Line) + " is outside the entry function");
        continue;
      }
      if (A.Line <= PrevAssign)
        fail(W, "buffer assignments are not in line order");
      PrevAssign = A.Line;
      // Python `bufA = ...`; C++ `auto bufA = ...` or
      // `RAIIAtenTensorHandle bufA(...)`.
      StringRef AL = C.lines().line(C.Text, A.Line).trim();
      bool Assigns =
          C.Lang == Language::Cpp
              ? AL.startswith("auto " + A.Buffer + " = ") ||
                    AL.startswith("RAIIAtenTensorHandle " + A.Buffer + "(")
              : AL.startswith(A.Buffer + " = ");
      if (!Assigns)
        fail(W, "line " + Twine(A.Line) + " does not assign '" + A.Buffer +
                    "'");
    }
    uint32_t Prev = 0;
    for (const CallSite &S : C.Calls) {
      std::string W = Where + ": call of '" + S.Kernel + "'";
      if (S.Line == 0 || S.Line > N) {
        fail(W, "line " + Twine(S.Line) + " is outside the code");
        continue;
      }
      if (S.Line < Prev)
        fail(W, "call sites are not in line order");
      Prev = S.Line;
      if (!lineNamesKernel(C.lines().line(C.Text, S.Line), S.Kernel))
        fail(W, "line " + Twine(S.Line) + " does not name the kernel");
      if (S.HandleLine && (S.HandleLine >= S.Line ||
                           !C.lines()
                                .line(C.Text, S.HandleLine)
                                .contains("[Provenance debug handles]")))
        fail(W, "handle line " + Twine(S.HandleLine) +
                    " is not a debug handle comment before the call");
      if (S.TopoLine &&
          (S.TopoLine >= S.Line || !C.lines()
                                        .line(C.Text, S.TopoLine)
                                        .contains("Topologically Sorted")))
        fail(W, "topo line " + Twine(S.TopoLine) +
                    " is not a 'Topologically Sorted' comment before the call");
    }
  }

  void checkUnit(const CompileUnit &U) {
    std::string Where = "unit " + U.Key.slug();
    if (U.Key.Log >= M.Logs.size())
      fail(Where, "log index " + Twine(U.Key.Log) + " is out of range");
    if (U.Key.Id && !U.Key.Id->isValid())
      fail(Where, "compile id is invalid");
    // Units link to their compile record by key (IR without records, as
    // written before records existed, has none to link to).
    if (U.Key.Id && !M.Compiles.empty() && !M.findCompile(U.Key))
      fail(Where, "has no compile record");
    U.forEachArtifact([&](UnitSlot S, const Artifact &A) {
      checkArtifact(A, Where + ": " + unitSlotRole(S).str(), &U);
    });

    // (line, kernel) of every call site, sorted: each call line of the
    // kernel table is one binary search (a scan of the calls for each made
    // 200,000 launches take minutes).
    std::vector<std::pair<uint32_t, StringRef>> Sites;
    if (U.Code && U.Code->isLoaded()) {
      Sites.reserve(U.Code->Calls.size());
      for (const CallSite &S : U.Code->Calls)
        Sites.emplace_back(S.Line, S.Kernel);
      llvm::sort(Sites);
    }
    StringSet<> Keys;
    for (const Kernel &K : U.Kernels) {
      std::string W = Where + ": kernel '" + K.key() + "'";
      if (!Keys.insert(K.key()).second)
        fail(W, "appears twice in the kernel table");
      if (!std::is_sorted(K.CallLines.begin(), K.CallLines.end()))
        fail(W, "call lines are not sorted");
      if (!K.CallLines.empty() && !U.Code)
        fail(W, "has call lines but the unit has no code");
      if (U.Code && U.Code->isLoaded())
        for (uint32_t L : K.CallLines) {
          bool Found = std::binary_search(
              Sites.begin(), Sites.end(), std::make_pair(L, StringRef(K.Name)));
          if (!Found)
            fail(W,
                 "call line " + Twine(L) + " is not a call site of the kernel");
        }
      if (K.Def && (!U.Code || *K.Def >= U.Code->Defs.size() ||
                    U.Code->Defs[*K.Def].Name != K.Name))
        fail(W, "definition index does not name a definition of the kernel");
      if (K.KernelCodeDef &&
          (!U.KernelCode || *K.KernelCodeDef >= U.KernelCode->Defs.size() ||
           U.KernelCode->Defs[*K.KernelCodeDef].Name != K.Name))
        fail(W, "kernel-code definition index does not name the kernel");
    }
    for (const SourceLoc &S : U.Sources) {
      if (S.Line == 0)
        fail(Where, "source '" + S.File + "' has line 0");
      if ((S.SpanBegin || S.SpanEnd) &&
          (!S.hasSpan() || S.SpanEnd > S.Code.size()))
        fail(Where, "source '" + S.File + ":" + std::to_string(S.Line) +
                        "' has a span outside its code");
    }

    for (size_t I = 0; I < U.Edges.size(); ++I) {
      const Edge &E = U.Edges[I];
      std::string W = Where + ": edge " + std::to_string(I);
      if (!validEndpoint(U, E.From) || !validEndpoint(U, E.To)) {
        fail(W, "has an endpoint out of range");
        continue;
      }
      bool OK =
          (E.From.Kind == Endpoint::PreNode &&
           (E.To.Kind == Endpoint::PostNode ||
            E.To.Kind == Endpoint::KernelRow)) ||
          (E.From.Kind == Endpoint::PostNode &&
           E.To.Kind == Endpoint::KernelRow) ||
          (E.From.Kind == Endpoint::KernelRow && E.To.Kind == Endpoint::Source);
      if (!OK)
        fail(W, "joins " + U.endpointName(E.From) + " to " +
                    U.endpointName(E.To) + ", which is not an allowed edge");
      if (I > 0 && !(U.Edges[I - 1] < E))
        fail(W, "edges are not sorted or repeat");
    }
  }

  static bool validEndpoint(const CompileUnit &U, const Endpoint &E) {
    switch (E.Kind) {
    case Endpoint::PreNode:
    case Endpoint::PostNode: {
      const GraphArtifact *G = U.graphFor(E.Kind);
      return G && E.Index < G->Nodes.size();
    }
    case Endpoint::KernelRow:
      return E.Index < U.Kernels.size();
    case Endpoint::Source:
      return E.Index < U.Sources.size();
    }
    return false;
  }
};

} // namespace

Error verifyModule(const Module &M) { return VerifierImpl(M).run(); }

Error verifyUnit(const Module &M, const CompileUnit &U) {
  return VerifierImpl(M).runUnit(U);
}

} // namespace tlp
