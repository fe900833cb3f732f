//===- WrapperCommon.h - Shared pieces of the wrapper parsers ---*- C++ -*-===//
//
// Part of tlp. Comment parsing shared by the Python and C++ wrapper
// parsers: both write the same `Topologically Sorted Source Nodes` and
// `[Provenance debug handles]` comments, with `#` or `//` in front.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_PARSE_WRAPPERCOMMON_H
#define TLP_LIB_PARSE_WRAPPERCOMMON_H

#include "tlp/IR/Artifact.h"
#include "tlp/IR/Module.h"
#include "tlp/Parse/PayloadParsers.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tlp {
namespace wrapper {

/// Names inside `Topologically Sorted Source Nodes: [a, b, ]`; empty
/// entries are dropped. Returns false if the comment is not of that kind.
bool parseTopoComment(llvm::StringRef Comment, std::vector<std::string> &Names);

/// The key after `[Provenance debug handles]`, or empty.
llvm::StringRef parseHandleComment(llvm::StringRef Comment);

/// Pending comments while scanning an entry function: handle comments wait
/// for the next launch of their kernel, the topo comment for the next launch.
class PendingComments {
public:
  void topo(uint32_t Line, std::vector<std::string> Names) {
    TopoLine = Line;
    TopoNames = std::move(Names);
  }
  void handle(llvm::StringRef Key, uint32_t Line, PayloadContext &Ctx);
  /// Attach pending comments to a new call site.
  void attach(CallSite &S);
  /// True if a handle comment waits for a call of \p Name.
  bool awaits(llvm::StringRef Name) const;
  /// The name of the first pending handle of an AOTInductor op
  /// (`aoti_torch_cpu_scale_rows`), or "": a custom op's handle comment is
  /// followed by `aoti_torch_proxy_executor_call_function(...)`, its call.
  llvm::StringRef awaitedProxyOp() const;
  /// Report handle comments no launch claimed.
  void finish(PayloadContext &Ctx);

private:
  struct Handle {
    std::string Name;
    uint64_t Value;
    uint32_t Line;
  };
  std::vector<Handle> Handles;
  uint32_t TopoLine = 0;
  std::vector<std::string> TopoNames;
};

/// The lines (0-based, [Begin, End)) of the C++ source a JIT wrapper
/// compiled with `torch._inductor.config.cpp_wrapper = True` embeds: a
/// Python module whose `cpp_wrapper_src = (` is followed by the source in
/// a raw string (`r"""` on its own line, or on the assignment's line) up
/// to a line that begins with `"""`. False for any other wrapper.
bool findJitCppSource(llvm::ArrayRef<llvm::StringRef> Lines, size_t &Begin,
                      size_t &End);

/// Parse a kernel header comment block (lines without their comment
/// marker) into \p D.
void parseKernelHeader(llvm::ArrayRef<llvm::StringRef> Lines, KernelDef &D);

/// The parameters of the kernel whose definition spans \p Lines (its
/// source in the Python wrapper) into D.Params: the signature of the first
/// `kernel(` (C++ in the Python wrapper), `<D.Name>(` (a C++ wrapper's
/// definition) or `def ` line (Triton) up to the first ')', split at
/// commas, each part's `in_out_ptrN`, `in_ptrN` or `out_ptrN`; an
/// `in_out_ptrN` a C++ `auto out_ptrM = in_out_ptrN;` line aliases is
/// Scratch.
void parseKernelParams(llvm::ArrayRef<llvm::StringRef> Lines, KernelDef &D);

/// The buffer an argument or a right-hand side passes: `buf3`,
/// `reinterpret_tensor(buf3, ...)`, `out=buf3`; empty if none.
llvm::StringRef bufferOf(llvm::StringRef Arg);

/// The buffer an argument of the C++ wrapper passes: `buf3` of `buf3`,
/// `(float*)(buf3.data_ptr())`,
/// `wrap_with_raii_handle_if_needed(reinterpret_tensor_wrapper(buf3, ...))`
/// `RAIIAtenTensorHandle(buf3)` or `std::move(buf3)`; empty if none.
llvm::StringRef cppBufferOf(llvm::StringRef Arg);

/// The arguments of a call, from \p S: the text after its '(' (to the
/// closing bracket at depth 0, outside string literals). \p Cpp: a call of
/// the C++ wrapper (cppBufferOf; an `aoti_torch_<device>_<op>_out` call's
/// first argument is its output, which the caller marks).
void parseCallArgs(llvm::StringRef S, std::vector<CallArg> &Args,
                   bool Cpp = false);

} // namespace wrapper
} // namespace tlp

#endif // TLP_LIB_PARSE_WRAPPERCOMMON_H
