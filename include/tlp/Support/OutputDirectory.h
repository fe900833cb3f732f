//===- OutputDirectory.h - A directory output, swapped in whole -*- C++ -*-===//
//
// Part of tlp. A directory of pages (HTML, a dump), written into a fresh
// temporary sibling and swapped into place whole; see OutputFile.h for
// what atomic means here, and docs/outputs.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_OUTPUTDIRECTORY_H
#define TLP_SUPPORT_OUTPUTDIRECTORY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {

/// A directory output (HTML pages, a dump), written whole or not at all.
///
/// Files are written into a fresh temporary sibling directory that nothing
/// else knows of (so no link planted in the old output can redirect a
/// write); commit() syncs it, swaps it with the old directory in one
/// rename (renameat2 RENAME_EXCHANGE; two renames where the file system
/// lacks it, the old one renamed back on a signal between them) and
/// removes the old one without following links in it, giving up with a
/// warning on what cannot be removed. An existing
/// directory is replaced only if it is empty or holds an earlier output of
/// the same kind (\p IndexFile whose first bytes contain \p Signature):
/// tlp never deletes files it did not write. Parent directories made for
/// the output are removed again if the run fails.
class OutputDirectory {
public:
  static llvm::Expected<std::unique_ptr<OutputDirectory>>
  create(llvm::StringRef Path, llvm::StringRef IndexFile,
         llvm::StringRef Signature);
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory &) = delete;
  OutputDirectory &operator=(const OutputDirectory &) = delete;

  /// Write \p Text to \p Rel ('/'-separated, inside the directory; its
  /// parent directories are made). The file must not exist yet.
  llvm::Error write(llvm::StringRef Rel, llvm::StringRef Text);
  /// The same for a file \p Fill writes as it goes: a large page (the
  /// index of a 2 GB log is 100 MB) never held whole in memory.
  llvm::Error write(llvm::StringRef Rel,
                    llvm::function_ref<void(llvm::raw_ostream &)> Fill);
  /// A symbolic link \p Rel -> \p Target (relative, inside the output).
  llvm::Error link(llvm::StringRef Rel, llvm::StringRef Target);
  /// Swap the new directory into place.
  llvm::Error commit();
  llvm::StringRef path() const { return Path; }

private:
  OutputDirectory() = default;
  llvm::Error makeParents(llvm::StringRef Rel);
  std::string Path;
  std::string Temp;
  /// Parents of Path made for this output, deepest first.
  std::vector<std::string> MadeParents;
  bool Committed = false;
};

} // namespace tlp

#endif // TLP_SUPPORT_OUTPUTDIRECTORY_H
