//===- GraphBreaks.h - The distinct graph breaks of a log -------*- C++ -*-===//
//
// Part of tlp. A training job breaks its graphs at the same few places on
// every rank and every recompile; a user wants each break once: what broke,
// where in their code, and how many compiles, frames and ranks hit it
// (pytorch/pytorch#153669). This groups the graph breaks and restart
// reasons of every compile record of the module by their one-line label
// and place. See docs/IR.md, "Distinct graph breaks".
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_GRAPHBREAKS_H
#define TLP_ANALYSIS_GRAPHBREAKS_H

#include "tlp/IR/Types.h"


#include <cstdint>
#include <string>
#include <vector>

namespace tlp {

class Module;
struct BreakReason;

/// One distinct break: a label at a place.
struct DistinctBreak {
  /// The first of its reasons seen (log order of the records).
  const BreakReason *First = nullptr;
  /// Indices into Module::Compiles of the records that hit it, in order.
  std::vector<size_t> Records;
  /// How many times it was seen in all (the reasons' counts summed).
  uint64_t Hits = 0;
  /// The distinct frames (log, rank, compiled-autograd id, frame id) and
  /// ranks (none: the logs give no rank) that hit it.
  size_t Frames = 0;
  std::vector<int64_t> Ranks;
};

/// The distinct breaks of \p M: most compiles first, then in the order of
/// Module::Compiles. Two reasons are the same break when their label
/// (BreakReason::label) and place (the user frame, else the place PyTorch
/// names) are; a reason without a place is the break of the same label
/// with a place in its compile, any attempt (the metrics' restart_reasons
/// repeat the dynamo_graph_break_reason without its place).
std::vector<DistinctBreak> distinctBreaks(const Module &M);

} // namespace tlp

#endif // TLP_ANALYSIS_GRAPHBREAKS_H
