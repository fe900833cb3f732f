//===- LinkProvenance.cpp - Provenance names into edges -------------------===//
//
// Edges, by origin:
//   mapping       preToPost/postToPre (pre -> post) and
//                 cppCodeToPost/postToCppCode (post -> kernel row)
//   node-tree     inductor_post_to_pre_grad_nodes, when there is no mapping:
//                 NodeSources whose graph id is the pre-grad graph's
//   kernel-nodes  inductor_triton_kernel_to_post_grad_nodes, same condition
//   code-comment  for kernels the mapping does not cover: the call's
//                 `Topologically Sorted Source Nodes` (pre -> kernel), the
//                 definition's `Graph fragment` (post -> kernel) and, without
//                 a mapping, `Source node to ATen node mapping` (pre -> post)
//   fx-comment    kernel -> source through the kernel's nodes, for kernels
//                 without stack-trace sources (as sure as the least sure
//                 edge into the kernel)
//   source-line,  without a mapping: inferred pre -> post and post -> kernel
//   op-match      edges (InferLinks.cpp), with a confidence under 100
// Every name of the mapping that names nothing is a warning.
//
//===----------------------------------------------------------------------===//

#include "InferLinks.h"

#include "tlp/IR/Provenance.h"
#include "tlp/Passes/Pass.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace tlp {

namespace {

class Linker {
public:
  Linker(const Module &M, CompileUnit &U, DiagnosticEngine &D)
      : M(M), U(U), D(D), File(M.logName(U.Key.Log)), Kernels(U) {}

  void run() {
    for (EdgeOrigin O :
         {EdgeOrigin::Mapping, EdgeOrigin::NodeTree, EdgeOrigin::KernelNodes,
          EdgeOrigin::CodeComment, EdgeOrigin::FXComment,
          EdgeOrigin::SourceLine, EdgeOrigin::OpMatch})
      U.removeEdges(O);
    // PyTorch 2.13 logs `{"version": 2.0}` for a backward compiled on CPU:
    // a mapping with no entries links nothing, so the unit is linked as
    // one without a mapping: from the wrapper's comments, and by the
    // inference (infer-links: source lines, op names) where it runs.
    HasMapping = U.Mapping && !(U.Mapping->PreToPost.empty() &&
                                U.Mapping->PostToPre.empty() &&
                                U.Mapping->KernelToPost.empty() &&
                                U.Mapping->PostToKernel.empty());
    if (U.Mapping && !HasMapping)
      D.note(File, U.Mapping->Line,
             "unit " + U.Key.displayName() +
                 ": the provenance mapping is empty; links come from the "
                 "wrapper's comments and are inferred from source lines and "
                 "op names");
    // A mapping with kernel entries only (`preToPost` and `postToPre`
    // empty, as PyTorch logs for some backward graphs) says nothing of the
    // pre-grad graph: those links are inferred as without a mapping.
    HasPreMapping = HasMapping && !(U.Mapping->PreToPost.empty() &&
                                    U.Mapping->PostToPre.empty());
    if (HasMapping && !HasPreMapping && U.PreGrad)
      D.note(File, U.Mapping->Line,
             "unit " + U.Key.displayName() +
                 ": the provenance mapping names no pre-grad node; links "
                 "to the pre-grad graph are inferred");
    // A TORCH_COMPILE_DEBUG folder has no pre-grad graph either: said
    // once, as for a warm cache.
    WarmCache = !U.PreGrad && (!U.Key.Folder.empty() || cacheHit());
    KernelScope = kernelPostScopes(U);
    if (HasMapping)
      mapping();
    else {
      nodeTree();
      kernelNodes();
    }
    codeComments();
    U.canonicalizeEdges();
    if (!HasMapping) {
      inferLinks(U, /*PrePost=*/!U.NodeTree, /*PostKernel=*/!U.KernelNodes,
                 KernelScope);
      U.canonicalizeEdges();
    } else if (!HasPreMapping) {
      inferLinks(U, /*PrePost=*/true, /*PostKernel=*/false, KernelScope);
      U.canonicalizeEdges();
    }
    inferSources();
    U.canonicalizeEdges();
    reportUnresolved();
  }

private:
  const Module &M;
  CompileUnit &U;
  DiagnosticEngine &D;
  std::string File;
  KernelKeyIndex Kernels; // the table is final: resolve-debug-handles ran
  /// U has a mapping with at least one entry.
  bool HasMapping = false;
  /// ... and with at least one entry of its pre-grad halves.
  bool HasPreMapping = false;
  /// A cache hit without a pre-grad graph (cacheHit): the
  /// mapping's pre-grad names are counted for one note, not warned about.
  bool WarmCache = false;
  uint64_t WarmPreMisses = 0;
  /// The line of a mapping that names the empty pre-grad node (0: none).
  uint32_t EmptyPreLine = 0;
  uint32_t WarmFirstLine = 0;
  // Unresolved names by what they should have named, in first-seen order:
  // the first MaxMissReports + 1 kept, the others counted. The names are
  // slices of the unit's artifacts (a mapping of a million made-up names
  // kept a copy of each, twice).
  static constexpr unsigned MaxMissReports = 20;
  struct Miss {
    StringRef What;
    StringRef Name;
    uint32_t Line;
  };
  std::vector<Miss> Misses;
  uint64_t MissCount = 0;
  DenseSet<std::pair<const char *, StringRef>> MissSeen;

  void edge(Endpoint::EndpointKind FK, uint32_t F, Endpoint::EndpointKind TK,
            uint32_t T, EdgeOrigin O, uint8_t Confidence = 100) {
    U.Edges.push_back(Edge{Endpoint{FK, F}, Endpoint{TK, T}, O, Confidence});
  }

  /// The confidence of a code-comment edge from a pre-grad node: the
  /// comments of a backward's code name the nodes of the graph Inductor
  /// lowered, not the forward's pre-grad graph that the unit shows, so a
  /// name found there is a name match, not what PyTorch wrote
  /// (docs/inference.md).
  uint8_t preCommentConfidence() const {
    return U.Key.Graph == GraphKind::Backward ? BackwardNameMatch : 100;
  }
  static constexpr uint8_t BackwardNameMatch = 70;

  /// \p What is one of the literals below; \p Name outlives the pass.
  void miss(const char *What, StringRef Name, uint32_t Line) {
    if (!MissSeen.insert({What, Name}).second)
      return;
    // PyTorch names the pre-grad side of a node with no pre-grad origin ''
    // (a compiled-autograd graph's mapping: `"preToPost": {"": [...]}`,
    // and no pre-grad graph is logged): said once, as a note.
    if (Name.empty() && What == StringRef("pre-grad node")) {
      EmptyPreLine = Line;
      return;
    }
    if (WarmCache && What == StringRef("pre-grad node")) {
      if (!WarmPreMisses++)
        WarmFirstLine = Line;
      return;
    }
    if (MissCount++ <= MaxMissReports)
      Misses.push_back(Miss{What, Name, Line});
  }

  Optional<uint32_t> pre(StringRef Name, uint32_t Line, bool Report = true) {
    if (U.PreGrad)
      if (Optional<uint32_t> I = U.PreGrad->findNode(Name))
        return I;
    if (Report)
      miss("pre-grad node", Name, Line);
    return None;
  }

  Optional<uint32_t> post(StringRef Name, uint32_t Line, bool Report = true) {
    if (U.PostGrad)
      if (Optional<uint32_t> I = U.PostGrad->findNode(Name))
        return I;
    if (Report)
      miss("post-grad node", Name, Line);
    return None;
  }

  /// Post-grad node \p Name as kernel row \p K names it: Inductor
  /// compiles a higher-order op's body (`true_graph_0`,
  /// `repeated_subgraph0`, `while_loop_body_graph_0`) into a
  /// `def NAME(args):` of the wrapper, and the post-grad graph prints the
  /// body as a nested class of that name; the mapping names the body's
  /// nodes bare (`addmm`), as the top-level graph's. A kernel called in
  /// such a function takes the node of its body first.
  Optional<uint32_t> postOfKernel(StringRef Name, uint32_t Line,
                                  Optional<uint32_t> K, bool Report = true) {
    if (K && U.PostGrad && *K < KernelScope.size() && KernelScope[*K] &&
        !KernelScope[*K]->empty())
      if (Optional<uint32_t> I =
              U.PostGrad->findNode((*KernelScope[*K] + "." + Name).str()))
        return I;
    return post(Name, Line, Report);
  }

  /// For each kernel row, the post-grad scope its calls run in
  /// (kernelPostScopes).
  std::vector<Optional<StringRef>> KernelScope;

  /// Pre-grad node \p Name as a comment on a kernel's code names it
  /// (GraphArtifact::findCommentNode: not a node of an autograd.Function's
  /// bodies, which AOTAutograd traces again under new names).
  Optional<uint32_t> preOfComment(StringRef Name) {
    return U.PreGrad ? U.PreGrad->findCommentNode(Name) : None;
  }

  Optional<uint32_t> kernel(StringRef Key, uint32_t Line) {
    if (Optional<uint32_t> I = Kernels.find(Key))
      return I;
    miss("kernel", Key, Line);
    return None;
  }

  void mapping() {
    const MappingArtifact &Map = *U.Mapping;
    uint32_t L = Map.Line;
    for (auto &KV : Map.PreToPost) {
      Optional<uint32_t> P = pre(KV.first, L);
      for (const std::string &Q : KV.second) {
        Optional<uint32_t> Post = post(Q, L);
        if (P && Post)
          edge(Endpoint::PreNode, *P, Endpoint::PostNode, *Post,
               EdgeOrigin::Mapping);
      }
    }
    for (auto &KV : Map.PostToPre) {
      Optional<uint32_t> Post = post(KV.first, L);
      for (const std::string &Q : KV.second) {
        Optional<uint32_t> P = pre(Q, L);
        if (P && Post)
          edge(Endpoint::PreNode, *P, Endpoint::PostNode, *Post,
               EdgeOrigin::Mapping);
      }
    }
    for (auto &KV : Map.KernelToPost) {
      Optional<uint32_t> K = kernel(KV.first, L);
      for (const std::string &Q : KV.second) {
        Optional<uint32_t> Post = postOfKernel(Q, L, K);
        if (K && Post)
          edge(Endpoint::PostNode, *Post, Endpoint::KernelRow, *K,
               EdgeOrigin::Mapping);
      }
    }
    for (auto &KV : Map.PostToKernel) {
      if (KV.second.empty())
        post(KV.first, L);
      for (const std::string &Q : KV.second) {
        Optional<uint32_t> K = kernel(Q, L);
        Optional<uint32_t> Post = postOfKernel(KV.first, L, K);
        if (K && Post)
          edge(Endpoint::PostNode, *Post, Endpoint::KernelRow, *K,
               EdgeOrigin::Mapping);
      }
    }
  }

  void nodeTree() {
    if (!U.NodeTree)
      return;
    uint32_t L = U.NodeTree->Line;
    Optional<int64_t> GraphId = U.PreGrad ? U.PreGrad->GraphId : None;
    for (auto &KV : U.NodeTree->Entries) {
      Optional<uint32_t> Post = post(KV.first, L);
      for (const NodeOrigin &O : KV.second) {
        // Only sources in the pre-grad graph count; with no graph id to
        // compare, any name the pre-grad graph has.
        if (GraphId && O.GraphId != *GraphId)
          continue;
        Optional<uint32_t> P = pre(O.Name, L, /*Report=*/GraphId.hasValue());
        if (P && Post)
          edge(Endpoint::PreNode, *P, Endpoint::PostNode, *Post,
               EdgeOrigin::NodeTree);
      }
    }
  }

  void kernelNodes() {
    if (!U.KernelNodes)
      return;
    uint32_t L = U.KernelNodes->Line;
    for (auto &KV : U.KernelNodes->Entries) {
      Optional<uint32_t> K = kernel(KV.first, L);
      for (const std::string &Q : KV.second) {
        Optional<uint32_t> Post = postOfKernel(Q, L, K);
        if (K && Post)
          edge(Endpoint::PostNode, *Post, Endpoint::KernelRow, *K,
               EdgeOrigin::KernelNodes);
      }
    }
  }

  void codeComments() {
    if (!U.Code)
      return;
    const CodeArtifact &C = *U.Code;
    // Rows the mapping (or the kernel-nodes artifact) covers need no
    // comment edges.
    StringSet<> KernelNodeKeys;
    if (!HasMapping && U.KernelNodes)
      for (auto &KV : U.KernelNodes->Entries)
        KernelNodeKeys.insert(KV.first);
    // The calls of each kernel name, so that a row looks at its own calls
    // only, and its (sorted) call lines by binary search: linear in the
    // launches, which a scan per row and per call made quadratic.
    StringMap<std::vector<const CallSite *>> CallsOf;
    for (const CallSite &S : C.Calls)
      CallsOf[S.Kernel].push_back(&S);
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      const Kernel &K = U.Kernels[R];
      if (K.InMapping || KernelNodeKeys.count(K.key()))
        continue;
      bool CallTopo = false;
      auto Calls = CallsOf.find(K.Name);
      for (const CallSite *SP :
           Calls == CallsOf.end() ? ArrayRef<const CallSite *>()
                                  : ArrayRef<const CallSite *>(Calls->second)) {
        const CallSite &S = *SP;
        if (!std::binary_search(K.CallLines.begin(), K.CallLines.end(),
                                S.Line))
          continue;
        CallTopo |= !S.TopoNames.empty();
        for (const std::string &N : S.TopoNames)
          if (Optional<uint32_t> P = preOfComment(N))
            edge(Endpoint::PreNode, *P, Endpoint::KernelRow, R,
                 EdgeOrigin::CodeComment, preCommentConfidence());
      }
      if (!K.Def)
        continue;
      const KernelDef &Def = C.Defs[*K.Def];
      for (const std::string &N : Def.FragmentNodes)
        if (Optional<uint32_t> Q = postOfKernel(N, 0, R, /*Report=*/false))
          edge(Endpoint::PostNode, *Q, Endpoint::KernelRow, R,
               EdgeOrigin::CodeComment);
      // The ATen side of `Source node to ATen node mapping` names the
      // post-grad nodes the kernel computes (the fragment also lists its
      // inputs, as placeholders).
      for (auto &PP : Def.SourceToAten)
        if (Optional<uint32_t> Q =
                postOfKernel(PP.second, 0, R, /*Report=*/false))
          edge(Endpoint::PostNode, *Q, Endpoint::KernelRow, R,
               EdgeOrigin::CodeComment);
      if (!CallTopo)
        for (const std::string &N : Def.TopoNames)
          if (Optional<uint32_t> P = preOfComment(N))
            edge(Endpoint::PreNode, *P, Endpoint::KernelRow, R,
                 EdgeOrigin::CodeComment, preCommentConfidence());
    }
    if (HasPreMapping || U.NodeTree)
      return;
    for (const KernelDef &Def : C.Defs)
      for (auto &PP : Def.SourceToAten) {
        Optional<uint32_t> P = pre(PP.first, 0, false);
        Optional<uint32_t> Q = post(PP.second, 0, false);
        if (P && Q)
          edge(Endpoint::PreNode, *P, Endpoint::PostNode, *Q,
               EdgeOrigin::CodeComment, preCommentConfidence());
      }
  }

  void inferSources() {
    // Each kernel's post-grad and pre-grad nodes with the confidence of
    // the edge (or, for a pre-grad node through a post-grad one, of the
    // less sure of the two edges).
    using Sure = std::map<uint32_t, uint8_t>;
    std::vector<Sure> PostOf(U.Kernels.size()), PreOf(U.Kernels.size());
    std::vector<bool> HasStack(U.Kernels.size(), false);
    auto Keep = [](Sure &S, uint32_t N, uint8_t C) {
      auto Ins = S.try_emplace(N, C);
      if (!Ins.second)
        Ins.first->second = std::max(Ins.first->second, C);
    };
    std::vector<std::vector<std::pair<uint32_t, uint8_t>>> PreOfPost(
        U.PostGrad ? U.PostGrad->Nodes.size() : 0);
    for (const Edge &E : U.Edges) {
      if (E.From.Kind == Endpoint::KernelRow && E.To.Kind == Endpoint::Source)
        HasStack[E.From.Index] = true;
      else if (E.From.Kind == Endpoint::PostNode &&
               E.To.Kind == Endpoint::KernelRow)
        Keep(PostOf[E.To.Index], E.From.Index, E.Confidence);
      else if (E.From.Kind == Endpoint::PreNode &&
               E.To.Kind == Endpoint::KernelRow)
        Keep(PreOf[E.To.Index], E.From.Index, E.Confidence);
      else if (E.From.Kind == Endpoint::PreNode &&
               E.To.Kind == Endpoint::PostNode)
        PreOfPost[E.To.Index].push_back({E.From.Index, E.Confidence});
    }
    for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
      if (HasStack[R])
        continue;
      // A source line is as sure as the surest way to it from the kernel:
      // the `# File:` comment of a post-grad node of the kernel, else the
      // stack of a pre-grad node of it (directly, or through a post-grad
      // node), each as sure as the edges it takes. A call's comment that
      // names several pre-grad nodes also names those its inputs come
      // from: which one is the call's own rests on its post-grad node
      // (InferLinks keeps that node's), so the direct way is no surer.
      Sure Pres = PreOf[R];
      if (!PostOf[R].empty() && U.Code) {
        std::set<StringRef> Names;
        const Kernel &K = U.Kernels[R];
        for (const CallSite &C : U.Code->Calls)
          if (C.Kernel == K.Name && llvm::is_contained(K.CallLines, C.Line))
            Names.insert(C.TopoNames.begin(), C.TopoNames.end());
        if (Names.size() > 1) {
          uint8_t Least = 100;
          for (auto &QC : PostOf[R])
            Least = std::min(Least, QC.second);
          for (auto &PC : Pres)
            PC.second = std::min(PC.second, Least);
        }
      }
      for (auto &QC : PostOf[R])
        for (auto &PC : PreOfPost[QC.first])
          Keep(Pres, PC.first, std::min(QC.second, PC.second));
      Sure Srcs;
      for (auto &QC : PostOf[R])
        if (U.PostGrad->Nodes[QC.first].Source)
          Keep(Srcs, *U.PostGrad->Nodes[QC.first].Source, QC.second);
      bool FromPost = !Srcs.empty();
      if (U.PreGrad)
        for (auto &PC : Pres)
          if (const Optional<uint32_t> &S = U.PreGrad->Nodes[PC.first].Source)
            if (!FromPost || Srcs.count(*S))
              Keep(Srcs, *S, PC.second);
      for (auto &SC : Srcs) {
        edge(Endpoint::KernelRow, R, Endpoint::Source, SC.first,
             EdgeOrigin::FXComment);
        U.Edges.back().Confidence = SC.second;
      }
    }
  }

  /// The unit's compile hit a cache: PyTorch logs no pre-grad graph when
  /// the AOTAutograd cache hits (Inductor's passes do not run again; an FX
  /// graph cache hit alone still logs it), so the mapping's pre-grad names
  /// have nothing to name. Normal input, not damage. The
  /// unit's own compile: after torch._dynamo.reset() a hit can follow a
  /// miss of the same id (findCompile(U), not the first of U.Key).
  bool cacheHit() const {
    if (const CompileRecord *R = M.findCompile(U))
      for (const CacheLookup &L : R->Caches)
        if (L.Result == CacheLookup::Hit)
          return true;
    return false;
  }

  /// " (N post-grad nodes have no other link)" for the post-grad nodes
  /// the mapping links to unlogged pre-grad names alone; "" if none.
  std::string byNameOnly() const {
    unsigned N = UnitProvenance(U).coverage().Post.ByPreGradName;
    if (!N)
      return "";
    return " (" +
           (N == 1 ? std::string("1 post-grad node has")
                   : std::to_string(N) + " post-grad nodes have") +
           " no other link)";
  }

  void reportUnresolved() {
    const unsigned Max = MaxMissReports;
    // A warm cache: one note for the pre-grad names, the rest as usual.
    // A folder says it has no pre-grad graph when it is read; here only
    // the mapping's pre-grad names that are left unlinked.
    if (WarmCache && (U.Key.Folder.empty() || WarmPreMisses)) {
      std::string Msg =
          "unit " + U.Key.displayName() +
          (U.Key.Folder.empty()
               ? ": cache hit: no pre-grad graph logged"
               : ": a TORCH_COMPILE_DEBUG folder has no pre-grad graph");
      if (WarmPreMisses)
        Msg += "; " +
               (WarmPreMisses == 1
                    ? std::string("the pre-grad name of the provenance "
                                  "mapping is")
                    : "the " + std::to_string(WarmPreMisses) +
                          " pre-grad names of the provenance mapping are") +
               " not linked" + byNameOnly() +
               "; its other entries are linked as usual";
      uint32_t Line = WarmPreMisses ? WarmFirstLine : 0;
      if (!Line && U.Key.Folder.empty())
        if (const Artifact *A = U.PostGrad ? static_cast<const Artifact *>(
                                                 U.PostGrad.get())
                                           : U.Code.get())
          Line = A->Line;
      D.note(File, Line, Msg);
    }
    if (EmptyPreLine)
      D.note(File, EmptyPreLine,
             "unit " + U.Key.displayName() +
                 ": the provenance mapping names post-grad nodes after an "
                 "empty pre-grad name, as PyTorch writes for nodes with no "
                 "pre-grad origin (a compiled-autograd graph); they are not "
                 "linked to a pre-grad node");
    for (size_t I = 0; I < Misses.size() && I < Max; ++I) {
      const Miss &Ms = Misses[I];
      std::string Where;
      if (Ms.What == "pre-grad node")
        Where = U.PreGrad ? " in '" + U.PreGrad->Name + "'"
                          : std::string(" (the unit has no pre-grad graph)");
      else if (Ms.What == "post-grad node")
        Where = U.PostGrad ? " in '" + U.PostGrad->Name + "'"
                           : std::string(" (the unit has no post-grad graph)");
      D.warning(File, Ms.Line,
                "unit " + U.Key.displayName() + ": " + Ms.What + " '" +
                    Ms.Name + "' of the provenance data names nothing" + Where);
    }
    if (MissCount > Max)
      D.warning(File, Misses[Max].Line,
                "unit " + U.Key.displayName() + ": " +
                    Twine(MissCount - Max) +
                    " more provenance names do not resolve");
  }
};

class LinkProvenancePass : public UnitPass {
public:
  StringRef getName() const override { return "link-provenance"; }

  void runOnUnit(const Module &M, CompileUnit &U,
                 DiagnosticEngine &D) override {
    Linker(M, U, D).run();
  }
};

} // namespace

std::unique_ptr<Pass> createLinkProvenancePass() {
  return std::make_unique<LinkProvenancePass>();
}

} // namespace tlp
