//===- DiffReport.h - tlp-emit --diff: two sets of units compared -*- C++ -*-===//
//
// Part of tlp. The semantic diff of docs/diff.md: the units of two inputs
// (two logs, two ranks, two compile ids) reduced to digests
// (tlp/Analysis/UnitDigest.h), selected, paired and compared, then written as
// Markdown or JSON. The digests are collected by an emitter, so each
// input is read the way every tlp-emit format reads it (streaming).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_EMIT_DIFFREPORT_H
#define TLP_EMIT_DIFFREPORT_H

#include "tlp/Analysis/UnitDigest.h"
#include "tlp/Emit/Emitter.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {

/// One side of a diff: what was read, and its units.
struct DiffSide {
  std::string Input; ///< the path given
  std::vector<UnitDigest> Units;
};

/// An emitter that keeps the digest (with code) of every unit in \p Out.
std::unique_ptr<Emitter> createDigestCollector(const EmitOptions &Opts,
                                               DiagnosticEngine &Diags,
                                               std::vector<UnitDigest> &Out);

/// Keep the units of \p Units that \p Unit (a unit id, display name or
/// index; empty: any) and \p Rank (None: any) select. An error names what
/// matched nothing, with the closest unit ids and names, or the units
/// there are: `unknown unit '1-0-inferense' in a.log; did you mean
/// '1-0-inference'?`.
llvm::Error selectUnits(std::vector<UnitDigest> &Units, llvm::StringRef Unit,
                        llvm::Optional<int64_t> Rank, llvm::StringRef Input);

/// Write the diff of \p A and \p B (their pairs \p Pairs, diffUnits()) as
/// Markdown, or as JSON (schema `tlp-diff/1`, docs/diff.md).
void writeDiff(llvm::raw_ostream &OS, const DiffSide &A, const DiffSide &B,
               llvm::ArrayRef<UnitPair> Pairs, bool JSON, bool Pretty);

} // namespace tlp

#endif // TLP_EMIT_DIFFREPORT_H
