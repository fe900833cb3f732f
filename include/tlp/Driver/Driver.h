//===- Driver.h - Load, run the pipeline, emit ------------------*- C++ -*-===//
//
// Part of tlp. What a tool does after parsing its options: load an input
// (IR or logs), run a pass pipeline with verification, hand the units to an
// emitter in order, print diagnostics and choose the exit code. tlp-opt and
// tlp-emit are option parsing plus Driver::run().
//
// When the pipeline is module passes that need no payloads followed by unit
// passes (the usual `group-compile-ids` then per-unit passes), the driver
// streams: logs are read without their payloads, grouped, and then each
// unit is loaded, transformed, verified, prepared by the emitter
// (Emitter::prepareUnit) and freed, several units in flight on worker
// threads but delivered to the emitter in order. Memory then holds a few
// units, not the whole log. IR input streams the same way when the
// pipeline has only unit passes: each `!tlp.unit` document is parsed on a
// worker as it arrives, so `tlp-opt ... | tlp-emit` runs both ends at once.
// Output is the same either way.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_DRIVER_DRIVER_H
#define TLP_DRIVER_DRIVER_H

#include "tlp/Emit/Emitter.h"
#include "tlp/IR/IRDocumentReader.h"
#include "tlp/IR/Module.h"
#include "tlp/Parse/TraceReader.h"
#include "tlp/Passes/Pass.h"
#include "tlp/Support/Diagnostics.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {

class UnitSource;

struct DriverOptions {
  std::string Input = "-";
  /// Passes to run. None: \c DefaultPassesForLogs on a log, none on IR.
  llvm::Optional<std::vector<std::string>> Passes;
  /// Passes as one comma-separated text (tlp-emit --passes), parsed after
  /// the input is loaded; used when Passes is None and this is set.
  llvm::Optional<std::string> PassesText;
  /// What runs on a log when no passes are given.
  std::vector<std::string> DefaultPassesForLogs;
  bool VerifyEach = false;
  bool Verify = true;
  unsigned Threads = 0;
  /// ReadOptions::ChunkBytes (0: its default).
  uint64_t ChunkBytes = 0;
  ReadOptions::Md5Check Md5 = ReadOptions::Md5Check::Used;
  /// Allow streaming (false: everything is in memory before the emitter
  /// sees any of it).
  bool Stream = true;
  /// Warnings fail the run; the output of a run that fails is dropped
  /// (stdout is held until the end).
  bool Strict = false;
  /// The output path, refused if it would overwrite (or, for a directory,
  /// hold) the input or a log read from it. Empty: not checked.
  std::string Output;
};

/// Refuse an output that would overwrite the input (or, for a directory
/// output, hold it): the input file, or any log read from a directory.
llvm::Error checkOutputAgainstInputs(const Module &M, llvm::StringRef Input,
                                     llvm::StringRef Output);

class Driver {
public:
  /// \p ToolName prefixes the diagnostics printed to stderr.
  explicit Driver(llvm::StringRef ToolName);

  /// Makes the emitter once the input is loaded.
  using EmitterFactory =
      llvm::function_ref<std::unique_ptr<Emitter>(DiagnosticEngine &)>;

  /// Everything: load Opts.Input, run the pipeline, emit with the emitter
  /// \p Make returns, print diagnostics. Returns the exit code: 1 on a
  /// failure, on errors, or on warnings under Opts.Strict; 0 otherwise.
  int run(const DriverOptions &Opts, EmitterFactory Make);

  /// The steps of run(), for tools and tests that need them apart.
  /// Load the input (logs lazily when streaming is allowed). Returns null
  /// on failure, after printing why.
  std::unique_ptr<Module> load(const DriverOptions &Opts, bool &IsIR);
  /// Run the pipeline \p Passes on \p M and give the result to \p E. False
  /// on failure, after printing why (and telling \p E with abort()). With
  /// \p Strict, a run with warnings gives \p E nothing.
  bool process(Module &M, const DriverOptions &Opts,
               llvm::ArrayRef<std::string> Passes, Emitter &E);
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
  /// The input is tlp IR (streaming or read whole), not a log.
  bool InputIsIR = false;
  /// Where the diagnostics that came with IR input sit in Diags.
  size_t InputDiagsBegin = 0, InputDiagsEnd = 0;

  bool processUnchecked(Module &M, const DriverOptions &Opts,
                        llvm::ArrayRef<std::string> Passes, Emitter &E);
  /// The engine: every unit of \p Src through the ordered window (read,
  /// \p UnitPasses, prepare on workers; report and emit in order).
  bool runUnits(Module &M, UnitSource &Src, const UnitPipeline &UnitPasses,
                const DriverOptions &Opts, Emitter &E);
  /// runUnits() once the output is open.
  bool emitUnits(Module &M, UnitSource &Src, const UnitPipeline &UnitPasses,
                 const DriverOptions &Opts, Emitter &E, EmitTarget &Target);
  /// Take over the diagnostics that came with IR input (already printed by
  /// the tool that wrote it).
  void adoptInputDiagnostics(std::vector<Diagnostic> Ds);
  /// Read the rest of IRStream into \p M. False on failure.
  bool readRestOfIR(Module &M);
  void attachDiagnostics(Module &M);
};

} // namespace tlp

#endif // TLP_DRIVER_DRIVER_H
