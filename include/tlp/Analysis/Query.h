//===- Query.h - "Where did my op go?" --------------------------*- C++ -*-===//
//
// Part of tlp. The question tlp answers for people: what became of a
// pre-grad FX node (by name) or of a user source line (FILE:LINE), in
// every unit that has it. The engine finds the matches of a unit and what
// is linked to them; emitters (the Markdown report, `tlp-emit --md --node`
// / `--source`) render the answers. Ask each unit in turn; if none
// answered, notFound() says so with close names or the lines that exist.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_ANALYSIS_QUERY_H
#define TLP_ANALYSIS_QUERY_H

#include "tlp/Analysis/NameMatch.h"
#include "tlp/IR/Module.h"
#include "tlp/IR/Provenance.h"

#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tlp {

/// What a query found in one unit.
struct QueryAnswer {
  /// A node query: the pre-grad nodes the name stands for (NameMatch::Pre),
  /// in graph order. A source query: the matching rows of
  /// CompileUnit::Sources, ascending.
  std::vector<uint32_t> Hits;
  /// A source query: the pre-grad nodes from the line, the post-grad nodes
  /// from it or from those, and the kernel rows linked to any of them or
  /// to the line. A node query: the post-grad nodes and kernel rows the
  /// name names itself (NameMatch::Post, Kernels).
  std::set<uint32_t> Pre, Post, Kernels;
  /// A node query: how the name matched, and for source text the rows of
  /// CompileUnit::Sources that hold it.
  NameMatchKind How = NameMatchKind::PreNode;
  std::vector<uint32_t> Lines;
};

class ProvenanceQuery {
public:
  /// A name (tlp-emit --node): of a pre-grad node (plain or
  /// scope-qualified), a post-grad node, a kernel, an op (`aten.sigmoid`,
  /// `torch.sigmoid`, `sigmoid`) or text of a user source line, by the
  /// first of these classes that matches in the unit (NameMatch.h).
  static ProvenanceQuery forNode(llvm::StringRef Name);
  /// A user source line, FILE:LINE; FILE matches a path that ends in
  /// `/FILE` too. An error for text of another form.
  static llvm::Expected<ProvenanceQuery> forSource(llvm::StringRef FileLine);

  bool isNode() const { return IsNode; }
  /// The question as asked.
  llvm::StringRef text() const { return Text; }

  /// The answer in \p U, or None when nothing in it matches. Remembers
  /// the names and lines \p U has, for notFound().
  llvm::Optional<QueryAnswer> answer(const CompileUnit &U,
                                     const UnitProvenance &P);
  /// The error to give when no unit answered: close names (closeNames()),
  /// or the lines of the file that have provenance, or the files there
  /// are.
  llvm::Error notFound() const;

private:
  bool IsNode = true;
  std::string Text;
  std::string File;
  uint64_t Line = 0;
  std::set<std::string> KnownNames;
  std::map<std::string, std::set<uint32_t>> KnownLines;

  bool fileMatches(llvm::StringRef F) const;
};

} // namespace tlp

#endif // TLP_ANALYSIS_QUERY_H
