//===- Emitter.h - Emitter interface ----------------------------*- C++ -*-===//
//
// Part of tlp. An emitter renders a Module. It reads only the IR. Emitters
// stream: begin() once, unit() for every unit in order, end() once, so a
// driver can hand over units as they are ready and free them after; an
// emitter that needs all units (an index page) keeps what it needs of each.
// Emitters are registered in Emitters.def.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_EMIT_EMITTER_H
#define TLP_EMIT_EMITTER_H

#include "tlp/Analysis/Profile.h"
#include "tlp/Analysis/Query.h"
#include "tlp/Analysis/RankRuntime.h"
#include "tlp/Analysis/UnitDigest.h"
#include "tlp/Emit/EmitTarget.h"
#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tlp {

// The enumerated options: DOTGraph, RenderFormat (EmitOptions.def).
#define TLP_EMIT_OPTION(TYPE, FLAG) enum class TYPE {
#define TLP_EMIT_OPTION_VALUE(TYPE, VALUE, TEXT) VALUE,
#define TLP_EMIT_OPTION_END(TYPE) };
#include "tlp/Emit/EmitOptions.def"

#define TLP_EMIT_OPTION(TYPE, FLAG) llvm::StringRef emitOptionName(TYPE V);
#include "tlp/Emit/EmitOptions.def"

/// The value of an enumerated option spelled \p Text; an error that names
/// the flag and the words it takes ("unknown --graph value 'x' (expected
/// pre, post or provenance)") for another word.
template <typename T> llvm::Expected<T> parseEmitOption(llvm::StringRef Text);

/// --unit: the one unit an emitter that draws one unit (DOT) or may be
/// limited to one (Markdown, dump) picks, by id (slug), display name or
/// 0-based index in module order. Empty: every unit (DOT: the first).
class UnitSelector {
public:
  UnitSelector() = default;
  explicit UnitSelector(llvm::StringRef Text) : Text(Text.str()) {}
  /// True if no unit was named.
  bool empty() const { return Text.empty(); }
  llvm::StringRef text() const { return Text; }
  /// True if the selector names \p U, the unit at \p Index in module
  /// order (always, when empty()).
  bool matches(const CompileUnit &U, size_t Index) const;
  /// The error when it names none of \p Units ("unknown unit 'x'; the
  /// units are: 0: 0-0-forward (0/0 forward), ...").
  llvm::Error noMatch(llvm::ArrayRef<std::string> Units) const;

private:
  std::string Text;
};

struct EmitOptions {
  /// Output path: a file, "-" for stdout, or a directory for emitters that
  /// write several files.
  std::string Output = "-";
  /// If set, emitters that write a single stream write here instead of
  /// Output (for tests and fuzzers).
  llvm::raw_ostream *Stream = nullptr;
  /// Indent JSON and similar output for people and FileCheck.
  bool Pretty = false;
  /// The command that made the output (recorded by some emitters).
  std::string CommandLine;

  /// --unit (DOT, Markdown, dump).
  UnitSelector Unit;
  /// --graph (DOT).
  DOTGraph Graph = DOTGraph::Provenance;
  /// --collapse-kernels: draw each kernel as one node (DOT).
  bool CollapseKernels = false;
  /// --node=NAME / --source=FILE:LINE: the question the Markdown emitter
  /// answers instead of writing the report; None: the report.
  llvm::Optional<ProvenanceQuery> Query;
  /// --render (Markdown).
  RenderFormat Render = RenderFormat::Markdown;
  /// tlp-opt --raw-texts: the IR carries the texts of the events shown raw
  /// (by default it points into the log, when the log is a file).
  bool EmbedRawTexts = false;
  /// tlp-opt --compact: the IR in its compact binary form (IRCompactIO.h)
  /// instead of the YAML text.
  bool CompactIR = false;
  /// Worker threads for the work an emitter does at the end of the run
  /// (the JSON compile records; 0: one per core): --threads.
  unsigned Threads = 0;
  /// --profile: a torch.profiler Chrome trace whose time is joined onto
  /// the units (JSON, Markdown, HTML; docs/profile.md); empty: none.
  std::string Profile;
};

/// What the units of a module tell as a whole, gathered once as they go
/// by (ModuleFactsBuilder; the rank digests on the workers) for every
/// emitter: the ids, the units of each compile, the ranks compared, the
/// selection.
struct ModuleFacts {
  struct Unit {
    /// Unique in the output: the slug, or slug-dupN (N from 2) for the
    /// Nth unit with a slug already taken (a damaged log).
    std::string Id;
    /// The display name ("0/0 forward").
    std::string Name;
    /// Its compile record (an index of Module::Compiles), if any.
    llvm::Optional<size_t> Record;
    /// Chosen by --unit (always, without it).
    bool Selected = true;
    /// It has Inductor's output: code (a wrapper or kernel code) or
    /// kernels. A failed compile's unit may hold its graphs only.
    bool HasCode = false;
    /// Its graph: forward, backward, inference or unknown.
    GraphKind Graph = GraphKind::Unknown;
  };
  /// The units so far, in module order; while an emitter handles a unit,
  /// it is the last.
  std::vector<Unit> Units;
  /// The units of each compile record (indices of Units).
  std::map<size_t, std::vector<size_t>> UnitsOfRecord;
  /// The digests of the units with a rank (EmitterTraits::NeedsDigests),
  /// each with the unit's Id.
  std::vector<UnitDigest> Digests;
  /// The collective calls of each compile record's output code (its units
  /// in module order, each unit's calls in line order), by record: what
  /// its collective schedule is compared with (tlp/Analysis/RankRuntime.h).
  CodeCollectives Collectives;
  /// What the profile join reads of each unit, in module order
  /// (EmitterTraits::NeedsProfile).
  std::vector<ProfileUnit> ProfileUnits;
  const Unit &current() const { return Units.back(); }
};

/// Builds ModuleFacts for an emitter with the given traits.
class ModuleFactsBuilder {
public:
  explicit ModuleFactsBuilder(const EmitterTraits &Traits) : Traits(Traits) {}
  /// On a worker, for the unit at \p Index: whether it can be selected at
  /// all (the selector names it; FirstOnly is decided in add()).
  bool mayBeSelected(const CompileUnit &U, size_t Index) const;
  /// On a worker: the unit's digest if the emitter needs it, else None.
  llvm::Optional<UnitDigest> digest(const Module &M,
                                    const CompileUnit &U) const;
  /// In module order: the next unit, with what digest() made.
  void add(const Module &M, const CompileUnit &U,
           llvm::Optional<UnitDigest> Digest);
  /// After the last unit: an error if --unit named none.
  llvm::Error finish() const;
  const ModuleFacts &facts() const { return Facts; }

private:
  EmitterTraits Traits;
  ModuleFacts Facts;
  llvm::StringSet<> Taken;
  std::vector<std::string> ListEntries;
  bool AnySelected = false;
};

/// What an emitter's prepareUnit() made for one unit on a worker, handed
/// back to the same emitter's preparedUnit() on the main thread. Each
/// emitter derives its own result type (PreparedText is the common one).
struct PreparedUnit {
  virtual ~PreparedUnit();
};

/// A unit rendered to text, written as it is unless its id changed.
struct PreparedText final : PreparedUnit {
  explicit PreparedText(std::string Text) : Text(std::move(Text)) {}
  std::string Text;
};

class Emitter {
public:
  explicit Emitter(const EmitOptions &Opts, DiagnosticEngine &Diags)
      : Opts(Opts), Diags(Diags) {}
  virtual ~Emitter();
  /// What the emitter writes (a file, a directory) and reads (units or
  /// not). The driver opens the output by them before begin().
  virtual EmitterTraits traits() const { return {}; }
  /// The output the emitter writes into, opened, kept or dropped by the
  /// driver (or emitModule()); set before begin(), null once dropped.
  void setTarget(EmitTarget *T) { Target = T; }
  /// The module's facts (ModuleFacts), gathered by the driver (or
  /// emitModule()); set before begin().
  void setFacts(const ModuleFacts *F) { Facts = F; }
  /// Reads the texts of the module's RawEvents that are not loaded (set
  /// by the driver when the input is a log); may be null.
  void setRawReader(const RawEventReader *R) { RawReader = R; }
  const EmitOptions &options() const { return Opts; }

  /// Once, before any unit. \p M has its logs and stats; its Units may be
  /// empty (when the driver streams) and its diagnostics are not complete.
  virtual llvm::Error begin(const Module &M) { return llvm::Error::success(); }
  /// Every unit, in module order.
  virtual llvm::Error unit(const Module &M, const CompileUnit &U) = 0;

  /// Optional: the part of unit()'s work that depends only on \p M and
  /// \p U (rendering its text, say). A driver may call it on worker
  /// threads, for several units at once and ahead of unit(); it must not
  /// touch the emitter's state. Its result is given to preparedUnit();
  /// null (the default) means "nothing prepared".
  virtual std::unique_ptr<PreparedUnit>
  prepareUnit(const Module &M, const CompileUnit &U) const {
    return nullptr;
  }
  /// unit() for an emitter whose prepareUnit() made \p Prepared. The
  /// default ignores it and calls unit().
  virtual llvm::Error preparedUnit(const Module &M, const CompileUnit &U,
                                   std::unique_ptr<PreparedUnit> Prepared) {
    return unit(M, U);
  }
  /// Once, after the last unit; M.Diagnostics is complete.
  virtual llvm::Error end(const Module &M) = 0;
  /// The run failed (after begin(), or before it): end what was started
  /// (the IR printer marks a stream that has begun as incomplete). The
  /// default does nothing; the output is dropped anyway.
  virtual void abort() {}

protected:
  /// The output stream (File shape).
  llvm::raw_ostream &out() { return Target->os(); }
  /// The output directory (Directory shape).
  OutputDirectory &outDir() { return Target->dir(); }
  const EmitOptions &Opts;
  DiagnosticEngine &Diags;
  EmitTarget *Target = nullptr;
  const ModuleFacts &facts() const { return *Facts; }
  const ModuleFacts *Facts = nullptr;
  /// The texts of \p E (rawEventTexts through the driver's reader).
  bool rawTexts(const RawEvent &E, std::string &Line, std::string &Text) const {
    return rawEventTexts(E, RawReader, Line, Text);
  }
  const RawEventReader *RawReader = nullptr;
};

#define TLP_EMITTER(NAME, CLASS, DESCRIPTION)                                  \
  std::unique_ptr<Emitter> create##CLASS(const EmitOptions &Opts,              \
                                         DiagnosticEngine &Diags);
#include "tlp/Emit/Emitters.def"

/// The IR text form, document by document (what tlp-opt prints). Not a
/// tlp-emit format: tlp-opt is the tool that prints IR.
std::unique_ptr<Emitter> createIREmitter(const EmitOptions &Opts,
                                         DiagnosticEngine &Diags);

/// Open the output of \p E (EmitTarget::open), then begin(), unit() for
/// each of M.Units, end(), and keep the output.
llvm::Error emitModule(Emitter &E, const Module &M);

/// Current version of the JSON schema (docs/json.md).
extern const char *const JSONSchemaVersion;

} // namespace tlp

#endif // TLP_EMIT_EMITTER_H
