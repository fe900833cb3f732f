//===- DataFlow.h - Data-flow edges of an FX graph --------------*- C++ -*-===//
//
// Part of tlp. Each FX node keeps its data-flow inputs (Node::Inputs): the
// FX parser computes them once from the node's line, and the IR text
// keeps them (`inputs: [a, b]`). Emitters use them to draw graphs, passes
// to follow values.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_DATAFLOW_H
#define TLP_ANALYSIS_DATAFLOW_H

#include "tlp/IR/Artifact.h"

#include <cstdint>
#include <vector>

namespace tlp {

/// For every node of \p G, the indices of the nodes it uses (Node::Inputs),
/// in order of first use, without duplicates. Placeholders use nothing;
/// the output node uses what it returns.
std::vector<std::vector<uint32_t>> nodeInputs(const GraphArtifact &G);

} // namespace tlp

#endif // TLP_ANALYSIS_DATAFLOW_H
