//===- FileUtilities.h - Opening input and output files ---------*- C++ -*-===//
//
// Part of tlp. The one place where tools open files, so every tool reports
// the same messages for the same failures.
//
// The three kinds of file are in headers of their own, included here:
// InputFile.h (a file, stdin or a pipe, read within bounds), OutputFile.h
// (one output file, written whole or not at all) and OutputDirectory.h (a
// directory of pages, swapped in whole). Outputs are atomic; the details,
// and what holds where, are in docs/outputs.md.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_FILEUTILITIES_H
#define TLP_SUPPORT_FILEUTILITIES_H

#include "tlp/Support/InputFile.h"
#include "tlp/Support/OutputDirectory.h"
#include "tlp/Support/OutputFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Optional.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tlp {

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
