//===- CompilePhases.h - Where a compile's time went ------------*- C++ -*-===//
//
// Part of tlp. The time of one compile split into the phases users look
// for (Dynamo, AOTAutograd, Inductor, code generation, C++/Triton compile,
// autotuning, cache lookups), for the forward compile and the backward
// compile apart and together, from the record's compilation_metrics and
// its chromium_event spans. The phases are exclusive: PyTorch's figures
// are nested (Dynamo's time holds AOTAutograd's, which holds Inductor's,
// which holds code generation's), so each phase is its figure less the
// one inside it, and the phases of a part add up to its total. A phase
// the log does not tell is unknown, never guessed. See docs/IR.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_COMPILEPHASES_H
#define TLP_ANALYSIS_COMPILEPHASES_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tlp {

class CompileRecord;

/// The phases, in the order a compile runs through them (the leaves
/// last).
enum class Phase {
  Dynamo,      ///< bytecode tracing, guards: Dynamo's own time
  AOTAutograd, ///< AOTAutograd's own time (tracing the joint graph, ...)
  Inductor,    ///< Inductor's own time before code generation (lowering,
               ///< passes, scheduling)
  CodeGen,     ///< code generation, less the compiles inside it
  Compile,     ///< C++/Triton compile (compile_file, async_compile spans)
  Autotune,    ///< autotuning at compile time (template autotuning spans)
  Cache        ///< cache lookups and loads (AOTAutogradCache, cache keys)
};
constexpr unsigned NumPhases = 7;
/// "Dynamo", "AOTAutograd", "Inductor", "code generation",
/// "C++/Triton compile", "autotuning", "cache lookups".
llvm::StringRef phaseName(Phase P);
/// The JSON key: "dynamo", "aot_autograd", "inductor", "code_gen",
/// "compile", "autotune", "cache".
llvm::StringRef phaseKey(Phase P);

/// One phase's time in one part, and how it was found.
struct PhaseTime {
  /// Seconds; None when the log does not tell.
  llvm::Optional<double> Seconds;
  /// How: "dynamo_cumulative_compile_time_us - aot_autograd_cumulative_
  /// compile_time_us - spans inside it", "spans compile_file", or why it
  /// is unknown.
  std::string Origin;
};

/// The forward compile (compilation_metrics) or the backward compile
/// (bwd_compilation_metrics).
struct CompilePart {
  /// The part's compile time (the phases add up to it, up to the
  /// microseconds the spans and metrics disagree by); None when the part
  /// was not logged.
  llvm::Optional<double> Total;
  std::string TotalOrigin;
  PhaseTime Phases[NumPhases];

  bool logged() const { return Total.hasValue(); }
  const PhaseTime &operator[](Phase P) const {
    return Phases[static_cast<unsigned>(P)];
  }
  PhaseTime &operator[](Phase P) { return Phases[static_cast<unsigned>(P)]; }
};

struct CompilePhases {
  CompilePart Forward;
  CompilePart Backward;
  /// runtime_triton_autotune_time_us of the runtime metrics, forward and
  /// backward: autotuning when the compiled code first ran, which is not
  /// compile time. None when not logged.
  llvm::Optional<double> RuntimeAutotune;
  /// The backward was compiled inside the frame's compile, so Forward
  /// holds both: no bwd_compilation_metrics, and a `bw_compiler` span
  /// (AOTAutograd's backward compiler) that begins during the frame's
  /// compile. AOTAutograd compiles the backward so when its inputs have
  /// symbolic sizes (automatic dynamic shapes, a recompile), and logs no
  /// backward metrics for it (PyTorch 2.13). Or the backward was loaded
  /// inside the frame's compile (BackwardFromCache).
  bool BackwardInForward = false;
  /// BackwardInForward because an AOTAutograd cache hit loaded the
  /// backward with the forward: no backward metrics, and an FX graph cache
  /// lookup of the backward graph (its AOT ID `N_backward`) before the
  /// AOTAutograd hit, which the frame's compile logs (a warm cache).
  bool BackwardFromCache = false;

  /// Compute from a record's metrics and spans.
  static CompilePhases compute(const CompileRecord &R);

  /// Whether any part was logged.
  bool any() const { return Forward.logged() || Backward.logged(); }
  /// Forward and backward together: the sum over the logged parts; None
  /// when a logged part does not tell, or no part was logged.
  llvm::Optional<double> together(Phase P) const;
  llvm::Optional<double> total() const;
};

/// Seconds for a table: "0.197"; "?" when unknown.
std::string phaseSecondsText(llvm::Optional<double> S);

} // namespace tlp

#endif // TLP_ANALYSIS_COMPILEPHASES_H
