//===- InputFile.h - Reading input files and streams ------------*- C++ -*-===//
//
// Part of tlp. The one place where tools open their input: a file
// (mapped, and watched while it lives: a file that shrinks under the
// mapping is an error, not a crash), stdin or a pipe (read within bounds).
//
//===----------------------------------------------------------------------===//

#ifndef TLP_SUPPORT_INPUTFILE_H
#define TLP_SUPPORT_INPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

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

} // namespace tlp

#endif // TLP_SUPPORT_INPUTFILE_H
