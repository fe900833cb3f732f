//===- Module.h - Compile units and the provenance module -------*- C++ -*-===//
//
// Part of tlp. A Module is everything tlp knows about one input: the logs it
// read, the artifacts not yet grouped, the compile units, and the
// diagnostics so far. A CompileUnit is one Inductor compile: one graph
// (forward, backward or inference) of one compile id on one rank, with its
// graphs, generated code, kernels and provenance edges.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_IR_MODULE_H
#define TLP_IR_MODULE_H

#include "tlp/IR/Artifact.h"
#include "tlp/IR/CompileRecord.h"
#include "tlp/IR/Types.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {

/// Current version of the IR text form (docs/IR.md).
constexpr unsigned IRVersion = 8;

/// One input log file.
struct LogFile {
  std::string Path;
  /// From a `dedicated_log_torch_trace_rank_N` file name or the envelopes.
  llvm::Optional<int64_t> Rank;
  /// The rank the log's events carry when it differs from the file name's
  /// (Rank): a file renamed or copied from another rank.
  llvm::Optional<int64_t> EventRank;
  /// The PyTorch that wrote the log (its torch_version artifact):
  /// `pytorch_version` ("2.13.0+cpu") and `commit`; empty when the log
  /// does not say (logs of PyTorch before 2.6 or so).
  std::string TorchVersion;
  std::string TorchCommit;
  /// A file of a depyf dump (a graph, module or Dynamo code file), not a
  /// log: listed so that diagnostics and outputs name it.
  bool DumpFile = false;
  /// A TORCH_COMPILE_DEBUG graph folder or one of its files, not a log
  /// (docs/inputs.md): read whole, as it is.
  bool DebugFolder = false;
  /// The process that wrote it: a log's first event line's pid, a
  /// TORCH_COMPILE_DEBUG folder's `run_<date>-pid_<pid>`; how a folder
  /// and a log of the same run are told from a rerun's.
  llvm::Optional<int64_t> Pid;
};

/// A log event that does not carry a payload tlp keeps but tells the
/// grouping pass something (which graphs AOTAutograd made, which frame).
struct CompileEvent {
  enum EventKind { DynamoStart, AotForward, AotBackward, AotInference };
  EventKind Kind = DynamoStart;
  uint32_t Log = 0;
  uint32_t Line = 0;
  llvm::Optional<int64_t> Rank;
  llvm::Optional<CompileId> Id;
  /// The envelope's `subgraph_name` (regional inductor), or empty.
  std::string Subgraph;
  /// dynamo_start: the innermost frame of its stack (the compiled frame).
  SharedOptional<SourceLoc> Frame;
};
llvm::StringRef compileEventKindName(CompileEvent::EventKind K);
bool parseCompileEventKind(llvm::StringRef S, CompileEvent::EventKind &K);

/// Counts kept by the log reader.
struct LogStats {
  uint64_t Lines = 0;
  uint64_t Events = 0;
  uint64_t Payloads = 0;
  uint64_t Md5Mismatches = 0;
  uint64_t MalformedLines = 0;
  /// Event kinds tlp does not know, with their counts, sorted by name.
  std::vector<std::pair<std::string, uint64_t>> UnknownKinds;
};

/// Identifies a compile unit.
struct UnitKey {
  uint32_t Log = 0;
  llvm::Optional<int64_t> Rank;
  llvm::Optional<CompileId> Id; ///< None for AOTInductor / export
  GraphKind Graph = GraphKind::Unknown;
  /// The region of a regional inductor compile (the envelopes'
  /// `subgraph_name`, `__marked_inductor_submod0`); empty if none. Each
  /// region is an Inductor compile of its own, within the compile id.
  std::string Subgraph;
  /// The graph's name in a depyf dump (`__compiled_fn_3`): units read
  /// from a depyf dump have no compile id, and depyf's N is Dynamo's
  /// counter of graphs, not a compile id (docs/inputs.md). Empty for units
  /// of a log.
  std::string Fn;
  /// The TORCH_COMPILE_DEBUG folder of a unit read from one
  /// (`model__0_forward_1.0`; docs/inputs.md); empty for a log's unit.
  /// Log is then the folder's first file in Module::Logs.
  std::string Folder;
  /// Distinguishes several compiles with the same id, region and graph
  /// kind.
  uint32_t Ordinal = 0;
  /// The id names the log ("-logN"): set by setUnitIdLogs() when the rank
  /// alone does not pick out the unit's log. Not part of the key's order.
  bool LogInId = false;

  /// Stable, file-name safe: "0-0-forward", "r1-0-2-inference",
  /// "aot-inference", "0-0-forward-1", "r1-0-0-inference-log2" (LogInId),
  /// "dbg-model__0_forward_1.0" (Folder),
  /// "0-0-inference-__marked_inductor_submod0" (Subgraph; characters
  /// other than letters, digits, '_' and '.' become '_'),
  /// "r0-__compiled_fn_1-forward" (Fn, no compile id).
  std::string slug() const;
  /// For people: "rank 1 0/2 inference", "aot inference",
  /// "rank 1 0/0 inference (log 2)" (LogInId),
  /// "0/0 inference __marked_inductor_submod0" (Subgraph).
  std::string displayName() const;
  /// Sort order: rank (none first), log, compile id (none last), graph
  /// order of appearance is kept by Ordinal.
  bool operator<(const UnitKey &O) const;
  bool operator==(const UnitKey &O) const;
};

/// One row of a unit's kernel table: a kernel name with one debug handle
/// (or none), and the call sites it stands for.
struct Kernel {
  std::string Name;
  llvm::Optional<uint64_t> Handle;
  KernelKind Kind = KernelKind::Unknown;
  /// 1-based lines of the call sites in the unit's code, ascending.
  std::vector<uint32_t> CallLines;
  /// Index into the definitions of the unit's Code / KernelCode.
  llvm::Optional<uint32_t> Def;
  llvm::Optional<uint32_t> KernelCodeDef;
  /// True if the key appears in the provenance mapping.
  bool InMapping = false;

  /// "name:handle" or "name": the key as the mapping writes it.
  std::string key() const;
};

/// Whether the id of a unit of log \p Log with rank \p Rank must name its
/// log to be unique: the input has several logs and the rank does not pick
/// out the log (no rank, a rank other than the log's, or a rank two logs
/// share). Decided from the logs alone, so a streamed unit knows it.
bool unitIdNeedsLog(llvm::ArrayRef<LogFile> Logs, uint32_t Log,
                    llvm::Optional<int64_t> Rank);

/// Split a mapping key `name:handle` at its last ':' when the suffix is a
/// decimal number; otherwise the whole key is the name.
void splitKernelKey(llvm::StringRef Key, llvm::StringRef &Name,
                    llvm::Optional<uint64_t> &Handle);

/// An end of a provenance edge.
struct Endpoint {
  enum EndpointKind { PreNode, PostNode, KernelRow, Source };
  EndpointKind Kind = PreNode;
  uint32_t Index = 0;

  bool operator==(const Endpoint &O) const {
    return Kind == O.Kind && Index == O.Index;
  }
  bool operator<(const Endpoint &O) const {
    return Kind != O.Kind ? Kind < O.Kind : Index < O.Index;
  }
};

/// pre -> post, post -> kernel, pre -> kernel or kernel -> source.
struct Edge {
  Endpoint From;
  Endpoint To;
  EdgeOrigin Origin = EdgeOrigin::Mapping;
  /// How sure the origin is of the edge, in percent: 100 for what PyTorch
  /// wrote (the mapping, code comments, stack traces), less for inferred
  /// edges (docs/inference.md). Not part of the edge's identity.
  uint8_t Confidence = 100;

  bool operator==(const Edge &O) const {
    return From == O.From && To == O.To && Origin == O.Origin;
  }
  bool operator<(const Edge &O) const {
    if (!(From == O.From))
      return From < O.From;
    if (!(To == O.To))
      return To < O.To;
    return Origin < O.Origin;
  }
};

/// One guard of a depyf guard function (`__guard_0_for_forward` of
/// `full_code_for_forward_0.py`): the condition of its
/// `__guard_hit = __guard_hit and <condition>` line and depyf's comment
/// after it (the user source line that made the guard), if any.
struct DynamoGuard {
  uint32_t Line = 0; ///< 1-based line in the file of DynamoCodeFile::GuardLog
  std::string Code;
  std::string Comment;
};

/// A file of a depyf dump that a unit keeps as it was read, to show.
struct UnitFile {
  enum FileKind {
    /// A module Inductor loaded other than the output code (`kernel_N.py`
    /// without `def call(`: a Triton kernel's module).
    KernelModule,
    /// `kernel_N.best_config`: the autotuner's chosen config (JSON).
    BestConfig,
    /// `__transformed_code_K_for_F.py`: Dynamo's code for cache entry K of
    /// function F, decompiled, which calls the unit's graph; with the
    /// guards of that cache entry when `full_code_for_F_*.py` has them.
    DynamoCode,
  };
  FileKind Kind = KernelModule;
  /// Index into Module::Logs of the file.
  uint32_t Log = 0;
  std::string Text;
  /// DynamoCode: the file the guards are in (Module::Logs), and the
  /// guards of the cache entry, in file order.
  llvm::Optional<uint32_t> GuardLog;
  std::vector<DynamoGuard> Guards;
};
llvm::StringRef unitFileKindName(UnitFile::FileKind K);
bool parseUnitFileKind(llvm::StringRef S, UnitFile::FileKind &K);

/// One stage of a unit's pass timeline: the graph as one step of the
/// pipeline left it (a depyf dump's `__compiled_fn_N.<stage>.K.py`).
struct PassStage {
  /// The stage's name as the file names it (`Forward_graph`,
  /// `AFTER_POST_GRAD`, `tensorify_python_scalars`).
  std::string Stage;
  /// The graph; its Log names the file, its Name the file's name.
  std::unique_ptr<GraphArtifact> Graph;
};

class CompileUnit {
public:
  UnitKey Key;
  /// The frame Dynamo compiled (from dynamo_start), when known.
  SharedOptional<SourceLoc> Frame;

  /// The artifacts of the unit, one member per row of UnitSlots.def
  /// (PreGrad, PostGrad, Code, KernelCode, Mapping, StackTraces,
  /// KernelInfo, NodeTree, KernelNodes).
#define TLP_UNIT_SLOT(FIELD, CLASS, ROLE, TITLE) std::unique_ptr<CLASS> FIELD;
#include "tlp/IR/UnitSlots.def"

  /// The artifact in slot \p S, or null.
  Artifact *slot(UnitSlot S) const;
  /// Put \p A into the slot of its kind, replacing what was there.
  void setSlot(std::unique_ptr<Artifact> A);
  /// Call \p Fn(UnitSlot, Artifact &) for each filled slot, in slot order.
  template <typename Fn> void forEachArtifact(Fn &&F) const {
    for (unsigned I = 0; I < NumUnitSlots; ++I)
      if (Artifact *A = slot(static_cast<UnitSlot>(I)))
        F(static_cast<UnitSlot>(I), *A);
  }

  /// Set by resolve-debug-handles.
  std::vector<Kernel> Kernels;
  /// User source lines, set by attribute-source.
  std::vector<SourceLoc> Sources;
  /// Set by link-provenance (and attribute-source for stack traces).
  std::vector<Edge> Edges;
  /// The pass timeline: the graphs of the unit stage after stage, in
  /// pipeline order (docs/IR.md); empty for units of a log.
  std::vector<PassStage> Stages;
  /// Files of a depyf dump kept with the unit (kernel modules, autotune
  /// configs, Dynamo code and guards).
  std::vector<UnitFile> Files;
  /// Reader to grouping only (never in the IR text): a unit of a depyf
  /// dump whose output code is the same text as the log artifact at
  /// (Log, Line) of the same directory; group-compile-ids moves its stages
  /// and files into that artifact's unit and drops it.
  llvm::Optional<std::pair<uint32_t, uint32_t>> SameCodeAs;

  /// Find a kernel row by its key ("name:handle" or "name"). Linear in
  /// the rows; code that looks up many keys builds a KernelKeyIndex.
  llvm::Optional<uint32_t> findKernel(llvm::StringRef Key) const;
  /// Add a source line if new; returns its index.
  uint32_t addSource(const SourceLoc &S);
  /// Sort edges and drop duplicates.
  void canonicalizeEdges();
  /// Drop every edge with origin \p O.
  void removeEdges(EdgeOrigin O);
  /// The graph an endpoint kind refers to (pre or post), or null.
  const GraphArtifact *graphFor(Endpoint::EndpointKind K) const;
  /// Human-readable name of an endpoint: node name, kernel key or
  /// file:line.
  std::string endpointName(const Endpoint &E) const;
};

/// The kernel rows of a unit by key, for many lookups. A snapshot: build
/// it after the table is final (it does not follow later changes).
class KernelKeyIndex {
public:
  explicit KernelKeyIndex(const CompileUnit &U);
  llvm::Optional<uint32_t> find(llvm::StringRef Key) const;

private:
  llvm::StringMap<uint32_t> Rows;
};

class Module {
public:
  std::vector<LogFile> Logs;
  std::vector<CompileEvent> Events;
  /// Artifacts not yet grouped into units.
  std::vector<std::unique_ptr<Artifact>> Artifacts;
  std::vector<std::unique_ptr<CompileUnit>> Units;
  /// One record per compile (log, rank, compile id), sorted by
  /// CompileRecord::operator<; compiles without Inductor output too.
  std::vector<CompileRecord> Compiles;
  /// The cache key components of the records' lookups, each text once.
  std::vector<std::string> KeyComponents;
  /// The configuration dumps of the compile records (inductor_config,
  /// dynamo_config, compiler_config, functorch_config of the
  /// compilation_metrics: a JSON object as text each), each text once;
  /// CompileRecord::Configs indexes them.
  std::vector<std::string> ConfigTexts;
  /// The events tlp does not interpret that belong to no compile (no
  /// compile id), in log order; those of a compile are in its record.
  std::vector<RawEvent> Raw;
  LogStats Stats;
  /// Diagnostics carried with the IR (from earlier stages).
  std::vector<Diagnostic> Diagnostics;

  /// Calls \p F for every RawEvent: the module's, then each record's.
  template <typename Fn> void forEachRaw(Fn F) const {
    for (const RawEvent &E : Raw)
      F(E);
    for (const CompileRecord &R : Compiles)
      for (const RawEvent &E : R.Raw)
        F(E);
  }

  /// Display name of log \p I for diagnostics.
  std::string logName(uint32_t I) const;
  /// The first compile record of a unit key (same log, rank and compile
  /// id), or null.
  const CompileRecord *findCompile(const UnitKey &K) const;
  const CompileRecord *findCompile(uint32_t Log, llvm::Optional<int64_t> Rank,
                                   llvm::Optional<CompileId> Id) const;
  /// The compile record of a unit: of the compiles with its log, rank and
  /// compile id (several after torch._dynamo.reset()), the one begun
  /// last before the unit's first artifact; or null.
  const CompileRecord *findCompile(const CompileUnit &U) const;
  /// The FX graph cache lookup of unit \p U: the lookup of its compile
  /// whose AOT ID is that of the unit's code (CacheLookup::AotId); null
  /// when none says.
  const CacheLookup *fxLookupOf(const CompileUnit &U) const;
  /// The units of a record, as indices into Units (whole modules only).
  std::vector<uint32_t> unitsOf(const CompileRecord &R) const;

  /// "Why did the cache miss?": a key component of a miss that differs
  /// from the previous lookup of the same cache for the same frame.
  struct KeyChange {
    std::string Name;
    std::string Before; ///< "" if the component was not in the key before
    std::string After;  ///< "" if it is not in the key any more
    /// A component of a list whose length changed (AlignedList): the name
    /// the compared value had before, when the list's alignment moved it
    /// (`example_inputs[1]` for `example_inputs[2]`); else "".
    std::string BeforeName;
    /// Of an aligned list: Before "" is an entry inserted, After "" one
    /// removed (not a component the key lacked; Name is then its name
    /// before).
    bool Aligned = false;
  };
  /// A list of components (`example_inputs[0]`, `example_inputs[1]`, ...)
  /// whose length changed: its entries are compared by value, not by
  /// index, as an input added shifts those after it.
  struct AlignedList {
    std::string Name; ///< `example_inputs`
    size_t Before = 0, After = 0;
    /// Entries the same before and after, at another index.
    size_t Moved = 0;
  };
  struct CacheMissDiff {
    const CompileRecord *Against = nullptr;
    const CacheLookup *Before = nullptr;
    const CacheLookup *Miss = nullptr;
    std::vector<KeyChange> Changes;
    std::vector<AlignedList> Aligned;
  };
  /// For each miss of \p R with key components: the earlier lookup of the
  /// same cache in a record of the same frame (same log, rank and frame
  /// id, an earlier compile), and the components that differ. When that
  /// record looked the cache up for several graphs, the lookup of the same
  /// graph (CacheLookup::AotId: the k-th forward, a backward by its
  /// forward's place), else of the same kind (fx_kwargs[is_backward]) with
  /// the fewest differing components. Components
  /// are compared by name, their hashes deciding equality; the entries of
  /// a list (`NAME[i]`) whose length changed are aligned by value first
  /// (AlignedList), entries left over in the same gap paired by their
  /// type (the text before `(`).
  std::vector<CacheMissDiff> cacheMissDiffs(const CompileRecord &R) const;
  /// A miss of a record that cacheMissDiffs() cannot explain, and why.
  struct UndiffedMiss {
    const CacheLookup *Miss = nullptr;
    enum ReasonKind {
      NoComponents,   ///< the lookup logs no key components (AOTAutograd
                      ///< cache misses of PyTorch 2.13 log `[]`)
      NoEarlierLookup ///< the first lookup of the cache (and region) for
                      ///< the frame
    } Reason = NoComponents;
    /// NoEarlierLookup: the compile looked the cache up before for another
    /// kind of graph (a forward's lookup before its backward's), which is
    /// not compared with this one.
    bool AfterOtherKind = false;
    /// For people: "PyTorch logged no key components for this lookup: ...".
    std::string why() const;
  };
  /// The misses of \p R, in log order, that have no diff in \p Diffs (what
  /// cacheMissDiffs(R) returned: the caller has it, and computing it again
  /// walks the frame's records again): the "Why did the cache miss?" lists
  /// say why not, so that every miss is listed.
  std::vector<UndiffedMiss>
  cacheMissesNotDiffed(const CompileRecord &R,
                       llvm::ArrayRef<CacheMissDiff> Diffs) const;
};

} // namespace tlp

#endif // TLP_IR_MODULE_H
