//===- FileSupport.h - What the input and output files share ----*- C++ -*-===//
//
// Part of tlp. Private to lib/Support: the test-only fault injection
// (TLP_FAULT; docs/testing.md), the helpers of the atomic outputs, and
// the cleanup the signal handlers of InputFile.cpp and OutputDirectory.cpp
// share. Defined in FileUtilities.cpp unless said otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef TLP_LIB_SUPPORT_FILESUPPORT_H
#define TLP_LIB_SUPPORT_FILESUPPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <system_error>

namespace tlp {

/// errno as an error code.
std::error_code lastError();

/// The faults TLP_FAULT names (a comma-separated list), read once, before
/// any signal handler of these files is installed (the handlers read them).
struct FaultSet {
  bool NoExchange = false;    ///< no-exchange: as if renameat2 failed
  bool TruncateInput = false; ///< truncate-input: cut an input once mapped
  bool Crash = false;         ///< crash: crash once the tool is set up
  char Undeletable[256] = {}; ///< undeletable=NAME: entries NAME resist
  char PauseAt[64] = {};      ///< pause=POINT: stop up to 30 s at POINT
};
/// The faults, as read so far (the signal handlers read this directly).
extern FaultSet Faults;
/// The faults, read from TLP_FAULT on the first call.
const FaultSet &faults();
/// The tool's name for messages written by signal handlers.
extern char ToolNameForMessages[64];

/// Write \p S to stderr (async-signal-safe).
void writeStderr(const char *S);
/// With TLP_FAULT=pause=POINT, say so on stderr and wait up to 30 s.
void pauseForFault(const char *Point);

/// "HOST-PID-" for the names of this process's temporary siblings.
std::string ownerTag();
llvm::Error openError(llvm::StringRef Path, std::error_code EC);
llvm::Error writeError(llvm::StringRef Path, std::error_code EC);
/// ".NAME.tlp-" next to \p Path: the prefix of its temporary siblings.
std::string tempPrefix(llvm::StringRef Path);
/// Why a new entry in the directory of \p Path could not be made.
std::string parentError(llvm::StringRef Path, std::error_code EC,
                        llvm::StringRef Kind);
/// fsync \p Path, a directory.
std::error_code syncDirectory(llvm::StringRef Path);
/// Remove the temporary siblings of \p Final that runs which are gone left
/// behind.
void removeStaleSiblings(llvm::StringRef Final);

/// Remove the tree \p Path; if something is left, warn, naming \p What it
/// is (OutputDirectory.cpp).
bool removeTree(llvm::StringRef Path, llvm::StringRef What);
/// Remove the registered temporary output directories and move an old
/// output moved aside back, from a signal handler (async-signal-safe;
/// OutputDirectory.cpp).
void dropTemporaryOutputs();

} // namespace tlp

#endif // TLP_LIB_SUPPORT_FILESUPPORT_H
