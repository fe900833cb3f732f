//===- ToolDriver.h - What tlp-opt and tlp-emit share -----------*- C++ -*-===//
//
// Part of tlp. Loading an input (IR or logs), running a pipeline with
// verification, handing units to an output in order, printing diagnostics
// and choosing the exit code.
//
// When the pipeline is module passes followed by unit passes (the usual
// `group-compile-ids` then per-unit passes), the driver streams: logs are
// read without their payloads, grouped, and then each unit is loaded,
// transformed, verified, given to the output and freed, several units in
// flight on worker threads but delivered in order. Memory then holds a few
// units, not the whole log. IR input streams the same way when the
// pipeline has only unit passes: each `!tlp.unit` document is parsed on a
// worker as it arrives, so `tlp-opt ... | tlp-emit` runs both ends at once.
// Output is the same either way.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_TOOLS_TOOLDRIVER_H
#define TLP_TOOLS_TOOLDRIVER_H

#include "tlp/IR/Module.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

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
  ReadOptions::Md5Check Md5 = ReadOptions::Md5Check::Used;
  /// Allow streaming (false: everything is in memory before the output
  /// sees any of it, e.g. so that --strict can refuse to write).
  bool Stream = true;
};

/// Where processed units go.
class UnitSink {
public:
  virtual ~UnitSink();
  /// Once, after the module passes; M has its logs, stats and any
  /// ungrouped artifacts (loaded).
  virtual llvm::Error begin(const Module &M) = 0;
  /// Work on one unit that can run on a worker thread, for several units
  /// at once and ahead of unit() (printing it, say); it may only read \p M
  /// and \p U. The result is handed to unit().
  virtual std::string prepare(const Module &M, const CompileUnit &U) {
    return {};
  }
  /// Every unit, in order, with what prepare() made of it.
  virtual llvm::Error unit(const Module &M, const CompileUnit &U,
                           std::string Prepared) = 0;
  /// Once; M.Diagnostics holds every diagnostic of the run.
  virtual llvm::Error end(const Module &M) = 0;
};

/// TLP_VERIFY_EACH=1 in the environment acts as --verify-each (the lit
/// suite sets it, so every test verifies after reading and every pass).
bool verifyEachFromEnvironment();

class ToolDriver {
public:
  explicit ToolDriver(llvm::StringRef ToolName);

  /// Load the input (logs lazily when streaming is allowed). Returns null
  /// on failure, after printing why.
  std::unique_ptr<Module> load(const DriverOptions &Opts, bool &IsIR);
  /// Run the pipeline on \p M and give the result to \p Sink. False on
  /// failure, after printing why. \p Gate, if set, is asked before the sink
  /// sees anything when not streaming (for --strict).
  bool process(Module &M, const DriverOptions &Opts, UnitSink &Sink,
               llvm::function_ref<bool()> Gate = nullptr);
  /// Print remaining diagnostics and return the exit code: 1 if there were
  /// errors, or warnings under --strict; 0 otherwise.
  int finish(bool Strict);
  /// True if the run so far fails --strict (or has errors).
  bool failsStrict(bool Strict) const;
  /// Report a fatal error and return 1.
  int fail(const llvm::Twine &Message);
  void flush();

  DiagnosticEngine Diags;
  TraceSources Sources;

private:
  std::string ToolName;
  bool Color;
  bool StrictReported = false;
  /// IR input whose units are still to be read (streaming).
  std::unique_ptr<IRDocumentReader> IRStream;
  /// Where the diagnostics that came with IR input sit in Diags.
  size_t InputDiagsBegin = 0, InputDiagsEnd = 0;

  /// Take over the diagnostics that came with IR input (already printed by
  /// the tool that wrote it).
  void adoptInputDiagnostics(std::vector<Diagnostic> Ds);
  /// Read the rest of IRStream into \p M. False on failure.
  bool readRestOfIR(Module &M);
  bool verifyIRInput(const Module &M);
  void attachDiagnostics(Module &M);
};

} // namespace tlp

#endif // TLP_TOOLS_TOOLDRIVER_H
