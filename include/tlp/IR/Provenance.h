//===- Provenance.h - Queries over a unit's provenance edges ----*- C++ -*-===//
//
// Part of tlp. A read-only index of one unit's edges, for emitters: the
// post-grad and pre-grad nodes of each kernel row (directly or through its
// post-grad nodes), the kernels of each node, the sources of each kernel,
// and coverage figures. Lists are sorted by line (nodes), by table order
// (kernels) or by file and line (sources).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_PROVENANCE_H
#define TLP_IR_PROVENANCE_H

#include "tlp/IR/Module.h"

#include <vector>

namespace tlp {

struct CoverageCount {
  unsigned Linked = 0;
  unsigned Total = 0;
  /// Post-grad nodes only: of those not linked, the ones the provenance
  /// mapping gives a pre-grad node that the unit cannot show, as no
  /// pre-grad graph was logged (an FX graph cache hit, a TORCH_COMPILE_DEBUG
  /// folder). Their origin is known by name; they are not counted linked.
  unsigned ByPreGradName = 0;
  double ratio() const { return Total ? double(Linked) / Total : 0.0; }
};

struct UnitCoverage {
  CoverageCount Pre, Post, Kernels;
};

/// Nodes that count for coverage: the computing ones (not placeholders,
/// attributes or the output).
bool isComputeNode(const Node &N);

/// A call of a torch.func transform's or autograd's bookkeeping, which
/// computes no data (UnitProvenance::UnlinkedFate::Bookkeeping): targets
/// under `torch._functorch.` or `torch._C._functorch.`, the saved-tensor
/// hooks and `_set_grad_enabled` of `torch._C`.
bool isBookkeepingNode(const Node &N);

/// Whether PyTorch recorded where the unit's nodes went: a provenance
/// mapping with at least one entry (PyTorch 2.13 logs `{"version": 2.0}`
/// for many backward graphs), or the older node maps. Without such a
/// record a node linked to nothing is unknown, not vanished.
bool hasProvenanceRecord(const CompileUnit &U);

/// Whether a pre-grad node linked to nothing can be said to have vanished:
/// the unit has a provenance record and its pre-grad graph is its own (a
/// backward unit shows the forward's, whose nodes need no backward code).
bool unlinkedPreVanished(const CompileUnit &U);

class UnitProvenance {
public:
  explicit UnitProvenance(const CompileUnit &U);

  const std::vector<uint32_t> &postOfKernel(uint32_t Row) const {
    return KernelPost[Row];
  }
  /// Pre-grad nodes of a kernel: direct edges and those of its post nodes.
  const std::vector<uint32_t> &preOfKernel(uint32_t Row) const {
    return KernelPre[Row];
  }
  const std::vector<uint32_t> &sourcesOfKernel(uint32_t Row) const {
    return KernelSources[Row];
  }
  /// Origins of the kernel -> source edges, parallel to sourcesOfKernel.
  const std::vector<EdgeOrigin> &sourceOriginsOfKernel(uint32_t Row) const {
    return KernelSourceOrigins[Row];
  }
  const std::vector<uint32_t> &postOfPre(uint32_t Pre) const {
    return PrePost[Pre];
  }
  const std::vector<uint32_t> &preOfPost(uint32_t Post) const {
    return PostPre[Post];
  }
  const std::vector<uint32_t> &kernelsOfPost(uint32_t Post) const {
    return PostKernels[Post];
  }
  /// Kernels of a pre-grad node: direct and through its post-grad nodes.
  const std::vector<uint32_t> &kernelsOfPre(uint32_t Pre) const {
    return PreKernels[Pre];
  }
  /// Kernels of user source line \p S (an index into U.Sources): one
  /// answer for the report, the HTML, the JSON and --source. Every source
  /// entry with the same file and line counts (their function or code text
  /// may differ); a kernel counts when it has an edge to one of them, or
  /// when a pre-grad or post-grad node of one of them went into it. In
  /// table order. An entry with a span (one call of the line, as a kernel
  /// stack trace underlines it) has only the kernels whose traces
  /// underline the same span of the same line.
  const std::vector<uint32_t> &kernelsOfSource(uint32_t S) const {
    return SourceKernels[S];
  }
  bool preLinked(uint32_t Pre) const {
    return !PrePost[Pre].empty() || !PreKernels[Pre].empty();
  }
  bool postLinked(uint32_t Post) const {
    return !PostPre[Post].empty() || !PostKernels[Post].empty();
  }
  bool kernelLinked(uint32_t Row) const {
    return !KernelPost[Row].empty() || !KernelPre[Row].empty();
  }
  UnitCoverage coverage() const;

  /// What can be said of a pre-grad node linked to nothing.
  enum class UnlinkedFate {
    /// PyTorch's record names the nodes of its graph and none of its
    /// edges: it vanished (dead code, folded constants, or provenance
    /// Inductor lost).
    Vanished,
    /// The unit has no provenance record (hasProvenanceRecord).
    NoRecord,
    /// A backward unit: its pre-grad graph is the forward's.
    ForwardGraph,
    /// The record names no pre-grad node: a mapping with post-grad and
    /// kernel entries only (`preToPost` and `postToPre` empty, as PyTorch
    /// logs for some backward graphs), or kernel-nodes maps alone.
    NoPreRecord,
    /// A higher-order op (`torch.ops.higher_order.cond`,
    /// `tag_activation_checkpoint`) or an output of one: its work is its
    /// body's, a graph of its own.
    HigherOrderOp,
    /// A node of a higher-order op's body (`wrap_body_0`, `cond_true_0`)
    /// when the record names no node of that body: PyTorch's mapping
    /// names the top-level graph's nodes only.
    UnnamedBody,
    /// Bookkeeping of a torch.func transform or of autograd that computes
    /// no data of its own: vmap's `_add_batch_dim`, `_remove_batch_dim`,
    /// grad's `_wrap_for_grad`, `_unwrap_for_grad`,
    /// `_set_tensor_requires_grad`, the nesting and saved-tensor hooks
    /// calls, `_set_grad_enabled` (isBookkeepingNode). AOTAutograd traces
    /// them away; the work is in the nodes they wrap.
    Bookkeeping,
    /// `operator.getitem` of a node that is linked, or is bookkeeping (one
    /// output of a multi-output op: a foreach op's list, autograd.grad's
    /// gradients): its data is that node's, which the record names.
    ItemOfLinked,
  };
  /// The fate of pre-grad node \p Pre when it is linked to nothing
  /// (preLinked false): Vanished only with evidence.
  UnlinkedFate unlinkedFate(uint32_t Pre) const;

private:
  const CompileUnit &U;
  /// The scopes (Node::Scope) with a pre-grad node that PyTorch's record
  /// (the mapping or the node maps) links; sorted.
  std::vector<llvm::StringRef> RecordedScopes;
  std::vector<std::vector<uint32_t>> KernelPost, KernelPre, KernelSources;
  std::vector<std::vector<EdgeOrigin>> KernelSourceOrigins;
  std::vector<std::vector<uint32_t>> PrePost, PostPre, PostKernels, PreKernels;
  std::vector<std::vector<uint32_t>> SourceKernels;
};

} // namespace tlp

#endif // TLP_IR_PROVENANCE_H
