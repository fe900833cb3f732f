//===- UnitSource.h - Where a run's units come from -------------*- C++ -*-===//
//
// Part of tlp. The driver's engine takes units from one UnitSource, in
// order, through the ordered window: next() on the main thread hands out
// an item without reading it, materialize() on a worker makes its unit
// ready (loads a log unit's payloads, parses an IR document), and accept()
// on the main thread, in order, checks what only order can tell. Three
// sources: a log read without payloads (units loaded one by one), IR read
// document by document, and a module already in memory.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_DRIVER_UNITSOURCE_H
#define TLP_DRIVER_UNITSOURCE_H

#include "tlp/Analysis/UnitDigest.h"
#include "tlp/Emit/Emitter.h"
#include "tlp/IR/IRDocumentReader.h"
#include "tlp/IR/Module.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Support/Diagnostics.h"
#include "tlp/Support/Parallel.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tlp {

/// One item on its way through the engine.
struct UnitInFlight : WindowItem {
  /// The unit, once materialized; null for an item that is not a unit (an
  /// IR diagnostics or end document).
  std::unique_ptr<CompileUnit> U;
  /// Its position in module order (the --unit index).
  size_t Index = 0;
  /// Diagnostics of its reading and passes, appended in order.
  DiagnosticEngine Diags;
  /// Set: the run stops here with this error.
  std::string Failure;
  /// The emitter's work on a worker (Emitter::prepareUnit), and the
  /// unit's rank digest if the emitter needs it (ModuleFactsBuilder).
  std::unique_ptr<PreparedUnit> Prepared;
  llvm::Optional<UnitDigest> Digest;

  // IR documents.
  IRDocumentText Doc;
  unsigned DocNo = 0;
  bool IsDiagnostics = false;
  std::vector<Diagnostic> InputDiags;
  llvm::Optional<IREndCounts> End;
};

class UnitSource {
public:
  virtual ~UnitSource();
  /// Main thread: the next item, unread (null: none left).
  virtual std::unique_ptr<UnitInFlight> next() = 0;
  /// A worker: make the item's unit ready, or set its Failure.
  virtual void materialize(UnitInFlight &W) {}
  /// Main thread, in order, before the item's diagnostics are reported:
  /// an error if the item may not come here at all.
  virtual llvm::Error check(UnitInFlight &W) { return llvm::Error::success(); }
  /// Main thread, in order, after the item's diagnostics: an error stops
  /// the run; \p IsUnit says whether W.U goes on to the emitter.
  virtual llvm::Error accept(UnitInFlight &W, bool &IsUnit) {
    IsUnit = W.U != nullptr;
    return llvm::Error::success();
  }
  /// Main thread: the unit was emitted; the source may keep it.
  virtual void emitted(std::unique_ptr<CompileUnit> U) {}
  /// Main thread, after the last item: what only the end can tell.
  virtual llvm::Error finish() { return llvm::Error::success(); }
};

/// The units of \p M as grouped from a log read without payloads: each is
/// loaded (loadUnit) on a worker. Takes M.Units.
std::unique_ptr<UnitSource> createLogUnitSource(Module &M,
                                                const TraceSources &Sources);

/// The units of \p M, loaded and in memory; emitted units go back to
/// M.Units in order.
std::unique_ptr<UnitSource> createMemoryUnitSource(Module &M);

/// The `!tlp.unit` documents of \p R, parsed on workers into \p M's units.
/// \p AdoptDiagnostics takes the diagnostics document's list; \p Verify
/// checks that units come sorted by key.
std::unique_ptr<UnitSource> createIRUnitSource(
    Module &M, std::unique_ptr<IRDocumentReader> R, bool Verify,
    DiagnosticEngine &Diags,
    std::function<void(std::vector<Diagnostic>)> AdoptDiagnostics);

} // namespace tlp

#endif // TLP_DRIVER_UNITSOURCE_H
