//===- Artifact.cpp - Typed artifacts lowered from a trace log ------------===//

#include "tlp/IR/Artifact.h"
#include "tlp/IR/SourceInfo.h"

#include <algorithm>


using namespace llvm;

namespace tlp {

Artifact::~Artifact() = default;

std::unique_ptr<Artifact> GraphArtifact::clone() const {
  return std::make_unique<GraphArtifact>(*this);
}
std::unique_ptr<Artifact> CodeArtifact::clone() const {
  return std::make_unique<CodeArtifact>(*this);
}
std::unique_ptr<Artifact> MappingArtifact::clone() const {
  return std::make_unique<MappingArtifact>(*this);
}
std::unique_ptr<Artifact> StackTraceArtifact::clone() const {
  return std::make_unique<StackTraceArtifact>(*this);
}
std::unique_ptr<Artifact> KernelInfoArtifact::clone() const {
  return std::make_unique<KernelInfoArtifact>(*this);
}
std::unique_ptr<Artifact> NodeTreeArtifact::clone() const {
  return std::make_unique<NodeTreeArtifact>(*this);
}
std::unique_ptr<Artifact> KernelNodesArtifact::clone() const {
  return std::make_unique<KernelNodesArtifact>(*this);
}

void GraphArtifact::reindex() {
  Lines.build(Text);
  Index.clear();
  // Top-level names win over nested ones; among equals the first wins.
  for (unsigned Pass = 0; Pass < 2; ++Pass)
    for (uint32_t I = 0, E = Nodes.size(); I < E; ++I) {
      const Node &N = Nodes[I];
      if ((Pass == 0) != N.Scope.empty())
        continue;
      Index.try_emplace(N.Name, I);
      if (!N.Scope.empty())
        Index.try_emplace(N.qualifiedName(), I);
    }
}

Optional<SourceLoc> GraphArtifact::fileComment(uint32_t Line) const {
  if (!FileCommentsParsed) {
    if (!Line || Line > Lines.size())
      return None;
    return parseFXFileComment(Lines.line(Text, Line));
  }
  auto It = std::lower_bound(
      FileComments.begin(), FileComments.end(), Line,
      [](const std::pair<uint32_t, SourceLoc> &C, uint32_t L) {
        return C.first < L;
      });
  if (It == FileComments.end() || It->first != Line)
    return None;
  return It->second;
}

Optional<uint32_t> GraphArtifact::findNode(StringRef Name) const {
  auto It = Index.find(Name);
  if (It == Index.end())
    return None;
  return It->second;
}

void CodeArtifact::reindex() {
  Lines.build(Text);
  DefIndex.clear();
  for (uint32_t I = 0, E = Defs.size(); I < E; ++I)
    DefIndex.try_emplace(Defs[I].Name, I);
}

Optional<uint32_t> CodeArtifact::findDef(StringRef Name) const {
  auto It = DefIndex.find(Name);
  if (It == DefIndex.end())
    return None;
  return It->second;
}

} // namespace tlp
