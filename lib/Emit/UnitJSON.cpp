//===- UnitJSON.cpp - The one JSON serialisation of a unit ----------------===//
//
// unitJSON(): the unit of docs/json.md. unitPageJSON(): its projection for
// the HTML page (docs/html.md). Keys keep a fixed order. Both write
// through a JSONWriter: no DOM is built (issue 24), except for the text a
// kernel's info holds, which is parsed and written again as before.
//
//===----------------------------------------------------------------------===//

#include "tlp/Emit/UnitJSON.h"
#include "EmitSupport.h"
#include "HTMLDashboard.h"

#include "tlp/Analysis/NameMatch.h"
#include "tlp/Analysis/PassTimeline.h"
#include "tlp/IR/InductorNames.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace llvm;
using ojson = nlohmann::ordered_json;

namespace tlp {

namespace {
using Layout = JSONWriter::Layout;
/// On one line in the page's pretty layout (unitPageJSON).
constexpr Layout In = Layout::Inline;
} // namespace

void sourceMembers(JSONWriter &W, const SourceLoc &S) {
  W.attribute("file", S.File);
  W.attribute("line", S.Line);
  W.attribute("function", S.Function);
  W.attribute("code", S.Code);
  // Only when the trace underlined part of the line: a span PyTorch did
  // not log is not given.
  if (S.hasSpan()) {
    W.attributeArray("span", [&] {
      W.value(S.SpanBegin);
      W.value(S.SpanEnd);
    });
    W.attribute("underlined", S.underlined());
  }
}

void sourceJSON(JSONWriter &W, const SourceLoc &S) {
  W.object([&] { sourceMembers(W, S); });
}

ojson sourceJSON(const SourceLoc &S) {
  ojson J = ojson::object();
  J["file"] = S.File;
  J["line"] = S.Line;
  J["function"] = S.Function;
  J["code"] = S.Code;
  if (S.hasSpan()) {
    J["span"] = ojson::array({S.SpanBegin, S.SpanEnd});
    J["underlined"] = S.underlined().str();
  }
  return J;
}

void writeJSON(JSONWriter &W, const ojson &J) {
  switch (J.type()) {
  case ojson::value_t::object:
    W.object([&] {
      for (auto It = J.begin(); It != J.end(); ++It) {
        W.key(It.key());
        writeJSON(W, It.value());
      }
    });
    return;
  case ojson::value_t::array:
    W.array([&] {
      for (const ojson &E : J)
        writeJSON(W, E);
    });
    return;
  case ojson::value_t::string:
    W.value(J.get_ref<const std::string &>());
    return;
  case ojson::value_t::boolean:
    W.value(J.get<bool>());
    return;
  case ojson::value_t::number_integer:
    W.value(J.get<int64_t>());
    return;
  case ojson::value_t::number_unsigned:
    W.value(J.get<uint64_t>());
    return;
  case ojson::value_t::number_float:
    W.value(J.get<double>());
    return;
  case ojson::value_t::null:
    W.null();
    return;
  case ojson::value_t::binary:
  case ojson::value_t::discarded:
    // Neither is made by parsing text; as nlohmann would write them.
    W.rawValue(J.dump());
    return;
  }
}

namespace {

void range(JSONWriter &W, uint32_t B, uint32_t E, Layout L = Layout::Block) {
  W.arrayBegin(L);
  W.value(B);
  W.value(E);
  W.arrayEnd();
}

void indices(JSONWriter &W, ArrayRef<uint32_t> V, Layout L) {
  W.arrayBegin(L);
  for (uint32_t I : V)
    W.value(I);
  W.arrayEnd();
}

void strings(JSONWriter &W, ArrayRef<std::string> V,
             Layout L = Layout::Block) {
  W.arrayBegin(L);
  for (const std::string &X : V)
    W.value(X);
  W.arrayEnd();
}

//===----------------------------------------------------------------------===//
// The JSON output's unit
//===----------------------------------------------------------------------===//

void artifactRef(JSONWriter &W, const Artifact *A,
                 const MappingArtifact *Mapping = nullptr) {
  if (!A && !Mapping)
    return W.null();
  W.object([&] {
    if (A) {
      W.attribute("name", A->Name);
      W.attribute("line", A->Line);
    }
    if (Mapping) {
      W.key("version");
      W.value(Mapping->Version);
    }
  });
}

void codeJSON(JSONWriter &W, const CodeArtifact *C) {
  if (!C)
    return W.null();
  W.object([&] {
    W.attribute("language", languageName(C->Lang));
    W.attribute("lines", C->lines().size());
    W.key("entry");
    if (C->EntryBegin)
      range(W, C->EntryBegin, C->EntryEnd);
    else
      W.null();
  });
}

void nodesJSON(JSONWriter &W, const UnitView &V, const GraphArtifact *G,
               bool Pre) {
  W.arrayBegin();
  if (!G)
    return W.arrayEnd();
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  const GraphArtifact *Other = Pre ? U.PostGrad.get() : U.PreGrad.get();
  for (uint32_t I = 0; I < G->Nodes.size(); ++I) {
    const Node &N = G->Nodes[I];
    W.objectBegin();
    W.attribute("name", N.Name);
    W.attribute("line", N.Line);
    W.attribute("op", nodeOpName(N.Op));
    W.attribute("target", N.Target);
    W.attribute("type", N.Type);
    Optional<uint32_t> S = V.sourceOf(N);
    W.key("source");
    if (S)
      sourceJSON(W, U.Sources[*S]);
    else
      W.null();
    if (!N.Scope.empty())
      W.attribute("scope", N.Scope);
    W.attributeArray(Pre ? "post_nodes" : "pre_nodes", [&] {
      if (Other)
        for (uint32_t O : Pre ? P.postOfPre(I) : P.preOfPost(I))
          W.value(Other->Nodes[O].qualifiedName());
    });
    W.attributeArray("kernels", [&] {
      for (uint32_t K : Pre ? P.kernelsOfPre(I) : P.kernelsOfPost(I))
        W.value(V.kernel(K).Key);
    });
    W.objectEnd();
  }
  W.arrayEnd();
}

void kernelsJSON(JSONWriter &W, const UnitView &V) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  W.arrayBegin();
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    const UnitView::KernelFacts &F = V.kernel(R);
    W.objectBegin();
    W.attribute("name", K.Name);
    W.attribute("kind", kernelKindName(K.Kind));
    W.key("handle");
    W.value(K.Handle);
    W.attribute("key", F.Key);
    W.attribute("call_lines", K.CallLines);
    W.key("def_lines");
    if (F.Def)
      range(W, F.Def->Begin, F.Def->End);
    else
      W.null();
    W.key("kernel_code_lines");
    if (F.KernelCodeDef)
      range(W, F.KernelCodeDef->Begin, F.KernelCodeDef->End);
    else
      W.null();
    W.attributeArray("post_nodes", [&] {
      if (U.PostGrad)
        for (uint32_t Q : P.postOfKernel(R))
          W.value(U.PostGrad->Nodes[Q].qualifiedName());
    });
    W.attributeArray("pre_nodes", [&] {
      if (U.PreGrad)
        for (uint32_t Q : P.preOfKernel(R))
          W.value(U.PreGrad->Nodes[Q].qualifiedName());
    });
    const auto &Sources = P.sourcesOfKernel(R);
    const auto &Origins = P.sourceOriginsOfKernel(R);
    W.attributeArray("source", [&] {
      for (size_t I = 0; I < Sources.size(); ++I)
        W.object([&] {
          sourceMembers(W, U.Sources[Sources[I]]);
          W.attribute("origin", edgeOriginName(Origins[I]));
        });
    });
    W.attribute("in_mapping", K.InMapping);
    W.key("info");
    if (F.Info) {
      ojson Info =
          ojson::parse(F.Info->Info, nullptr, /*allow_exceptions=*/false);
      if (Info.is_discarded())
        W.value(F.Info->Info); // Python-only tokens such as NaN: the text
      else
        writeJSON(W, Info);
    } else {
      W.null();
    }
    W.objectEnd();
  }
  W.arrayEnd();
}

void coverageJSON(JSONWriter &W, const UnitCoverage &C) {
  auto One = [&](StringRef Key, const CoverageCount &N, bool ByName) {
    W.attributeObject(Key, [&] {
      W.attribute("linked", N.Linked);
      W.attribute("total", N.Total);
      if (ByName)
        W.attribute("by_pre_grad_name", N.ByPreGradName);
    });
  };
  W.object([&] {
    One("pre_grad", C.Pre, false);
    One("post_grad", C.Post, true);
    One("kernels", C.Kernels, false);
  });
}

//===----------------------------------------------------------------------===//
// The HTML page's projection
//===----------------------------------------------------------------------===//

/// The names of the unit's ops, for the page's filter: one list of
/// targetAliases() per distinct target of a computing node (the same names
/// tlp-emit --node answers to), and each target's index.
struct OpNames {
  std::vector<std::vector<std::string>> Lists;
  StringMap<int64_t> Index;
  int64_t of(const Node &N) {
    if (N.Target.empty() || !(N.Op == NodeOp::CallFunction ||
                              N.Op == NodeOp::CallMethod ||
                              N.Op == NodeOp::CallModule))
      return -1;
    auto [It, New] = Index.try_emplace(N.Target, int64_t(Lists.size()));
    if (New)
      Lists.push_back(targetAliases(N.Target));
    return It->second;
  }
};

/// A graph panel's data: its text and nodes. A node is an array, [name,
/// line, op, source index or -1, counterparts in the other graph, kernels
/// (indices), index of its op's names in the unit's "ops" or -1], then its
/// scope if nested: the JSON's node object with names as indices. Targets
/// and types are left to the node's line of text, which shows them: graphs
/// of 20,000 nodes must load fast, and load time follows the page's size.
void graphPage(JSONWriter &W, const UnitView &V, const GraphArtifact *G,
               bool Pre, OpNames &Ops) {
  if (!G)
    return W.null();
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  W.objectBegin();
  W.attribute("artifact", G->Name);
  W.attribute("log_line", G->Line);
  bool HasOther = Pre ? U.PostGrad != nullptr : U.PreGrad != nullptr;
  W.attributeArray("nodes", [&] {
    for (uint32_t I = 0; I < G->Nodes.size(); ++I) {
      const Node &N = G->Nodes[I];
      W.arrayBegin(In);
      W.value(N.Name);
      W.value(N.Line);
      W.value(nodeOpName(N.Op));
      Optional<uint32_t> S = V.sourceOf(N);
      W.value(S ? int64_t(*S) : int64_t(-1));
      const std::vector<uint32_t> &Links =
          Pre ? P.postOfPre(I) : P.preOfPost(I);
      indices(W, HasOther ? ArrayRef<uint32_t>(Links) : ArrayRef<uint32_t>(),
              In);
      indices(W, Pre ? P.kernelsOfPre(I) : P.kernelsOfPost(I), In);
      W.value(Ops.of(N));
      if (!N.Scope.empty())
        W.value(N.Scope);
      W.arrayEnd();
    }
  });
  // The post-grad graph's data flow, for the fusion graph (fusion.js):
  // each node's inputs (Node::Inputs, node indices).
  if (!Pre)
    W.attributeArray("inputs", [&] {
      for (const Node &N : G->Nodes)
        indices(W, N.Inputs, In);
    });
  W.attribute("text", G->Text);
  W.objectEnd();
}

void codePage(JSONWriter &W, const CodeArtifact *C) {
  if (!C)
    return W.null();
  W.object([&] {
    W.attribute("artifact", C->Name);
    W.attribute("log_line", C->Line);
    W.attribute("language", languageName(C->Lang));
    W.key("entry");
    if (C->EntryBegin)
      range(W, C->EntryBegin, C->EntryEnd, In);
    else
      W.null();
    W.attribute("text", C->Text);
  });
}

void kernelsPage(JSONWriter &W, const UnitView &V) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  W.arrayBegin();
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    const UnitView::KernelFacts &F = V.kernel(R);
    W.objectBegin(In);
    W.attribute("name", K.Name);
    W.attribute("key", F.Key);
    W.attribute("kind", kernelKindName(K.Kind));
    W.key("handle");
    W.value(K.Handle);
    W.key("calls");
    indices(W, K.CallLines, In);
    // The page selects the comment block above a definition too.
    if (const KernelDef *D = F.Def) {
      W.key("def");
      range(W, D->HeaderBegin ? D->HeaderBegin : D->Begin, D->End, In);
      W.attribute("def_begin", D->Begin);
    }
    if (const KernelDef *D = F.KernelCodeDef) {
      W.key("kernel_def");
      range(W, D->HeaderBegin ? D->HeaderBegin : D->Begin, D->End, In);
      W.attribute("kernel_def_begin", D->Begin);
    }
    W.key("post");
    indices(W, P.postOfKernel(R), In);
    W.key("pre");
    indices(W, P.preOfKernel(R), In);
    const auto &Sources = P.sourcesOfKernel(R);
    const auto &Origins = P.sourceOriginsOfKernel(R);
    W.attributeArray(
        "sources",
        [&] {
          for (size_t I = 0; I < Sources.size(); ++I) {
            W.arrayBegin(In);
            W.value(Sources[I]);
            W.value(edgeOriginName(Origins[I]));
            W.arrayEnd();
          }
        },
        In);
    W.attribute("in_mapping", K.InMapping);
    W.key("info");
    if (F.Info)
      W.value(F.Info->Info);
    else
      W.null();
    W.objectEnd();
  }
  W.arrayEnd();
}

/// What the page lists as not linked: computing nodes that were mapped to
/// nothing, kernels with no node and kernels with no user source.
void unlinkedPage(JSONWriter &W, const UnitView &V) {
  W.object([&] {
    W.key("pre");
    indices(W, V.unlinkedPre(), In);
    W.key("post");
    indices(W, V.unlinkedPost(), In);
    W.key("kernels_without_nodes");
    indices(W, V.kernelsWithoutNodes(), In);
    W.key("kernels_without_source");
    indices(W, V.kernelsWithoutSource(), In);
  });
}

/// Every edge of the unit with its origin and confidence, grouped: one
/// [origin, confidence, [from kind, from index, to kind, to index, ...]]
/// per origin and confidence, kinds as Endpoint::EndpointKind (0 pre,
/// 1 post, 2 kernel, 3 source). Flat, so that a unit of 40,000 edges stays
/// small and fast to parse; the page draws inferred links (confidence
/// under 100) dashed and lists them.
void edgesPage(JSONWriter &W, const UnitView &V) {
  const CompileUnit &U = V.unit();
  W.arrayBegin();
  for (const UnitView::EdgeGroup &G : V.edgeGroups()) {
    W.arrayBegin(In);
    W.value(edgeOriginName(G.Origin));
    W.value(unsigned(G.Confidence));
    W.arrayBegin(In);
    for (uint32_t I : G.Edges) {
      const Edge &E = U.Edges[I];
      W.value(uint32_t(E.From.Kind));
      W.value(E.From.Index);
      W.value(uint32_t(E.To.Kind));
      W.value(E.To.Index);
    }
    W.arrayEnd();
    W.arrayEnd();
  }
  W.arrayEnd();
}

/// [file, line, function, code]: the array is left open for what follows.
void sourcePageBegin(JSONWriter &W, const SourceLoc &S) {
  W.arrayBegin(In);
  W.value(S.File);
  W.value(S.Line);
  W.value(S.Function);
  W.value(S.Code);
}

void coveragePage(JSONWriter &W, const UnitCoverage &C) {
  // [linked, total], and the nodes known by a pre-grad name only when
  // there are some.
  auto One = [&](StringRef Key, const CoverageCount &N) {
    W.key(Key);
    W.arrayBegin(In);
    W.value(N.Linked);
    W.value(N.Total);
    if (N.ByPreGradName)
      W.value(N.ByPreGradName);
    W.arrayEnd();
  };
  W.object([&] {
    One("pre_grad", C.Pre);
    One("post_grad", C.Post);
    One("kernels", C.Kernels);
  });
}

} // namespace

/// A unit of a restarted attempt holds the graph it logged before the
/// restart, which Dynamo discarded: why, or null.
static void discardedJSON(JSONWriter &W, const UnitView &V) {
  const CompileRecord *R = V.compile();
  if (!R || R->Status != CompileStatus::Restart)
    return W.null();
  W.value("discarded: the attempt " + R->restartText() +
          "; a later attempt compiled the frame");
}

/// The pass timeline: each stage with its file, node count and what it
/// changed against the stage before (tlp/Analysis/PassTimeline.h).
static void stagesJSON(JSONWriter &W, const UnitView &V) {
  const CompileUnit &U = V.unit();
  W.arrayBegin();
  for (const TimelineStep &S : passTimeline(V.module(), U)) {
    const PassStage &PS = U.Stages[S.Stage];
    W.objectBegin();
    W.attribute("stage", PS.Stage);
    W.key("file");
    if (PS.Graph)
      W.value(V.module().logName(PS.Graph->Log));
    else
      W.null();
    W.attribute("nodes", S.Nodes);
    W.attribute("same_text", S.SameText);
    W.attribute("added", S.Added);
    W.attribute("removed", S.Removed);
    W.attribute("changed", S.Changed);
    W.attributeArray("changes", [&] {
      for (const DigestChange &D : S.Changes)
        W.object([&] {
          W.attribute("change", D.Change);
          W.attribute("node", D.What);
          W.attribute("detail", D.Detail);
        });
    });
    W.objectEnd();
  }
  W.arrayEnd();
}

/// The files of a depyf dump the unit keeps (without their texts, which
/// the files hold), Dynamo code with its guards.
static void filesJSON(JSONWriter &W, const UnitView &V) {
  const Module &M = V.module();
  W.arrayBegin();
  for (const UnitFile &F : V.unit().Files) {
    W.objectBegin();
    W.attribute("kind", unitFileKindName(F.Kind));
    W.attribute("file", M.logName(F.Log));
    W.attribute("lines", emit::textFileLines(F.Text));
    if (F.Kind == UnitFile::DynamoCode) {
      W.key("guard_file");
      if (F.GuardLog)
        W.value(M.logName(*F.GuardLog));
      else
        W.null();
      W.attributeArray("guards", [&] {
        for (const DynamoGuard &DG : F.Guards)
          W.object([&] {
            W.attribute("line", DG.Line);
            W.attribute("code", DG.Code);
            W.attributeOrNull("comment", DG.Comment);
          });
      });
    }
    W.objectEnd();
  }
  W.arrayEnd();
}

/// The scheduler nodes after fusion (top level), each with the nodes it
/// fused, the buffers it reads and writes, its kernel and post-grad nodes
/// (link-scheduler-ir); null when the unit has no ir_post_fusion.txt.
static void schedulerNodesJSON(JSONWriter &W, const UnitView &V) {
  const CompileUnit &U = V.unit();
  const SchedulerIRArtifact *S = U.PostFusion.get();
  if (!S || !S->isLoaded())
    return W.null();
  W.arrayBegin();
  for (const SchedulerNode &N : S->Nodes) {
    if (N.Parent)
      continue;
    W.objectBegin();
    W.attribute("name", N.Name);
    W.attribute("class", N.Class);
    W.attribute("line", N.Line);
    W.attributeArray("fused", [&] {
      for (uint32_t I : N.SubNodes)
        if (I < S->Nodes.size())
          W.value(S->Nodes[I].Name);
    });
    W.key("reads");
    strings(W, S->readBuffers(N));
    W.key("writes");
    strings(W, S->writtenBuffers(N));
    W.attributeArray("outputs", [&] {
      for (const SchedulerBuffer &B : N.Outputs)
        W.object([&] {
          W.attribute("name", B.Name);
          W.attribute("type", B.Type);
          W.attribute("layout", B.Layout);
          W.key("users");
          strings(W, B.Users);
        });
    });
    W.attributeOrNull("extern_kernel", N.ExternKernel);
    W.key("kernel");
    if (N.Kernel && *N.Kernel < U.Kernels.size())
      W.value(U.Kernels[*N.Kernel].key());
    else
      W.null();
    W.attributeOrNull("kernel_by", N.KernelBy);
    // The post-grad nodes of a node and how they were found; why not,
    // when the data did not decide.
    auto PostOf = [&](const SchedulerNode &X) {
      W.attributeArray("post_grad_nodes", [&] {
        for (uint32_t P : X.PostNodes)
          if (U.PostGrad && P < U.PostGrad->Nodes.size())
            W.value(U.PostGrad->Nodes[P].Name);
      });
      W.attributeOrNull("post_grad_by", X.PostNodesBy);
      W.key("confidence");
      if (X.PostNodesBy.empty())
        W.null();
      else
        W.value(unsigned(X.PostNodesConfidence));
      W.attributeOrNull("post_grad_unknown", X.PostNodesUnknown);
    };
    PostOf(N);
    // Each fused node's share of the kernel's post-grad nodes.
    W.attributeArray("split", [&] {
      for (uint32_t I : N.SubNodes)
        if (I < S->Nodes.size())
          W.object([&] {
            W.attribute("name", S->Nodes[I].Name);
            PostOf(S->Nodes[I]);
          });
    });
    W.key("pre_fusion");
    if (U.PreFusion) {
      W.arrayBegin();
      for (uint32_t I : N.PreFusionNodes)
        if (I < U.PreFusion->Nodes.size())
          W.value(U.PreFusion->Nodes[I].Name);
      W.arrayEnd();
    } else {
      W.null();
    }
    // A fused node's loop bodies are its sub-nodes'.
    std::vector<std::string> Ops = N.Ops;
    for (uint32_t I : N.SubNodes)
      if (I < S->Nodes.size())
        for (const std::string &Op : S->Nodes[I].Ops)
          if (!is_contained(Ops, Op))
            Ops.push_back(Op);
    W.key("ops");
    strings(W, Ops);
    W.objectEnd();
  }
  W.arrayEnd();
}

/// The members both unit forms open with after "id": name, log, rank and
/// compile id (null where the unit has none).
static void unitHeaderMembers(JSONWriter &W, const UnitView &V) {
  const CompileUnit &U = V.unit();
  W.attribute("name", V.displayName());
  W.attribute("log", V.logName());
  W.key("rank");
  W.value(U.Key.Rank);
  W.key("compile_id");
  if (U.Key.Id)
    W.value(V.compileId());
  else
    W.null();
}

void unitJSON(JSONWriter &W, const UnitView &V, StringRef Id) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  W.objectBegin();
  if (Id.empty())
    W.attribute("id", V.slug());
  else
    W.attribute("id", Id);
  unitHeaderMembers(W, V);
  W.attribute("graph", V.graphName());
  W.attributeOrNull("subgraph", U.Key.Subgraph);
  // A depyf dump's graph name (`__compiled_fn_1`): not a compile id.
  W.attributeOrNull("fn", U.Key.Fn);
  W.key("frame");
  if (U.Frame)
    sourceJSON(W, *U.Frame);
  else
    W.null();
  W.key("compile");
  if (V.compile())
    W.value(V.compile()->slug());
  else
    W.null();
  W.key("discarded");
  discardedJSON(W, V);
  W.attributeObject("artifacts", [&] {
    for (unsigned I = 0; I < NumUnitSlots; ++I) {
      UnitSlot S = static_cast<UnitSlot>(I);
      W.key(unitSlotRole(S));
      artifactRef(W, U.slot(S),
                  S == UnitSlot::Mapping ? U.Mapping.get() : nullptr);
    }
  });
  W.key("pre_grad_nodes");
  nodesJSON(W, V, U.PreGrad.get(), true);
  W.key("post_grad_nodes");
  nodesJSON(W, V, U.PostGrad.get(), false);
  W.key("code");
  codeJSON(W, U.Code.get());
  W.key("kernel_code");
  codeJSON(W, U.KernelCode.get());
  W.key("kernels");
  kernelsJSON(W, V);
  // The unit's user source lines with their kernels (the same answer as
  // the Markdown report, the HTML page and --source).
  W.attributeArray("sources", [&] {
    for (uint32_t I = 0; I < U.Sources.size(); ++I)
      W.object([&] {
        sourceMembers(W, U.Sources[I]);
        W.attributeArray("kernels", [&] {
          for (uint32_t R : P.kernelsOfSource(I))
            W.value(V.kernel(R).Key);
        });
      });
  });
  W.key("coverage");
  coverageJSON(W, V.coverage());
  // Every edge with its origin and confidence (inferred edges are under
  // 100; docs/inference.md).
  W.attributeArray("edges", [&] {
    for (const Edge &E : U.Edges)
      W.object([&] {
        W.attribute("from", V.endpointText(E.From));
        W.attribute("to", V.endpointText(E.To));
        W.attribute("origin", edgeOriginName(E.Origin));
        W.attribute("confidence", unsigned(E.Confidence));
      });
  });
  W.key("stages");
  stagesJSON(W, V);
  W.key("files");
  filesJSON(W, V);
  W.attributeOrNull("folder", U.Key.Folder);
  W.key("scheduler_nodes");
  schedulerNodesJSON(W, V);
  W.objectEnd();
}

void unitPageJSON(JSONWriter &W, const UnitView &V, StringRef Id) {
  const CompileUnit &U = V.unit();
  const UnitProvenance &P = V.provenance();
  W.objectBegin();
  W.attribute("id", Id);
  unitHeaderMembers(W, V);
  // The anchor of the unit's compile in the dashboard (index.html#...), so
  // that the page links back to its row; the record without a compile id
  // has no row.
  const CompileRecord *R = V.compile();
  W.key("compile");
  if (R && R->Id)
    W.value(emit::compileAnchor(*R));
  else
    W.null();
  // The compile as the dashboard names it ("0/0 #2" when ids repeat).
  W.key("compile_name");
  if (R && R->Id)
    W.value(R->idName());
  else
    W.null();
  // The compile's events shown raw: the slug of its artifacts page
  // (raw-SLUG.html, #raw-SLUG) and how many.
  W.key("raw");
  if (R && !R->Raw.empty()) {
    W.arrayBegin(In);
    W.value(R->slug());
    W.value(R->Raw.size());
    W.arrayEnd();
  } else {
    W.null();
  }
  W.key("discarded");
  discardedJSON(W, V);
  // The pass timeline's page (timeline-ID.html, #timeline-ID) and how many
  // stages, when the unit has stages or dump files.
  W.key("timeline");
  if (U.Stages.empty() && U.Files.empty()) {
    W.null();
  } else {
    W.arrayBegin(In);
    W.value(Id);
    W.value(U.Stages.size());
    W.arrayEnd();
  }
  W.attribute("graph", V.graphName());
  W.key("frame");
  if (U.Frame) {
    sourcePageBegin(W, *U.Frame);
    W.arrayEnd();
  } else {
    W.null();
  }
  W.key("coverage");
  coveragePage(W, V.coverage());
  // The provenance artifacts the unit has: [role, artifact, log line].
  W.attributeArray("provenance", [&] {
    for (UnitSlot S : {UnitSlot::Mapping, UnitSlot::NodeTree,
                       UnitSlot::KernelNodes, UnitSlot::StackTraces,
                       UnitSlot::KernelInfo})
      if (const Artifact *A = U.slot(S)) {
        W.arrayBegin(In);
        W.value(unitSlotRole(S));
        W.value(A->Name);
        W.value(A->Line);
        W.arrayEnd();
      }
  });
  // [file, line, function, code, kernel rows, span?]: the kernels of the
  // line (or of its call, for an entry with a span) as
  // UnitProvenance::kernelsOfSource says (the Markdown and --source
  // agree); the span, [begin, end) in code, only when the trace had one.
  W.attributeArray("sources", [&] {
    for (uint32_t I = 0; I < U.Sources.size(); ++I) {
      sourcePageBegin(W, U.Sources[I]);
      indices(W, P.kernelsOfSource(I), In);
      if (U.Sources[I].hasSpan())
        range(W, U.Sources[I].SpanBegin, U.Sources[I].SpanEnd, In);
      W.arrayEnd();
    }
  });
  OpNames Ops;
  W.key("pre");
  graphPage(W, V, U.PreGrad.get(), true, Ops);
  W.key("post");
  graphPage(W, V, U.PostGrad.get(), false, Ops);
  W.attributeArray("ops", [&] {
    for (const std::vector<std::string> &L : Ops.Lists)
      strings(W, L, In);
  });
  W.key("code");
  codePage(W, U.Code.get());
  W.key("kernel_code");
  codePage(W, U.KernelCode.get());
  W.key("kernels");
  kernelsPage(W, V);
  W.key("unlinked");
  unlinkedPage(W, V);
  W.key("edges");
  edgesPage(W, V);
  // [name, class, fused node names, reads, writes, kernel row or null,
  // how the kernel was found, pre-fusion node names (null: no
  // ir_pre_fusion.txt), [[fused node, post-grad node indices, how or
  // null, why unknown or null]]]: the scheduler nodes after fusion.
  W.key("scheduler");
  if (const SchedulerIRArtifact *S = U.PostFusion.get()) {
    W.arrayBegin();
    for (const SchedulerNode &N : S->Nodes) {
      if (N.Parent)
        continue;
      W.arrayBegin(In);
      W.value(N.Name);
      W.value(N.Class);
      W.arrayBegin(In);
      for (uint32_t I : N.SubNodes)
        if (I < S->Nodes.size())
          W.value(S->Nodes[I].Name);
      W.arrayEnd();
      strings(W, S->readBuffers(N), In);
      strings(W, S->writtenBuffers(N), In);
      if (N.Kernel && *N.Kernel < U.Kernels.size())
        W.value(*N.Kernel);
      else
        W.null();
      W.value(N.KernelBy);
      if (U.PreFusion) {
        W.arrayBegin(In);
        for (uint32_t I : N.PreFusionNodes)
          if (I < U.PreFusion->Nodes.size())
            W.value(U.PreFusion->Nodes[I].Name);
        W.arrayEnd();
      } else {
        W.null();
      }
      W.arrayBegin(In);
      for (uint32_t I : N.SubNodes) {
        if (I >= S->Nodes.size())
          continue;
        const SchedulerNode &X = S->Nodes[I];
        W.arrayBegin(In);
        W.value(X.Name);
        W.arrayBegin(In);
        for (uint32_t P : X.PostNodes)
          W.value(P);
        W.arrayEnd();
        W.stringOrNull(X.PostNodesBy);
        W.stringOrNull(X.PostNodesUnknown);
        W.arrayEnd();
      }
      W.arrayEnd();
      W.arrayEnd();
    }
    W.arrayEnd();
  } else {
    W.null();
  }
  W.objectEnd();
}

} // namespace tlp
