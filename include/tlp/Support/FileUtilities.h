//===- FileUtilities.h - Opening input and output files ---------*- C++ -*-===//
//
// Part of tlp. The one place where tools open files, so every tool reports
// the same messages for the same failures.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_FILEUTILITIES_H
#define TLP_SUPPORT_FILEUTILITIES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>

namespace tlp {

/// Open \p Path, or stdin for "-". The error message names the file.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
openInputFile(llvm::StringRef Path);

/// Open \p Path for writing ("-" is stdout). Call keep() on success only.
llvm::Expected<std::unique_ptr<llvm::ToolOutputFile>>
openOutputFile(llvm::StringRef Path);

/// The name to show for a path in diagnostics ("<stdin>" for "-").
std::string displayName(llvm::StringRef Path);

/// Print "<tool> (tlp) <version>" for --version.
void printToolVersion(llvm::raw_ostream &OS, llvm::StringRef Tool);

} // namespace tlp

#endif // TLP_SUPPORT_FILEUTILITIES_H
