//===- InferLinks.h - Links inferred without a provenance mapping -*- C++ -*-===//
//
// Part of tlp. Used by link-provenance for units without a mapping: edges
// inferred from what every log holds (docs/inference.md).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_PASSES_INFERLINKS_H
#define TLP_LIB_PASSES_INFERLINKS_H

#include "tlp/IR/Module.h"

namespace tlp {

/// Add inferred edges to \p U: pre -> post (origin source-line) when
/// \p PrePost, post -> kernel (origin op-match) when \p PostKernel. Edges
/// already in U.Edges are kept and never duplicated.
/// \p RowScope: the kernel rows' post-grad scopes (kernelPostScopes).
void inferLinks(CompileUnit &U, bool PrePost, bool PostKernel,
                llvm::ArrayRef<llvm::Optional<llvm::StringRef>> RowScope);

/// For each kernel row of \p U, the post-grad scope (Node::Scope) its
/// calls run in: Inductor compiles a higher-order op's body
/// (`true_graph_0`, `repeated_subgraph0`, `partitioned_fw_subgraph_1_0`)
/// into a `def NAME(args):` of the Python wrapper, and the post-grad graph
/// prints the body as a nested class of that name. "" for a row called in
/// the wrapper's entry function (the top-level graph); None where not known
/// (no nested scope in the post-grad graph, calls in other functions or in
/// several, a name two scopes end with). The names the mapping and the
/// code comments give a kernel's post-grad nodes are bare (`addmm`), as
/// the top-level graph's.
std::vector<llvm::Optional<llvm::StringRef>>
kernelPostScopes(const CompileUnit &U);

} // namespace tlp

#endif // TLP_LIB_PASSES_INFERLINKS_H
