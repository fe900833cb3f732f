//===- UnitView.cpp - What the emitters read of one unit ------------------===//

#include "tlp/Analysis/UnitView.h"

#include <algorithm>

using namespace llvm;

namespace tlp {

UnitView::UnitView(const Module &M, const CompileUnit &U)
    : M(M), U(U), P(U), Slug(U.Key.slug()), Name(U.Key.displayName()),
      Log(M.logName(U.Key.Log)),
      CompileId(U.Key.Id ? U.Key.Id->str() : std::string()),
      Compile(M.findCompile(U)), Coverage(P.coverage()) {
  Kernels.resize(U.Kernels.size());
  for (uint32_t R = 0; R < U.Kernels.size(); ++R) {
    const Kernel &K = U.Kernels[R];
    KernelFacts &F = Kernels[R];
    F.Key = K.key();
    if (K.Def && U.Code && *K.Def < U.Code->Defs.size())
      F.Def = &U.Code->Defs[*K.Def];
    if (K.KernelCodeDef && U.KernelCode &&
        *K.KernelCodeDef < U.KernelCode->Defs.size())
      F.KernelCodeDef = &U.KernelCode->Defs[*K.KernelCodeDef];
    if (U.KernelInfo)
      for (const KernelInfoArtifact::Entry &E : U.KernelInfo->Entries)
        if (E.Kernel == K.Name) {
          F.Info = &E;
          break;
        }
    if (!P.kernelLinked(R))
      NoNodes.push_back(R);
    if (P.sourcesOfKernel(R).empty())
      NoSource.push_back(R);
  }
  auto Unlinked = [&](const GraphArtifact *G, bool Pre,
                      std::vector<uint32_t> &Out) {
    if (G)
      for (uint32_t I = 0; I < G->Nodes.size(); ++I)
        if (isComputeNode(G->Nodes[I]) &&
            !(Pre ? P.preLinked(I) : P.postLinked(I)))
          Out.push_back(I);
  };
  Unlinked(U.PreGrad.get(), true, UnlinkedPre);
  Unlinked(U.PostGrad.get(), false, UnlinkedPost);

  for (uint32_t I = 0; I < U.Edges.size(); ++I) {
    const Edge &E = U.Edges[I];
    auto It = std::find_if(Groups.begin(), Groups.end(), [&](const auto &G) {
      return G.Origin == E.Origin && G.Confidence == E.Confidence;
    });
    if (It == Groups.end()) {
      Groups.push_back({E.Origin, E.Confidence, {}});
      It = std::prev(Groups.end());
    }
    It->Edges.push_back(I);
    if (E.Confidence >= 100)
      continue;
    ++Inferred.Count;
    Inferred.Low = std::min<unsigned>(Inferred.Low, E.Confidence);
    Inferred.High = std::max<unsigned>(Inferred.High, E.Confidence);
    Inferred.SourceLine += E.Origin == EdgeOrigin::SourceLine;
    Inferred.OpMatch += E.Origin == EdgeOrigin::OpMatch;
    Inferred.FXComment += E.Origin == EdgeOrigin::FXComment;
    Inferred.CodeComment += E.Origin == EdgeOrigin::CodeComment;
  }

  PreOfSource.resize(U.Sources.size());
  if (U.PreGrad)
    for (uint32_t I = 0; I < U.PreGrad->Nodes.size(); ++I)
      if (Optional<uint32_t> S = sourceOf(U.PreGrad->Nodes[I]))
        PreOfSource[*S].push_back(I);
}

StringRef UnitView::graphName() const { return graphKindName(U.Key.Graph); }

Optional<size_t> UnitView::compileIndex() const {
  if (!Compile)
    return None;
  return static_cast<size_t>(Compile - M.Compiles.data());
}

std::string UnitView::endpointText(const Endpoint &E) const {
  static const char *const Kinds[] = {"pre:", "post:", "kernel:", "source:"};
  return Kinds[E.Kind] + U.endpointName(E);
}

} // namespace tlp
