//===- Export.h - What a torch.export log says ------------------*- C++ -*-===//
//
// Part of tlp. torch.export (and draft export) writes no compile ids: its
// events are the start of an export, the exported program, the operators
// without a fake kernel or with one that disagrees, and the symbolic shape
// environment's symbols, guards, runtime asserts and data-dependent
// errors. This gathers them into one report per log, as tlparse --export
// does. See docs/IR.md, "Export".
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_EXPORT_H
#define TLP_ANALYSIS_EXPORT_H

#include "tlp/IR/Module.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tlp {

/// The export events of one record (in practice, those of one log: an
/// export has no compile id).
struct ExportReport {
  /// Index into Module::Compiles of the record that holds them.
  size_t Record = 0;
  /// The exported programs, in log order.
  std::vector<const ExportEvent *> Programs;
  /// Operators draft export found without a fake kernel, or with one that
  /// disagrees with the real kernel.
  std::vector<const ExportEvent *> FakeKernels;
  /// Data-dependent errors and decisions taken from real tensors.
  std::vector<const ShapeEvent *> DataDependent;
  /// Guards and runtime asserts added (guard_added, guard_added_fast).
  std::vector<const ShapeEvent *> Guards;
  /// Symbols made for sizes and data-dependent values.
  std::vector<const ShapeEvent *> Symbols;
  /// How many exports began (`export` events).
  size_t Starts = 0;

  /// One line: "exported", "exported, with 1 operator without a fake
  /// kernel", "no exported program: the export failed or did not finish".
  std::string verdict() const;
  /// The raw event that holds the text of program \p P (its line), or null.
  const RawEvent *programText(const Module &M, const ExportEvent &P) const;
};

/// The export reports of \p M: one per record with export events, in the
/// order of Module::Compiles.
std::vector<ExportReport> exportReports(const Module &M);

} // namespace tlp

#endif // TLP_ANALYSIS_EXPORT_H
