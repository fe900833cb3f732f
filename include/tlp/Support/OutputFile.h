//===- OutputFile.h - One output file, whole or not at all ------*- C++ -*-===//
//
// Part of tlp. Outputs are atomic: a file is written to a temporary sibling
// (`.NAME.tlp-HOST-PID-XXXXXX`), synced, and renamed over NAME when it is
// complete; a directory of pages is written into a fresh temporary sibling
// directory and swapped into place whole. A reader of NAME sees the old
// output or the new one, never a mixture or a truncated file, whatever
// happens to the run (an error, SIGINT, SIGTERM, SIGKILL, a second run at
// the same time). Temporary siblings are removed on failure and on
// SIGINT/SIGTERM/SIGHUP; only SIGKILL can leave one behind (never at the
// final path), and the next successful run into NAME removes those whose
// process is gone. The details, and what holds where, are in
// docs/outputs.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_OUTPUTFILE_H
#define TLP_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace tlp {

/// An output file, written whole or not at all.
///
/// A regular file (new or existing) is written to a temporary sibling and
/// renamed into place by commit(). Something that is not a regular file
/// (/dev/null, a FIFO, a terminal) is written directly. "-" is stdout:
/// buffered in memory and written by commit(), so that a failed run prints
/// nothing rather than half a document, unless \p StreamStdout (tlp-opt's
/// IR, so that a pipe runs both ends at once; see IRSink).
class OutputFile {
public:
  static llvm::Expected<std::unique_ptr<OutputFile>>
  open(llvm::StringRef Path, bool StreamStdout = false);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  llvm::raw_ostream &os() { return *OS; }
  /// Flush, check for write errors and put the file in place. Without a
  /// commit() the destructor removes the temporary file.
  llvm::Error commit();
  bool isStdout() const { return Path == "-"; }
  llvm::StringRef path() const { return Path; }

private:
  OutputFile() = default;
  std::string Path;   ///< As given.
  std::string Final;  ///< Where it goes (a symlink's target, resolved).
  std::string Temp;   ///< The temporary sibling; empty if written directly.
  int TempFD = -1;    ///< Its descriptor (owned by FD), for fsync.
  std::string Buffer; ///< Buffered stdout.
  std::unique_ptr<llvm::raw_fd_ostream> FD;
  std::unique_ptr<llvm::raw_string_ostream> Str;
  llvm::raw_ostream *OS = nullptr;
  bool Committed = false;
};

/// Open \p Path for writing (see OutputFile).
llvm::Expected<std::unique_ptr<OutputFile>>
openOutputFile(llvm::StringRef Path, bool StreamStdout = false);

} // namespace tlp

#endif // TLP_SUPPORT_OUTPUTFILE_H
