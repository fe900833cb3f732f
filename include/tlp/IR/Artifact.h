//===- Artifact.h - Typed artifacts lowered from a trace log ----*- C++ -*-===//
//
// Part of tlp. An artifact is one payload of the log that matters for
// provenance (a graph, generated code, a mapping), already parsed into
// typed form. Artifacts use LLVM-style RTTI: getKind() + classof().
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_ARTIFACT_H
#define TLP_IR_ARTIFACT_H

#include "tlp/IR/Types.h"
#include "tlp/Support/StringUtils.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tlp {

/// Name -> list of names, in the order of the source JSON.
using NameListMap =
    std::vector<std::pair<std::string, std::vector<std::string>>>;

class Artifact {
public:
  /// One per row of ArtifactKinds.def.
  enum ArtifactKind {
#define TLP_ARTIFACT_KIND(KIND, NAME, CLASS, SLOT) KIND,
#include "tlp/IR/ArtifactKinds.def"
  };

  virtual ~Artifact();
  ArtifactKind getKind() const { return Kind; }
  virtual std::unique_ptr<Artifact> clone() const = 0;

  /// The artifact or event name in the log ("before_pre_grad_graph").
  std::string Name;
  /// Index into Module::Logs, and the 1-based log line of the envelope.
  uint32_t Log = 0;
  uint32_t Line = 0;
  llvm::Optional<int64_t> Rank;
  llvm::Optional<CompileId> Id;
  /// The envelope's `subgraph_name`: the region a regional inductor
  /// compile compiled (`__marked_inductor_submod0`); empty if none.
  std::string Subgraph;

  /// Where the payload sits in its log: the byte range from the first
  /// payload line to the end of the last one (tabs included), and how many
  /// trailing empty lines belong to it. A reader may leave an artifact
  /// unloaded (Loaded false: text and parsed fields empty) and load it when
  /// its unit is processed (tlp/Parse/TraceReader.h), so memory holds one
  /// unit's payloads at a time. Loaded artifacts are the only ones printed,
  /// verified in depth or emitted.
  struct PayloadRef {
    uint64_t Offset = 0;
    uint64_t Size = 0;
    uint32_t Lines = 0;
    bool Loaded = true;
  };
  PayloadRef Payload;
  bool isLoaded() const { return Payload.Loaded; }

protected:
  explicit Artifact(ArtifactKind K) : Kind(K) {}
  Artifact(const Artifact &) = default;

private:
  ArtifactKind Kind;
};

/// The name of an artifact kind in the IR ("pre_grad_graph",
/// "output_code", ...; ArtifactKinds.def).
llvm::StringRef artifactKindName(Artifact::ArtifactKind K);
bool parseArtifactKind(llvm::StringRef S, Artifact::ArtifactKind &K);
/// A new, empty artifact of the subclass that holds kind \p K.
std::unique_ptr<Artifact> createArtifact(Artifact::ArtifactKind K);

/// The artifact slots of a compile unit, one per row of UnitSlots.def.
enum class UnitSlot {
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE) FIELD,
#include "tlp/IR/UnitSlots.def"
};
constexpr unsigned NumUnitSlots = 0
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE) +1
#include "tlp/IR/UnitSlots.def"
    ;
/// The key of a slot in the IR and JSON ("pre_grad", "code", ...).
llvm::StringRef unitSlotRole(UnitSlot S);
bool parseUnitSlot(llvm::StringRef S, UnitSlot &Slot);
/// The name of a slot for people ("pre-grad graph", "kernel code", ...).
llvm::StringRef unitSlotTitle(UnitSlot S);
/// The slot an artifact of kind \p K fills.
UnitSlot unitSlotOf(Artifact::ArtifactKind K);

/// One FX node.
struct Node {
  std::string Name;
  NodeOp Op = NodeOp::Unknown;
  std::string Target;
  /// The annotation verbatim, e.g. `f32[8, 16][16, 1]cuda:0`; may be empty.
  std::string Type;
  /// 1-based line in the graph text.
  uint32_t Line = 0;
  /// Dotted path of the nested submodule holding the node; empty at top.
  std::string Scope;
  /// Line of the `# File:` comment that applies to the node (0: none).
  uint32_t CommentLine = 0;
  /// Index into CompileUnit::Sources, set by attribute-source.
  llvm::Optional<uint32_t> Source;
  /// The nodes of the same scope whose values the node uses (its data-flow
  /// inputs), as indices into GraphArtifact::Nodes, in order of first use,
  /// without duplicates; set by the FX parser. Placeholders use nothing;
  /// the output node uses what it returns.
  std::vector<uint32_t> Inputs;

  /// Scope-qualified name: "thunder_0.input_2d" or "x".
  std::string qualifiedName() const {
    return Scope.empty() ? Name : Scope + "." + Name;
  }
};

/// A pre-grad or post-grad FX graph: its text and its nodes.
class GraphArtifact : public Artifact {
public:
  explicit GraphArtifact(ArtifactKind K) : Artifact(K) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_PreGradGraph || A->getKind() == AK_PostGradGraph;
  }

  std::string Text;
  std::vector<Node> Nodes;
  /// `# graph id: N` footer of before_pre_grad_graph.
  llvm::Optional<int64_t> GraphId;
  /// The `# File: path:line in fn, code: text` comments of the text that
  /// govern nodes (Node::CommentLine), parsed once by the FX parser: by
  /// line, ascending. Not in the IR text (the text holds them): reading IR
  /// leaves it empty and FileCommentsParsed false.
  std::vector<std::pair<uint32_t, SourceLoc>> FileComments;
  bool FileCommentsParsed = false;

  /// Rebuild the derived lookup tables after Nodes or Text change.
  void reindex();
  /// Find a node by name: a top-level node first, then a nested one, then a
  /// scope-qualified name.
  llvm::Optional<uint32_t> findNode(llvm::StringRef Name) const;
  /// Find a node as a comment of generated code names it (`Topologically
  /// Sorted Source Nodes`): findNode, but a bare name does not find a node of an
  /// autograd.Function's bodies (`fwd_body_0`, `bwd_body_0`, the graphs of
  /// `autograd_function_apply`): AOTAutograd traces the function again
  /// under new names, so the compiled graphs' `mul` is not the body's.
  /// Other nested graphs are named by their nodes' own names (a
  /// checkpointed body's `rms_norm`, DDPOptimizer's `submod_0.a`).
  llvm::Optional<uint32_t> findCommentNode(llvm::StringRef Name) const;
  const LineTable &lines() const { return Lines; }
  /// The user source line of the `# File:` comment at \p Line: from
  /// FileComments when the FX parser filled it, else parsed from the text
  /// (IR input); None when the line is no such comment.
  llvm::Optional<SourceLoc> fileComment(uint32_t Line) const;

private:
  llvm::StringMap<uint32_t> Index;
  LineTable Lines;
};

/// What a kernel reads and writes through a parameter, from its name:
/// `in_ptrN` (In), `out_ptrN` (Out), `in_out_ptrN` (InOut); Value for
/// any other parameter (sizes, block sizes). Scratch: an `in_out_ptrN`
/// a C++ kernel aliases as an output first (`auto out_ptr0 =
/// in_out_ptr1;`): written before it is read, like an `out_ptr`.
enum class ParamRole : uint8_t { Value, In, Out, InOut, Scratch };

/// A parameter of a kernel definition's signature.
struct KernelParam {
  /// The pointer parameter's name; empty for a Value parameter.
  std::string Name;
  ParamRole Role = ParamRole::Value;

  bool reads() const { return Role == ParamRole::In || Role == ParamRole::InOut; }
  bool writes() const {
    return Role == ParamRole::Out || Role == ParamRole::InOut ||
           Role == ParamRole::Scratch;
  }
};

/// A kernel definition found in generated code.
struct KernelDef {
  std::string Name;
  KernelKind Kind = KernelKind::Unknown;
  /// First and last line of the definition.
  uint32_t Begin = 0;
  uint32_t End = 0;
  /// First line of the comment block above the definition (0: none).
  uint32_t HeaderBegin = 0;
  /// `Topologically Sorted Source Nodes` of the header (pre-grad names).
  std::vector<std::string> TopoNames;
  /// `Source node to ATen node mapping` pairs (pre-grad -> post-grad).
  std::vector<std::pair<std::string, std::string>> SourceToAten;
  /// Post-grad nodes named in the `Graph fragment` comment.
  std::vector<std::string> FragmentNodes;
  /// The parameters of the kernel's signature, in order (the Python
  /// wrapper's kernel sources: the Triton `def` or the C++ `kernel(...)`);
  /// empty when no signature was found.
  std::vector<KernelParam> Params;
};

/// An argument of a call: the buffer it passes (`buf3`,
/// `reinterpret_tensor(buf3, ...)`, `out=buf3`), empty if none; Out when
/// it is passed as `out=`.
struct CallArg {
  std::string Buffer;
  bool Out = false;
};

/// `bufA = ...` in the Python wrapper's entry function: bufA now names the
/// storage of the buffer From passes (`bufA = bufB`, `bufA =
/// reinterpret_tensor(bufB, ...)`), or new storage (From empty).
struct BufferAssign {
  uint32_t Line = 0;
  std::string Buffer;
  std::string From;
};

/// A place in the wrapper where a kernel is launched or called.
struct CallSite {
  std::string Kernel;
  KernelKind Kind = KernelKind::Unknown;
  uint32_t Line = 0;
  /// From a `[Provenance debug handles] kernel:N` comment.
  llvm::Optional<uint64_t> Handle;
  uint32_t HandleLine = 0;
  /// The `Topologically Sorted Source Nodes` comment before the call.
  uint32_t TopoLine = 0;
  std::vector<std::string> TopoNames;
  /// The arguments of a direct call `name(...)` of the Python wrapper
  /// (C++ kernels, extern and fallback ops), in order; empty for other
  /// calls (a Triton `.run(...)` launch).
  std::vector<CallArg> Args;
};

/// Where names occur in the entry function of generated code, derived from
/// its text (CodeArtifact::entryNames()), so that passes look names up
/// rather than read the code. It holds the lines of the entry function (the
/// whole code when there is none) that are no whole-line comment (`#`,
/// `//`) and lie in no kernel definition. On them a name occurs where
/// tlp::findToken finds it: every dot-aligned prefix (`a`, `a.b`, `a.b.c`)
/// of a run of identifier characters and dots (`a.b.c`) that does not follow
/// an identifier character or a dot and starts with an identifier
/// character, also in string literals and trailing comments. Names that do
/// not start and end with an identifier character, hold a character other
/// than `[A-Za-z0-9_.]` or have more than MaxNameParts dot-separated parts
/// are never found.
class EntryNameIndex {
public:
  /// Kernel names have up to five parts
  /// (`torch.ops._c10d_functional.all_reduce_.default`).
  static constexpr unsigned MaxNameParts = 8;

  /// Index lines \p Begin to \p End of \p Text, but for whole-line comments
  /// and the lines of \p Defs.
  void build(llvm::StringRef Text, const LineTable &Lines, uint32_t Begin,
             uint32_t End, llvm::ArrayRef<KernelDef> Defs);
  void clear();
  /// The lines where \p Name occurs, ascending, each once.
  llvm::ArrayRef<uint32_t> lines(llvm::StringRef Name) const;
  /// Whether `Name[` occurs on indexed line \p Line (as a substring: `Name`
  /// is the end of the run of identifier characters and dots before a `[`).
  bool subscripted(llvm::StringRef Name, uint32_t Line) const;
  /// The number of names indexed.
  size_t size() const { return Uses.size(); }

private:
  llvm::StringMap<std::vector<uint32_t>> Uses;
  /// The run before each `[` of the indexed lines (may be empty), by line.
  std::vector<std::pair<uint32_t, std::string>> Subscripts;
};

/// Generated code: the Python wrapper, the AOT C++ wrapper or the AOT
/// kernel file.
class CodeArtifact : public Artifact {
public:
  explicit CodeArtifact(ArtifactKind K) : Artifact(K) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_OutputCode || A->getKind() == AK_AOTWrapperCode ||
           A->getKind() == AK_AOTKernelCode;
  }

  Language Lang = Language::Python;
  std::string Text;
  /// The md5 of the text (lower-case hex): from the event's `has_payload`
  /// for a log's wrapper, computed for a TORCH_COMPILE_DEBUG folder's
  /// output_code.py; how a folder is matched to its log's unit. Empty if
  /// unknown.
  std::string Md5;
  /// From `# AOT ID: ['0_forward']` ("0_forward"); empty if absent.
  std::string AotId;
  /// Lines of the entry function (`def call`, `Runner.call`, `run_impl`).
  uint32_t EntryBegin = 0;
  uint32_t EntryEnd = 0;
  std::vector<KernelDef> Defs;
  std::vector<CallSite> Calls;
  /// The buffer assignments of the Python wrapper's entry function, in
  /// line order.
  std::vector<BufferAssign> Assigns;

  /// Rebuild the derived lookup tables after Text, the entry function or
  /// Defs change.
  void reindex();
  const LineTable &lines() const { return Lines; }
  llvm::Optional<uint32_t> findDef(llvm::StringRef Name) const;
  /// The names of the entry function (EntryNameIndex): built on first use
  /// after reindex(), from Text, EntryBegin, EntryEnd and Defs. Not in the
  /// IR text.
  const EntryNameIndex &entryNames() const;

private:
  LineTable Lines;
  llvm::StringMap<uint32_t> DefIndex;
  mutable EntryNameIndex EntryNames;
  mutable bool EntryNamesBuilt = false;
};

/// inductor_provenance_tracking_node_mappings, every version.
class MappingArtifact : public Artifact {
public:
  MappingArtifact() : Artifact(AK_NodeMappings) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_NodeMappings;
  }

  /// The "version" field; None when absent (which means v1).
  llvm::Optional<double> Version;
  NameListMap PreToPost;
  NameListMap PostToPre;
  NameListMap KernelToPost; ///< cppCodeToPost
  NameListMap PostToKernel; ///< postToCppCode

  /// True when keys carry debug handles (`kernel:N`).
  bool hasHandles() const { return Version && *Version >= 2.0; }
};

/// inductor_provenance_tracking_kernel_stack_traces: key -> traces.
class StackTraceArtifact : public Artifact {
public:
  StackTraceArtifact() : Artifact(AK_KernelStackTraces) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_KernelStackTraces;
  }
  NameListMap Traces;
};

/// triton_kernel_info: kernel -> its info object as compact JSON text.
class KernelInfoArtifact : public Artifact {
public:
  KernelInfoArtifact() : Artifact(AK_TritonKernelInfo) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_TritonKernelInfo;
  }
  struct Entry {
    std::string Kernel;
    std::string Info;
  };
  std::vector<Entry> Entries;
};

/// One node an FX node came from (NodeSource, flattened).
struct NodeOrigin {
  std::string Name;
  int64_t GraphId = -1;
  bool operator==(const NodeOrigin &O) const {
    return Name == O.Name && GraphId == O.GraphId;
  }
};

/// inductor_post_to_pre_grad_nodes: post-grad node -> every NodeSource it
/// was derived from (the from_node tree, flattened in pre-order).
class NodeTreeArtifact : public Artifact {
public:
  NodeTreeArtifact() : Artifact(AK_PostToPreGradNodes) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_PostToPreGradNodes;
  }
  std::vector<std::pair<std::string, std::vector<NodeOrigin>>> Entries;
};

/// inductor_triton_kernel_to_post_grad_nodes: kernel -> post-grad nodes.
class KernelNodesArtifact : public Artifact {
public:
  KernelNodesArtifact() : Artifact(AK_KernelToPostGradNodes) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_KernelToPostGradNodes;
  }
  NameListMap Entries;
};


/// What a scheduler node's dependency is (`MemoryDep('buf1', c0, {c0:
/// 128})`, `StarDep(name='buf0', mode=None)`, `WeakDep(name='buf3', ...)`).
enum class DepKind : uint8_t { Memory, Star, Weak, Other };

/// A buffer a scheduler node writes or reads.
struct SchedulerDep {
  std::string Buffer;
  DepKind Kind = DepKind::Memory;
  /// Reads only: listed in `unmet_dependencies` (made by another
  /// scheduler node) rather than `met_dependencies` (a graph input or a
  /// constant).
  bool Unmet = false;
};

/// A buffer a scheduler node makes (its `outputs` list).
struct SchedulerBuffer {
  std::string Name;
  /// `ComputedBuffer`, `ExternKernelOut`, ...
  std::string Type;
  /// `FixedLayout('cpu', torch.float32, size=[4, 32], stride=[32, 1])`.
  std::string Layout;
  /// The scheduler nodes that use it (`op2`), `OUTPUT` for a graph output.
  std::vector<std::string> Users;
};

/// One node of Inductor's scheduler as `debug_str()` prints it: `op1:
/// SchedulerNode(ComputedBuffer)` and its `op1.*` lines, a fused node's
/// sub-nodes (`op1_op2.snodes[0] =`) after it.
struct SchedulerNode {
  std::string Name;
  /// `SchedulerNode`, `FusedSchedulerNode`, `ExternKernelSchedulerNode`,
  /// `OuterLoopFusedSchedulerNode`, `ForeachKernelSchedulerNode`, ...
  std::string Class;
  /// What is in the parentheses: `ComputedBuffer`, `ExternKernelOut`; a
  /// fused node's sub-node classes (`SchedulerNode,SchedulerNode`).
  std::string Detail;
  /// First and last line of the node's text (its sub-nodes included).
  uint32_t Line = 0;
  uint32_t EndLine = 0;
  /// Index of the fused node this one is a sub-node of (None: top level).
  llvm::Optional<uint32_t> Parent;
  /// The sub-nodes of a fused node, as indices into the nodes.
  std::vector<uint32_t> SubNodes;
  std::vector<SchedulerDep> Writes;
  std::vector<SchedulerDep> Reads;
  std::vector<SchedulerBuffer> Outputs;
  /// `opN.node.kernel = extern_kernels.addmm` (extern nodes).
  std::string ExternKernel;
  /// `opN.group.device`, `opN.group.iteration`, `opN.sizes`.
  std::string Device;
  std::string Iteration;
  std::string Sizes;
  /// The loop body's ops (`load`, `relu`, `store`; no `get_index`), in
  /// order of first use, each once.
  std::vector<std::string> Ops;
  /// Set by link-scheduler-ir (post-fusion top-level nodes): the unit's
  /// kernel row that runs the node, how it was found, and the post-grad
  /// nodes it computes (indices into the post-grad graph's nodes). A
  /// sub-node of a fused node, or one of several nodes a kernel row runs,
  /// gets its share of the row's post-grad nodes by data flow, or, where
  /// the data does not decide, none and PostNodesUnknown (why).
  llvm::Optional<uint32_t> Kernel;
  std::string KernelBy;
  std::vector<uint32_t> PostNodes;
  std::string PostNodesBy;
  uint8_t PostNodesConfidence = 0;
  std::string PostNodesUnknown;
  /// Set by link-scheduler-ir (post-fusion top-level nodes): the nodes of
  /// the unit's ir_pre_fusion.txt this node came from (indices into its
  /// nodes): the fused node's sub-nodes, or the node itself, by name.
  std::vector<uint32_t> PreFusionNodes;

  bool isFused() const { return !SubNodes.empty(); }
};

/// ir_pre_fusion.txt or ir_post_fusion.txt of a TORCH_COMPILE_DEBUG
/// folder: the text and its scheduler nodes, top-level nodes and their
/// sub-nodes in text order.
class SchedulerIRArtifact : public Artifact {
public:
  explicit SchedulerIRArtifact(ArtifactKind K) : Artifact(K) {}
  std::unique_ptr<Artifact> clone() const override;
  static bool classof(const Artifact *A) {
    return A->getKind() == AK_IRPreFusion || A->getKind() == AK_IRPostFusion;
  }

  std::string Text;
  std::vector<SchedulerNode> Nodes;

  /// Find a node by name (a sub-node too).
  llvm::Optional<uint32_t> findNode(llvm::StringRef Name) const;
  /// The names of the buffers \p N writes, in order, each once (a fused
  /// node: its own writes, else its sub-nodes').
  std::vector<std::string> writtenBuffers(const SchedulerNode &N) const;
  /// The names of the buffers \p N reads, each once: its own reads, else
  /// (a fused node that lists none) its sub-nodes' reads of buffers no
  /// sub-node writes.
  std::vector<std::string> readBuffers(const SchedulerNode &N) const;
};

llvm::StringRef depKindName(DepKind K);
bool parseDepKind(llvm::StringRef S, DepKind &K);

} // namespace tlp

#endif // TLP_IR_ARTIFACT_H
