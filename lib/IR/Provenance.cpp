//===- Provenance.cpp - Queries over a unit's provenance edges ------------===//

#include "tlp/IR/Provenance.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

using namespace llvm;

namespace tlp {

bool isComputeNode(const Node &N) {
  return N.Op == NodeOp::CallFunction || N.Op == NodeOp::CallMethod ||
         N.Op == NodeOp::CallModule || N.Op == NodeOp::Unknown;
}

bool isBookkeepingNode(const Node &N) {
  if (N.Op != NodeOp::CallFunction)
    return false;
  StringRef T = N.Target;
  // torch.func's own helpers (`predispatch._add_batch_dim`,
  // `eager_transforms._set_tensor_requires_grad`) but not its ops that
  // compute (`eager_transforms._autograd_grad` is the gradient).
  if (T.startswith("torch._functorch.") || T.startswith("torch._C._functorch."))
    return !T.endswith("._autograd_grad") && !T.endswith(".vjp") &&
           !T.endswith(".jvp");
  return T.startswith("torch._C._autograd._saved_tensors_hooks_") ||
         T == "torch._C._set_grad_enabled" ||
         T == "torch.autograd.grad_mode.set_grad_enabled";
}

static void sortUnique(std::vector<uint32_t> &V) {
  llvm::sort(V);
  V.erase(std::unique(V.begin(), V.end()), V.end());
}

bool hasProvenanceRecord(const CompileUnit &U) {
  if (U.NodeTree || U.KernelNodes)
    return true;
  const MappingArtifact *M = U.Mapping.get();
  return M && !(M->PreToPost.empty() && M->PostToPre.empty() &&
                M->KernelToPost.empty() && M->PostToKernel.empty());
}

bool unlinkedPreVanished(const CompileUnit &U) {
  return hasProvenanceRecord(U) && U.Key.Graph != GraphKind::Backward;
}

/// A call of a higher-order op: `torch.ops.higher_order.cond(...)`.
static bool isHigherOrderCall(const Node &N) {
  StringRef T = N.Target;
  return T.startswith("torch.ops.higher_order.") ||
         T.startswith("higher_order.");
}

UnitProvenance::UnlinkedFate UnitProvenance::unlinkedFate(uint32_t Pre) const {
  if (!hasProvenanceRecord(U))
    return UnlinkedFate::NoRecord;
  if (U.Key.Graph == GraphKind::Backward)
    return UnlinkedFate::ForwardGraph;
  if (!U.PreGrad || Pre >= U.PreGrad->Nodes.size())
    return UnlinkedFate::Vanished;
  const Node &N = U.PreGrad->Nodes[Pre];
  if (RecordedScopes.empty())
    return UnlinkedFate::NoPreRecord;
  if (isHigherOrderCall(N))
    return UnlinkedFate::HigherOrderOp;
  // `x = tag_activation_checkpoint[0]`: an output of one.
  if (N.Target == "operator.getitem" && !N.Inputs.empty() &&
      N.Inputs.front() < U.PreGrad->Nodes.size() &&
      isHigherOrderCall(U.PreGrad->Nodes[N.Inputs.front()]))
    return UnlinkedFate::HigherOrderOp;
  if (!N.Scope.empty() &&
      !std::binary_search(RecordedScopes.begin(), RecordedScopes.end(),
                          StringRef(N.Scope)))
    return UnlinkedFate::UnnamedBody;
  if (isBookkeepingNode(N))
    return UnlinkedFate::Bookkeeping;
  // `value = _autograd_grad[0]`, `getitem_20 = _foreach_add[3]`: an item
  // of a result the record has, or of bookkeeping.
  if (N.Target == "operator.getitem" && !N.Inputs.empty() &&
      N.Inputs.front() < U.PreGrad->Nodes.size()) {
    uint32_t In = N.Inputs.front();
    if (preLinked(In) || isBookkeepingNode(U.PreGrad->Nodes[In]))
      return UnlinkedFate::ItemOfLinked;
  }
  return UnlinkedFate::Vanished;
}

UnitProvenance::UnitProvenance(const CompileUnit &U) : U(U) {
  size_t NK = U.Kernels.size();
  size_t NPre = U.PreGrad ? U.PreGrad->Nodes.size() : 0;
  size_t NPost = U.PostGrad ? U.PostGrad->Nodes.size() : 0;
  KernelPost.resize(NK);
  KernelPre.resize(NK);
  KernelSources.resize(NK);
  KernelSourceOrigins.resize(NK);
  PrePost.resize(NPre);
  PreKernels.resize(NPre);
  PostPre.resize(NPost);
  PostKernels.resize(NPost);
  std::vector<std::pair<uint32_t, uint32_t>> KS; // kernel, source
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, EdgeOrigin>> KSO;
  for (const Edge &E : U.Edges) {
    uint32_t F = E.From.Index, T = E.To.Index;
    if (E.From.Kind == Endpoint::PreNode && E.To.Kind == Endpoint::PostNode &&
        F < NPre && T < NPost) {
      PrePost[F].push_back(T);
      PostPre[T].push_back(F);
    } else if (E.From.Kind == Endpoint::PostNode &&
               E.To.Kind == Endpoint::KernelRow && F < NPost && T < NK) {
      PostKernels[F].push_back(T);
      KernelPost[T].push_back(F);
    } else if (E.From.Kind == Endpoint::PreNode &&
               E.To.Kind == Endpoint::KernelRow && F < NPre && T < NK) {
      PreKernels[F].push_back(T);
      KernelPre[T].push_back(F);
    } else if (E.From.Kind == Endpoint::KernelRow &&
               E.To.Kind == Endpoint::Source && F < NK &&
               T < U.Sources.size()) {
      KSO.push_back({{F, T}, E.Origin});
    }
  }
  // The scopes PyTorch's record speaks for.
  if (U.PreGrad) {
    for (const Edge &E : U.Edges)
      if (E.From.Kind == Endpoint::PreNode && E.From.Index < NPre &&
          (E.Origin == EdgeOrigin::Mapping ||
           E.Origin == EdgeOrigin::NodeTree ||
           E.Origin == EdgeOrigin::KernelNodes))
        RecordedScopes.push_back(U.PreGrad->Nodes[E.From.Index].Scope);
    llvm::sort(RecordedScopes);
    RecordedScopes.erase(
        std::unique(RecordedScopes.begin(), RecordedScopes.end()),
        RecordedScopes.end());
  }
  // Transitive: pre -> post -> kernel.
  for (uint32_t K = 0; K < NK; ++K) {
    for (uint32_t Q : KernelPost[K])
      for (uint32_t P : PostPre[Q]) {
        KernelPre[K].push_back(P);
        PreKernels[P].push_back(K);
      }
  }
  auto ByLine = [](const GraphArtifact *G) {
    return [G](uint32_t A, uint32_t B) {
      return G->Nodes[A].Line != G->Nodes[B].Line
                 ? G->Nodes[A].Line < G->Nodes[B].Line
                 : A < B;
    };
  };
  for (auto *V :
       {&KernelPost, &KernelPre, &PrePost, &PostPre, &PostKernels, &PreKernels})
    for (auto &L : *V)
      sortUnique(L);
  if (U.PostGrad)
    for (auto &L : KernelPost)
      llvm::sort(L, ByLine(U.PostGrad.get()));
  if (U.PreGrad) {
    for (auto &L : KernelPre)
      llvm::sort(L, ByLine(U.PreGrad.get()));
    for (auto &L : PostPre)
      llvm::sort(L, ByLine(U.PreGrad.get()));
  }
  if (U.PostGrad)
    for (auto &L : PrePost)
      llvm::sort(L, ByLine(U.PostGrad.get()));
  // Sources by file and line; one origin per source (the first edge's).
  llvm::sort(KSO, [&](const auto &A, const auto &B) {
    if (A.first.first != B.first.first)
      return A.first.first < B.first.first;
    const SourceLoc &SA = U.Sources[A.first.second];
    const SourceLoc &SB = U.Sources[B.first.second];
    if (!(SA == SB))
      return SA < SB;
    return A.second < B.second;
  });
  for (auto &E : KSO) {
    auto &L = KernelSources[E.first.first];
    if (!L.empty() && L.back() == E.first.second)
      continue;
    L.push_back(E.first.second);
    KernelSourceOrigins[E.first.first].push_back(E.second);
  }
  // Kernels of each source line, through every path, shared by the
  // entries of one file and line.
  std::map<std::pair<StringRef, uint32_t>, std::vector<uint32_t>> LineKernels;
  for (uint32_t K = 0; K < NK; ++K)
    for (uint32_t S : KernelSources[K])
      LineKernels[{U.Sources[S].File, U.Sources[S].Line}].push_back(K);
  auto FromNodes = [&](const GraphArtifact *G,
                       const std::vector<std::vector<uint32_t>> &Kernels) {
    if (!G)
      return;
    for (uint32_t I = 0; I < G->Nodes.size(); ++I) {
      const Optional<uint32_t> &S = G->Nodes[I].Source;
      if (!S || *S >= U.Sources.size() || Kernels[I].empty())
        continue;
      auto &L = LineKernels[{U.Sources[*S].File, U.Sources[*S].Line}];
      L.insert(L.end(), Kernels[I].begin(), Kernels[I].end());
    }
  };
  FromNodes(U.PreGrad.get(), PreKernels);
  FromNodes(U.PostGrad.get(), PostKernels);
  SourceKernels.resize(U.Sources.size());
  for (auto &KV : LineKernels)
    sortUnique(KV.second);
  for (uint32_t S = 0; S < U.Sources.size(); ++S) {
    if (U.Sources[S].hasSpan())
      continue;
    auto It = LineKernels.find({U.Sources[S].File, U.Sources[S].Line});
    if (It != LineKernels.end())
      SourceKernels[S] = It->second;
  }
  // A call of the line (an entry with a span): the kernels whose stack
  // traces underline that same span. Nodes have no span (an FX `# File:`
  // comment names the line only), so a kernel reached through them, or
  // one whose trace underlines another span of the line, is not the
  // call's.
  using Spot = std::tuple<StringRef, uint32_t, uint32_t, uint32_t>;
  auto SpotOf = [&](uint32_t S) {
    const SourceLoc &L = U.Sources[S];
    return Spot(L.File, L.Line, L.SpanBegin, L.SpanEnd);
  };
  std::map<Spot, std::vector<uint32_t>> SpotKernels;
  for (uint32_t K = 0; K < NK; ++K)
    for (uint32_t S : KernelSources[K])
      if (U.Sources[S].hasSpan())
        SpotKernels[SpotOf(S)].push_back(K);
  for (auto &KV : SpotKernels)
    sortUnique(KV.second);
  for (uint32_t S = 0; S < U.Sources.size(); ++S)
    if (U.Sources[S].hasSpan()) {
      auto It = SpotKernels.find(SpotOf(S));
      if (It != SpotKernels.end())
        SourceKernels[S] = It->second;
    }
}

UnitCoverage UnitProvenance::coverage() const {
  UnitCoverage C;
  if (U.PreGrad)
    for (uint32_t I = 0; I < U.PreGrad->Nodes.size(); ++I)
      if (isComputeNode(U.PreGrad->Nodes[I])) {
        ++C.Pre.Total;
        C.Pre.Linked += preLinked(I);
      }
  // Without a pre-grad graph, the post-grad names the mapping gives a
  // pre-grad node (in either direction).
  StringSet<> Named;
  if (!U.PreGrad && U.Mapping) {
    for (const auto &KV : U.Mapping->PostToPre)
      if (!KV.second.empty())
        Named.insert(KV.first);
    for (const auto &KV : U.Mapping->PreToPost)
      for (const std::string &Q : KV.second)
        Named.insert(Q);
  }
  if (U.PostGrad)
    for (uint32_t I = 0; I < U.PostGrad->Nodes.size(); ++I)
      if (isComputeNode(U.PostGrad->Nodes[I])) {
        ++C.Post.Total;
        if (postLinked(I))
          ++C.Post.Linked;
        else if (Named.count(U.PostGrad->Nodes[I].Name))
          ++C.Post.ByPreGradName;
      }
  for (uint32_t K = 0; K < U.Kernels.size(); ++K) {
    ++C.Kernels.Total;
    C.Kernels.Linked += kernelLinked(K);
  }
  return C;
}

} // namespace tlp
