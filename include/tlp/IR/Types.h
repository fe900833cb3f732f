//===- Types.h - Basic value types of the provenance IR ---------*- C++ -*-===//
//
// Part of tlp. Enumerations with their textual names (used by the YAML form,
// the JSON emitter and diagnostics), compile ids in PyTorch's string form,
// and user source locations.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_TYPES_H
#define TLP_IR_TYPES_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>

namespace tlp {

/// Which AOTAutograd graph an Inductor compile lowered.
enum class GraphKind { Forward, Backward, Inference, Unknown };
llvm::StringRef graphKindName(GraphKind K);
bool parseGraphKind(llvm::StringRef S, GraphKind &K);

/// FX node opcodes, as `torch.fx.Node.op` spells them.
enum class NodeOp {
  Placeholder,
  GetAttr,
  CallFunction,
  CallMethod,
  CallModule,
  Output,
  Unknown
};
llvm::StringRef nodeOpName(NodeOp Op);
bool parseNodeOp(llvm::StringRef S, NodeOp &Op);

/// What kind of code a kernel is.
enum class KernelKind {
  Triton,     ///< generated Triton kernel (triton_poi_/red_/per_...)
  Cpp,        ///< generated C++ kernel (cpp_fused_...)
  Extern,     ///< extern_kernels.* or aoti_torch_<device>_* library call
  Fallback,   ///< an ATen op called as is (torch.ops.aten.*)
  Combo,      ///< combo kernel: several sub-kernels in one launch
  Template,   ///< Triton template kernel (triton_tem_...)
  Collective, ///< a collective op (isCollectiveOp, InductorNames.h)
  Unknown
};
llvm::StringRef kernelKindName(KernelKind K);
bool parseKernelKind(llvm::StringRef S, KernelKind &K);

enum class Language { Python, Cpp };
llvm::StringRef languageName(Language L);
bool parseLanguage(llvm::StringRef S, Language &L);

/// Where a provenance edge came from.
enum class EdgeOrigin {
  Mapping,     ///< inductor_provenance_tracking_node_mappings
  NodeTree,    ///< inductor_post_to_pre_grad_nodes (May 2025 logs)
  KernelNodes, ///< inductor_triton_kernel_to_post_grad_nodes
  CodeComment, ///< comments Inductor writes into the generated code
  StackTrace,  ///< inductor_provenance_tracking_kernel_stack_traces
  FXComment,   ///< `# File:` comments of the FX graphs
  SourceLine,  ///< inferred: pre and post node share a `# File:` line
  OpMatch      ///< inferred: op names of kernel names and call comments
};
llvm::StringRef edgeOriginName(EdgeOrigin O);
bool parseEdgeOrigin(llvm::StringRef S, EdgeOrigin &O);

/// A PyTorch compile id. Attempt 0 is not printed, as in TraceId.__str__.
struct CompileId {
  llvm::Optional<int64_t> CompiledAutogradId;
  llvm::Optional<int64_t> FrameId;
  llvm::Optional<int64_t> FrameCompileId;
  int64_t Attempt = 0;

  /// "0/0", "0/1_2", "!1", "!1/2/0".
  std::string str() const;
  /// A form safe for file names: "0-0", "0-1_2", "ca1", "ca1-2-0".
  std::string slug() const;
  /// Parse the string form; None if malformed.
  static llvm::Optional<CompileId> parse(llvm::StringRef S);
  /// True if the id has at least a frame id or a compiled-autograd id.
  bool isValid() const { return FrameId || CompiledAutogradId; }

  auto tie() const {
    return std::make_tuple(CompiledAutogradId.getValueOr(-1),
                           FrameId.getValueOr(-1),
                           FrameCompileId.getValueOr(-1), Attempt);
  }
  bool operator==(const CompileId &O) const { return tie() == O.tie(); }
  bool operator!=(const CompileId &O) const { return !(*this == O); }
  bool operator<(const CompileId &O) const { return tie() < O.tie(); }
};

/// A line of user code.
struct SourceLoc {
  std::string File;
  uint32_t Line = 0;
  std::string Function;
  /// The line's text as the log gives it (leading whitespace removed).
  std::string Code;
  /// The part of Code a Python traceback underlined (the `^^^^` or
  /// `~~~^^^~~~` line under the code of a kernel stack trace): 0-based
  /// character offsets into Code, end exclusive, so that
  /// Code.substr(SpanBegin, SpanEnd - SpanBegin) is the underlined text.
  /// No span (both 0) when the trace had no such line. Offsets into Code,
  /// not columns of the file: the log leaves out the line's indentation.
  uint32_t SpanBegin = 0;
  uint32_t SpanEnd = 0;

  bool hasSpan() const { return SpanEnd > SpanBegin; }
  /// The underlined text; empty without a span.
  llvm::StringRef underlined() const {
    return hasSpan() && SpanEnd <= Code.size()
               ? llvm::StringRef(Code).slice(SpanBegin, SpanEnd)
               : llvm::StringRef();
  }
  /// The same line and the same span (or both none); function and code
  /// text aside.
  bool sameSpot(const SourceLoc &O) const {
    return File == O.File && Line == O.Line && SpanBegin == O.SpanBegin &&
           SpanEnd == O.SpanEnd;
  }

  auto tie() const {
    return std::tie(File, Line, Function, Code, SpanBegin, SpanEnd);
  }
  bool operator==(const SourceLoc &O) const { return tie() == O.tie(); }
  bool operator<(const SourceLoc &O) const { return tie() < O.tie(); }
};

/// An optional value kept on the heap: a pointer's size when absent, for
/// the values most records or events leave unset (a failure's frames,
/// 120 bytes each as llvm::Optional<SourceLoc>). Copies copy the value.
/// Reads like llvm::Optional and converts to and from it.
template <typename T> class HeapOptional {
public:
  HeapOptional() = default;
  HeapOptional(llvm::NoneType) {}
  HeapOptional(T V) : P(std::make_unique<T>(std::move(V))) {}
  HeapOptional(const llvm::Optional<T> &V)
      : P(V ? std::make_unique<T>(*V) : nullptr) {}
  HeapOptional(const HeapOptional &O)
      : P(O.P ? std::make_unique<T>(*O.P) : nullptr) {}
  HeapOptional(HeapOptional &&) noexcept = default;
  HeapOptional &operator=(const HeapOptional &O) {
    if (this != &O)
      P = O.P ? std::make_unique<T>(*O.P) : nullptr;
    return *this;
  }
  HeapOptional &operator=(HeapOptional &&) noexcept = default;

  bool hasValue() const { return P != nullptr; }
  explicit operator bool() const { return hasValue(); }
  const T &operator*() const { return *P; }
  T &operator*() { return *P; }
  const T *operator->() const { return P.get(); }
  T *operator->() { return P.get(); }
  const T *getPointer() const { return P.get(); }
  void reset() { P.reset(); }
  /// As an llvm::Optional (a copy).
  llvm::Optional<T> optional() const {
    return P ? llvm::Optional<T>(*P) : llvm::None;
  }
  operator llvm::Optional<T>() const { return optional(); }
  bool operator==(const HeapOptional &O) const {
    return P && O.P ? *P == *O.P : !P == !O.P;
  }
  bool operator!=(const HeapOptional &O) const { return !(*this == O); }

private:
  std::unique_ptr<T> P;
};

/// An optional immutable value that copies share (the units made from
/// one dynamo_start share its frame). Reads like llvm::Optional; setting
/// it makes a new value.
template <typename T> class SharedOptional {
public:
  SharedOptional() = default;
  SharedOptional(llvm::NoneType) {}
  SharedOptional(T V) : P(std::make_shared<const T>(std::move(V))) {}
  SharedOptional(const llvm::Optional<T> &V)
      : P(V ? std::make_shared<const T>(*V) : nullptr) {}

  bool hasValue() const { return P != nullptr; }
  explicit operator bool() const { return hasValue(); }
  const T &operator*() const { return *P; }
  const T *operator->() const { return P.get(); }
  const T *getPointer() const { return P.get(); }
  llvm::Optional<T> optional() const {
    return P ? llvm::Optional<T>(*P) : llvm::None;
  }
  bool operator==(const SharedOptional &O) const {
    return P && O.P ? *P == *O.P : !P == !O.P;
  }
  bool operator!=(const SharedOptional &O) const { return !(*this == O); }

private:
  std::shared_ptr<const T> P;
};

} // namespace tlp

#endif // TLP_IR_TYPES_H
