//===- NameMatch.h - What a name given to a query stands for ----*- C++ -*-===//
//
// Part of tlp. People ask about an op by the name they know: a node's name
// (`sigmoid`, `x_2`), its op as the post-grad graph writes it
// (`aten.sigmoid`, `torch.ops.aten.sigmoid.default`) or as the model does
// (`torch.sigmoid`, `sigmoid`), a kernel's name, or a piece of their own
// source line (`self.fc1(x)`). One implementation for `tlp-emit --node`,
// the Markdown answer and the HTML page's filter data: matchName() finds
// what a name stands for in a unit, by the first class of match that has
// any, and closeNames() the names to suggest when nothing matched.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_NAMEMATCH_H
#define TLP_ANALYSIS_NAMEMATCH_H

#include "tlp/IR/InductorNames.h"
#include "tlp/IR/Module.h"
#include "tlp/IR/Provenance.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>
#include <vector>

namespace tlp {

/// How a name matched, best first: matchName() stops at the first class
/// with a match.
enum class NameMatchKind {
  PreNode,   ///< a pre-grad node's name (or scope-qualified name)
  PostNode,  ///< a post-grad node's name
  Kernel,    ///< a kernel's name or key
  Op,        ///< the op of nodes: a form of their target (targetAliases)
  SourceText ///< text of the user source line of nodes
};
llvm::StringRef nameMatchKindName(NameMatchKind K);

/// What a name stands for in one unit.
struct NameMatch {
  NameMatchKind Kind = NameMatchKind::PreNode;
  /// The pre-grad nodes the name names, and those of the post-grad nodes,
  /// kernels and source lines it names (the nodes they came from), in
  /// graph order.
  std::vector<uint32_t> Pre;
  /// The post-grad nodes it names directly (PostNode, Op, SourceText).
  std::vector<uint32_t> Post;
  /// The kernel rows it names directly (Kernel).
  std::vector<uint32_t> Kernels;
  /// The source rows (CompileUnit::Sources) whose text holds it.
  std::vector<uint32_t> Sources;
};

/// What \p Name stands for in \p U, or None.
llvm::Optional<NameMatch> matchName(const CompileUnit &U,
                                    const UnitProvenance &P,
                                    llvm::StringRef Name);

/// Add the names \p U answers to (node names, kernel names and keys, op
/// aliases) to \p Known, for closeNames().
void collectNames(const CompileUnit &U, std::set<std::string> &Known);

/// The names of \p Known closest to \p Name by edit distance (at most 2,
/// or a third of the name's length for longer names), closest first, at
/// most \p Max.
std::vector<std::string> closeNames(llvm::StringRef Name,
                                    const std::set<std::string> &Known,
                                    size_t Max = 5);

} // namespace tlp

#endif // TLP_ANALYSIS_NAMEMATCH_H
