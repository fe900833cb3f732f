//===- DataFlow.h - Data-flow edges of an FX graph --------------*- C++ -*-===//
//
// Part of tlp. The IR keeps each FX node's line but not its arguments; the
// arguments are read back from that line of the graph text: the names of
// other nodes of the same scope that the right-hand side uses (not
// attribute names, keyword names, callees or strings). Emitters use it to
// draw graphs.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_DATAFLOW_H
#define TLP_IR_DATAFLOW_H

#include "tlp/IR/Artifact.h"

#include <cstdint>
#include <vector>

namespace tlp {

/// For every node of \p G, the indices of the nodes it uses, in order of
/// first use, without duplicates. Placeholders use nothing; the output
/// node uses what it returns (a return may span several lines).
std::vector<std::vector<uint32_t>> computeNodeInputs(const GraphArtifact &G);

} // namespace tlp

#endif // TLP_IR_DATAFLOW_H
