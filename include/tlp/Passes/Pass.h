//===- Pass.h - Pass interface and pipelines --------------------*- C++ -*-===//
//
// Part of tlp. A pass transforms a Module in place. Passes are registered in
// Passes.def, built by name, and scheduled with their prerequisites.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_PASSES_PASS_H
#define TLP_PASSES_PASS_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {

struct PassContext {
  explicit PassContext(DiagnosticEngine &Diags) : Diags(Diags) {}
  DiagnosticEngine &Diags;
  /// Run the verifier after every pass (tests do).
  bool VerifyEach = false;
  /// Worker threads for per-unit work (0: one per core).
  unsigned Threads = 0;
};

class Pass {
public:
  virtual ~Pass();
  virtual llvm::StringRef getName() const = 0;
  /// Transform \p M. Return an Error only for failures that stop the
  /// pipeline; problems in the input are diagnostics.
  virtual llvm::Error run(Module &M, PassContext &Ctx) = 0;
  /// True for UnitPass.
  virtual bool isUnitPass() const { return false; }
  /// False if the pass reads nothing of the artifacts' payloads (only
  /// their kinds, keys and places): a streaming driver may then run it
  /// on a module read without payloads, before the units are loaded one
  /// at a time. Module passes need payloads unless they say otherwise;
  /// unit passes always get loaded units.
  virtual bool needsPayloads() const { return true; }
};

/// A pass that transforms each unit on its own (reading only the module's
/// logs and stats). A driver may run it on units one at a time, as they are
/// loaded; run() runs it on every unit of the module in parallel.
class UnitPass : public Pass {
public:
  llvm::Error run(Module &M, PassContext &Ctx) final;
  virtual void runOnUnit(const Module &M, CompileUnit &U,
                         DiagnosticEngine &Diags) = 0;
  static bool classof(const Pass *P) { return P->isUnitPass(); }
  bool isUnitPass() const override { return true; }
};

/// Run \p Fn on every unit, in parallel; diagnostics keep unit order.
void forEachUnit(
    Module &M, PassContext &Ctx,
    llvm::function_ref<void(CompileUnit &, DiagnosticEngine &)> Fn);

struct PassInfo {
  llvm::StringRef Name;
  llvm::StringRef Requires;
  llvm::StringRef Description;
  std::unique_ptr<Pass> (*Create)();
};

/// Every registered pass, in Passes.def order.
llvm::ArrayRef<PassInfo> getRegisteredPasses();
const PassInfo *lookupPass(llvm::StringRef Name);

class PassPipeline {
public:
  /// Pass names as scheduled, prerequisites included.
  std::vector<std::string> names() const;
  bool empty() const { return Passes.empty(); }
  /// Run every pass; verify after each one if Ctx.VerifyEach.
  llvm::Error run(Module &M, PassContext &Ctx);

  /// The pipeline as a module part followed by a unit part: true if, after
  /// the first \p ModulePasses passes, every pass is a UnitPass (so the
  /// rest can run unit by unit).
  bool splitForUnits(size_t &ModulePasses) const;
  /// True if a pass of [Begin, End) needs payloads (Pass::needsPayloads).
  bool needsPayloads(size_t Begin, size_t End) const;
  /// Run passes [Begin, End) on the module.
  llvm::Error runRange(Module &M, PassContext &Ctx, size_t Begin, size_t End);
  /// Run the unit passes from \p Begin on one unit, verifying after each
  /// if \p VerifyEach.
  llvm::Error runOnUnit(const Module &M, CompileUnit &U,
                        DiagnosticEngine &Diags, size_t Begin, bool VerifyEach);
  size_t size() const { return Passes.size(); }

private:
  friend llvm::Expected<PassPipeline>
  buildPipeline(llvm::ArrayRef<std::string> Names);
  std::vector<std::unique_ptr<Pass>> Passes;
};

/// Build a pipeline from pass names, adding each pass's prerequisites
/// before it unless they are already scheduled. An unknown name is an error
/// naming it.
llvm::Expected<PassPipeline> buildPipeline(llvm::ArrayRef<std::string> Names);

/// Split "a,b,c" into names; an empty element is an error.
llvm::Expected<std::vector<std::string>>
parsePipelineText(llvm::StringRef Text);

/// What tlp-emit runs on a raw log: link-provenance and what it needs.
std::vector<std::string> defaultPipeline();

#define TLP_PASS(NAME, CREATE, REQUIRES, DESCRIPTION)                          \
  std::unique_ptr<Pass> CREATE();
#include "tlp/Passes/Passes.def"

} // namespace tlp

#endif // TLP_PASSES_PASS_H
