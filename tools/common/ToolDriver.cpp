//===- ToolDriver.cpp - What tlp-opt and tlp-emit share -------------------===//

#include "ToolDriver.h"

#include "tlp/IR/Verifier.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Passes/Pass.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace tlp {

bool verifyEachFromEnvironment() {
  Optional<std::string> V = sys::Process::GetEnv("TLP_VERIFY_EACH");
  return V && *V != "0" && !V->empty();
}

ToolDriver::ToolDriver(StringRef ToolName)
    : ToolName(ToolName.str()), Color(sys::Process::StandardErrHasColors()) {}

void ToolDriver::flush() { Diags.printNew(errs(), ToolName, Color); }

int ToolDriver::fail(const Twine &Message) {
  flush();
  WithColor::error(errs(), ToolName) << Message << "\n";
  return 1;
}

std::unique_ptr<Module> ToolDriver::load(const DriverOptions &Opts,
                                         bool &IsIR) {
  bool VerifyEach = Opts.VerifyEach || verifyEachFromEnvironment();
  ReadOptions RO;
  RO.Threads = Opts.Threads;
  Expected<std::unique_ptr<Module>> M = loadInput(Opts.Input, Diags, IsIR, RO);
  if (!M) {
    fail(toString(M.takeError()));
    return nullptr;
  }
  if (!IsIR && VerifyEach)
    if (Error E = verifyModule(**M)) {
      fail("IR is invalid after reading the input:\n" + toString(std::move(E)));
      return nullptr;
    }
  if (IsIR) {
    // Diagnostics in the IR were printed by the tool that wrote it.
    flush();
    for (Diagnostic &D : (*M)->Diagnostics)
      Diags.add(std::move(D));
    (*M)->Diagnostics.clear();
    Diags.markPrinted();
    if (Opts.Verify)
      if (Error E = verifyModule(**M)) {
        fail("input IR is invalid:\n" + toString(std::move(E)));
        return nullptr;
      }
  }
  flush();
  return std::move(*M);
}

bool ToolDriver::run(Module &M, const DriverOptions &Opts) {
  Expected<PassPipeline> P = buildPipeline(Opts.Passes);
  if (!P) {
    fail(toString(P.takeError()));
    return false;
  }
  PassContext Ctx(Diags);
  Ctx.VerifyEach = Opts.VerifyEach || verifyEachFromEnvironment();
  Ctx.Threads = Opts.Threads;
  if (Error E = P->run(M, Ctx)) {
    fail(toString(std::move(E)));
    return false;
  }
  if (Opts.Verify && !Opts.VerifyEach)
    if (Error E = verifyModule(M)) {
      fail("IR is invalid after the pipeline:\n" + toString(std::move(E)));
      return false;
    }
  flush();
  return true;
}

void ToolDriver::attachDiagnostics(Module &M) {
  M.Diagnostics = Diags.diagnostics();
}

int ToolDriver::finish(bool Strict) {
  flush();
  if (Diags.numErrors())
    return 1;
  if (Strict && Diags.numWarnings()) {
    WithColor::error(errs(), ToolName)
        << Diags.numWarnings() << " warning"
        << (Diags.numWarnings() == 1 ? "" : "s") << " with --strict\n";
    return 1;
  }
  return 0;
}

} // namespace tlp
