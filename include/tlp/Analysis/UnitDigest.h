//===- UnitDigest.h - What a unit computes, without its noise ---*- C++ -*-===//
//
// Part of tlp. A unit's digest is what two compiles of the same program
// should share: its post-grad nodes (op and arguments), its kernels (name,
// code, the post-grad nodes each fuses, the source lines it comes from)
// and its collectives, with the noise that differs between ranks and runs
// normalised away (device indices, file paths, pointer addresses, the
// counters in buffer and kernel names). Digests are small and outlive the
// unit, so an emitter that streams keeps one a unit.
//
// Two users: compareRanks() (for each compile id, do the ranks agree on
// graphs, kernels and collectives?) and diffDigests() (tlp-emit --diff).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_UNITDIGEST_H
#define TLP_ANALYSIS_UNITDIGEST_H

#include "tlp/IR/Module.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tlp {

/// \p Text with the noise replaced: `cuda:3` -> `cuda:#` (also xpu, hpu,
/// mps, mtia), a device index `index=1` -> `index=#`, `0x7f3a...` (4+ hex digits) -> `0x#`, an absolute path (a
/// token of two or more '/'-separated parts) -> `<path>`, `buf12` ->
/// `buf#`, a trailing counter of a generated kernel name
/// (`triton_poi_fused_add_3`, `cpp_fused_mul_0`) dropped, and \p OwnName
/// (a kernel's own name) -> `KERNEL`. Linear, no regex.
std::string normalizeNoise(llvm::StringRef Text, llvm::StringRef OwnName = "");

/// A kernel name without its counter: `triton_poi_fused_add_3` ->
/// `triton_poi_fused_add`; other names as they are.
std::string normalizeKernelName(llvm::StringRef Name);

struct DigestNode {
  std::string Name;
  /// The node's op and target: `call_function torch.ops.aten.mm.default`.
  std::string Op;
  /// Its arguments and type, normalised: `(arg0_1, arg1_1) : f32[4, 8]...`.
  std::string Args;
};

struct DigestKernel {
  std::string Key;      ///< as in the kernel table: `name:handle`
  std::string Name;     ///< as written
  std::string NormName; ///< normalizeKernelName(Name)
  KernelKind Kind = KernelKind::Unknown;
  /// The definition's text, normalised (empty for extern calls and
  /// collectives, which have none); CodeHash is its xxHash64 (0: none).
  std::string Code;
  uint64_t CodeHash = 0;
  /// The fusion group: the post-grad nodes the kernel computes, by name.
  std::vector<std::string> PostNodes;
  /// The user source lines of the kernel, `file:line`.
  std::vector<std::string> Sources;
};

struct UnitDigest {
  UnitKey Key;
  std::string Id;   ///< the unit's slug
  std::string Name; ///< its display name
  std::string Log;  ///< its log file
  /// The computing post-grad nodes, in graph order.
  std::vector<DigestNode> Post;
  /// The kernel table, in table order.
  std::vector<DigestKernel> Kernels;
  /// The collectives (isCollectiveOp), in order: post-grad collective
  /// targets, then collective kernel calls.
  std::vector<std::string> Collectives;
};

/// The digest of \p U (of module \p M, for its log's name). With
/// \p KeepCode false, kernels keep only their code hash (for digests kept
/// for every unit of a large log).
UnitDigest digestUnit(const Module &M, const CompileUnit &U,
                      bool KeepCode = true);

//===----------------------------------------------------------------------===//
// Ranks compared
//===----------------------------------------------------------------------===//

/// One unit of a compile id on one rank, against the row's reference unit
/// (the unit of the lowest rank).
struct RankCell {
  int64_t Rank = 0;
  std::string UnitId; ///< empty: the rank has no unit for this compile
  bool SameGraph = true, SameKernels = true, SameCollectives = true;
  /// The first thing that differs: `graph: post-grad node 3 is
  /// call_function torch.ops.aten.mul.Tensor, not ...`; empty when the
  /// unit agrees; `missing` (or `missing: why`) when absent.
  std::string Difference;
  bool agrees() const { return !UnitId.empty() && Difference.empty(); }
};

/// One compile (compile id, graph kind, ordinal) across the ranks.
struct RankRow {
  std::string CompileId; ///< `0/0`, or `aot`
  std::string Graph;     ///< graph kind name, with `#N` for a later ordinal
  std::string ReferenceId;
  int64_t ReferenceRank = 0;
  /// One cell per unit, by rank (a rank with two logs has two), then a
  /// `missing` cell for each rank of the input without the compile.
  std::vector<RankCell> Cells;
  bool agrees() const;
  /// The cells other than the reference grouped by outcome, for many
  /// ranks: the ranks that agree (Difference empty; the group is there,
  /// maybe empty, first), then one group per distinct difference, in the
  /// order of its first rank; ranks ascending.
  std::vector<std::pair<std::string, std::vector<int64_t>>> outcomes() const;
};

struct RankComparison {
  /// The ranks of the input, ascending; fewer than 2: nothing to compare
  /// (Rows is empty).
  std::vector<int64_t> Ranks;
  std::vector<RankRow> Rows;
  /// The first row (in compile id order) with a cell that does not agree,
  /// and that cell.
  llvm::Optional<size_t> FirstRow, FirstCell;
  size_t divergentRows() const;
};

/// Compare the units that have a rank, grouped by compile id, graph kind
/// and ordinal. Units without a rank are left out. With \p M (the module
/// of the digests), every rank of its logs has a column (a rank whose log
/// holds no unit is `missing` in every row), and a missing cell says why
/// when the rank has a compile record for the id: `missing: compile
/// failed: BackendCompilerFailed` (CompileRecord::noOutputReason()).
RankComparison compareRanks(llvm::ArrayRef<UnitDigest> Digests,
                            const Module *M = nullptr);

/// Ascending ranks in short: `0-3, 5, 7, 8`.
std::string rankRanges(llvm::ArrayRef<int64_t> Ranks);

/// Past this many ranks the emitters show a compile's ranks by outcome
/// (agree, differ, missing) rather than a column per rank.
constexpr size_t MaxRankColumns = 8;

/// The ranks of \p M's logs, ascending, unique: the envelopes' rank when
/// it differs from the file name's (LogFile::EventRank), as units take it.
std::vector<int64_t> logRanks(const Module &M);

/// An alignment of two sequences for a side-by-side view: pairs of
/// indexes into \p A and \p B, in order; None on one side is a row only
/// the other has. Equal rows are paired by a longest common subsequence
/// (after the common prefix and suffix; beyond 4M cells, by position).
std::vector<std::pair<llvm::Optional<size_t>, llvm::Optional<size_t>>>
alignSequences(llvm::ArrayRef<std::string> A, llvm::ArrayRef<std::string> B);

//===----------------------------------------------------------------------===//
// Semantic diff
//===----------------------------------------------------------------------===//

/// One difference between two units, for people: `kind` is one of `node`,
/// `kernel`, `fusion`, `source`, `collective`; `Change` is `added`,
/// `removed` or `changed`.
struct DigestChange {
  std::string Kind;
  std::string Change;
  std::string What;   ///< node name, kernel name (normalised), file:line
  std::string Detail; ///< what differs, `A -> B`
};

/// The differences from \p A to \p B, in this order: nodes matched by
/// name (changed when the op or the normalised arguments differ), kernels
/// matched by normalised name in order (changed when the normalised code
/// differs; a name whose rows are keyed by debug handle on one side, a row
/// per call, and not on the other, one row for all its calls, is compared
/// as one row a side with its post-grad nodes together), fusion (a node of both whose kernels, by normalised name,
/// differ), source lines whose kernels changed, and the collectives.
/// Empty: the units agree.
std::vector<DigestChange> diffDigests(const UnitDigest &A,
                                      const UnitDigest &B);

/// Two units paired by diffUnits(), or a unit only one side has.
struct UnitPair {
  const UnitDigest *A = nullptr; ///< null: only in B
  const UnitDigest *B = nullptr; ///< null: only in A
  std::vector<DigestChange> Changes;
  bool equal() const { return A && B && Changes.empty(); }
};

/// Pair the units of two sides: one unit on each side is one pair;
/// otherwise units pair by compile id, graph kind and ordinal (ranks
/// ignored: two ranks of one job pair), the Nth of a key in A with the
/// Nth in B, in A's order, then B's unpaired units. Each pair holds
/// diffDigests().
std::vector<UnitPair> diffUnits(llvm::ArrayRef<UnitDigest> A,
                                llvm::ArrayRef<UnitDigest> B);

} // namespace tlp

#endif // TLP_ANALYSIS_UNITDIGEST_H
