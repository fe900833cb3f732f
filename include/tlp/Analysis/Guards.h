//===- Guards.h - A compile's guards, and the one that failed ---*- C++ -*-===//
//
// Part of tlp. Dynamo guards each compile with a tree of checks
// (dynamo_cpp_guards_str: `+- TENSOR_MATCH: check_tensor(L['x'], ...)`
// under `GuardManager: source=L['x']` lines). When a guard fails the frame
// recompiles, and the new compile's recompile_reasons say which compile's
// guard failed and how ("0/0: tensor 'x' size mismatch at index 0.
// expected 4, actual 6"). This finds, for each reason, the compile whose
// guard failed and the guard line that failed there (a task the PyTorch
// docs leave to users: "compare guards files"), saying how each match was
// made; and the difference between the guards of that compile and of the
// new one. What cannot be matched is left unmatched, never guessed. See
// docs/IR.md, "Guards".
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_GUARDS_H
#define TLP_ANALYSIS_GUARDS_H

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tlp {

class CompileRecord;
class Module;

/// One check of a guard tree: `| | +- KIND: EXPR  # COMMENT`.
struct GuardCheck {
  /// 1-based line in the guards text.
  unsigned Line = 0;
  /// Nesting depth (the number of `| ` before `+- `).
  unsigned Depth = 0;
  /// TENSOR_MATCH, ID_MATCH, GLOBAL_STATE, GuardManager, ...
  llvm::StringRef Kind;
  /// What it checks, without the trailing comment.
  llvm::StringRef Expr;
  /// The `# ...` comment Dynamo adds (the user line that made the guard).
  llvm::StringRef Comment;
  /// The source the check guards: a GuardManager's `source=`, else the
  /// GuardManager above the check.
  llvm::StringRef Source;
};

/// The checks of a guards text (dynamo_cpp_guards_str), in order. Lines
/// that are not checks (the header, "Guard latency = ...") are skipped.
std::vector<GuardCheck> parseGuardChecks(llvm::StringRef Text);

/// A recompile reason and the guard that failed.
struct FailedGuard {
  /// The reason as logged ("0/0: tensor 'x' size mismatch ...").
  std::string Reason;
  /// The compile id the reason names ("0/0"), or empty.
  std::string Named;
  /// The compile whose guard failed: the one the reason's prefix names
  /// (the latest earlier record of that id in the frame with guards); null
  /// when the log has no such record with guards.
  const CompileRecord *Guarded = nullptr;
  /// The failed check in Guarded->Guards (Line 0: not found).
  GuardCheck Check;
  /// How the check was found: "the reason's text" (the check's expression
  /// is in the reason), "tensor source" (a tensor's name in the reason
  /// and the TENSOR_MATCH of that source), "guard kind" (the reason names
  /// a kind of which the guards have one check); empty when not found.
  std::string How;
};

/// The record whose guards are \p R's: \p R, or when \p R has none (an
/// attempt Dynamo restarted: the reasons are logged with the first
/// attempt, the guards with the last) the latest later attempt of the same
/// compile with guards; null when none has guards. \p R must be one of
/// M.Compiles.
const CompileRecord *guardsOf(const Module &M, const CompileRecord &R);

/// For each of \p R's recompile reasons, the compile and check that
/// failed, in the order of the reasons.
std::vector<FailedGuard> failedGuards(const Module &M, const CompileRecord &R);

/// The distinct guard texts of the records \p Order of \p M (indices into
/// Module::Compiles), in order of first use, each with its records; texts
/// that differ only in their "Guard latency" line are one. A report shows
/// each text once: a long log repeats the same guards over and over.
struct GuardGroup {
  const std::string *Text = nullptr;
  std::vector<size_t> Records;
  /// How many checks (parseGuardChecks, managers left out).
  size_t Checks = 0;
  /// PyTorch's own count (the metrics' `guard_count`, which counts guards,
  /// not the text's lines) when every record of the group gives the same
  /// one; else none.
  llvm::Optional<uint64_t> GuardCount;
};
/// ": N checks" for \p G, and " (PyTorch's guard_count: C)" after it when
/// that count is known and differs, with \p Code around the name (a
/// Markdown backtick, an HTML tag pair).
std::string guardChecksText(const GuardGroup &G, llvm::StringRef CodeOpen,
                            llvm::StringRef CodeClose);
std::vector<GuardGroup> groupGuards(const Module &M,
                                    const std::vector<size_t> &Order);
/// The checks of \p Checks that check something (not the GuardManager
/// lines that reach the values).
bool isGuardCheck(const GuardCheck &C);

/// What a report says of a recompile's guards: the failed guard of each
/// reason, and its guards (guardsOf) against those of the compile whose
/// guard failed first (the first reason with a guarded compile).
struct RecompileGuards {
  std::vector<FailedGuard> Failed;
  /// The compile compared with, and this compile's record with guards;
  /// both null when there is nothing to compare.
  const CompileRecord *Against = nullptr;
  const CompileRecord *Own = nullptr;
  /// guardsDiff(Against, Own): empty when the guards are the same.
  std::string Diff;
};
RecompileGuards recompileGuards(const Module &M, const CompileRecord &R);

/// The guards of \p Before against those of \p After as a unified diff
/// ("--- 0/0", "+++ 0/1", "@@ -7,3 +7,3 @@" hunks with two lines of
/// context); the "Guard latency" line, which differs on every run, is left
/// out. Empty when the guards are the same. Past \p MaxLines lines of
/// output the diff is cut with a last line saying how many were left out.
std::string guardsDiff(llvm::StringRef BeforeName, llvm::StringRef Before,
                       llvm::StringRef AfterName, llvm::StringRef After,
                       unsigned MaxLines = 400);

} // namespace tlp

#endif // TLP_ANALYSIS_GUARDS_H
