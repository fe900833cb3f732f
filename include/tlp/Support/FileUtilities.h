//===- FileUtilities.h - Opening input and output files ---------*- C++ -*-===//
//
// Part of tlp. The one place where tools open files, so every tool reports
// the same messages for the same failures.
//
// Outputs are atomic: a file is written to a temporary sibling
// (`.NAME.tlp-HOST-PID-XXXXXX`), synced, and renamed over NAME when it is
// complete; a
// directory of pages is written into a fresh temporary sibling directory
// and swapped into place whole. A reader of NAME sees the old output or the
// new one, never a mixture or a truncated file, whatever happens to the
// run (an error, SIGINT, SIGTERM, SIGKILL, a second run at the same time).
// Temporary siblings are removed on failure and on SIGINT/SIGTERM/SIGHUP;
// only SIGKILL can leave one behind (never at the final path), and the
// next successful run into NAME removes those whose process is gone. The
// details, and what holds where, are in docs/outputs.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_FILEUTILITIES_H
#define TLP_SUPPORT_FILEUTILITIES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace tlp {

/// Open \p Path, or stdin for "-". The error message names the file.
/// Something that is not a regular file (stdin, a pipe, a device) is read
/// with readStream()'s bounds, \p LooksLikeInput deciding the check on its
/// first bytes.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
openInputFile(llvm::StringRef Path,
              llvm::function_ref<bool(llvm::StringRef)> LooksLikeInput);

/// Bounds on input that is not a regular file, so that /dev/zero or an
/// endless pipe cannot take all memory: no line may be longer than
/// MaxLineBytes, and the first NoLogBytes must hold a line that starts
/// like a trace event or IR (else the input is not a log).
constexpr uint64_t MaxLineBytes = 256ull << 20;
constexpr uint64_t NoLogBytes = 64ull << 20;

/// Read \p FD (stdin, a pipe, a device) to its end, after \p Prefix
/// (bytes already read from it), within the bounds above. Up to 64 MiB is
/// kept in memory; beyond that the bytes go to an unlinked temporary file
/// that is mapped, so a large log on a pipe costs page cache, not memory.
/// \p LooksLikeInput says whether a prefix starts like an input the
/// caller reads (the caller knows the formats; Support does not).
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readStream(int FD, llvm::StringRef Name, std::string Prefix,
           llvm::function_ref<bool(llvm::StringRef)> LooksLikeInput);

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

/// An error if writing \p Output would destroy one of \p Inputs: the same
/// file through any name (a symbolic or hard link, a relative path), or,
/// for a directory output (\p IsDirectory), a directory that is or holds
/// an input.
llvm::Error checkOutputIsNotInput(llvm::StringRef Output,
                                  llvm::ArrayRef<std::string> Inputs,
                                  bool IsDirectory);

/// Set up the process of the tool \p ToolName (call first in main, after
/// InitLLVM without its pipe handler): a crash asks for a report to tlp,
/// not to LLVM; SIGPIPE is ignored, so that a closed stdout is a write
/// error like a full disk; and stdout is checked at exit, so that a write
/// error on it is "error: cannot write '<stdout>': ...", exit 1, never
/// LLVM's abort on a stream error nobody looked at.
void setUpToolProcess(llvm::StringRef ToolName);

/// The name to show for a path in diagnostics ("<stdin>" for "-").
std::string displayName(llvm::StringRef Path);

/// Print "<tool> (tlp) <version>" for --version.
void printToolVersion(llvm::raw_ostream &OS, llvm::StringRef Tool);

/// The target of the symbolic link \p Path, or None if it is not one.
llvm::Optional<std::string> readSymbolicLink(llvm::StringRef Path);

} // namespace tlp

#endif // TLP_SUPPORT_FILEUTILITIES_H
