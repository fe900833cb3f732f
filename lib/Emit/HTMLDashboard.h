//===- HTMLDashboard.h - The compile health part of the HTML index -*- C++ -*-===//
//
// Part of tlp (private to lib/Emit). The top of the HTML index (docs/html.md,
// "The dashboard"): the compiles table (failures first), the stack trie of
// the frames that compiled, the timeline of the chromium_event spans drawn
// as inline SVG, and the cache-miss explanations. Static HTML: it needs no
// script, so it works in the directory's index and the one page's overview.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_EMIT_HTMLDASHBOARD_H
#define TLP_LIB_EMIT_HTMLDASHBOARD_H

#include "tlp/Analysis/Profile.h"
#include "tlp/Analysis/RankRuntime.h"
#include "tlp/IR/Module.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tlp {
namespace emit {

/// The units of each compile record (index into Module::Compiles): their
/// display name and the link to their page.
using RecordUnits =
    std::map<size_t, std::vector<std::pair<std::string, std::string>>>;

/// The compile id's anchor in the index: "compile-0-1", "compile-r1-0-0_1".
std::string compileAnchor(const CompileRecord &R);

/// Write the dashboard sections (h2 and what follows) of \p M.
/// "Ranks at run time" (tlp/Analysis/RankRuntime.h): the divergences, what
/// each rank scheduled and estimated, the graph execution orders.
void writeRankRuntime(llvm::raw_ostream &OS, const Module &M,
                      const CodeCollectives *Code);

/// "Where the time goes" (tlp-emit --profile; tlp/Analysis/Profile.h):
/// time per compile, the top kernels and user lines (heat-coloured), the
/// events that matched no kernel.
void writeProfile(llvm::raw_ostream &OS, const ProfileTrace &T,
                  const ProfileReport &R, llvm::ArrayRef<ProfileUnit> Units);

/// \p DirMode: links to a compile's artifacts go to its page (else to
/// its section of the one page). The parts of each compile (its row, its
/// metrics, its cache misses) are rendered on up to \p Threads workers
/// (0: one per core) and written in order.
void writeDashboard(llvm::raw_ostream &OS, const Module &M,
                    const RecordUnits &Units, bool DirMode, unsigned Threads);

} // namespace emit
} // namespace tlp

#endif // TLP_LIB_EMIT_HTMLDASHBOARD_H
