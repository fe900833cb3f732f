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

/// The op a node target names: `torch.ops.aten.add.Tensor` -> `add`,
/// `torch.sigmoid` -> `sigmoid`, `operator.mul` -> `mul`, `_softmax` ->
/// `softmax`. Empty if none.
std::string targetOp(llvm::StringRef Target);

/// The op names a kernel name holds: `triton_poi_fused_addmm_relu_0` ->
/// {addmm, relu} (split at '_': {addmm, relu}); `extern_kernels.mm` ->
/// {mm}; `aoti_torch_cpu_addmm_out` -> {addmm};
/// `torch.ops.aten.cumsum.default` -> {cumsum}.
std::vector<std::string> kernelOpTokens(llvm::StringRef Name, KernelKind K);

} // namespace tlp

#endif // TLP_LIB_PASSES_INFERLINKS_H
