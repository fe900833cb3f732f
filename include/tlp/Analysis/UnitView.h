//===- UnitView.h - What the emitters read of one unit ----------*- C++ -*-===//
//
// Part of tlp. The per-unit model of the emitters: the facts about one
// compile unit that more than one output shows (its identity, the
// provenance index, coverage, each kernel's key, definitions and info
// entry, the unlinked nodes and kernels, the edges grouped by origin and
// confidence, the pre-grad nodes of each source line), computed once per
// unit. The JSON output, the HTML page data (both through UnitJSON.h), the
// Markdown report and the DOT drawer read a unit through it; the query
// engine (tlp/Analysis/Query.h) answers on it. A view borrows its module and
// unit: it lives while they do, on the thread that made it.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_UNITVIEW_H
#define TLP_ANALYSIS_UNITVIEW_H

#include "tlp/Analysis/Query.h"
#include "tlp/IR/Module.h"
#include "tlp/IR/Provenance.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tlp {

class UnitView {
public:
  UnitView(const Module &M, const CompileUnit &U);
  UnitView(const UnitView &) = delete;
  UnitView &operator=(const UnitView &) = delete;

  const Module &module() const { return M; }
  const CompileUnit &unit() const { return U; }
  /// The provenance index of the unit (node <-> node <-> kernel <-> line).
  const UnitProvenance &provenance() const { return P; }

  /// Identity: UnitKey::slug(), UnitKey::displayName(), the log's name,
  /// the compile id ("" for AOT and export), the graph kind's name.
  const std::string &slug() const { return Slug; }
  const std::string &displayName() const { return Name; }
  const std::string &logName() const { return Log; }
  const std::string &compileId() const { return CompileId; }
  llvm::StringRef graphName() const;
  /// The unit's compile record, if the log has one.
  const CompileRecord *compile() const { return Compile; }
  /// The index of compile() in Module::Compiles; None without one.
  llvm::Optional<size_t> compileIndex() const;

  const UnitCoverage &coverage() const { return Coverage; }

  /// What a kernel row's definitions and info are, checked against the
  /// unit's code (null when the kernel has none or the index is out of
  /// range).
  struct KernelFacts {
    std::string Key; ///< Kernel::key()
    const KernelDef *Def = nullptr;           ///< in the wrapper (Code)
    const KernelDef *KernelCodeDef = nullptr; ///< in the AOT kernel file
    const KernelInfoArtifact::Entry *Info = nullptr;
  };
  const std::vector<KernelFacts> &kernels() const { return Kernels; }
  const KernelFacts &kernel(uint32_t Row) const { return Kernels[Row]; }

  /// Computing nodes linked to nothing (pre-grad, post-grad), kernels
  /// with no node, kernels with no user source line.
  const std::vector<uint32_t> &unlinkedPre() const { return UnlinkedPre; }
  const std::vector<uint32_t> &unlinkedPost() const { return UnlinkedPost; }
  const std::vector<uint32_t> &kernelsWithoutNodes() const {
    return NoNodes;
  }
  const std::vector<uint32_t> &kernelsWithoutSource() const {
    return NoSource;
  }

  /// The unit's edges grouped by origin and confidence, groups in the
  /// order of their first edge, each with its edges' indices in
  /// CompileUnit::Edges.
  struct EdgeGroup {
    EdgeOrigin Origin;
    uint8_t Confidence;
    std::vector<uint32_t> Edges;
  };
  const std::vector<EdgeGroup> &edgeGroups() const { return Groups; }

  /// The inferred edges (confidence under 100, docs/inference.md): how
  /// many, their confidence range, and how many of each inferring origin.
  struct InferredEdges {
    unsigned Count = 0, Low = 100, High = 0;
    unsigned SourceLine = 0, OpMatch = 0, FXComment = 0;
    /// Code-comment edges under 100: names of a backward's comments
    /// matched against the forward's pre-grad graph.
    unsigned CodeComment = 0;
  };
  const InferredEdges &inferred() const { return Inferred; }

  /// "pre:NAME", "post:NAME", "kernel:KEY", "source:FILE:LINE".
  std::string endpointText(const Endpoint &E) const;

  /// The pre-grad nodes whose `# File:` line is source row \p S, in graph
  /// order.
  const std::vector<uint32_t> &preOfSource(uint32_t S) const {
    return PreOfSource[S];
  }

  /// The index of \p N's source row, if it has a valid one.
  llvm::Optional<uint32_t> sourceOf(const Node &N) const {
    if (N.Source && *N.Source < U.Sources.size())
      return *N.Source;
    return llvm::None;
  }

  /// The query engine's answer for this unit (ProvenanceQuery::answer).
  llvm::Optional<QueryAnswer> answer(ProvenanceQuery &Q) const {
    return Q.answer(U, P);
  }

private:
  const Module &M;
  const CompileUnit &U;
  UnitProvenance P;
  std::string Slug, Name, Log, CompileId;
  const CompileRecord *Compile;
  UnitCoverage Coverage;
  std::vector<KernelFacts> Kernels;
  std::vector<uint32_t> UnlinkedPre, UnlinkedPost, NoNodes, NoSource;
  std::vector<EdgeGroup> Groups;
  InferredEdges Inferred;
  std::vector<std::vector<uint32_t>> PreOfSource;
};

} // namespace tlp

#endif // TLP_ANALYSIS_UNITVIEW_H
