//===- DOTEmitter.cpp - Graphviz diagrams of one unit ---------------------===//
//
// docs/dot.md describes the output. One unit (--unit, default the first)
// is drawn as a DOT digraph:
//   --graph=pre         the pre-grad graph and its data flow;
//   --graph=post        the post-grad graph, each kernel a cluster holding
//                       the post-grad nodes it fused;
//   --graph=provenance  both, with the provenance edges pre -> post and
//                       pre -> kernel (the default).
// --collapse-kernels draws the kernel graph instead: one node per kernel,
// data flow between kernels through the nodes it contracts.
//
// Every ID is generated (p3, q7, k2, cluster_k2) and quoted; every label
// is escaped; nodes, clusters and edges come in IR order, so the output is
// valid for any names and the same for the same input.
//
//===----------------------------------------------------------------------===//

#include "EmitSupport.h"

#include "tlp/Analysis/UnitView.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/IR/InductorNames.h"
#include "tlp/IR/Provenance.h"
#include "tlp/IR/TensorType.h"
#include "tlp/Support/FileUtilities.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace tlp {

using namespace emit;

namespace {

const char *kindColor(KernelKind K) {
  switch (K) {
  case KernelKind::Triton:
    return "#dbe9ff";
  case KernelKind::Cpp:
    return "#dff0d8";
  case KernelKind::Extern:
    return "#fff2cc";
  case KernelKind::Fallback:
    return "#fde0c5";
  case KernelKind::Combo:
  case KernelKind::Template:
    return "#e8ddf5";
  case KernelKind::Collective:
    return "#d5f0f0";
  case KernelKind::Unknown:
    return "#eeeeee";
  }
  return "#eeeeee";
}

const char *VanishedColor = "#f4cccc";
const char *ProvenanceColor = "#1f77b4";

std::string nodeLabel(const Node &N) {
  std::string L = N.qualifiedName();
  if (N.Op == NodeOp::Output)
    return L;
  if (N.Op != NodeOp::Placeholder && !N.Target.empty())
    L += "\n" + shortTarget(N.Target).str();
  std::string T = shortTypeLabel(N.Type);
  if (!T.empty())
    L += "\n" + T;
  return L;
}

std::string nodeTooltip(const CompileUnit &U, const Node &N) {
  std::string T = nodeOpName(N.Op).str();
  if (!N.Target.empty())
    T += " " + N.Target;
  if (!N.Type.empty())
    T += "\n" + N.Type;
  if (N.Source && *N.Source < U.Sources.size()) {
    const SourceLoc &S = U.Sources[*N.Source];
    T += "\n" + S.File + ":" + std::to_string(S.Line);
    if (!S.Code.empty())
      T += ": " + S.Code;
  }
  return T;
}

std::string kernelLabel(const Kernel &K) {
  std::string L = K.key() + "\n" + kernelKindName(K.Kind).str();
  if (!K.CallLines.empty()) {
    L += K.CallLines.size() == 1 ? ", line " : ", lines ";
    for (size_t I = 0; I < K.CallLines.size() && I < 4; ++I)
      L += (I ? ", " : "") + std::to_string(K.CallLines[I]);
    if (K.CallLines.size() > 4)
      L += ", ...";
  }
  return L;
}

std::string nameList(const std::vector<std::string> &Names, size_t Max) {
  std::string L;
  for (size_t I = 0; I < Names.size() && I < Max; ++I)
    L += (I ? ", " : "") + Names[I];
  if (Names.size() > Max)
    L += " (+" + std::to_string(Names.size() - Max) + ")";
  return L;
}

/// Writes one unit.
class UnitDrawer {
public:
  /// \p Id: the unit's id in the output (ModuleFacts).
  UnitDrawer(raw_ostream &OS, const UnitView &V, StringRef Id, DOTGraph Mode,
             bool Collapse)
      : OS(OS), V(V), U(V.unit()), P(V.provenance()), Id(Id.str()),
        Mode(Mode), Collapse(Collapse) {}

  void draw() {
    static const char *ModeNames[] = {"pre-grad graph", "post-grad graph",
                                      "provenance"};
    std::string Title = U.Key.displayName() + " (" + Id +
                        "): " + ModeNames[static_cast<int>(Mode)];
    if (Collapse)
      Title += ", kernels collapsed";
    header(Title);
    if (Collapse)
      drawCollapsed();
    else
      drawFull();
    OS << "}\n";
  }

  static void header(raw_ostream &OS, StringRef Title) {
    OS << "digraph \"tlp\" {\n"
       << "  graph [label=" << dotString(Title)
       << ", labelloc=t, fontname=\"Helvetica\", fontsize=12, "
          "newrank=true];\n"
       << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"white\", "
          "fontname=\"Helvetica\", fontsize=10];\n"
       << "  edge [color=\"#555555\", arrowsize=0.6];\n";
  }

private:
  raw_ostream &OS;
  const UnitView &V;
  const CompileUnit &U;
  const UnitProvenance &P;
  std::string Id;
  DOTGraph Mode;
  bool Collapse;

  void header(StringRef Title) { header(OS, Title); }

  static std::string id(char Prefix, uint32_t I) {
    return "\"" + std::string(1, Prefix) + std::to_string(I) + "\"";
  }

  void node(StringRef Indent, char Prefix, uint32_t I, const Node &N,
            bool Pre) {
    OS << Indent << id(Prefix, I) << " [label=" << dotString(nodeLabel(N))
       << ", tooltip=" << dotString(nodeTooltip(U, N));
    if (N.Op == NodeOp::Placeholder || N.Op == NodeOp::GetAttr)
      OS << ", shape=ellipse";
    else if (N.Op == NodeOp::Output)
      OS << ", shape=plain";
    else if (Pre && !P.preLinked(I))
      OS << ", fillcolor=\"" << VanishedColor << "\"";
    else if (Pre && !P.kernelsOfPre(I).empty())
      OS << ", fillcolor=\"" << kindColor(U.Kernels[P.kernelsOfPre(I)[0]].Kind)
         << "\"";
    OS << "];\n";
  }

  void dataFlow(const GraphArtifact &G, char Prefix) {
    for (uint32_t V = 0; V < G.Nodes.size(); ++V)
      for (uint32_t Src : G.Nodes[V].Inputs)
        OS << "  " << id(Prefix, Src) << " -> " << id(Prefix, V) << ";\n";
  }

  void preCluster() {
    const GraphArtifact &G = *U.PreGrad;
    OS << "  subgraph \"cluster_pre\" {\n"
       << "    label=\"pre-grad graph\"; style=\"rounded\"; "
          "color=\"#999999\";\n";
    for (uint32_t I = 0; I < G.Nodes.size(); ++I)
      node("    ", 'p', I, G.Nodes[I], true);
    OS << "  }\n";
  }

  /// The post-grad graph: a cluster per kernel with its header node and
  /// the post-grad nodes whose first kernel it is.
  void postCluster() {
    const GraphArtifact *G = U.PostGrad.get();
    size_t NPost = G ? G->Nodes.size() : 0;
    std::vector<std::vector<uint32_t>> Members(U.Kernels.size());
    std::vector<uint32_t> Free;
    for (uint32_t Q = 0; Q < NPost; ++Q) {
      const std::vector<uint32_t> &K = P.kernelsOfPost(Q);
      if (K.empty())
        Free.push_back(Q);
      else
        Members[K[0]].push_back(Q);
    }
    OS << "  subgraph \"cluster_post\" {\n"
       << "    label=\"post-grad graph and kernels\"; style=\"rounded\"; "
          "color=\"#999999\";\n";
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      const Kernel &K = U.Kernels[R];
      OS << "    subgraph \"cluster_k" << R << "\" {\n"
         << "      label=\"\"; style=\"rounded,filled\"; fillcolor=\""
         << kindColor(K.Kind) << "\"; color=\"#777777\";\n"
         << "      " << id('k', R) << " [label=" << dotString(kernelLabel(K))
         << ", tooltip=" << dotString(V.kernel(R).Key)
         << ", shape=box, style=\"filled,bold\", fillcolor=\"white\"];\n";
      for (uint32_t Q : Members[R])
        node("      ", 'q', Q, G->Nodes[Q], false);
      OS << "    }\n";
    }
    for (uint32_t Q : Free)
      node("    ", 'q', Q, G->Nodes[Q], false);
    OS << "  }\n";
    // Every post-grad node is tied to its kernels' header nodes; the first
    // kernel's tie is invisible (the cluster shows it), others are dotted.
    for (uint32_t Q = 0; Q < NPost; ++Q) {
      const std::vector<uint32_t> &K = P.kernelsOfPost(Q);
      for (size_t I = 1; I < K.size(); ++I)
        OS << "  " << id('q', Q) << " -> " << id('k', K[I])
           << " [style=dotted, tooltip=\"also in this "
              "kernel\"];\n";
    }
  }

  void drawFull() {
    bool WantPre = Mode != DOTGraph::Post;
    bool WantPost = Mode != DOTGraph::Pre;
    if (WantPre && U.PreGrad)
      preCluster();
    if (WantPost && (U.PostGrad || !U.Kernels.empty()))
      postCluster();
    if (WantPre && U.PreGrad)
      dataFlow(*U.PreGrad, 'p');
    if (WantPost && U.PostGrad)
      dataFlow(*U.PostGrad, 'q');
    if (Mode == DOTGraph::Provenance)
      for (const Edge &E : U.Edges) {
        if (E.From.Kind != Endpoint::PreNode)
          continue;
        if (E.To.Kind == Endpoint::PostNode)
          OS << "  " << id('p', E.From.Index) << " -> " << id('q', E.To.Index);
        else if (E.To.Kind == Endpoint::KernelRow)
          OS << "  " << id('p', E.From.Index) << " -> " << id('k', E.To.Index);
        else
          continue;
        std::string Tip = edgeOriginName(E.Origin).str();
        if (E.Confidence < 100)
          Tip += ", confidence " + std::to_string(E.Confidence) + "%";
        OS << " [color=\"" << ProvenanceColor << "\", style="
           << (E.Confidence < 100 ? "dotted" : "dashed")
           << ", tooltip=" << dotString(Tip) << "];\n";
      }
    if ((!WantPre || !U.PreGrad) && (!WantPost || !U.PostGrad) &&
        U.Kernels.empty())
      OS << "  \"empty\" [label=" << dotString(emptyNote())
         << ", shape=plain];\n";
  }

  std::string emptyNote() const {
    if (Mode == DOTGraph::Pre)
      return "this unit has no pre-grad graph";
    if (Mode == DOTGraph::Post)
      return "this unit has no post-grad graph and no kernels";
    return "this unit has no graphs and no kernels";
  }

  /// One node per kernel; an edge A -> B when a node of A feeds a node of
  /// B, directly or through nodes that belong to no kernel.
  void drawCollapsed() {
    bool UsePre = Mode == DOTGraph::Pre || !U.PostGrad;
    const GraphArtifact *G = UsePre ? U.PreGrad.get() : U.PostGrad.get();
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      const Kernel &K = U.Kernels[R];
      std::string L = kernelLabel(K);
      size_t NPost = P.postOfKernel(R).size(), NPre = P.preOfKernel(R).size();
      L += "\n" + std::to_string(NPost) + " post-grad, " +
           std::to_string(NPre) + " pre-grad nodes";
      if (Mode == DOTGraph::Provenance && NPre) {
        std::vector<std::string> Names;
        for (uint32_t Q : P.preOfKernel(R))
          Names.push_back(U.PreGrad->Nodes[Q].qualifiedName());
        L += "\nfrom " + nameList(Names, 6);
      }
      OS << "  " << id('k', R) << " [label=" << dotString(L)
         << ", tooltip=" << dotString(V.kernel(R).Key) << ", fillcolor=\""
         << kindColor(K.Kind) << "\"];\n";
    }
    if (!G) {
      if (U.Kernels.empty())
        OS << "  \"empty\" [label=" << dotString(emptyNote())
           << ", shape=plain];\n";
      return;
    }
    size_t N = G->Nodes.size();
    std::vector<int64_t> Rep(N, -1);
    for (uint32_t V = 0; V < N; ++V) {
      const std::vector<uint32_t> &K =
          UsePre ? P.kernelsOfPre(V) : P.kernelsOfPost(V);
      if (!K.empty())
        Rep[V] = K[0];
    }
    // Reach[V]: kernels feeding V through nodes that belong to no kernel.
    std::vector<std::vector<uint32_t>> Reach(N);
    std::set<std::pair<uint32_t, uint32_t>> Edges;
    for (uint32_t V = 0; V < N; ++V) {
      std::set<uint32_t> From;
      for (uint32_t Src : G->Nodes[V].Inputs) {
        if (Rep[Src] >= 0)
          From.insert(Rep[Src]);
        else if (Src < V)
          From.insert(Reach[Src].begin(), Reach[Src].end());
      }
      if (Rep[V] < 0) {
        Reach[V].assign(From.begin(), From.end());
        continue;
      }
      for (uint32_t K : From)
        if (K != Rep[V])
          Edges.insert({K, uint32_t(Rep[V])});
    }
    for (auto &E : Edges)
      OS << "  " << id('k', E.first) << " -> " << id('k', E.second) << ";\n";
  }
};

class DOTEmitter : public Emitter {
public:
  using Emitter::Emitter;

  /// One unit: the first --unit names (the first of all, without it).
  EmitterTraits traits() const override {
    EmitterTraits T;
    T.Select = &Opts.Unit;
    T.FirstOnly = true;
    return T;
  }

  Error begin(const Module &M) override {
    Mode = Opts.Graph;
    return Error::success();
  }

  Error unit(const Module &M, const CompileUnit &U) override {
    if (!facts().current().Selected)
      return Error::success();
    raw_string_ostream OS(Text);
    UnitDrawer(OS, UnitView(M, U), facts().current().Id, Mode,
               Opts.CollapseKernels)
        .draw();
    OS.flush();
    Drawn = true;
    return Error::success();
  }

  Error end(const Module &M) override {
    if (!Drawn) {
      raw_string_ostream OS(Text);
      UnitDrawer::header(OS, "no compile units in the input");
      OS << "}\n";
      OS.flush();
    }
    out() << Text;
    return Error::success();
  }

private:
  DOTGraph Mode = DOTGraph::Provenance;
  std::string Text;
  bool Drawn = false;
};

} // namespace

std::unique_ptr<Emitter> createDOTEmitter(const EmitOptions &Opts,
                                          DiagnosticEngine &Diags) {
  return std::make_unique<DOTEmitter>(Opts, Diags);
}

} // namespace tlp
