//===- Artifact.cpp - Typed artifacts lowered from a trace log ------------===//

#include "tlp/IR/Artifact.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace tlp {

Artifact::~Artifact() = default;

StringRef artifactKindName(Artifact::ArtifactKind K) {
  switch (K) {
  case Artifact::AK_PreGradGraph:
    return "pre_grad_graph";
  case Artifact::AK_PostGradGraph:
    return "post_grad_graph";
  case Artifact::AK_OutputCode:
    return "output_code";
  case Artifact::AK_AOTWrapperCode:
    return "aot_wrapper_code";
  case Artifact::AK_AOTKernelCode:
    return "aot_kernel_code";
  case Artifact::AK_NodeMappings:
    return "node_mappings";
  case Artifact::AK_KernelStackTraces:
    return "kernel_stack_traces";
  case Artifact::AK_TritonKernelInfo:
    return "triton_kernel_info";
  case Artifact::AK_PostToPreGradNodes:
    return "post_to_pre_grad_nodes";
  case Artifact::AK_KernelToPostGradNodes:
    return "kernel_to_post_grad_nodes";
  }
  return "unknown";
}

bool parseArtifactKind(StringRef S, Artifact::ArtifactKind &K) {
  Optional<Artifact::ArtifactKind> R =
      StringSwitch<Optional<Artifact::ArtifactKind>>(S)
          .Case("pre_grad_graph", Artifact::AK_PreGradGraph)
          .Case("post_grad_graph", Artifact::AK_PostGradGraph)
          .Case("output_code", Artifact::AK_OutputCode)
          .Case("aot_wrapper_code", Artifact::AK_AOTWrapperCode)
          .Case("aot_kernel_code", Artifact::AK_AOTKernelCode)
          .Case("node_mappings", Artifact::AK_NodeMappings)
          .Case("kernel_stack_traces", Artifact::AK_KernelStackTraces)
          .Case("triton_kernel_info", Artifact::AK_TritonKernelInfo)
          .Case("post_to_pre_grad_nodes", Artifact::AK_PostToPreGradNodes)
          .Case("kernel_to_post_grad_nodes", Artifact::AK_KernelToPostGradNodes)
          .Default(None);
  if (!R)
    return false;
  K = *R;
  return true;
}

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

std::unique_ptr<Artifact> createArtifact(Artifact::ArtifactKind K) {
  switch (K) {
  case Artifact::AK_PreGradGraph:
  case Artifact::AK_PostGradGraph:
    return std::make_unique<GraphArtifact>(K);
  case Artifact::AK_OutputCode:
  case Artifact::AK_AOTWrapperCode:
  case Artifact::AK_AOTKernelCode:
    return std::make_unique<CodeArtifact>(K);
  case Artifact::AK_NodeMappings:
    return std::make_unique<MappingArtifact>();
  case Artifact::AK_KernelStackTraces:
    return std::make_unique<StackTraceArtifact>();
  case Artifact::AK_TritonKernelInfo:
    return std::make_unique<KernelInfoArtifact>();
  case Artifact::AK_PostToPreGradNodes:
    return std::make_unique<NodeTreeArtifact>();
  case Artifact::AK_KernelToPostGradNodes:
    return std::make_unique<KernelNodesArtifact>();
  }
  return nullptr;
}

} // namespace tlp
