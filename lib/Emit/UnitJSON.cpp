//===- UnitJSON.cpp - The one JSON serialisation of a unit ----------------===//
//
// unitJSON(): the unit of docs/json.md. unitPageJSON(): its projection for
// the HTML page (docs/html.md). Keys keep a fixed order.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/UnitJSON.h"
#include "EmitSupport.h"
#include "HTMLDashboard.h"

#include "tlp/Analysis/NameMatch.h"
#include "tlp/Analysis/PassTimeline.h"
#include "tlp/Support/StringUtils.h"
#include "tlp/IR/InductorNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;
using ojson = nlohmann::ordered_json;

namespace tlp {

ojson sourceJSON(const SourceLoc &S) {
  ojson J = ojson::object();
  J["file"] = S.File;
  J["line"] = S.Line;
  J["function"] = S.Function;
  J["code"] = S.Code;
  // Only when the trace underlined part of the line: a span PyTorch did
  // not log is not given.
  if (S.hasSpan()) {
    J["span"] = ojson::array({S.SpanBegin, S.SpanEnd});
    J["underlined"] = S.underlined().str();
  }
  return J;
}

namespace {

ojson optInt(const Optional<int64_t> &V) {
  return V ? ojson(*V) : ojson(nullptr);
}

ojson range(uint32_t B, uint32_t E) { return ojson::array({B, E}); }

ojson indices(const std::vector<uint32_t> &V) {
  ojson A = ojson::array();
  for (uint32_t I : V)
    A.push_back(I);
  return A;
}

//===----------------------------------------------------------------------===//
// The JSON output's unit
//===----------------------------------------------------------------------===//

ojson artifactRef(const Artifact *A) {
  if (!A)
    return nullptr;
  ojson J = ojson::object();
  J["name"] = A->Name;
  J["line"] = A->Line;
  return J;
}

ojson codeJSON(const CodeArtifact *C) {
  if (!C)
    return nullptr;
  ojson J = ojson::object();
  J["language"] = languageName(C->Lang).str();
  J["lines"] = C->lines().size();
  if (C->EntryBegin)
    J["entry"] = {C->EntryBegin, C->EntryEnd};
  else
    J["entry"] = nullptr;
  return J;
}

ojson nodesJSON(const UnitView &V, const GraphArtifact *G, bool Pre) {
  ojson Arr = ojson::array();
  if (!G)
    return Arr;
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  const GraphArtifact *Other = Pre ? U.PostGrad.get() : U.PreGrad.get();
  for (uint32_t I = 0; I < G->Nodes.size(); ++I) {
    const Node &N = G->Nodes[I];
    ojson J = ojson::object();
    J["name"] = N.Name;
    J["line"] = N.Line;
    J["op"] = nodeOpName(N.Op).str();
    J["target"] = N.Target;
    J["type"] = N.Type;
    Optional<uint32_t> S = V.sourceOf(N);
    J["source"] = S ? sourceJSON(U.Sources[*S]) : ojson(nullptr);
    if (!N.Scope.empty())
      J["scope"] = N.Scope;
    ojson Linked = ojson::array();
    if (Other)
      for (uint32_t O : Pre ? P.postOfPre(I) : P.preOfPost(I))
        Linked.push_back(Other->Nodes[O].Name);
    J[Pre ? "post_nodes" : "pre_nodes"] = std::move(Linked);
    ojson Kernels = ojson::array();
    for (uint32_t K : Pre ? P.kernelsOfPre(I) : P.kernelsOfPost(I))
      Kernels.push_back(V.kernel(K).Key);
    J["kernels"] = std::move(Kernels);
    Arr.push_back(std::move(J));
  }
  return Arr;
}

ojson kernelsJSON(const UnitView &V) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  ojson Arr = ojson::array();
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    const UnitView::KernelFacts &F = V.kernel(R);
    ojson J = ojson::object();
    J["name"] = K.Name;
    J["kind"] = kernelKindName(K.Kind).str();
    J["handle"] = K.Handle ? ojson(*K.Handle) : ojson(nullptr);
    J["key"] = F.Key;
    J["call_lines"] = K.CallLines;
    J["def_lines"] = F.Def ? range(F.Def->Begin, F.Def->End) : ojson(nullptr);
    J["kernel_code_lines"] =
        F.KernelCodeDef ? range(F.KernelCodeDef->Begin, F.KernelCodeDef->End)
                        : ojson(nullptr);
    ojson Post = ojson::array(), Pre = ojson::array(), Src = ojson::array();
    if (U.PostGrad)
      for (uint32_t Q : P.postOfKernel(R))
        Post.push_back(U.PostGrad->Nodes[Q].Name);
    if (U.PreGrad)
      for (uint32_t Q : P.preOfKernel(R))
        Pre.push_back(U.PreGrad->Nodes[Q].Name);
    const auto &Sources = P.sourcesOfKernel(R);
    const auto &Origins = P.sourceOriginsOfKernel(R);
    for (size_t I = 0; I < Sources.size(); ++I) {
      ojson S = sourceJSON(U.Sources[Sources[I]]);
      S["origin"] = edgeOriginName(Origins[I]).str();
      Src.push_back(std::move(S));
    }
    J["post_nodes"] = std::move(Post);
    J["pre_nodes"] = std::move(Pre);
    J["source"] = std::move(Src);
    J["in_mapping"] = K.InMapping;
    ojson Info = nullptr;
    if (F.Info) {
      Info = ojson::parse(F.Info->Info, nullptr, /*allow_exceptions=*/false);
      if (Info.is_discarded())
        Info = F.Info->Info; // Python-only tokens such as NaN: keep the text
    }
    J["info"] = std::move(Info);
    Arr.push_back(std::move(J));
  }
  return Arr;
}

ojson coverageJSON(const UnitCoverage &C) {
  auto One = [](const CoverageCount &N) {
    ojson J = ojson::object();
    J["linked"] = N.Linked;
    J["total"] = N.Total;
    return J;
  };
  ojson J = ojson::object();
  J["pre_grad"] = One(C.Pre);
  J["post_grad"] = One(C.Post);
  J["kernels"] = One(C.Kernels);
  return J;
}

//===----------------------------------------------------------------------===//
// The HTML page's projection
//===----------------------------------------------------------------------===//

/// The names of the unit's ops, for the page's filter: one list of
/// targetAliases() per distinct target of a computing node (the same names
/// tlp-emit --node answers to), and each target's index.
struct OpNames {
  ojson Lists = ojson::array();
  StringMap<int64_t> Index;
  int64_t of(const Node &N) {
    if (N.Target.empty() || !(N.Op == NodeOp::CallFunction ||
                              N.Op == NodeOp::CallMethod ||
                              N.Op == NodeOp::CallModule))
      return -1;
    auto [It, New] = Index.try_emplace(N.Target, int64_t(Lists.size()));
    if (New) {
      ojson A = ojson::array();
      for (std::string &S : targetAliases(N.Target))
        A.push_back(std::move(S));
      Lists.push_back(std::move(A));
    }
    return It->second;
  }
};

/// A graph panel's data: its text and nodes. A node is an array, [name,
/// line, op, source index or -1, counterparts in the other graph, kernels
/// (indices), index of its op's names in the unit's "ops" or -1], then its
/// scope if nested: the JSON's node object with names as indices. Targets
/// and types are left to the node's line of text, which shows them: graphs
/// of 20,000 nodes must load fast, and load time follows the page's size.
ojson graphPage(const UnitView &V, const GraphArtifact *G, bool Pre,
                OpNames &Ops) {
  if (!G)
    return nullptr;
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  ojson J = ojson::object();
  J["artifact"] = G->Name;
  J["log_line"] = G->Line;
  ojson Nodes = ojson::array();
  bool HasOther = Pre ? U.PostGrad != nullptr : U.PreGrad != nullptr;
  for (uint32_t I = 0; I < G->Nodes.size(); ++I) {
    const Node &N = G->Nodes[I];
    ojson O = ojson::array();
    O.push_back(N.Name);
    O.push_back(N.Line);
    O.push_back(nodeOpName(N.Op).str());
    Optional<uint32_t> S = V.sourceOf(N);
    O.push_back(S ? int64_t(*S) : int64_t(-1));
    const std::vector<uint32_t> &Links = Pre ? P.postOfPre(I) : P.preOfPost(I);
    O.push_back(HasOther ? indices(Links) : ojson::array());
    O.push_back(indices(Pre ? P.kernelsOfPre(I) : P.kernelsOfPost(I)));
    O.push_back(Ops.of(N));
    if (!N.Scope.empty())
      O.push_back(N.Scope);
    Nodes.push_back(std::move(O));
  }
  J["nodes"] = std::move(Nodes);
  // The post-grad graph's data flow, for the fusion graph (fusion.js):
  // each node's inputs (Node::Inputs, node indices).
  if (!Pre) {
    ojson Inputs = ojson::array();
    for (const Node &N : G->Nodes)
      Inputs.push_back(indices(N.Inputs));
    J["inputs"] = std::move(Inputs);
  }
  J["text"] = G->Text;
  return J;
}

ojson codePage(const CodeArtifact *C) {
  if (!C)
    return nullptr;
  ojson J = ojson::object();
  J["artifact"] = C->Name;
  J["log_line"] = C->Line;
  J["language"] = languageName(C->Lang).str();
  J["entry"] =
      C->EntryBegin ? range(C->EntryBegin, C->EntryEnd) : ojson(nullptr);
  J["text"] = C->Text;
  return J;
}

ojson kernelsPage(const UnitView &V) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  ojson Arr = ojson::array();
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    const UnitView::KernelFacts &F = V.kernel(R);
    ojson J = ojson::object();
    J["name"] = K.Name;
    J["key"] = F.Key;
    J["kind"] = kernelKindName(K.Kind).str();
    J["handle"] = K.Handle ? ojson(*K.Handle) : ojson(nullptr);
    J["calls"] = indices(K.CallLines);
    // The page selects the comment block above a definition too.
    if (const KernelDef *D = F.Def) {
      J["def"] = range(D->HeaderBegin ? D->HeaderBegin : D->Begin, D->End);
      J["def_begin"] = D->Begin;
    }
    if (const KernelDef *D = F.KernelCodeDef) {
      J["kernel_def"] =
          range(D->HeaderBegin ? D->HeaderBegin : D->Begin, D->End);
      J["kernel_def_begin"] = D->Begin;
    }
    J["post"] = indices(P.postOfKernel(R));
    J["pre"] = indices(P.preOfKernel(R));
    ojson Src = ojson::array();
    const auto &Sources = P.sourcesOfKernel(R);
    const auto &Origins = P.sourceOriginsOfKernel(R);
    for (size_t I = 0; I < Sources.size(); ++I)
      Src.push_back(
          ojson::array({Sources[I], edgeOriginName(Origins[I]).str()}));
    J["sources"] = std::move(Src);
    J["in_mapping"] = K.InMapping;
    J["info"] = F.Info ? ojson(F.Info->Info) : ojson(nullptr);
    Arr.push_back(std::move(J));
  }
  return Arr;
}

/// What the page lists as not linked: computing nodes that were mapped to
/// nothing, kernels with no node and kernels with no user source.
ojson unlinkedPage(const UnitView &V) {
  ojson J = ojson::object();
  J["pre"] = indices(V.unlinkedPre());
  J["post"] = indices(V.unlinkedPost());
  J["kernels_without_nodes"] = indices(V.kernelsWithoutNodes());
  J["kernels_without_source"] = indices(V.kernelsWithoutSource());
  return J;
}

/// Every edge of the unit with its origin and confidence, grouped: one
/// [origin, confidence, [from kind, from index, to kind, to index, ...]]
/// per origin and confidence, kinds as Endpoint::EndpointKind (0 pre,
/// 1 post, 2 kernel, 3 source). Flat, so that a unit of 40,000 edges stays
/// small and fast to parse; the page draws inferred links (confidence
/// under 100) dashed and lists them.
ojson edgesPage(const UnitView &V) {
  const CompileUnit &U = V.unit();
  ojson J = ojson::array();
  for (const UnitView::EdgeGroup &G : V.edgeGroups()) {
    ojson Flat = ojson::array();
    for (uint32_t I : G.Edges) {
      const Edge &E = U.Edges[I];
      for (uint32_t X : {uint32_t(E.From.Kind), E.From.Index,
                         uint32_t(E.To.Kind), E.To.Index})
        Flat.push_back(X);
    }
    J.push_back(ojson::array({edgeOriginName(G.Origin).str(),
                              unsigned(G.Confidence), std::move(Flat)}));
  }
  return J;
}

ojson sourcePage(const SourceLoc &S) {
  return ojson::array({S.File, S.Line, S.Function, S.Code});
}

ojson coveragePage(const UnitCoverage &C) {
  auto One = [](const CoverageCount &N) {
    return ojson::array({N.Linked, N.Total});
  };
  ojson J = ojson::object();
  J["pre_grad"] = One(C.Pre);
  J["post_grad"] = One(C.Post);
  J["kernels"] = One(C.Kernels);
  return J;
}

} // namespace

/// A unit of a restarted attempt holds the graph it logged before the
/// restart, which Dynamo discarded: why, or null.
static ojson discardedJSON(const UnitView &V) {
  const CompileRecord *R = V.compile();
  if (!R || R->Status != CompileStatus::Restart)
    return ojson(nullptr);
  return ojson("discarded: the attempt " + R->restartText() +
               "; a later attempt compiled the frame");
}

/// The pass timeline: each stage with its file, node count and what it
/// changed against the stage before (tlp/Analysis/PassTimeline.h).
static ojson stagesJSON(const UnitView &V) {
  const CompileUnit &U = V.unit();
  ojson A = ojson::array();
  for (const TimelineStep &S : passTimeline(V.module(), U)) {
    const PassStage &PS = U.Stages[S.Stage];
    ojson J = ojson::object();
    J["stage"] = PS.Stage;
    J["file"] = PS.Graph ? ojson(V.module().logName(PS.Graph->Log))
                         : ojson(nullptr);
    J["nodes"] = S.Nodes;
    J["same_text"] = S.SameText;
    J["added"] = S.Added;
    J["removed"] = S.Removed;
    J["changed"] = S.Changed;
    ojson C = ojson::array();
    for (const DigestChange &D : S.Changes)
      C.push_back(ojson::object({{"change", D.Change},
                                 {"node", D.What},
                                 {"detail", D.Detail}}));
    J["changes"] = std::move(C);
    A.push_back(std::move(J));
  }
  return A;
}

/// The files of a depyf dump the unit keeps (without their texts, which
/// the files hold), Dynamo code with its guards.
static ojson filesJSON(const UnitView &V) {
  const Module &M = V.module();
  ojson A = ojson::array();
  for (const UnitFile &F : V.unit().Files) {
    ojson J = ojson::object();
    J["kind"] = unitFileKindName(F.Kind).str();
    J["file"] = M.logName(F.Log);
    J["lines"] = emit::textFileLines(F.Text);
    if (F.Kind == UnitFile::DynamoCode) {
      J["guard_file"] = F.GuardLog ? ojson(M.logName(*F.GuardLog))
                                   : ojson(nullptr);
      ojson G = ojson::array();
      for (const DynamoGuard &DG : F.Guards)
        G.push_back(ojson::object({{"line", DG.Line},
                                   {"code", DG.Code},
                                   {"comment", DG.Comment.empty()
                                                   ? ojson(nullptr)
                                                   : ojson(DG.Comment)}}));
      J["guards"] = std::move(G);
    }
    A.push_back(std::move(J));
  }
  return A;
}

static ojson stringsJSON(ArrayRef<std::string> V) {
  ojson A = ojson::array();
  for (const std::string &X : V)
    A.push_back(X);
  return A;
}

/// The scheduler nodes after fusion (top level), each with the nodes it
/// fused, the buffers it reads and writes, its kernel and post-grad nodes
/// (link-scheduler-ir); null when the unit has no ir_post_fusion.txt.
static ojson schedulerNodesJSON(const UnitView &V) {
  const CompileUnit &U = V.unit();
  const SchedulerIRArtifact *S = U.PostFusion.get();
  if (!S || !S->isLoaded())
    return ojson(nullptr);
  ojson A = ojson::array();
  for (const SchedulerNode &N : S->Nodes) {
    if (N.Parent)
      continue;
    ojson J = ojson::object();
    J["name"] = N.Name;
    J["class"] = N.Class;
    J["line"] = N.Line;
    std::vector<std::string> Fused;
    for (uint32_t I : N.SubNodes)
      if (I < S->Nodes.size())
        Fused.push_back(S->Nodes[I].Name);
    J["fused"] = stringsJSON(Fused);
    J["reads"] = stringsJSON(S->readBuffers(N));
    J["writes"] = stringsJSON(S->writtenBuffers(N));
    ojson Outs = ojson::array();
    for (const SchedulerBuffer &B : N.Outputs) {
      ojson O = ojson::object();
      O["name"] = B.Name;
      O["type"] = B.Type;
      O["layout"] = B.Layout;
      O["users"] = stringsJSON(B.Users);
      Outs.push_back(std::move(O));
    }
    J["outputs"] = std::move(Outs);
    J["extern_kernel"] =
        N.ExternKernel.empty() ? ojson(nullptr) : ojson(N.ExternKernel);
    J["kernel"] = N.Kernel && *N.Kernel < U.Kernels.size()
                      ? ojson(U.Kernels[*N.Kernel].key())
                      : ojson(nullptr);
    J["kernel_by"] = N.KernelBy.empty() ? ojson(nullptr) : ojson(N.KernelBy);
    // The post-grad nodes of a node and how they were found; why not,
    // when the data did not decide.
    auto PostOf = [&](const SchedulerNode &X, ojson &O) {
      std::vector<std::string> Post;
      for (uint32_t P : X.PostNodes)
        if (U.PostGrad && P < U.PostGrad->Nodes.size())
          Post.push_back(U.PostGrad->Nodes[P].Name);
      O["post_grad_nodes"] = stringsJSON(Post);
      O["post_grad_by"] =
          X.PostNodesBy.empty() ? ojson(nullptr) : ojson(X.PostNodesBy);
      O["confidence"] = X.PostNodesBy.empty()
                            ? ojson(nullptr)
                            : ojson(unsigned(X.PostNodesConfidence));
      O["post_grad_unknown"] = X.PostNodesUnknown.empty()
                                   ? ojson(nullptr)
                                   : ojson(X.PostNodesUnknown);
    };
    PostOf(N, J);
    // Each fused node's share of the kernel's post-grad nodes.
    ojson Split = ojson::array();
    for (uint32_t I : N.SubNodes)
      if (I < S->Nodes.size()) {
        ojson O = ojson::object();
        O["name"] = S->Nodes[I].Name;
        PostOf(S->Nodes[I], O);
        Split.push_back(std::move(O));
      }
    J["split"] = std::move(Split);
    std::vector<std::string> Pre;
    for (uint32_t I : N.PreFusionNodes)
      if (U.PreFusion && I < U.PreFusion->Nodes.size())
        Pre.push_back(U.PreFusion->Nodes[I].Name);
    J["pre_fusion"] = U.PreFusion ? stringsJSON(Pre) : ojson(nullptr);
    // A fused node's loop bodies are its sub-nodes'.
    std::vector<std::string> Ops = N.Ops;
    for (uint32_t I : N.SubNodes)
      if (I < S->Nodes.size())
        for (const std::string &Op : S->Nodes[I].Ops)
          if (!is_contained(Ops, Op))
            Ops.push_back(Op);
    J["ops"] = stringsJSON(Ops);
    A.push_back(std::move(J));
  }
  return A;
}

ojson unitJSON(const UnitView &V) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  ojson J = ojson::object();
  J["id"] = V.slug();
  J["name"] = V.displayName();
  J["log"] = V.logName();
  J["rank"] = optInt(U.Key.Rank);
  J["compile_id"] = U.Key.Id ? ojson(V.compileId()) : ojson(nullptr);
  J["graph"] = V.graphName().str();
  J["subgraph"] =
      U.Key.Subgraph.empty() ? ojson(nullptr) : ojson(U.Key.Subgraph);
  // A depyf dump's graph name (`__compiled_fn_1`): not a compile id.
  J["fn"] = U.Key.Fn.empty() ? ojson(nullptr) : ojson(U.Key.Fn);
  J["frame"] = U.Frame ? sourceJSON(*U.Frame) : ojson(nullptr);
  J["compile"] = V.compile() ? ojson(V.compile()->slug()) : ojson(nullptr);
  J["discarded"] = discardedJSON(V);
  ojson A = ojson::object();
  for (unsigned I = 0; I < NumUnitSlots; ++I) {
    UnitSlot S = static_cast<UnitSlot>(I);
    A[unitSlotRole(S).str()] = artifactRef(U.slot(S));
  }
  if (U.Mapping)
    A["mapping"]["version"] =
        U.Mapping->Version ? ojson(*U.Mapping->Version) : ojson(nullptr);
  J["artifacts"] = std::move(A);
  J["pre_grad_nodes"] = nodesJSON(V, U.PreGrad.get(), true);
  J["post_grad_nodes"] = nodesJSON(V, U.PostGrad.get(), false);
  J["code"] = codeJSON(U.Code.get());
  J["kernel_code"] = codeJSON(U.KernelCode.get());
  J["kernels"] = kernelsJSON(V);
  // The unit's user source lines with their kernels (the same answer as
  // the Markdown report, the HTML page and --source).
  ojson Srcs = ojson::array();
  for (uint32_t I = 0; I < U.Sources.size(); ++I) {
    ojson S = sourceJSON(U.Sources[I]);
    ojson Keys = ojson::array();
    for (uint32_t R : P.kernelsOfSource(I))
      Keys.push_back(V.kernel(R).Key);
    S["kernels"] = std::move(Keys);
    Srcs.push_back(std::move(S));
  }
  J["sources"] = std::move(Srcs);
  J["coverage"] = coverageJSON(V.coverage());
  // Every edge with its origin and confidence (inferred edges are under
  // 100; docs/inference.md).
  ojson Edges = ojson::array();
  for (const Edge &E : U.Edges) {
    ojson EJ = ojson::object();
    EJ["from"] = V.endpointText(E.From);
    EJ["to"] = V.endpointText(E.To);
    EJ["origin"] = edgeOriginName(E.Origin).str();
    EJ["confidence"] = unsigned(E.Confidence);
    Edges.push_back(std::move(EJ));
  }
  J["edges"] = std::move(Edges);
  J["stages"] = stagesJSON(V);
  J["files"] = filesJSON(V);
  J["folder"] = U.Key.Folder.empty() ? ojson(nullptr) : ojson(U.Key.Folder);
  J["scheduler_nodes"] = schedulerNodesJSON(V);
  return J;
}

ojson unitPageJSON(const UnitView &V, StringRef Id) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  ojson J = ojson::object();
  J["id"] = Id.str();
  J["name"] = V.displayName();
  J["log"] = V.logName();
  J["rank"] = optInt(U.Key.Rank);
  J["compile_id"] = U.Key.Id ? ojson(V.compileId()) : ojson(nullptr);
  // The anchor of the unit's compile in the dashboard (index.html#...), so
  // that the page links back to its row; the record without a compile id
  // has no row.
  const CompileRecord *R = V.compile();
  J["compile"] = R && R->Id ? ojson(emit::compileAnchor(*R)) : ojson(nullptr);
  // The compile as the dashboard names it ("0/0 #2" when ids repeat).
  J["compile_name"] = R && R->Id ? ojson(R->idName()) : ojson(nullptr);
  // The compile's events shown raw: the slug of its artifacts page
  // (raw-SLUG.html, #raw-SLUG) and how many.
  J["raw"] = R && !R->Raw.empty()
                 ? ojson::array({R->slug(), R->Raw.size()})
                 : ojson(nullptr);
  J["discarded"] = discardedJSON(V);
  // The pass timeline's page (timeline-ID.html, #timeline-ID) and how many
  // stages, when the unit has stages or dump files.
  J["timeline"] = U.Stages.empty() && U.Files.empty()
                      ? ojson(nullptr)
                      : ojson::array({Id.str(), U.Stages.size()});
  J["graph"] = V.graphName().str();
  J["frame"] = U.Frame ? sourcePage(*U.Frame) : ojson(nullptr);
  J["coverage"] = coveragePage(V.coverage());
  // The provenance artifacts the unit has: [role, artifact, log line].
  ojson Prov = ojson::array();
  for (UnitSlot S : {UnitSlot::Mapping, UnitSlot::NodeTree,
                     UnitSlot::KernelNodes, UnitSlot::StackTraces,
                     UnitSlot::KernelInfo})
    if (const Artifact *A = U.slot(S))
      Prov.push_back(ojson::array({unitSlotRole(S).str(), A->Name, A->Line}));
  J["provenance"] = std::move(Prov);
  ojson Sources = ojson::array();
  // [file, line, function, code, kernel rows, span?]: the kernels of the
  // line (or of its call, for an entry with a span) as
  // UnitProvenance::kernelsOfSource says (the Markdown and --source
  // agree); the span, [begin, end) in code, only when the trace had one.
  for (uint32_t I = 0; I < U.Sources.size(); ++I) {
    ojson S = sourcePage(U.Sources[I]);
    S.push_back(P.kernelsOfSource(I));
    if (U.Sources[I].hasSpan())
      S.push_back(ojson::array({U.Sources[I].SpanBegin, U.Sources[I].SpanEnd}));
    Sources.push_back(std::move(S));
  }
  J["sources"] = std::move(Sources);
  OpNames Ops;
  J["pre"] = graphPage(V, U.PreGrad.get(), true, Ops);
  J["post"] = graphPage(V, U.PostGrad.get(), false, Ops);
  J["ops"] = std::move(Ops.Lists);
  J["code"] = codePage(U.Code.get());
  J["kernel_code"] = codePage(U.KernelCode.get());
  J["kernels"] = kernelsPage(V);
  J["unlinked"] = unlinkedPage(V);
  J["edges"] = edgesPage(V);
  // [name, class, fused node names, reads, writes, kernel row or null,
  // how the kernel was found, pre-fusion node names (null: no
  // ir_pre_fusion.txt), [[fused node, post-grad node indices, how or
  // null, why unknown or null]]]: the scheduler nodes after fusion.
  ojson Sched = ojson(nullptr);
  if (const SchedulerIRArtifact *S = U.PostFusion.get()) {
    Sched = ojson::array();
    for (const SchedulerNode &N : S->Nodes) {
      if (N.Parent)
        continue;
      std::vector<std::string> Fused;
      for (uint32_t I : N.SubNodes)
        if (I < S->Nodes.size())
          Fused.push_back(S->Nodes[I].Name);
      ojson Pre = ojson(nullptr);
      if (U.PreFusion) {
        Pre = ojson::array();
        for (uint32_t I : N.PreFusionNodes)
          if (I < U.PreFusion->Nodes.size())
            Pre.push_back(U.PreFusion->Nodes[I].Name);
      }
      ojson Split = ojson::array();
      for (uint32_t I : N.SubNodes) {
        if (I >= S->Nodes.size())
          continue;
        const SchedulerNode &X = S->Nodes[I];
        ojson Post = ojson::array();
        for (uint32_t P : X.PostNodes)
          Post.push_back(P);
        Split.push_back(ojson::array(
            {X.Name, std::move(Post),
             X.PostNodesBy.empty() ? ojson(nullptr) : ojson(X.PostNodesBy),
             X.PostNodesUnknown.empty() ? ojson(nullptr)
                                        : ojson(X.PostNodesUnknown)}));
      }
      Sched.push_back(ojson::array(
          {N.Name, N.Class, stringsJSON(Fused),
           stringsJSON(S->readBuffers(N)), stringsJSON(S->writtenBuffers(N)),
           N.Kernel && *N.Kernel < U.Kernels.size() ? ojson(*N.Kernel)
                                                    : ojson(nullptr),
           N.KernelBy, std::move(Pre), std::move(Split)}));
    }
  }
  J["scheduler"] = std::move(Sched);
  return J;
}

} // namespace tlp
