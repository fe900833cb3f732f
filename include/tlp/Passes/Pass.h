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

/// When a unit (UnitPipeline) or the module (PassPipeline::runRange) is
/// verified.
struct VerifyPolicy {
  /// Before the first pass, as read; InputWhat begins the error
  /// ("input IR is invalid").
  bool Input = false;
  std::string InputWhat = "input IR is invalid";
  /// After each pass.
  bool EachPass = false;
  /// After the last pass, when a pass ran and EachPass did not check it.
  bool End = false;
};

struct PassContext {
  explicit PassContext(DiagnosticEngine &Diags) : Diags(Diags) {}
  DiagnosticEngine &Diags;
  /// When the module pipeline verifies the module (unit pipelines nested
  /// in it verify after each pass when Verify.EachPass is set).
  VerifyPolicy Verify;
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
/// logs and stats). It runs only inside a UnitPipeline: a driver runs the
/// pipeline on units one at a time, as they are loaded; a module pipeline
/// runs it on every unit of the module through the ordered window.
class UnitPass : public Pass {
public:
  /// Runs the pass alone on every unit (a UnitPipeline of one pass).
  llvm::Error run(Module &M, PassContext &Ctx) final;
  virtual void runOnUnit(const Module &M, CompileUnit &U,
                         DiagnosticEngine &Diags) = 0;
  static bool classof(const Pass *P) { return P->isUnitPass(); }
  bool isUnitPass() const override { return true; }
};

/// Unit passes in order, and when the unit is verified: the one place a
/// unit pass runs and the one place a unit is verified (as MLIR's
/// OpToOpPassAdaptor runs a nested pipeline on each operation). A driver
/// runs it on each unit in its ordered window; a module pipeline runs a
/// stretch of unit passes as one of these over the module's units.
class UnitPipeline {
public:
  UnitPipeline() = default;
  UnitPipeline(std::vector<UnitPass *> Passes, VerifyPolicy Policy)
      : Passes(std::move(Passes)), Policy(std::move(Policy)) {}
  /// Verify \p U as read, run the passes, verify, as the policy says. An
  /// Error is a unit the verifier rejects; problems in the input are
  /// diagnostics in \p Diags.
  llvm::Error run(const Module &M, CompileUnit &U,
                  DiagnosticEngine &Diags) const;
  /// Run on every unit of \p M on up to \p Threads threads, through the
  /// ordered window; diagnostics keep unit order. The first rejected unit
  /// in order stops it.
  llvm::Error runOnModule(Module &M, unsigned Threads,
                          DiagnosticEngine &Diags) const;
  bool empty() const { return Passes.empty(); }
  const VerifyPolicy &policy() const { return Policy; }

private:
  std::vector<UnitPass *> Passes;
  VerifyPolicy Policy;
};

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
  /// Run passes [Begin, End) on the module: module passes one by one
  /// (the module verified after each if Ctx.VerifyEach), each stretch of
  /// unit passes as one UnitPipeline over the units.
  llvm::Error runRange(Module &M, PassContext &Ctx, size_t Begin, size_t End);
  /// The passes from \p Begin, all unit passes (splitForUnits), as a
  /// UnitPipeline with \p Policy.
  UnitPipeline unitPipeline(size_t Begin, VerifyPolicy Policy) const;
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
