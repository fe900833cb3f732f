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
void inferLinks(CompileUnit &U, bool PrePost, bool PostKernel);

} // namespace tlp

#endif // TLP_LIB_PASSES_INFERLINKS_H
