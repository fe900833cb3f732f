//===- DataFlow.cpp - Data-flow edges of an FX graph ----------------------===//

#include "tlp/Analysis/DataFlow.h"

namespace tlp {

std::vector<std::vector<uint32_t>> nodeInputs(const GraphArtifact &G) {
  std::vector<std::vector<uint32_t>> Inputs;
  Inputs.reserve(G.Nodes.size());
  for (const Node &N : G.Nodes)
    Inputs.push_back(N.Inputs);
  return Inputs;
}

} // namespace tlp
