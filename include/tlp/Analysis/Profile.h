//===- Profile.h - Measured time joined onto the units ----------*- C++ -*-===//
//
// Part of tlp. Runtime attribution (docs/profile.md): the events of a
// torch.profiler trace (ProfileTrace) joined onto the units' kernel rows,
// and through the provenance edges onto post-grad nodes, pre-grad nodes
// and user source lines; per compile; and every event that matched no
// kernel, counted and listed. What the join needs of a unit is kept as
// units go by (ProfileUnit), so the join runs after the last unit without
// the units in memory.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_PROFILE_H
#define TLP_ANALYSIS_PROFILE_H

#include "tlp/IR/Module.h"
#include "tlp/IR/ProfileTrace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tlp {

/// What the join reads of one unit.
struct ProfileUnit {
  std::string Id;        ///< the unit's id in the output
  std::string Name;      ///< its display name
  std::string CompileId; ///< "0/0"; empty for AOT and export
  GraphKind Graph = GraphKind::Unknown;
  /// Its compile's record (index into Module::Compiles), if any, and the
  /// keys of that compile's FX graph cache lookups for the unit's
  /// subgraph, in log order ("" for a lookup without a key). The join
  /// gives the i-th key to the i-th unit of the record and subgraph
  /// (docs/profile.md, "The unit of a graph call").
  llvm::Optional<size_t> Record;
  std::string Subgraph;
  std::vector<std::string> CompileKeys;
  struct Row {
    std::string Key;  ///< Kernel::key()
    std::string Name; ///< Kernel::Name
    KernelKind Kind = KernelKind::Unknown;
    std::vector<uint32_t> CallLines;
    /// Linked post-grad and pre-grad node names, and user lines
    /// ("file:line"), each once, in the unit's order.
    std::vector<std::string> Post, Pre, Lines;
    /// The indices of Post and Pre in the unit's graphs (the page's rows).
    std::vector<uint32_t> PostIdx, PreIdx;
  };
  std::vector<Row> Rows;
};

/// The unit \p U (id \p Id, display name \p Name) of module \p M as the
/// join reads it.
ProfileUnit profileUnit(const Module &M, const CompileUnit &U,
                        llvm::StringRef Id, llvm::StringRef Name);

/// The FX graph cache key a graph call event names ("## Call
/// CompiledFxGraph KEY ##"), or "" (not a graph call, or "None": the
/// cache was off).
llvm::StringRef graphCallKey(llvm::StringRef EventName);

/// The name a profile event of kernel row \p R has: for a C++ kernel its
/// name after the `graph_N_` prefix (cpp.enable_kernel_profile), for an
/// extern or fallback kernel the aten op (`aten::addmm` for
/// extern_kernels.addmm and torch.ops.aten.addmm.default), else the
/// kernel's name (Triton).
std::string profileNameOfKernel(const ProfileUnit::Row &R);

/// Times are integer nanoseconds; shared times (a kernel's time split
/// among its nodes or lines) are fractional.
struct ProfileReport {
  struct KernelTime {
    uint32_t Unit = 0; ///< index into the units given
    uint32_t Row = 0;
    uint64_t Count = 0;
    /// Inclusive (the kernel's events with what they called) and self.
    int64_t Total = 0, Self = 0;
    /// The compile id as the region of its calls names it ("" for calls
    /// outside any region).
    std::string Region;
    /// Total over the time of its compile's regions; None without one.
    llvm::Optional<double> Share;
  };
  /// A post-grad or pre-grad node, or a user line, with the time of its
  /// kernels shared by the rule of docs/profile.md.
  struct SharedTime {
    uint32_t Unit = 0; ///< for nodes; lines are over all units
    std::string Name;
    double Time = 0;
    uint32_t Kernels = 0; ///< how many timed kernel rows it has a share of
  };
  struct CompileTime {
    std::string CompileId; ///< "" for graph calls outside any region
    uint64_t Regions = 0, GraphCalls = 0;
    /// Inclusive time of the regions ("Torch-Compiled Region: ID"), of the
    /// graph calls ("## Call CompiledFxGraph ... ##") in them, and of the
    /// matched kernels in those calls.
    int64_t RegionTime = 0, GraphCallTime = 0, KernelTime = 0;
    /// The graph calls that name an FX graph cache key, by key in order
    /// of first call: the unit the key names (its index; None when no
    /// unit has it), how many calls and their inclusive time.
    struct KeyCalls {
      std::string Key;
      llvm::Optional<uint32_t> Unit;
      uint64_t Calls = 0;
      int64_t Time = 0;
    };
    std::vector<KeyCalls> ByKey;
  };
  /// Events that matched no kernel, by name and where they were.
  struct Unmatched {
    std::string Name;
    /// "graph call" (a call of a compiled graph that no kernel row
    /// explains), "region" (in a compiled region, outside its graph
    /// calls), "outside" (in no compiled region).
    std::string Where;
    uint64_t Count = 0;
    int64_t Self = 0;
  };

  std::vector<KernelTime> Kernels;    ///< by Total, descending
  std::vector<SharedTime> PostNodes;  ///< by Time, descending
  std::vector<SharedTime> PreNodes;   ///< by Time, descending
  std::vector<SharedTime> Lines;      ///< by Time, descending
  std::vector<CompileTime> Compiles;  ///< by compile id as the trace
                                      ///< names it first
  std::vector<Unmatched> UnmatchedEvents; ///< by Self, descending

  uint64_t Events = 0;     ///< complete events read
  uint64_t Matched = 0;    ///< events that are a kernel's call
  uint64_t Nested = 0;     ///< events inside a matched kernel's call
  uint64_t Structural = 0; ///< region and graph call events
  uint64_t UnmatchedCount = 0;
  uint64_t Untimed = 0, Damaged = 0;
  /// Graph calls whose unit could not be told (no unit of the compile, or
  /// none whose kernels the call's events name).
  uint64_t UnknownGraphCalls = 0;
  /// Graph calls whose unit their FX graph cache key told.
  uint64_t GraphCallsByKey = 0;
  /// The FX graph cache key each unit was given (index as Units; "" for
  /// none).
  std::vector<std::string> UnitKeys;
};

/// Join \p T onto \p Units (in module order). Deterministic: the same
/// trace and units give the same report.
ProfileReport attributeProfile(const ProfileTrace &T,
                               llvm::ArrayRef<ProfileUnit> Units);

/// One unit's measured time, row by row, for its page (the time column
/// of docs/html.md): the same figures and sharing rule as the report's,
/// with nodes by their index in the unit's graphs and lines of this unit
/// only.
struct UnitTimes {
  /// Kernel row -> index into ProfileReport::Kernels, in row order.
  std::vector<std::pair<uint32_t, uint32_t>> Kernels;
  struct Shared {
    uint32_t Node = 0;    ///< node index (Post, Pre)
    std::string Line;     ///< "file:line" (Lines)
    double Time = 0;
    uint32_t Kernels = 0; ///< timed kernel rows it has a share of
  };
  std::vector<Shared> Post, Pre, Lines; ///< by node index, line text
};

/// The times of each unit of \p Units (same indices) in \p R.
std::vector<UnitTimes> unitTimes(const ProfileReport &R,
                                 llvm::ArrayRef<ProfileUnit> Units);

/// Nanoseconds as microseconds with three decimals ("12.345").
std::string formatMicros(double Nanos);

} // namespace tlp

#endif // TLP_ANALYSIS_PROFILE_H
