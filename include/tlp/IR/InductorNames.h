//===- InductorNames.h - What PyTorch's and Inductor's names say -*- C++ -*-===//
//
// Part of tlp. The one home of the rules that read meaning into a name
// PyTorch writes: a kernel's name (`triton_poi_fused_add_0`,
// `cpp_fused_mul_1`, `extern_kernels.mm`, `aoti_torch_cpu_addmm_out`,
// `torch.ops.aten.nonzero.default`), an op target
// (`torch.ops.aten.add.Tensor`, `torch.sigmoid`, `<built-in method ...>`),
// which ops are collectives and which are views. The parsers, the passes
// and the emitters ask here instead of testing prefixes themselves. The
// forms are those of docs/IR.md and the logs of PyTorch 2.13; in lib/IR
// because lib/Parse needs them.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_INDUCTORNAMES_H
#define TLP_IR_INDUCTORNAMES_H

#include "tlp/IR/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tlp {

//===----------------------------------------------------------------------===//
// Kernel names
//===----------------------------------------------------------------------===//

/// Guess the kind from a kernel name alone (no definition seen):
/// `triton_tem_*` a template, other `triton_*` Triton, `cpp_*` C++,
/// `extern_kernels.*` extern, a collective op (isCollectiveOp) a
/// collective, other `torch.ops.*` a fallback; `aoti_torch_*`: the proxy
/// executor a fallback, other shim functions extern. Else Unknown.
KernelKind guessKernelKind(llvm::StringRef Name);

/// As guessKernelKind(), but a name it does not know is a Triton kernel:
/// what an AOTInductor launch wrapper (`call_<name>`) or a Python
/// `<name>.run(...)` launch calls.
KernelKind launchedKernelKind(llvm::StringRef Name);

/// The kind of a kernel that `async_compile.<Backend>('<Name>', ...)`
/// defines: `triton` (a template when \p Name is `triton_tem_*`), `cpp` /
/// `cpp_pybinding`, `cuda` / `rocm` (templates). Else Unknown.
KernelKind backendKernelKind(llvm::StringRef Backend, llvm::StringRef Name);

/// True for `extern_kernels.<op>`, the Python wrapper's library calls.
bool isExternKernelName(llvm::StringRef Name);

/// True for a call in a Python wrapper of a PyTorch op that runs as a
/// kernel: `torch.ops.<ns>.<op>...`, except Inductor's own helpers
/// (`torch.ops.inductor.*`).
bool isOpKernelCall(llvm::StringRef Callee);

/// True for a generated kernel whose name lists the ops it fuses
/// (`triton_poi_fused_add_mul_0`, `cpp_fused_relu_1`).
bool isFusedKernelName(llvm::StringRef Name);

/// A generated kernel name (`triton_` or `cpp_` prefix) without its
/// trailing counter: `triton_poi_fused_add_3` -> `triton_poi_fused_add`;
/// other names as they are.
llvm::StringRef dropKernelCounter(llvm::StringRef Name);

/// The op names a kernel name holds: `triton_poi_fused_addmm_relu_0` ->
/// {addmm, relu} (split at '_'); `extern_kernels.mm` -> {mm};
/// `aoti_torch_cpu_addmm_out` -> {addmm}; `torch.ops.aten.cumsum.default`
/// -> {cumsum}. Empty for other names.
std::vector<std::string> kernelOpTokens(llvm::StringRef Name);

//===----------------------------------------------------------------------===//
// AOTInductor (C++ wrapper) names
//===----------------------------------------------------------------------===//

/// The function through which AOTInductor runs an op it has no C shim for
/// (a custom op).
inline constexpr llvm::StringLiteral AOTIProxyExecutorCall =
    "aoti_torch_proxy_executor_call_function";

/// True for a name of AOTInductor's C shim (`aoti_torch_*`).
bool isAOTIShimName(llvm::StringRef Name);

/// True for a C shim function that is a kernel: `aoti_torch_<device>_<op>`
/// (cpu, cuda, xpu, mps, mtia) and the proxy executor; the other
/// `aoti_torch_*` functions (allocation, handles) are not.
bool isAOTIKernelCall(llvm::StringRef Callee);

/// The graph kind an AOT id names (`0_forward`, `1_backward`,
/// `2_inference`, the `# AOT ID: ['0_forward']` of output code); Unknown
/// for another form.
GraphKind graphKindOfAotId(llvm::StringRef AotId);

/// The number of AOT id \p AotId of a known kind ("2" of "2_backward"), or
/// "" (another form, or no number).
llvm::StringRef aotIdNumber(llvm::StringRef AotId);

/// A graph AOTAutograd compiled, as pairAotBackwards takes it: its kind and
/// AOT id number (aotIdNumber), and the compile it belongs to (pairs never
/// cross compiles).
struct AotGraph {
  GraphKind Kind = GraphKind::Unknown;
  llvm::StringRef Number;
  uint32_t Compile = 0;
};

/// The forward a backward of pairAotBackwards is the backward of.
struct AotPair {
  size_t Forward;
  /// Paired by the AOT id number, which is the two graphs' own; else the
  /// id was another graph's too (or no forward's) and the order told.
  bool ByOwnId;
};

/// For each of \p Graphs (in log order), the forward it is the backward
/// of; None for a graph that is no backward and a backward with no
/// forward. AOTAutograd names a forward and its backward alike
/// ("2_forward", "2_backward"), but an output code loaded from the FX graph
/// cache keeps the AOT id of the graph it was saved from, so identical
/// submodules log the first one's id again. So an id number that one
/// forward and one backward of the compile have pairs the two; any other
/// backward is that of the latest forward of its compile logged before it
/// that no backward has taken and whose id is not its own (backwards run
/// last forward first: the submodules DDPOptimizer splits a frame into
/// compile all forwards, then the backwards at backward()).
std::vector<llvm::Optional<AotPair>>
pairAotBackwards(llvm::ArrayRef<AotGraph> Graphs);

/// The AOT id of a code line `# AOT ID: ['0_forward']` (`0_forward`),
/// valid UTF-8 (bad bytes of a damaged log as U+FFFD); None for another
/// line.
llvm::Optional<std::string> aotIdOfLine(llvm::StringRef Line);

/// The launch wrapper through which AOTInductor's C++ wrapper calls a
/// Triton kernel: `call_<Kernel>`.
std::string aotiLaunchWrapper(llvm::StringRef Kernel);

/// If \p Callee is a launch wrapper (`call_<kernel>`), drop the prefix and
/// return true.
bool consumeAOTILaunchWrapper(llvm::StringRef &Callee);

//===----------------------------------------------------------------------===//
// Op targets
//===----------------------------------------------------------------------===//

/// A target without its `torch.ops.` prefix: `aten.mm.default`.
llvm::StringRef shortTarget(llvm::StringRef Target);

/// The op a node target names: `torch.ops.aten.add.Tensor` -> `add`,
/// `torch.sigmoid` -> `sigmoid`, `operator.mul` -> `mul`, `_softmax` ->
/// `softmax`. Empty if none.
std::string targetOp(llvm::StringRef Target);

/// The names an op target goes by, most specific first, without repeats:
/// `torch.ops.aten.sigmoid.default` -> `torch.ops.aten.sigmoid.default`,
/// `aten.sigmoid.default`, `aten.sigmoid`, `sigmoid`; `torch.sigmoid` ->
/// `torch.sigmoid`, `sigmoid`; `<built-in method sigmoid of type object
/// at 0x...>` -> `torch.sigmoid`, `sigmoid`; `operator.add` ->
/// `operator.add`, `add`.
std::vector<std::string> targetAliases(llvm::StringRef Target);

/// True for an op (as targetOp() names it) that only views or selects
/// its input: `view`, `reshape`, `permute`, `getitem`, ...
bool isViewOp(llvm::StringRef Op);

/// True for a collective (communication) op, as a node target or a
/// kernel: `torch.ops.<ns>.<op>...` of the namespaces `_c10d_functional`,
/// `_c10d_functional_autograd`, `c10d_functional` and `c10d` (all_reduce,
/// all_gather_into_tensor, reduce_scatter_tensor, all_to_all_single,
/// wait_tensor, send, ...), and `torch.ops._dtensor.shard_dim_alltoall`;
/// an AOTInductor shim function of one (`aoti_torch_cpu__c10d_functional_
/// all_reduce_`). Not a generated kernel, whatever its name holds.
bool isCollectiveOp(llvm::StringRef Name);

} // namespace tlp

#endif // TLP_IR_INDUCTORNAMES_H
