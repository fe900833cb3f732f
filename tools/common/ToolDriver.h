//===- ToolDriver.h - What tlp-opt and tlp-emit share -----------*- C++ -*-===//
//
// Part of tlp. Loading an input (IR or logs), running a pipeline with
// verification, printing diagnostics and choosing the exit code.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_TOOLS_TOOLDRIVER_H
#define TLP_TOOLS_TOOLDRIVER_H

#include "tlp/IR/Module.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {

struct DriverOptions {
  std::string Input = "-";
  std::vector<std::string> Passes;
  bool VerifyEach = false;
  bool Verify = true;
  unsigned Threads = 0;
};

/// TLP_VERIFY_EACH=1 in the environment acts as --verify-each (the lit
/// suite sets it, so every test verifies after reading and every pass).
bool verifyEachFromEnvironment();

class ToolDriver {
public:
  explicit ToolDriver(llvm::StringRef ToolName);

  /// Load the input, run the passes, verify. Prints diagnostics as it
  /// goes. Returns null on failure (after printing why).
  std::unique_ptr<Module> load(const DriverOptions &Opts, bool &IsIR);
  /// Run \p Passes on \p M; false on failure.
  bool run(Module &M, const DriverOptions &Opts);
  /// Copy the diagnostics into the module so emitters and the IR see them.
  void attachDiagnostics(Module &M);
  /// Print remaining diagnostics and return the exit code: 1 if there were
  /// errors, or warnings under --strict; 0 otherwise.
  int finish(bool Strict);
  /// Report a fatal error and return 1.
  int fail(const llvm::Twine &Message);
  void flush();

  DiagnosticEngine Diags;

private:
  std::string ToolName;
  bool Color;
};

} // namespace tlp

#endif // TLP_TOOLS_TOOLDRIVER_H
