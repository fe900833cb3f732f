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

#ifndef TLP_IR_QUERY_H
#define TLP_IR_QUERY_H

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
  /// A node query: the matching pre-grad nodes, in graph order. A source
  /// query: the matching rows of CompileUnit::Sources, ascending.
  std::vector<uint32_t> Hits;
  /// A source query only: the pre-grad nodes from the line, the post-grad
  /// nodes from it or from those, and the kernel rows linked to any of
  /// them or to the line.
  std::set<uint32_t> Pre, Post, Kernels;
};

class ProvenanceQuery {
public:
  /// A pre-grad node, by name or scope-qualified name.
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
  /// The error to give when no unit answered: close node names, or the
  /// lines of the file that have provenance, or the files there are.
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

#endif // TLP_IR_QUERY_H
